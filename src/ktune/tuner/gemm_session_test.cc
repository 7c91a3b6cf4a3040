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

TEST(GemmFinalists, FastestWithinTheWindow) {
  std::vector<GemmRow> rows{row(0, "cublaslt", 60e-6),   // the baseline: measured in full already
                            row(1, "cublaslt", 62e-6), row(2, "cublaslt", 63e-6), row(3, "cublaslt", 70e-6),
                            row(4, "generated", 76e-6), row(5, "generated", 75e-6), row(6, "generated", 90e-6)};
  EXPECT_EQ(gemm_finalists(rows, 3), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(gemm_finalists(rows, 1), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(gemm_finalists(rows, 0).empty());
  rows[1].resumed = true;
  rows[2].result.status = db::Status::CompileError;
  EXPECT_EQ(gemm_finalists(rows, 3), (std::vector<std::size_t>{3}));
}

// Each family's fastest row until it is confirmed; the baseline counts for its own family; a
// screening that the family's confirmations say would measure slower is left alone.
TEST(GemmFinalists, EachFamilysBestUntilConfirmed) {
  std::vector<GemmRow> rows{row(0, "cublaslt", 60e-6), row(1, "cublaslt", 62e-6), row(2, "generated", 76e-6),
                            row(3, "generated", 75e-6), row(4, "generated", 90e-6, true)};
  std::set<std::size_t> tried{1};
  rows[1].confirmed = true;
  // cublaslt: the baseline (60 us) beats row 1; generated: row 3.
  EXPECT_EQ(unconfirmed_family_bests(rows, tried), (std::vector<std::size_t>{3}));
  // Row 3 confirmed at 77 us (screened 75): row 2's 76 us screening, scaled alike (78 us), would
  // not beat it.
  rows[3].stats->median = 77e-6;
  rows[3].result.resources["screening"] = {{"median_s", 75e-6}};
  rows[3].confirmed = true;
  tried.insert(3);
  EXPECT_TRUE(unconfirmed_family_bests(rows, tried).empty());
  // Confirmed at 80 us with no screening on record: row 2 (76 us) may still be faster.
  rows[3].stats->median = 80e-6;
  rows[3].result.resources.erase("screening");
  EXPECT_EQ(unconfirmed_family_bests(rows, tried), (std::vector<std::size_t>{2}));
  rows[2].confirmed = true;
  tried.insert(2);
  EXPECT_TRUE(unconfirmed_family_bests(rows, tried).empty());
  // A cublaslt row faster than the baseline and not confirmed is listed; resumed rows never are.
  rows[1].stats->median = 59e-6;
  rows[1].confirmed = false;
  tried.erase(1);
  rows[4].stats->median = 10e-6;
  EXPECT_EQ(unconfirmed_family_bests(rows, tried), (std::vector<std::size_t>{1}));
  // A row whose confirmation failed is not tried again, and its screening is no confirmed best.
  tried.insert(1);
  EXPECT_TRUE(unconfirmed_family_bests(rows, tried).empty());
  rows[3].confirmed = false;  // row 3's confirmation failed too: generated has only row 2 (76 us)
  EXPECT_TRUE(unconfirmed_family_bests(rows, tried).empty());
}

// The drift is the GPU's, the smallest of any family's: one slow confirmation does not keep the
// family's next row from being tried (655x113x696 x40 on an H200, session 26).
TEST(GemmFinalists, OneSlowConfirmationDoesNotSetTheDrift) {
  std::vector<GemmRow> rows{row(0, "cublaslt", 44.6e-6), row(1, "cublaslt", 53.6e-6), row(2, "generated", 68.7e-6),
                            row(3, "generated", 55.5e-6)};
  rows[1].confirmed = rows[2].confirmed = true;
  rows[1].result.resources["screening"] = {{"median_s", 53.2e-6}};
  rows[2].result.resources["screening"] = {{"median_s", 55.0e-6}};
  const std::set<std::size_t> tried{1, 2};
  // generated's own ratio (1.25) would scale row 3 to 69.3 us, past its confirmed 68.7; the
  // GPU's (cublaslt's 1.008) to 55.9.
  EXPECT_EQ(unconfirmed_family_bests(rows, tried), (std::vector<std::size_t>{3}));
}

// A family's best is its fastest full measurement where it has one: the baseline (row 0) or a
// confirmed row, never a faster screening beside them.
TEST(GemmFinalists, FamilyBestPrefersFullMeasurements) {
  std::vector<GemmRow> rows{row(0, "cublaslt", 60e-6), row(1, "cublaslt", 58e-6), row(2, "generated", 76e-6),
                            row(3, "generated", 80e-6), row(4, "generated", 90e-6)};
  EXPECT_EQ(fastest_per_family(rows), (std::map<std::string, std::size_t>{{"cublaslt", 1}, {"generated", 2}}));
  rows[3].confirmed = true;
  rows[4].confirmed = true;
  EXPECT_EQ(fastest_per_family(rows), (std::map<std::string, std::size_t>{{"cublaslt", 0}, {"generated", 3}}));
  rows[1].confirmed = true;
  EXPECT_EQ(fastest_per_family(rows)["cublaslt"], 1u);
  // A row resumed from an earlier session stands as it was recorded.
  rows[2].resumed = true;
  EXPECT_TRUE(full_measurement(rows[2]));
  EXPECT_EQ(fastest_per_family(rows)["generated"], 2u);
}

// A row is judged against the baseline's run nearest in time: a finalist confirmed just after
// the run before the finalists against that one, a family's best confirmed late against the run
// after the others.
TEST(GemmBaselineNearest, TheRunNearestInTime) {
  auto timed = [](double at, double median) {
    TimedStats t;
    t.at_s = at;
    t.stats.median = median;
    return t;
  };
  const std::vector<TimedStats> timeline{timed(0.5, 1816e-6), timed(3.0, 1820e-6), timed(6.0, 2080e-6)};
  EXPECT_DOUBLE_EQ(baseline_nearest(timeline, 3.4)->median, 1820e-6);
  EXPECT_DOUBLE_EQ(baseline_nearest(timeline, 5.0)->median, 2080e-6);
  EXPECT_DOUBLE_EQ(baseline_nearest(timeline, 0.0)->median, 1816e-6);
  EXPECT_DOUBLE_EQ(baseline_nearest(timeline, 100.0)->median, 2080e-6);
  EXPECT_FALSE(baseline_nearest(timeline, std::nullopt));  // a resumed row: no time
  EXPECT_FALSE(baseline_nearest({}, 1.0));
}

// The pick judges a candidate against the clock of the baseline run that counts.
TEST(GemmBaselineNearest, TheClockOfTheRunThatCounts) {
  auto timed = [](double median, std::optional<double> clock) {
    TimedStats t;
    t.stats.median = median;
    t.sm_clock_mhz = clock;
    return t;
  };
  const std::vector<TimedStats> timeline{timed(5.40e-3, 1590.0), timed(5.28e-3, 1725.0), timed(5.44e-3, std::nullopt)};
  EXPECT_EQ(baseline_clock(timeline, timeline[1].stats), 1725.0);
  EXPECT_FALSE(baseline_clock(timeline, timeline[2].stats));  // no NVML reading
  measure::Stats other;
  other.median = 1.0;
  EXPECT_FALSE(baseline_clock(timeline, other));
  // One after the other: the clock of the run that counts; after interleaved rounds: the highest
  // of the confirmation's runs (the first run, before tuning, does not count).
  const std::vector<TimedStats> session36{timed(100.8e-6, 1995.0), timed(104.3e-6, 1980.0), timed(103.4e-6, 1830.0)};
  EXPECT_EQ(baseline_judging_clock(session36, session36[2].stats, false), 1830.0);
  EXPECT_EQ(baseline_judging_clock(session36, session36[2].stats, true), 1980.0);
  EXPECT_EQ(baseline_judging_clock(timeline, timeline[1].stats, true), 1725.0);
  EXPECT_FALSE(baseline_judging_clock({timed(1.0, 1980.0)}, timed(1.0, 1980.0).stats, true));
}

// A full measurement reads as throttled when its median SM clock lies more than the tolerance
// under the session's reference; without either clock (no NVML) it never does.
TEST(GemmThrottle, AClockUnderTheReferenceIsThrottled) {
  EXPECT_TRUE(measured_throttled(1590.0, 1755.0, 0.03));
  EXPECT_FALSE(measured_throttled(1710.0, 1755.0, 0.03));  // within 3%
  EXPECT_FALSE(measured_throttled(1980.0, 1755.0, 0.03));
  EXPECT_FALSE(measured_throttled(std::nullopt, 1755.0, 0.03));
  EXPECT_FALSE(measured_throttled(1590.0, std::nullopt, 0.03));
  EXPECT_FALSE(measured_throttled(0.0, 1755.0, 0.03));
}

TEST(GemmThrottle, TheMedianClockComesFromTheWorkersReply) {
  db::ResultRecord r;
  EXPECT_FALSE(median_sm_clock(r));
  r.resources = {{"sm_clock_mhz", {{"median", 1830}, {"min", 1590}, {"max", 1980}, {"samples", 24}}}};
  ASSERT_TRUE(median_sm_clock(r));
  EXPECT_DOUBLE_EQ(*median_sm_clock(r), 1830.0);
  r.resources["sm_clock_mhz"] = nullptr;  // the worker had no NVML
  EXPECT_FALSE(median_sm_clock(r));
}

// A worker listing entry of one generated kernel (the candidate's configuration, as listed).
nlohmann::json generated_entry(const std::string& workgroup, const std::string& source) {
  return {{"family", "generated"},
          {"candidate", {{"config", {{"family", "generated"}, {"path", "wgmma"}, {"workgroup", workgroup}}},
                         {"source", source}}}};
}

GemmRow row_of(std::size_t index, const nlohmann::json& entry) {
  GemmRow r;
  r.index = index;
  r.family = "generated";
  r.config = config_from_json(entry.at("candidate").at("config"));
  r.config_key = config_key(r.config);
  return r;
}

// Refinement rows are numbered after the listing by their place in the refinement's list, so
// that measuring a row again measures the entry it was screened from, whichever neighbours
// before it were left out.
TEST(GemmCandidateEntry, ListedThenRefinementByPlace) {
  const nlohmann::json listed = nlohmann::json::array({generated_entry("128x128", "model#0"),
                                                       generated_entry("128x256", "model#1")});
  const nlohmann::json refinement = nlohmann::json::array(
      {generated_entry("256x128", "refine#0"), generated_entry("64x128", "refine#1"), generated_entry("64x64", "refine#2")});
  EXPECT_EQ(&candidate_entry(listed, refinement, row_of(1, listed[1])), &listed[1]);
  // refine#0 and refine#1 not ready, refine#2 measured: its row is listed + 2.
  EXPECT_EQ(&candidate_entry(listed, refinement, row_of(4, refinement[2])), &refinement[2]);
}

// The numbering session 24-46's sessions used (listed + the count measured so far) named
// refine#0 for a row screened from refine#2: the confirmation then timed another kernel (12
// such confirmations ran 1.6-2.5x their screening). Such a row is refused, not measured.
TEST(GemmCandidateEntry, AnEntryOfAnotherConfigurationIsRefused) {
  const nlohmann::json listed = nlohmann::json::array({generated_entry("128x128", "model#0")});
  const nlohmann::json refinement =
      nlohmann::json::array({generated_entry("256x128", "refine#0"), generated_entry("64x64", "refine#1")});
  EXPECT_THROW(candidate_entry(listed, refinement, row_of(1, refinement[1])), std::logic_error);
  EXPECT_THROW(candidate_entry(listed, refinement, row_of(3, refinement[1])), std::logic_error);
}

}  // namespace
}  // namespace ktune::tuner
