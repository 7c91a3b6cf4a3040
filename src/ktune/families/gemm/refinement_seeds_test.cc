#include "ktune/families/gemm/refinement_seeds.h"

#include <gtest/gtest.h>

namespace ktune::gemm {
namespace {

TEST(RefinementSeeds, ClearWinnersGoFirstWhateverTheirRank) {
  const std::vector<SeedCandidate> c{{0, 2.0e-3}, {1, 1.0e-3}, {2, 1.5e-3}, {3, 3.0e-3}};
  EXPECT_EQ(choose_refinement_seeds(c, 2), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(choose_refinement_seeds(c, 10), (std::vector<std::size_t>{1, 2, 0, 3}));
}

TEST(RefinementSeeds, NoiseBetweenNearEqualKernelsDoesNotChangeTheSeeds) {
  // Two runs of the same problem: kernels of rank 4 and 1 swap places by 0.4%.
  const std::vector<SeedCandidate> run1{{1, 1.004e-3}, {4, 1.000e-3}, {2, 1.20e-3}, {0, 1.009e-3}};
  const std::vector<SeedCandidate> run2{{1, 1.000e-3}, {4, 1.004e-3}, {2, 1.21e-3}, {0, 1.012e-3}};
  const auto seeds1 = choose_refinement_seeds(run1, 2);
  const auto seeds2 = choose_refinement_seeds(run2, 2);
  // Within 2% of the fastest: ranks 0, 1 and 4 tie; the model's order decides.
  EXPECT_EQ(seeds1, (std::vector<std::size_t>{3, 0}));
  EXPECT_EQ(seeds2, (std::vector<std::size_t>{3, 0}));
}

TEST(RefinementSeeds, AGroupIsMeasuredFromItsFastestMember) {
  // 1.00, 1.015 tie; 1.03 is more than 2% above 1.00, so it starts the next group (with 1.04).
  const std::vector<SeedCandidate> c{{5, 1.00}, {3, 1.015}, {0, 1.03}, {1, 1.04}};
  EXPECT_EQ(choose_refinement_seeds(c, 4), (std::vector<std::size_t>{1, 0, 2, 3}));
  EXPECT_EQ(choose_refinement_seeds(c, 4, 0.0), (std::vector<std::size_t>{0, 1, 2, 3})) << "no tie: median order";
}

TEST(RefinementSeeds, EmptyAndZeroCount) {
  EXPECT_TRUE(choose_refinement_seeds({}, 2).empty());
  EXPECT_TRUE(choose_refinement_seeds({{0, 1.0}}, 0).empty());
}

TEST(RefinementSeeds, RefineOnlyWhenOneStepCouldReachTheIncumbent) {
  EXPECT_TRUE(refinement_can_win(1.05, 1.00, 0.10));
  EXPECT_TRUE(refinement_can_win(0.90, 1.00, 0.10)) << "the generated kernel leads";
  EXPECT_TRUE(refinement_can_win(1.10, 1.00, 0.10)) << "the window's edge is inside";
  EXPECT_FALSE(refinement_can_win(1.17, 1.00, 0.10));
  EXPECT_FALSE(refinement_can_win(1.05, 1.00, 0.0));
  EXPECT_FALSE(refinement_can_win(0.0, 1.00, 0.10)) << "nothing measured";
  EXPECT_FALSE(refinement_can_win(1.0, 0.0, 0.10));
}

}  // namespace
}  // namespace ktune::gemm
