#pragma once
// A tuning session: spec -> space -> strategy proposes configs -> compile pool (threads, ahead
// of measurement) -> worker process measures + verifies -> result committed to the database
// -> strategy is told. Configs already measured for this device + kernel + problem are not
// measured again (resume).

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/db/database.h"
#include "ktune/measure/policy.h"
#include "ktune/report/progress.h"
#include "ktune/tuner/candidate_kind.h"
#include "ktune/tuner/sanitize.h"
#include "ktune/worker/worker_process.h"

namespace ktune::tuner {

class TuneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TuneOptions {
  std::filesystem::path spec_path;
  Config size_overrides;
  std::optional<std::string> strategy;  // overrides the spec's tune.strategy
  // Overrides the spec's tune.strategy_params; when only `strategy` overrides the spec's, its
  // params start empty (the spec's were written for another strategy).
  std::optional<nlohmann::json> strategy_params;
  std::optional<std::uint64_t> max_evaluations;
  std::optional<double> max_seconds;
  std::optional<std::uint64_t> seed;
  std::optional<bool> racing;
  // The L2 state a flushed sample starts from (tune --l2-flush); unset: the spec's measure block.
  std::optional<measure::L2Flush> l2_flush;
  bool resume = true;
  int compile_jobs = 0;  // 0: one per core
  // Device ordinals within the backend; one worker process per device measures candidates
  // in parallel (each candidate on one device; results are recorded per device).
  std::vector<int> devices{0};
  std::filesystem::path db_path;
  worker::WorkerCommand worker;  // how to start a worker process
  report::ProgressStyle progress = report::ProgressStyle::Auto;
  std::FILE* progress_stream = stderr;
  // Evaluate exactly these configs in order instead of searching (ktune bench).
  std::optional<std::vector<Config>> fixed_configs;
  std::string session_label;  // stored with the session options ("tune", "bench")
  // Finalists measured again at benchmark precision when the spec leaves min_seconds and
  // max_noise at their defaults (the search then screens with measure::screening_policy).
  // 0: one stage, every candidate at the spec's policy.
  std::size_t confirm = 3;
  // After the search: re-run the winner (or all correct candidates) under compute-sanitizer.
  SanitizeOptions sanitize;
};

struct TuneSummary {
  std::int64_t session_id = 0;           // the first device's session
  std::vector<std::int64_t> session_ids;  // one per device
  db::DeviceRecord device;                // the first device
  std::vector<db::DeviceRecord> devices;
  db::KernelRecord kernel;
  db::ProblemRecord problem;
  std::string strategy;
  std::uint64_t space_size = 0;
  std::uint64_t evaluated = 0;  // new results this session
  std::uint64_t resumed = 0;    // configs answered from earlier sessions
  std::map<std::string, std::uint64_t> by_status;
  std::uint64_t raced = 0;
  std::optional<db::ResultRecord> best;  // fastest ok result for kernel + problem on the devices used
  std::vector<db::ResultRecord> results;  // this session's new results, in order
  std::string stop_reason;                // "space exhausted", "max evaluations", "time budget", "interrupted"
  double wall_seconds = 0;
  // Seconds summed over this session's results, per phase (see db::ResultRecord::phases),
  // plus "record": the database commits.
  nlohmann::json phase_totals = nlohmann::json::object();
  // Two-stage tuning: the finalists' confirmation ({"result_id", "config", "screening_median_s",
  // "median_s", "samples"}).
  nlohmann::json confirmed = nlohmann::json::array();
  // --sanitize: one entry per candidate re-run ({"config", "result_id", "errors", "tools"...}).
  nlohmann::json sanitized = nlohmann::json::array();
};

// Whether a session answers configs from results already recorded for its device, kernel and
// problem instead of measuring them (resume): a search does, unless --no-resume; a fixed list
// (ktune bench; model profile; model tune's default-vs-tuned comparison) never does, since its
// caller asked for these configs to be measured now, side by side in one session.
bool resumes_recorded_results(const TuneOptions& options);

// Set by SIGINT/SIGTERM handlers; the session stops after the candidate in flight.
std::atomic<bool>& interrupt_flag();

// Tunes the spec at options.spec_path (a SpecKernelKind).
TuneSummary run_tuning(const TuneOptions& options);
// Tunes any kind of candidate through the same loop; options.spec_path and size_overrides are
// the kind's business, not read here.
TuneSummary run_tuning(CandidateKind& kind, const TuneOptions& options);

}  // namespace ktune::tuner
