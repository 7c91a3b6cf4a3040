#include "ktune/tuner/sanitize.h"

#include <gtest/gtest.h>

namespace {

using ktune::tuner::sanitizer_error_count;

TEST(SanitizerErrorCount, ReadsMemcheckSummary) {
  EXPECT_EQ(sanitizer_error_count("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"), 0);
  EXPECT_EQ(sanitizer_error_count("========= Invalid __global__ read of size 4 bytes\n"
                                  "========= ERROR SUMMARY: 1 error\n"),
            1);
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY: 264 errors\n"), 264);
}

TEST(SanitizerErrorCount, ReadsRacecheckSummaryCountingWarnings) {
  EXPECT_EQ(sanitizer_error_count("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"), 0);
  EXPECT_EQ(sanitizer_error_count("========= Error: Race reported between Write access at scale+0x90\n"
                                  "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n"),
            3);
}

TEST(SanitizerErrorCount, TheLastSummaryWins) {
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY: 2 errors\n... ========= ERROR SUMMARY: 5 errors\n"), 5);
}

TEST(SanitizerErrorCount, NoSummaryIsNotZero) {
  EXPECT_EQ(sanitizer_error_count(""), std::nullopt);
  EXPECT_EQ(sanitizer_error_count("========= Error: Target application terminated before first instrumented API call\n"),
            std::nullopt);
  EXPECT_EQ(sanitizer_error_count("ERROR SUMMARY: lots of errors"), std::nullopt);
}

}  // namespace
