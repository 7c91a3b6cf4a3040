#include "ktune/tuner/tuner.h"

#include <chrono>
#include <algorithm>
#include <deque>
#include <future>
#include <thread>

#include "ktune/core/thread_pool.h"
#include "ktune/device/device.h"
#include "ktune/device/registry.h"
#include "ktune/search/strategy.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/recorded_flush.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/tuner/result_stats.h"
#include "ktune/tuner/spec_kernel_kind.h"

namespace ktune::tuner {

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

bool resumes_recorded_results(const TuneOptions& options) { return options.resume && !options.fixed_configs; }

namespace {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Proposes a fixed list of configs (ktune bench), through the same pipeline as a search.
class FixedList : public search::Strategy {
 public:
  explicit FixedList(std::vector<Config> configs) : configs_(std::move(configs)) {}
  std::string name() const override { return "fixed"; }
  std::optional<Config> ask() override {
    if (next_ >= configs_.size()) return std::nullopt;
    return configs_[next_++];
  }
  void tell(const search::Observation&) override {}

 private:
  std::vector<Config> configs_;
  std::size_t next_ = 0;
};

struct Pending {
  Config config;
  std::future<device::CompileResult> compiled;
  double started_unix = 0;
};

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

// Two-stage tuning: the finalists (this session's fastest correct candidates, within
// kFinalistWindow of the best's screening median, at most options.confirm of them) are measured
// again with the confirmation policy on the worker that screened them, and their rows take that
// measurement (the screening's is kept in resources.screening). The winner is chosen from these.
constexpr double kFinalistWindow = 0.03;

void confirm_finalists(const TuneOptions& options, CandidateKind& kind, const std::string& target,
                       const measure::Policy& policy, std::vector<Lane>& lanes, db::Database& database,
                       TuneSummary& summary) {
  std::vector<db::ResultRecord*> ok;
  for (auto& r : summary.results)
    if (r.status == db::Status::Ok && r.median_s) ok.push_back(&r);
  std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return *a->median_s < *b->median_s; });
  const double limit = ok.empty() ? 0 : *ok.front()->median_s * (1 + kFinalistWindow);
  for (std::size_t i = 0; i < ok.size() && i < options.confirm && *ok[i]->median_s <= limit; ++i) {
    if (interrupt_flag().load()) return;
    db::ResultRecord& r = *ok[i];
    const int ordinal = r.resources.value("device_ordinal", options.devices.front());
    Lane* lane = &lanes.front();
    for (auto& l : lanes)
      if (l.ordinal == ordinal) lane = &l;
    const Config config = config_from_json(r.config);
    const device::CompileResult artifact = kind.compile(config, target);
    CandidateKind::Request req;
    req.config = &config;
    req.device = lane->ordinal;
    req.artifact = &artifact;
    req.policy = measure::confirmation_policy(policy);  // verified already: no reference this time
    auto outcome = lane->worker->call(kind.evaluation_request(req), kind.call_timeout(req.policy, false));
    auto* reply_json = std::get_if<nlohmann::json>(&outcome);
    if (!reply_json || !reply_json->contains("status")) continue;  // the screening stands
    EvaluationReply reply = evaluation_reply_from_json(*reply_json);
    if (reply.status != EvaluationStatus::Ok || !reply.measurement) continue;
    r.resources["screening"] = {{"median_s", *r.median_s}, {"samples", r.samples}, {"stop_reason", r.stop_reason}};
    fill_result_stats(r, *reply.measurement);
    if (auto flops = kind.flop_count(config); flops && *r.median_s > 0) r.gflops = *flops / *r.median_s / 1e9;
    if (auto bytes = kind.byte_count(config); bytes && *r.median_s > 0) r.gbps = *bytes / *r.median_s / 1e9;
    r.phases["confirm"] = reply.phases.value("total", 0.0);
    database.update_measurement(r);
    summary.confirmed.push_back({{"result_id", r.id},
                                 {"config", r.config},
                                 {"screening_median_s", r.resources["screening"]["median_s"]},
                                 {"median_s", *r.median_s},
                                 {"samples", r.samples}});
  }
}

