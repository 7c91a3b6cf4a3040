// The hedge evidence over replayed rows: the largest estimate ratio among kernels near their
// row's fastest, by the model's best estimate, holdout rows in or out.

#include "ktune/families/generated/hedge_evidence.h"

#include <gtest/gtest.h>

#include "ktune/core/config.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

ShapeReplay replayed(const char* name, double best_estimate, bool holdout, std::vector<ShapeReplay::Kernel> kernels) {
  ShapeReplay s;
  s.name = name;
  s.source = "runs.json";
  s.space_best_estimate_seconds = best_estimate;
  s.holdout = holdout;
  s.kernels = std::move(kernels);
  return s;
}

TEST(HedgeEvidence, TheFarthestKernelNearTheFastestByScaleAndHoldout) {
  const std::vector<ShapeReplay> shapes = {
      // {estimate ratio, time ratio, another class, its class's best estimate ratio}
      replayed("small", 20e-6, false, {{1.0, 1.10, false, 1.0}, {2.4, 1.0, true, 2.4}}),  // the model erred 2.4x
      // The best's own class (false) enters by the model's order, hedge or not: not counted. A
      // hedge counts by its class's best (1.1), not its own estimate (1.3).
      replayed("large", 500e-6, false,
               {{1.0, 1.0, false, 1.0}, {1.3, 1.02, true, 1.1}, {1.6, 1.4, true, 1.6}, {1.9, 1.0, false, 1.0}}),
      replayed("large holdout", 300e-6, true, {{1.0, 1.01, false, 1.0}, {1.2, 1.04, true, 1.2}}),
  };
  HedgeEvidence e = hedge_evidence(shapes, 0, 1.05, false);
  EXPECT_EQ(e.shape_runs, 3u);
  EXPECT_EQ(e.kernels, 4u);
  EXPECT_EQ(e.near_kernels, 3u);
  EXPECT_DOUBLE_EQ(e.max_estimate_ratio, 2.4);
  EXPECT_EQ(e.at_shape, "small");
  e = hedge_evidence(shapes, 100e-6, 1.05, false);
  EXPECT_EQ(e.shape_runs, 2u);
  EXPECT_DOUBLE_EQ(e.max_estimate_ratio, 1.2);  // the 1.6x kernel ran 1.4x: not near
  EXPECT_EQ(e.at_shape, "large holdout");
  e = hedge_evidence(shapes, 100e-6, 1.03, true);
  EXPECT_EQ(e.shape_runs, 1u);
  EXPECT_DOUBLE_EQ(e.max_estimate_ratio, 1.1);
  EXPECT_EQ(e.to_json().at("at_shape"), "large");
  EXPECT_EQ(hedge_evidence(shapes, 1.0, 1.05, false).shape_runs, 0u);
}

// Replayed from a suite row: every measured kernel gets its estimate over the space's best, and
// the row's holdout flag comes along.
TEST(HedgeEvidence, ReplayGivesEveryKernelItsRatios) {
  const gemm::GemmProblem problem = make_problem(4096, 4096, 4096);
  const ProblemTraits traits = problem_traits(problem);
  const DeviceTraits device = hopper_traits("NVIDIA H200");
  SpaceOptions options;
  options.max_candidates = 8;
  const std::vector<RankedKnobs> chosen = select_candidates(traits, device, options);
  auto measured = [&](const RankedKnobs& r, double seconds) {
    return nlohmann::json{{"config", config_to_json(to_config(r.knobs, traits))}, {"status", "ok"}, {"median_s", seconds}};
  };
  nlohmann::json row = {{"name", "square"}, {"holdout", true}, {"ktune", {{"problem", problem.to_json()}}}};
  row["ktune"]["generated_measured"] = {measured(chosen[0], 2.0e-4), measured(chosen[5], 1.6e-4)};
  const ReplayResult r = replay_suite(nlohmann::json{{"rows", {row}}}, "suite.json", device);
  ASSERT_EQ(r.shapes.size(), 1u);
  const ShapeReplay& s = r.shapes[0];
  EXPECT_TRUE(s.holdout);
  EXPECT_DOUBLE_EQ(s.space_best_estimate_seconds, chosen[0].estimate.seconds);
  ASSERT_EQ(s.kernels.size(), 2u);
  // In the model's order: the first is the space's best.
  EXPECT_DOUBLE_EQ(s.kernels[0].estimate_ratio, 1.0);
  EXPECT_DOUBLE_EQ(s.kernels[0].time_ratio, 1.25);
  EXPECT_DOUBLE_EQ(s.kernels[1].estimate_ratio, chosen[5].estimate.seconds / chosen[0].estimate.seconds);
  EXPECT_DOUBLE_EQ(s.kernels[1].time_ratio, 1.0);
  EXPECT_FALSE(s.kernels[0].other_class);
  EXPECT_EQ(s.kernels[1].other_class, hedge_class(chosen[5].knobs) != hedge_class(chosen[0].knobs));
  EXPECT_DOUBLE_EQ(s.kernels[0].class_estimate_ratio, 1.0);
  EXPECT_LE(s.kernels[1].class_estimate_ratio, s.kernels[1].estimate_ratio);  // its class's best is at most itself
  EXPECT_GE(s.kernels[1].class_estimate_ratio, 1.0);
  EXPECT_EQ(hedge_evidence(r.shapes, 0, 1.05, true).shape_runs, 0u);  // a holdout row
}

}  // namespace
}  // namespace ktune::generated
