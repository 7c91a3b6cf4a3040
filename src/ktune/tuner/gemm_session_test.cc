#include "ktune/tuner/gemm_session.h"

#include <gtest/gtest.h>

namespace ktune::tuner {
namespace {

GemmRow row(std::size_t index, const std::string& family, double median, bool resumed = false) {
  GemmRow r;
  r.index = index;
  r.family = family;
  r.result.status = db::Status::Ok;
  measure::Stats s;
  s.median = median;
  r.stats = s;
  r.resumed = resumed;
  return r;
}

TEST(GemmFinalists, FastestWithinTheWindowThenEachFamilysBest) {
  std::vector<GemmRow> rows{row(0, "cublaslt", 60e-6),   // the baseline: measured in full already
                            row(1, "cublaslt", 62e-6), row(2, "cublaslt", 63e-6), row(3, "cublaslt", 70e-6),
                            row(4, "generated", 76e-6), row(5, "generated", 75e-6), row(6, "generated", 90e-6)};
  // 62 and 63 us (within 3%), then generated's fastest (75 us), nothing else of either.
  EXPECT_EQ(gemm_finalists(rows, 3), (std::vector<std::size_t>{1, 2, 5}));
  EXPECT_EQ(gemm_finalists(rows, 1), (std::vector<std::size_t>{1, 5}));
  EXPECT_TRUE(gemm_finalists(rows, 0).empty());
  // A family whose fastest is among the finalists gets nothing more; resumed and failed rows none.
  rows[5].resumed = true;
  rows[4].result.status = db::Status::CompileError;
  EXPECT_EQ(gemm_finalists(rows, 3), (std::vector<std::size_t>{1, 2, 6}));
  rows[6].stats->median = 61e-6;
  EXPECT_EQ(gemm_finalists(rows, 3), (std::vector<std::size_t>{6, 1}));
}

}  // namespace
}  // namespace ktune::tuner