// --sanitize: the fastest correct candidates of this session, in order (scope "winner": until
// one is clean, at most 5; "all": every one), each re-run under compute-sanitizer and recorded.
void sanitize_results(const TuneOptions& options, const spec::TuningProblem& problem, const std::string& backend_name,
                      CandidateKind& kind, const std::string& target,
                      const std::optional<device::CompileResult>& reference, const measure::Policy& policy,
                      db::Database& database, TuneSummary& summary) {
  std::vector<db::ResultRecord*> ok;
  for (auto& r : summary.results)
    if (r.status == db::Status::Ok && r.median_s) ok.push_back(&r);
  std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return *a->median_s < *b->median_s; });
  const bool winner_only = options.sanitize.scope == "winner";
  for (std::size_t i = 0; i < ok.size() && (!winner_only || i < 5); ++i) {
    db::ResultRecord& r = *ok[i];
    const Config config = config_from_json(r.config);
    EvaluationRequest req;
    req.spec_path = problem.spec_path.string();
    req.size_overrides = options.size_overrides;
    req.config = config;
    req.backend = backend_name;
    req.device = r.resources.value("device_ordinal", options.devices.front());
    req.artifact = kind.compile(config, target);
    req.reference_artifact = reference;
    req.policy = policy;
    nlohmann::json findings = sanitize_candidate(req, options.worker, options.sanitize);
    const long errors = findings.value("errors", 0L);
    std::string error;
    if (errors > 0) {
      error = "compute-sanitizer found " + std::to_string(errors) + " error(s):";
      for (const auto& [tool, entry] : findings["tools"].items())
        if (entry.value("errors", 0L) > 0) error += "\n[" + tool + "]\n" + entry.value("report", "");
      --summary.by_status["ok"];
      ++summary.by_status[std::string(db::to_string(db::Status::MemoryError))];
    }
    database.record_sanitizer(r.id, findings, errors > 0 ? std::optional(db::Status::MemoryError) : std::nullopt, error);
    r.sanitizer = findings;
    if (errors > 0) {
      r.status = db::Status::MemoryError;
      r.error = error;
    }
    summary.sanitized.push_back({{"result_id", r.id}, {"config", r.config}, {"errors", errors}, {"findings", findings}});
    if (winner_only && errors == 0 && !findings.contains("error")) break;
    if (findings.contains("error")) break;  // the sanitizer itself cannot run: say so once
  }
}

}  // namespace

TuneSummary run_tuning(const TuneOptions& options) {
  SpecKernelKind kind(options.spec_path, options.size_overrides);
  return run_tuning(kind, options);
}

