#pragma once
// The middle of a tuning session (tuner.h): the strategy proposes configs, the compile pool
// compiles them ahead of measurement, each lane's worker process verifies and measures one at
// a time, every result is committed to the database as it arrives and the strategy is told.
// run_tuning sets the session up around it (devices, database, reference) and confirms the
// finalists after it.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ktune/core/thread_pool.h"
#include "ktune/db/database.h"
#include "ktune/device/device.h"
#include "ktune/measure/policy.h"
#include "ktune/report/progress.h"
#include "ktune/search/strategy.h"
#include "ktune/tuner/candidate_kind.h"
#include "ktune/tuner/tuner.h"
#include "ktune/worker/worker_process.h"

namespace ktune::tuner {

// One device and the worker process that measures on it.
struct Lane {
  int ordinal = 0;
  device::DeviceInfo info;
  db::DeviceRecord record;
  std::int64_t session_id = 0;
  std::unique_ptr<worker::WorkerProcess> worker;
  bool busy = false;
  bool reference_warm = false;
  std::future<worker::WorkerProcess::Outcome> call;
  std::chrono::steady_clock::time_point call_started;
  db::ResultRecord result;  // filled in as far as known while the call runs
  Config config;
};

// The settings a session measures with: the kind's, with the options over them.
struct SessionPlan {
  // The kind's policy with the options' overrides (racing, L2 flush): the finalists' confirmation
  // measures with this one (measure::confirmation_policy of it).
  measure::Policy full_policy;
  // What every candidate is measured with: full_policy, or its screening form when two_stage.
  measure::Policy policy;
  bool two_stage = false;  // screen everything, then confirm the finalists
  std::string strategy_name;
  std::uint64_t seed = 0;
  nlohmann::json strategy_params;
  std::optional<std::uint64_t> max_evaluations;
  std::optional<double> max_seconds;
  double candidate_timeout_seconds = 0;  // the spec's limit on one run (0: none)
};

// What one search reads and writes; every reference outlives the loop.
struct SearchContext {
  CandidateKind& kind;
  const TuneOptions& options;
  const SessionPlan& plan;
  device::Backend& backend;
  std::vector<Lane>& lanes;
  const std::string& target;
  const std::optional<device::CompileResult>& reference;
  // Results recorded before for these devices, kernel and problem, by config key (resume).
  const std::map<std::string, db::ResultRecord>& prior;
  search::Strategy& strategy;
  db::Database& database;
  TuneSummary& summary;
  std::function<double()> elapsed;  // seconds since the session began
};

class SearchLoop {
 public:
  explicit SearchLoop(SearchContext context);
  // Proposes, compiles, measures and records until the strategy has nothing left, the budget of
  // evaluations or seconds is spent, or an interrupt arrives; then waits for every compile it
  // started and sets summary.stop_reason.
  void run();
  // The progress display's last line, with the session's best.
  void finish_progress();

 private:
  struct Pending {
    Config config;
    std::future<device::CompileResult> compiled;
    double started_unix = 0;
  };

  bool budget_left() const { return !plan_.max_evaluations || counted_ < *plan_.max_evaluations; }
  bool time_left() const { return !plan_.max_seconds || c_.elapsed() < *plan_.max_seconds; }
  bool any_busy() const;
  void consider_best(const db::ResultRecord& r);
  // Commits a finished result, tells the strategy and the progress display.
  void record(Lane& lane, db::ResultRecord r);
  // Asks the strategy for configs until the compile queue is full; resumed ones are answered
  // from the database at once.
  void refill();
  // Starts the front candidate on `lane`, or records it at once when it cannot run.
  void dispatch(Lane& lane);
  // The request for a compiled candidate that passed the static screening.
  nlohmann::json evaluation_request(const Pending& p, const Lane& lane, const device::CompileResult& compiled) const;
  // Records the answer of `lane`'s finished worker call.
  void complete(Lane& lane);
  // After the loop: drops queued compiles, waits for the running ones and the workers' preparation.
  void drain();

  SearchContext c_;
  const SessionPlan& plan_;
  report::Progress progress_;
  report::ProgressUpdate update_;
  std::optional<measure::Stats> incumbent_;
  std::optional<double> best_seconds_;
  std::string best_key_;
  ThreadPool pool_;
  // Declared after the pool so that they go first: no future outlives the threads it waits on.
  std::vector<std::future<void>> prepared_;  // the backend's worker preparation, per lane
  std::deque<Pending> pending_;
  std::size_t depth_ = 0;  // compiles queued or running ahead of the lanes
  bool exhausted_ = false;
  std::uint64_t counted_ = 0;  // resumed + evaluated + in flight, against max_evaluations
};

// Fills a result row from a worker's answer (a reply, a crash, a timeout); says whether the
// worker still holds its reference (a crashed or killed one starts again without it).
bool apply_outcome(const worker::WorkerProcess::Outcome& outcome, const CandidateKind& kind, const Config& config,
                   db::ResultRecord& r);
// gflops and gbps of a measured row, where the kind counts FLOPs and bytes.
void fill_rates(const CandidateKind& kind, const Config& config, db::ResultRecord& r);

}  // namespace ktune::tuner
