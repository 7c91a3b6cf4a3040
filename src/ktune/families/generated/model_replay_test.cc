// The cost model replayed over recorded suite rows: the regret of its first choice, the
// memory-bound flag, what it would select today, and rows it must skip.

#include "ktune/families/generated/model_replay.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "ktune/core/config.h"

#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

nlohmann::json measured(const GeneratedKnobs& knobs, const ProblemTraits& traits, double seconds) {
  return {{"config", config_to_json(to_config(knobs, traits))}, {"status", "ok"}, {"median_s", seconds}};
}

// One suite row: 4096^3 bf16 with the model's first kernel and its fifth, timed as given.
nlohmann::json row(double first_seconds, double fifth_seconds) {
  const gemm::GemmProblem problem = make_problem(4096, 4096, 4096);
  const ProblemTraits traits = problem_traits(problem);
  SpaceOptions options;
  options.max_candidates = 8;
  const std::vector<RankedKnobs> chosen = select_candidates(traits, hopper_traits("NVIDIA H200"), options);
  nlohmann::json r = {{"name", "square"}, {"ktune", {{"problem", problem.to_json()}}}};
  r["ktune"]["generated_measured"] = {measured(chosen[0].knobs, traits, first_seconds),
                                      measured(chosen[4].knobs, traits, fifth_seconds),
                                      {{"config", {{"family", "generated"}}}, {"status", "crashed"}}};
  return r;
}

TEST(ModelReplay, RegretIsTheModelsFirstChoiceOverTheFastest) {
  const nlohmann::json suite = {{"device", "NVIDIA H200"}, {"rows", {row(2.0e-4, 1.6e-4), row(1.0e-4, 1.2e-4)}}};
  const ReplayResult r = replay_suite(suite, "suite.json", hopper_traits("NVIDIA H200"));
  ASSERT_EQ(r.shapes.size(), 2u);
  EXPECT_EQ(r.shapes[0].measured, 2u);  // the crashed kernel has no time
  EXPECT_DOUBLE_EQ(r.shapes[0].best_seconds, 1.6e-4);
  EXPECT_DOUBLE_EQ(r.shapes[0].first_seconds, 2.0e-4);
  EXPECT_DOUBLE_EQ(r.shapes[0].regret(), 1.25);
  EXPECT_DOUBLE_EQ(r.shapes[1].regret(), 1.0);
  EXPECT_FALSE(r.shapes[0].memory_bound);  // 4096^3 is compute-bound
  // Both kernels are among today's selection of 20: the fastest of them is what it would find.
  EXPECT_DOUBLE_EQ(r.shapes[0].selected_best_seconds, 1.6e-4);
  EXPECT_NEAR(geomean_regret(r.shapes), std::sqrt(1.25), 1e-12);
  EXPECT_EQ(geomean_regret(r.shapes, true), 0.0);  // no memory-bound shape
  EXPECT_EQ(r.shapes[0].source, "suite.json");
}

TEST(ModelReplay, SkipsRowsWithoutKernelsAndConfigsItCannotRead) {
  nlohmann::json good = row(1.0e-4, 1.1e-4);
  good["ktune"]["generated_measured"].push_back(
      {{"config", {{"family", "generated"}, {"path", "tensor_magic"}}}, {"status", "ok"}, {"median_s", 1e-5}});
  nlohmann::json no_kernels = {{"name", "cublaslt only"}, {"ktune", {{"problem", make_problem(64, 64, 64).to_json()}}}};
  nlohmann::json failed_tuning = {{"name", "error"}, {"ktune", {{"error", "exit 1"}}}};
  good["ktune"]["generated_measured"].push_back("not a record");
  const nlohmann::json suite = {{"rows", {good, no_kernels, failed_tuning, 42, {{"ktune", {{"generated_measured", 7}}}}}}};
  const ReplayResult r = replay_suite(suite, "x", hopper_traits("NVIDIA H100 80GB HBM3"));
  ASSERT_EQ(r.shapes.size(), 1u);
  EXPECT_EQ(r.skipped_configs, 2u);
  EXPECT_EQ(r.shapes[0].measured, 2u);
  EXPECT_THROW(replay_suite(nlohmann::json{{"rows", 3}}, "x", hopper_traits("NVIDIA H200")), std::invalid_argument);
}

}  // namespace
}  // namespace ktune::generated