TuneSummary run_tuning(CandidateKind& kind, const TuneOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };

  const space::SearchSpace& space = kind.space();
  const spec::TuneSettings tune = kind.settings();
  if (!options.sanitize.scope.empty() && !kind.spec_problem())
    throw TuneError("--sanitize re-runs spec kernels under compute-sanitizer; this kind of candidate has no spec kernel");

  std::unique_ptr<device::Backend> backend = device::make_backend(kind.backend_name());
  measure::Policy policy = kind.policy();
  if (options.racing) policy.racing = *options.racing;
  if (options.l2_flush) policy.l2_flush = *options.l2_flush;
  // Before availability: a request the backend could never honour is an error on any machine.
  if (policy.l2_flush == measure::L2Flush::Clean && !backend->supports_clean_flush())
    throw TuneError(kind.source_label() + ": l2_flush clean (" +
                    (options.l2_flush ? std::string("--l2-flush") : std::string("the spec's measure block")) +
                    ") is not supported by the " + backend->name() +
                    " backend, whose cold runs only write the flush buffer; use dirty");
  device::Availability availability = backend->availability();
  if (!availability.available)
    throw TuneError("the " + backend->name() + " backend is not available on this machine: " + availability.reason);
  std::vector<device::DeviceInfo> all_devices = backend->devices();
  if (options.devices.empty()) throw TuneError("no device selected");
  std::vector<Lane> lanes;
  for (int ordinal : options.devices) {
    if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= all_devices.size())
      throw TuneError("no " + backend->name() + " device " + std::to_string(ordinal) + " (found " +
                      std::to_string(all_devices.size()) + ")");
    for (const auto& lane : lanes)
      if (lane.ordinal == ordinal) throw TuneError("device " + std::to_string(ordinal) + " is selected twice");
    Lane lane;
    lane.ordinal = ordinal;
    lane.info = all_devices[static_cast<std::size_t>(ordinal)];
    lanes.push_back(std::move(lane));
  }
  const std::string target = lanes.front().info.properties.value("target", "");
  for (const auto& lane : lanes)
    if (lane.info.properties.value("target", "") != target)
      throw TuneError("the selected devices need different compile targets (" + target + ", " +
                      lane.info.properties.value("target", "") + "): tune them separately");

  // A spec that leaves the precision at its defaults is tuned in two stages (screen everything,
  // confirm the finalists); one that sets min_seconds or max_noise is measured as it says.
  const bool two_stage = options.confirm > 0 && !options.fixed_configs && measure::uses_default_precision(policy);
  if (two_stage) policy = measure::screening_policy(policy);
  const std::string strategy_name = options.fixed_configs ? "fixed" : options.strategy.value_or(tune.strategy);
  const std::uint64_t seed = options.seed.value_or(tune.seed);
  const nlohmann::json strategy_params = options.strategy_params ? *options.strategy_params
                                         : strategy_name != tune.strategy ? nlohmann::json::object()
                                                                           : tune.strategy_params;
  const auto max_evaluations = options.max_evaluations ? options.max_evaluations : tune.max_evaluations;
  const auto max_seconds = options.max_seconds ? options.max_seconds : tune.max_seconds;

  db::Database database(options.db_path.empty() ? db::Database::default_path() : options.db_path);
  database.mark_abandoned_sessions();
  TuneSummary summary;
  summary.kernel = kind.kernel_record();
  summary.kernel.id = database.upsert_kernel(summary.kernel);
  summary.problem = kind.problem_record();
  summary.problem.id = database.upsert_problem(summary.problem);
  summary.strategy = strategy_name;
  summary.space_size = space.size();

  std::unique_ptr<search::Strategy> strategy =
      options.fixed_configs ? std::make_unique<FixedList>(*options.fixed_configs)
                            : search::make_strategy(strategy_name, space, {seed, strategy_params});

  nlohmann::json session_options = {{"spec", kind.source_label()},
                                    {"sizes", summary.problem.sizes},
                                    {"seed", seed},
                                    {"strategy_params", strategy_params},
                                    {"policy", measure::policy_to_json(policy)},
                                    {"devices", options.devices},
                                    {"label", options.session_label.empty() ? "tune" : options.session_label},
                                    {"confirm", two_stage ? options.confirm : 0}};
  if (max_evaluations) session_options["max_evaluations"] = *max_evaluations;
  if (max_seconds) session_options["max_seconds"] = *max_seconds;

  // Results already in the database for any selected device are not measured again.
  // Those measured after the other L2 flush are not this measurement (RecordedFlush).
  std::map<std::string, db::ResultRecord> prior;
  RecordedFlush flushes(database);
  for (auto& lane : lanes) {
    lane.record = {0, lane.info.fingerprint, lane.info.backend, lane.info.name, lane.info.properties};
    lane.record.id = database.upsert_device(lane.record);
    if (resumes_recorded_results(options))
      for (auto& r : database.results_for(lane.record.id, summary.kernel.id, summary.problem.id))
        if (flushes.of(r) == policy.l2_flush) prior.emplace(r.config_key, std::move(r));
  }
  for (auto& lane : lanes) {
    lane.session_id = database.begin_session(lane.record.id, summary.kernel.id, summary.problem.id, strategy_name,
                                             session_options);
    summary.session_ids.push_back(lane.session_id);
    summary.devices.push_back(lane.record);
    lane.worker = std::make_unique<worker::WorkerProcess>(options.worker);
  }
  summary.session_id = lanes.front().session_id;
  summary.device = lanes.front().record;
  auto finish_sessions = [&](std::string_view state) {
    for (const auto& lane : lanes) database.finish_session(lane.session_id, state);
  };

  // The reference is compiled once, before any candidate: without it nothing can be verified.
  std::optional<device::CompileResult> reference;
  try {
    reference = kind.compile_reference(target);
  } catch (...) {
    finish_sessions(db::kSessionFailed);
    throw;
  }

  std::optional<measure::Stats> incumbent;
  std::optional<double> best_seconds;
  std::string best_key;
  auto consider_best = [&](const db::ResultRecord& r) {
    if (r.status == db::Status::Ok && r.median_s && (!best_seconds || *r.median_s < *best_seconds)) {
      best_seconds = r.median_s;
      best_key = r.config_key;
      incumbent = result_stats(r);
    }
  };
  for (const auto& [key, r] : prior) consider_best(r);

  report::Progress progress(options.progress, options.progress_stream, max_seconds);
  report::ProgressUpdate update;
  if (options.fixed_configs) update.total = options.fixed_configs->size();
  else update.total = max_evaluations ? std::min<std::uint64_t>(*max_evaluations, space.size()) : space.size();

  ThreadPool pool(options.compile_jobs > 0 ? static_cast<std::size_t>(options.compile_jobs) : 0);
  // Ahead of the workers, on a pool thread, while the first candidates compile.
  std::vector<std::future<void>> prepared;
  for (const auto& lane : lanes) {
    device::Backend* b = backend.get();
    prepared.push_back(pool.submit([b, ordinal = lane.ordinal] { b->prepare_workers(ordinal); }));
  }
  const std::size_t depth = pool.size() + lanes.size();
  std::deque<Pending> pending;
  bool exhausted = false;
  std::uint64_t counted = 0;  // resumed + evaluated + in flight, against max_evaluations

  auto budget_left = [&] { return !max_evaluations || counted < *max_evaluations; };
  auto time_left = [&] { return !max_seconds || elapsed() < *max_seconds; };

  auto record = [&](Lane& lane, db::ResultRecord r) {
    r.session_id = lane.session_id;
    r.device_id = lane.record.id;
    r.kernel_id = summary.kernel.id;
    r.problem_id = summary.problem.id;
    if (r.finished_at_unix == 0) r.finished_at_unix = now_unix();
    const auto insert_start = std::chrono::steady_clock::now();
    r.id = database.insert_result(r);
    summary.phase_totals["record"] =
        summary.phase_totals.value("record", 0.0) +
        std::chrono::duration<double>(std::chrono::steady_clock::now() - insert_start).count();
    for (const auto& [phase, seconds] : r.phases.items())
      if (seconds.is_number()) summary.phase_totals[phase] = summary.phase_totals.value(phase, 0.0) + seconds.get<double>();
    ++summary.evaluated;
    ++summary.by_status[std::string(db::to_string(r.status))];
    if (r.raced) ++summary.raced;
    consider_best(r);
    strategy->tell({config_from_json(r.config), r.status == db::Status::Ok ? r.median_s : std::nullopt,
                    r.compile_seconds + std::max(0.0, r.finished_at_unix - r.started_at_unix)});
    update.done = summary.evaluated + summary.resumed;
    (r.status == db::Status::Ok ? update.ok : update.failed)++;
    update.last_config = r.config_key;
    update.last_status = std::string(db::to_string(r.status));
    update.last_seconds = r.median_s;
    update.best_seconds = best_seconds;
    update.best_config = best_key;
    progress.update(update);
    summary.results.push_back(std::move(r));
  };

  auto refill = [&] {
    while (!exhausted && pending.size() < depth && budget_left() && time_left() && !interrupt_flag().load()) {
      std::optional<Config> config = strategy->ask();
      if (!config) {
        exhausted = true;
        break;
      }
      ++counted;
      auto it = prior.find(config_key(*config));
      if (it != prior.end()) {
        ++summary.resumed;
        ++update.resumed;
        strategy->tell({*config, it->second.status == db::Status::Ok ? it->second.median_s : std::nullopt});
        update.done = summary.evaluated + summary.resumed;
        continue;
      }
      CandidateKind* k = &kind;
      pending.push_back({*config, pool.submit([k, c = *config, target] { return k->compile(c, target); }), now_unix()});
    }
  };

  // Starts the front candidate on `lane`, or records it at once when it cannot run.
  auto dispatch = [&](Lane& lane) {
    Pending p = std::move(pending.front());
    pending.pop_front();
    const auto wait_start = std::chrono::steady_clock::now();
    device::CompileResult compiled = p.compiled.get();
    db::ResultRecord r;
    r.phases["compile"] = compiled.seconds;
    r.phases["compile_wait"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
    r.config_key = config_key(p.config);
    r.config = config_to_json(p.config);
    r.compile_seconds = compiled.seconds;
    r.compile_cache_hit = compiled.cache_hit;
    r.resources = compiled.resources.is_object() ? compiled.resources : nlohmann::json::object();
    r.started_at_unix = p.started_unix;
    if (!compiled.ok) {
      r.status = compiled.log.find("timed out") != std::string::npos ? db::Status::Timeout : db::Status::CompileError;
      r.error = compiled.log;
      record(lane, std::move(r));
      return;
    }
    // Static screening: a config that cannot launch never touches the device.
    device::ScreenResult screen;
    try {
      screen = kind.screen(*backend, lane.ordinal, p.config, compiled);
    } catch (const std::exception& e) {
      r.status = db::Status::RuntimeError;
      r.error = e.what();
      record(lane, std::move(r));
      return;
    }
    if (!screen.details.empty()) r.resources["occupancy"] = screen.details;
    if (!screen.launchable) {
      r.status = db::Status::ResourceLimit;
      r.error = screen.reason;
      record(lane, std::move(r));
      return;
    }

    CandidateKind::Request req;
    req.config = &p.config;
    req.device = lane.ordinal;
    req.artifact = &compiled;
    req.reference = &reference;
    req.policy = policy;
    if (policy.racing) req.incumbent = incumbent;
    // A single run far slower than the best so far is a hang: the worker's watchdog ends it.
    const double spec_timeout = tune.candidate_timeout_seconds;
    if (incumbent) req.run_timeout_seconds = std::max(2.0, 200.0 * incumbent->median);
    if (spec_timeout > 0) req.run_timeout_seconds = req.run_timeout_seconds > 0 ? std::min(req.run_timeout_seconds, spec_timeout) : spec_timeout;
    const double timeout = kind.call_timeout(policy, !lane.reference_warm && reference);
    nlohmann::json request_json = kind.evaluation_request(req);
    lane.result = std::move(r);
    lane.config = p.config;
    lane.busy = true;
    lane.call_started = std::chrono::steady_clock::now();
    worker::WorkerProcess* w = lane.worker.get();
    lane.call = std::async(std::launch::async, [w, j = std::move(request_json), timeout] { return w->call(j, timeout); });
  };

  auto complete = [&](Lane& lane) {
    worker::WorkerProcess::Outcome outcome = lane.call.get();
    lane.busy = false;
    db::ResultRecord r = std::move(lane.result);
    r.finished_at_unix = now_unix();
    r.phases["worker_call"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - lane.call_started).count();
    r.resources["device_ordinal"] = lane.ordinal;
    if (auto* reply_json = std::get_if<nlohmann::json>(&outcome)) {
      const EvaluationReply reply = evaluation_reply_or_error(*reply_json);
      lane.reference_warm = true;
      r.verification = reply.verification;
      r.error = reply.error;
      for (const auto& [phase, seconds] : reply.phases.items()) r.phases[phase] = seconds;
      for (const auto& [key, value] : reply.details.items()) r.resources[key] = value;
      if (reply.phases.contains("total"))
        r.phases["overhead"] = r.phases["worker_call"].get<double>() - reply.phases["total"].get<double>();
      if (reply.status == EvaluationStatus::WrongResult) r.status = db::Status::WrongResult;
      else if (reply.status == EvaluationStatus::RuntimeError) r.status = db::Status::RuntimeError;
      else if (reply.status == EvaluationStatus::MemoryError) r.status = db::Status::MemoryError;
      else r.status = db::Status::Ok;
      if (reply.measurement) {
        fill_result_stats(r, *reply.measurement);
        if (reply.measurement->discarded_samples > 0) r.resources["discarded_samples"] = reply.measurement->discarded_samples;
        if (reply.measurement->from_discarded) r.resources["from_discarded_samples"] = true;
        if (!reply.cache_mode.empty()) r.resources["cache_mode"] = reply.cache_mode;
        if (reply.rotation_copies > 1) r.resources["rotation_copies"] = reply.rotation_copies;
        if (auto flops = kind.flop_count(lane.config); flops && r.median_s && *r.median_s > 0)
          r.gflops = *flops / *r.median_s / 1e9;
        if (auto bytes = kind.byte_count(lane.config); bytes && r.median_s && *r.median_s > 0)
          r.gbps = *bytes / *r.median_s / 1e9;
      }
    } else if (auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
      lane.reference_warm = false;
      if (crashed->exit_code == kWatchdogExitCode) r.status = db::Status::Timeout;
      else if (crashed->exit_code == kContextPoisonedExitCode) r.status = db::Status::RuntimeError;
      else r.status = db::Status::Crashed;
      r.error = crashed->description + (crashed->stderr_tail.empty() ? "" : "\n" + crashed->stderr_tail);
    } else {
      const auto& timed_out = std::get<worker::WorkerProcess::TimedOut>(outcome);
      lane.reference_warm = false;
      r.status = db::Status::Timeout;
      r.error = "no answer within " + std::to_string(timed_out.seconds) + " s; the worker was killed" +
                (timed_out.stderr_tail.empty() ? "" : "\n" + timed_out.stderr_tail);
    }
    record(lane, std::move(r));
  };

  auto any_busy = [&] {
    for (const auto& lane : lanes)
      if (lane.busy) return true;
    return false;
  };

  for (;;) {
    const bool stopping = interrupt_flag().load() || !time_left();
    if (!stopping) refill();
    for (auto& lane : lanes) {
      while (!stopping && !lane.busy && !pending.empty() &&
             pending.front().compiled.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        dispatch(lane);
    }
    if (!any_busy() && (stopping || pending.empty())) break;
    bool progressed = false;
    for (auto& lane : lanes) {
      if (lane.busy && lane.call.wait_for(std::chrono::milliseconds(2)) == std::future_status::ready) {
        complete(lane);
        progressed = true;
      }
    }
    if (!progressed && !any_busy() && !pending.empty()) pending.front().compiled.wait_for(std::chrono::milliseconds(20));
  }

  pool.cancel_pending();
  for (auto& p : prepared)
    if (p.valid()) p.wait();
  if (interrupt_flag().load()) summary.stop_reason = "interrupted";
  else if (!time_left()) summary.stop_reason = "time budget";
  else if (exhausted) summary.stop_reason = options.fixed_configs ? "done" : "space exhausted";
  else summary.stop_reason = "max evaluations";
  // Compiles still queued belong to configs that were never measured; wait so no thread outlives us.
  for (auto& p : pending)
    if (p.compiled.valid()) p.compiled.wait();
  if (two_stage && !interrupt_flag().load())
    confirm_finalists(options, kind, target, kind.policy(), lanes, database, summary);
  for (auto& lane : lanes) lane.worker->stop();
  if (!options.sanitize.scope.empty() && !interrupt_flag().load())
    sanitize_results(options, *kind.spec_problem(), backend->name(), kind, target, reference, policy, database, summary);
  finish_sessions(interrupt_flag().load() ? db::kSessionInterrupted : db::kSessionFinished);
  for (const auto& lane : lanes) {
    auto b = database.best(lane.record.id, summary.kernel.id, summary.problem.id);
    if (b && (!summary.best || *b->median_s < *summary.best->median_s)) summary.best = b;
  }
  summary.wall_seconds = elapsed();
  update.best_seconds = best_seconds;
  update.best_config = best_key;
  progress.finish(update);
  return summary;
}

}  // namespace ktune::tuner
