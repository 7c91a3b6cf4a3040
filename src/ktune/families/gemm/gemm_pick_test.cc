#include "ktune/families/gemm/gemm_pick.h"

#include <gtest/gtest.h>

namespace ktune::gemm {
namespace {

// Stats of `count` samples around `median` with interquartile range `iqr`.
measure::Stats stats(double median, double iqr, std::size_t count = 100) {
  measure::Stats s;
  s.count = count;
  s.median = s.mean = median;
  s.q1 = median - iqr / 2;
  s.q3 = median + iqr / 2;
  s.min = s.q1;
  s.max = s.q3;
  return s;
}

TEST(GemmPick, PicksTheFastestThatBeatsTheBaselineBeyondNoise) {
  const std::vector<MeasuredCandidate> c = {{"baseline", stats(1.00e-3, 1e-6)},
                                            {"a", stats(0.90e-3, 1e-6)},
                                            {"b", stats(0.95e-3, 1e-6)},
                                            {"broken", std::nullopt}};
  const GemmPick p = choose_pick(c, 0);
  ASSERT_TRUE(p.pick);
  EXPECT_EQ(*p.pick, 1u);
  EXPECT_FALSE(p.baseline_kept);
  EXPECT_NEAR(p.speedup, 1.0 / 0.9, 1e-12);
  ASSERT_TRUE(p.pick_vs_baseline);
  EXPECT_EQ(p.pick_vs_baseline->verdict, measure::Verdict::Faster);
  EXPECT_NE(p.reason.find("a is faster than the baseline beyond noise (1.111x"), std::string::npos) << p.reason;
  EXPECT_EQ(p.to_json().at("pick"), 1);
}

TEST(GemmPick, KeepsTheBaselineWhenTheDifferenceIsNoise) {
  // 0.5% faster: below compare_to's 1% floor.
  GemmPick p = choose_pick({{"baseline", stats(1.000e-3, 1e-7)}, {"a", stats(0.995e-3, 1e-7)}}, 0);
  ASSERT_TRUE(p.pick);
  EXPECT_EQ(*p.pick, 0u);
  EXPECT_TRUE(p.baseline_kept);
  EXPECT_EQ(p.speedup, 1.0);
  ASSERT_TRUE(p.fastest);
  EXPECT_EQ(*p.fastest, 1u);
  EXPECT_EQ(p.fastest_vs_baseline->verdict, measure::Verdict::Indistinguishable);
  EXPECT_FALSE(p.pick_vs_baseline);
  EXPECT_NE(p.reason.find("keeping the baseline"), std::string::npos) << p.reason;

  // 10% faster median but so noisy (few samples, wide spread) that it is not beyond noise.
  p = choose_pick({{"baseline", stats(1.0e-3, 0.5e-3, 5)}, {"noisy", stats(0.9e-3, 0.5e-3, 5)}}, 0);
  EXPECT_EQ(*p.pick, 0u);
  EXPECT_TRUE(p.baseline_kept);

  // Everything slower: baseline.
  p = choose_pick({{"baseline", stats(1e-3, 1e-7)}, {"slow", stats(2e-3, 1e-7)}}, 0);
  EXPECT_EQ(*p.pick, 0u);
  EXPECT_EQ(p.fastest_vs_baseline->verdict, measure::Verdict::Slower);

  // Nothing else ran.
  p = choose_pick({{"baseline", stats(1e-3, 1e-7)}, {"x", std::nullopt}}, 0);
  EXPECT_EQ(*p.pick, 0u);
  EXPECT_FALSE(p.fastest);
  EXPECT_NE(p.reason.find("no other candidate ran correctly"), std::string::npos);
}

TEST(GemmPick, ATightSlowerCandidateCanWinWhereANoisyFasterOneCannot) {
  const GemmPick p = choose_pick({{"baseline", stats(1.00e-3, 1e-7, 1000)},
                                  {"noisy", stats(0.90e-3, 0.8e-3, 4)},
                                  {"steady", stats(0.95e-3, 1e-7, 1000)}},
                                 0);
  EXPECT_EQ(*p.fastest, 1u);
  EXPECT_EQ(*p.pick, 2u);
}

TEST(GemmPick, WithoutABaseline) {
  GemmPick p = choose_pick({{"baseline", std::nullopt}, {"a", stats(2e-3, 1e-7)}, {"b", stats(1e-3, 1e-7)}}, 0);
  EXPECT_EQ(*p.pick, 2u);
  EXPECT_NE(p.reason.find("without the baseline rule"), std::string::npos);
  p = choose_pick({{"baseline", std::nullopt}, {"a", std::nullopt}}, 0);
  EXPECT_FALSE(p.pick);
  EXPECT_EQ(p.reason, "no candidate ran correctly");
  EXPECT_TRUE(p.to_json().at("pick").is_null());
  p = choose_pick({}, 0);
  EXPECT_FALSE(p.pick);
}

// Session 34's 8192x8192x28672 on an H200: the generated kernel's 4.80 ms at 1965 MHz against
// the baseline's 5.28 ms at 1725 MHz is 0.97x at the baseline's clock, so the baseline stays.
TEST(GemmPick, ACandidateMeasuredAtAFasterClockIsJudgedAtTheBaselines) {
  const std::vector<MeasuredCandidate> c = {{"baseline", stats(5.28e-3, 1e-6), 1725.0},
                                            {"gen", stats(4.80e-3, 1e-6), 1965.0}};
  GemmPick p = choose_pick(c, 0);
  ASSERT_TRUE(p.pick);
  EXPECT_TRUE(p.baseline_kept);
  EXPECT_FALSE(p.clock_adjusted);
  EXPECT_NE(p.reason.find("at the baseline's clock (measured at 1965 MHz against 1725 MHz)"), std::string::npos)
      << p.reason;
  EXPECT_NEAR(p.fastest_vs_baseline->speedup, 5.28 / (4.80 * 1965.0 / 1725.0), 1e-9);

  // Faster at the baseline's clock too: picked, the speedup the scaled one.
  const std::vector<MeasuredCandidate> d = {{"baseline", stats(5.28e-3, 1e-6), 1725.0},
                                            {"gen", stats(4.00e-3, 1e-6), 1965.0}};
  p = choose_pick(d, 0);
  ASSERT_TRUE(p.pick);
  EXPECT_EQ(*p.pick, 1u);
  EXPECT_TRUE(p.clock_adjusted);
  EXPECT_NEAR(p.speedup, 5.28 / (4.00 * 1965.0 / 1725.0), 1e-9);
  EXPECT_NE(p.reason.find("at the baseline's clock"), std::string::npos) << p.reason;
  EXPECT_TRUE(p.to_json().at("clock_adjusted").get<bool>());

  // Within the tolerance (3%), at a slower clock, or with a clock unknown: times as measured.
  for (const auto& [candidate_clock, baseline_clock] :
       std::vector<std::pair<std::optional<double>, std::optional<double>>>{
           {1980.0, 1935.0}, {1500.0, 1980.0}, {std::nullopt, 1500.0}, {1980.0, std::nullopt}}) {
    p = choose_pick({{"baseline", stats(5.28e-3, 1e-6), baseline_clock}, {"gen", stats(4.80e-3, 1e-6), candidate_clock}}, 0);
    ASSERT_TRUE(p.pick);
    EXPECT_EQ(*p.pick, 1u);
    EXPECT_FALSE(p.clock_adjusted);
    EXPECT_NEAR(p.speedup, 5.28 / 4.80, 1e-9);
  }
}

TEST(GemmPick, BaselineRunsKeepTheFaster) {
  BaselineRuns r = combine_baseline_runs(stats(1.0e-3, 1e-6), stats(1.04e-3, 1e-6));
  EXPECT_EQ(r.best.median, 1.0e-3);
  EXPECT_NEAR(r.drift, 0.04, 1e-12);
  r = combine_baseline_runs(stats(1.0e-3, 1e-6), stats(0.98e-3, 1e-6));
  EXPECT_EQ(r.best.median, 0.98e-3);
  r = combine_baseline_runs(stats(1.0e-3, 1e-6), std::nullopt);
  EXPECT_EQ(r.drift, 0.0);
}

}  // namespace
}  // namespace ktune::gemm
