#pragma once
// One `tune gemm` session: every family's candidates (cuBLAS's default as candidate 0,
// cuBLASLt's heuristic answers and enumerated algorithms, ktune's generated kernels and their
// refinement) evaluated in an isolated worker (`ktune gemm-worker`), each verified against an
// fp64 reference and measured, every result recorded in the database, then the pick by the
// baseline rule (gemm_pick.h), recorded under the kernel "gemm pick". The CLI
// (cli/gemm_command.cc) parses the flags into GemmSessionOptions and prints the result.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/db/records.h"
#include "ktune/device/device.h"
#include "ktune/families/gemm/gemm_pick.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/measure/policy.h"
#include "ktune/report/progress.h"

namespace ktune::tuner {

struct GemmSessionOptions {
  gemm::GemmSetup setup;         // the problem, the device, the families and what they list
  measure::Policy policy;        // the full policy (the baseline and the finalists)
  std::string reference = "auto";
  int refine = 6;                // generated kernels measured in the refinement round
  double refine_window = 0.25;   // refine only within this fraction of the fastest candidate
  double refine_wait = 0.1;      // seconds the refinement waits for its compiles at most
  int compile_wait_top = 10;     // generated kernels whose compiles are always waited for
  double compile_grace = 1.0;    // seconds of waiting in all for the compiles of the rest
  double tail_seconds = 0.3;     // measuring for cuBLASLt's enumerated algorithms (-1: no limit)
  int confirm = 3;               // finalists measured again at the full policy (0: no screening)
  // Rounds the finalists and the baseline beside them are measured in, interleaved, each round
  // at the full policy's share (confirmation_rounds.h); 1: one after the other, each at the full
  // policy.
  int confirm_rounds = 3;
  // A full measurement after the baseline's first whose median SM clock lies more than
  // throttle_tolerance under the highest the session's full measurements ran at is taken again
  // after the GPU idles throttle_rest seconds (doubled each time), at most throttle_retries
  // times, and the faster attempt counts (see measured_throttled). The candidates' rests share throttle_rest_budget seconds per
  // session; the baseline's runs, which every candidate is judged against, rest outside it, so
  // a spent budget never leaves the baseline measured hotter than the candidates.
  double throttle_rest = 0.25;
  int throttle_retries = 1;
  double throttle_tolerance = 0.03;
  double throttle_rest_budget = 0.25;
  bool no_resume = false;
  std::filesystem::path database;
  std::filesystem::path worker_executable;  // runs `gemm-worker`
  report::ProgressStyle progress = report::ProgressStyle::None;
  bool quiet = false;  // no notes on stderr
};

// One evaluated (or resumed) candidate.
struct GemmRow {
  std::size_t index = 0;  // in the listing; refinement candidates follow the listed ones
  std::string family;
  std::string source;  // "heuristic#0", "enumerated", "model#3", "refine#1"
  Config config;
  std::string config_key;
  db::ResultRecord result;
  std::optional<measure::Stats> stats;  // ok and measured
  bool resumed = false;
  bool confirmed = false;  // measured again at the full policy (two-stage sessions)
  // Session seconds at the middle of its latest measurement (none for a resumed row).
  std::optional<double> measured_at_s;
};

// One of the baseline's runs at the full policy, and when (session seconds, its middle).
struct TimedStats {
  double at_s = 0;
  measure::Stats stats;
  std::optional<double> sm_clock_mhz;      // the median of its samples (none without NVML)
  nlohmann::json throttled_attempts;       // null, or the runs it replaced (measure_full)
};

struct GemmSessionResult {
  device::DeviceInfo device;
  nlohmann::json listing;  // the worker's listing: families, candidates, reference, steps
  std::vector<GemmRow> rows;
  gemm::GemmPick pick;
  // The baseline's two runs the candidates were judged against (the faster counts) and their
  // drift: measured just before the finalists' confirmation and just after it, when the session
  // confirmed finalists, else its first run and the one after the others.
  std::optional<gemm::BaselineRuns> baseline_runs;
  bool baseline_measured_again = false;
  bool baseline_beside_finalists = false;
  // The baseline's first run, at the start of the session (the GPU not yet warm from tuning).
  std::optional<measure::Stats> baseline_first;
  // Every run of the baseline at the full policy, in order: its first, before the finalists,
  // after the others (see baseline_nearest).
  std::vector<TimedStats> baseline_timeline;
  std::optional<std::int64_t> pick_result_id;
  std::map<std::string, std::int64_t> sessions;  // family -> database session
  nlohmann::json phases = nlohmann::json::object();
  nlohmann::json confirmed = nlohmann::json::array();
  nlohmann::json refinement_skipped;  // null, or why the refinement round did not run
  nlohmann::json generated_compile = nlohmann::json::object();
  std::vector<std::string> compile_left_out;  // generated kernels left out for their compiles
  std::size_t refined = 0, refine_not_ready = 0, tail_measured = 0, tail_skipped = 0, resumed = 0;
  bool interrupted = false;
  double wall_seconds = 0;
  std::filesystem::path database;
};

// Runs the session. Throws TuneError when there is nothing to tune (no device, no candidate, the
// worker cannot list). tuner::interrupt_flag() stops it between candidates, keeping what was
// measured.
GemmSessionResult run_gemm_session(const GemmSessionOptions& options);

// The configuration without its default fields, for one line of a table.
std::string short_config(const Config& config);
nlohmann::json stats_json(const measure::Stats& s);
// Measured at the full policy: the baseline (row 0), a confirmed row, or one resumed from an
// earlier session (as it was recorded then).
bool full_measurement(const GemmRow& row);
// The worker's entry a row was measured from, for measuring it again: row.index into `listed`
// (the listing's candidates), then into `refinement` (the refinement round's, numbered after
// them by their place in that list). Throws std::logic_error when that entry holds another
// configuration than the row: a confirmation of one kernel must never be recorded for another.
const nlohmann::json& candidate_entry(const nlohmann::json& listed, const nlohmann::json& refinement,
                                      const GemmRow& row);
// Per family, the row of its fastest correct measured candidate (the baseline counts for cublaslt).
// After a confirmation (any row confirmed): among the family's full measurements (the baseline,
// confirmed rows, resumed rows) where it has any, so that a screening never stands for a family
// beside them. The pick is chosen among the same rows.
std::map<std::string, std::size_t> fastest_per_family(const std::vector<GemmRow>& rows);
// The finalists confirmation measures again: the fastest screened rows (not resumed, not the
// baseline, row 0) within 3% of the fastest, at most `confirm` of them.
std::vector<std::size_t> gemm_finalists(const std::vector<GemmRow>& rows, std::size_t confirm);
// Per family, its fastest row measured only by screening (not confirmed, not in `tried`, not
// resumed, not the baseline), where that screening, scaled by the smallest confirmed / screened
// ratio of any confirmed row (the GPU's drift), would still beat the family's fastest full
// measurement (the baseline counts for its family).
std::vector<std::size_t> unconfirmed_family_bests(const std::vector<GemmRow>& rows, const std::set<std::size_t>& tried);
// The median SM clock (MHz) the worker read over a measurement's samples (resources.sm_clock_mhz),
// none where NVML gave no reading.
std::optional<double> median_sm_clock(const db::ResultRecord& r);
// Whether a full measurement ran throttled: its median SM clock more than `tolerance` under the
// session's reference (the highest median clock of its full measurements so far). Big GEMMs hold
// the GPU at its power limit, and a back-to-back confirmation then runs at a lower clock than the
// baseline's runs it is judged against (l7b_up_prefill_m16384 on an H200: two cuBLASLt
// configurations that screened at 1761 us confirmed at 1773 and 2060, one after the other;
// session 26). Without either clock nothing can be said: false.
bool measured_throttled(std::optional<double> clock_mhz, std::optional<double> reference_mhz, double tolerance);

// The baseline's run nearest in time to `at_s`, to judge a row measured then against the baseline
// in the same state of the GPU; none without a time or a run. Big GEMMs slow down by 10-17% over
// a session as the GPU heats up (l7b_up_prefill_m16384 on an H200: the baseline ran 1816 us before
// the finalists and 2080 after them, session 26), so a row confirmed late, judged against the
// faster (earlier) run, reads up to that much slower than it is. The pick still has to beat the
// faster run (the baseline rule); this is for reporting a family against the baseline.
std::optional<measure::Stats> baseline_nearest(const std::vector<TimedStats>& timeline, std::optional<double> at_s);

// The SM clock of the baseline's run whose stats are `run` (the one the pick judges against);
// none when no run of the timeline has them or that run had no clock.
std::optional<double> baseline_clock(const std::vector<TimedStats>& timeline, const measure::Stats& run);

// The clock choose_pick judges candidates at. After interleaved rounds (`in_rounds`): the highest
// of the baseline's runs in the confirmation (the timeline past its first run), because the
// contenders took turns with it and the clock NVML reads after a sample says little about a
// run: on an H200 the baseline's faster run read 1830 MHz (103.4 us), its slower 1980 (104.3),
// and a generated fp8 kernel, 96.4-97.2 us in all three rounds at 1860-1980, judged at 1830 MHz
// lost its 7% (session 36). Otherwise the clock of the run that counts (baseline_clock).
std::optional<double> baseline_judging_clock(const std::vector<TimedStats>& timeline, const measure::Stats& run,
                                             bool in_rounds);

}  // namespace ktune::tuner
