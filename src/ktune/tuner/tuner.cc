#include "ktune/tuner/tuner.h"

#include <algorithm>
#include <chrono>

#include "ktune/device/device.h"
#include "ktune/device/registry.h"
#include "ktune/search/strategy.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/recorded_flush.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/tuner/result_stats.h"
#include "ktune/tuner/search_loop.h"
#include "ktune/tuner/spec_kernel_kind.h"

namespace ktune::tuner {

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

bool resumes_recorded_results(const TuneOptions& options) { return options.resume && !options.fixed_configs; }

namespace {

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
    fill_rates(kind, config, r);
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

namespace {

// The kind's policy, strategy and budgets with the options over them; refuses what the backend
// could never honour, before it is asked for a device.
SessionPlan plan_session(const CandidateKind& kind, const TuneOptions& options, const device::Backend& backend) {
  const spec::TuneSettings tune = kind.settings();
  SessionPlan plan;
  plan.full_policy = kind.policy();
  if (options.racing) plan.full_policy.racing = *options.racing;
  if (options.l2_flush) plan.full_policy.l2_flush = *options.l2_flush;
  if (plan.full_policy.l2_flush == measure::L2Flush::Clean && !backend.supports_clean_flush())
    throw TuneError(kind.source_label() + ": l2_flush clean (" +
                    (options.l2_flush ? std::string("--l2-flush") : std::string("the spec's measure block")) +
                    ") is not supported by the " + backend.name() +
                    " backend, whose cold runs only write the flush buffer; use dirty");
  // A spec that leaves the precision at its defaults is tuned in two stages (screen everything,
  // confirm the finalists); one that sets min_seconds or max_noise is measured as it says.
  plan.two_stage = options.confirm > 0 && !options.fixed_configs && measure::uses_default_precision(plan.full_policy);
  plan.policy = plan.two_stage ? measure::screening_policy(plan.full_policy) : plan.full_policy;
  plan.strategy_name = options.fixed_configs ? "fixed" : options.strategy.value_or(tune.strategy);
  plan.seed = options.seed.value_or(tune.seed);
  plan.strategy_params = options.strategy_params           ? *options.strategy_params
                         : plan.strategy_name != tune.strategy ? nlohmann::json::object()
                                                               : tune.strategy_params;
  plan.max_evaluations = options.max_evaluations ? options.max_evaluations : tune.max_evaluations;
  plan.max_seconds = options.max_seconds ? options.max_seconds : tune.max_seconds;
  plan.candidate_timeout_seconds = tune.candidate_timeout_seconds;
  return plan;
}

// One lane per selected device, all of one compile target (returned).
std::string open_lanes(device::Backend& backend, const std::vector<int>& ordinals, std::vector<Lane>& lanes) {
  const device::Availability availability = backend.availability();
  if (!availability.available)
    throw TuneError("the " + backend.name() + " backend is not available on this machine: " + availability.reason);
  const std::vector<device::DeviceInfo> all_devices = backend.devices();
  if (ordinals.empty()) throw TuneError("no device selected");
  for (int ordinal : ordinals) {
    if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= all_devices.size())
      throw TuneError("no " + backend.name() + " device " + std::to_string(ordinal) + " (found " +
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
  return target;
}

nlohmann::json session_options_json(const CandidateKind& kind, const TuneOptions& options, const SessionPlan& plan,
                                    const TuneSummary& summary) {
  nlohmann::json j = {{"spec", kind.source_label()},
                      {"sizes", summary.problem.sizes},
                      {"seed", plan.seed},
                      {"strategy_params", plan.strategy_params},
                      {"policy", measure::policy_to_json(plan.policy)},
                      {"devices", options.devices},
                      {"label", options.session_label.empty() ? "tune" : options.session_label},
                      {"confirm", plan.two_stage ? options.confirm : 0}};
  if (plan.max_evaluations) j["max_evaluations"] = *plan.max_evaluations;
  if (plan.max_seconds) j["max_seconds"] = *plan.max_seconds;
  return j;
}

// Records each lane's device and returns the results already in the database for any of them
// (not measured again), leaving out those measured after the other L2 flush (RecordedFlush).
std::map<std::string, db::ResultRecord> recorded_results(db::Database& database, std::vector<Lane>& lanes,
                                                         const TuneSummary& summary, const TuneOptions& options,
                                                         measure::L2Flush flush) {
  std::map<std::string, db::ResultRecord> prior;
  RecordedFlush flushes(database);
  for (auto& lane : lanes) {
    lane.record = {0, lane.info.fingerprint, lane.info.backend, lane.info.name, lane.info.properties};
    lane.record.id = database.upsert_device(lane.record);
    if (resumes_recorded_results(options))
      for (auto& r : database.results_for(lane.record.id, summary.kernel.id, summary.problem.id))
        if (flushes.of(r) == flush) prior.emplace(r.config_key, std::move(r));
  }
  return prior;
}

void finish_sessions(db::Database& database, const std::vector<Lane>& lanes, std::string_view state) {
  for (const auto& lane : lanes) database.finish_session(lane.session_id, state);
}

}  // namespace

TuneSummary run_tuning(CandidateKind& kind, const TuneOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto elapsed = [wall_start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  };
  if (!options.sanitize.scope.empty() && !kind.spec_problem())
    throw TuneError("--sanitize re-runs spec kernels under compute-sanitizer; this kind of candidate has no spec kernel");

  std::unique_ptr<device::Backend> backend = device::make_backend(kind.backend_name());
  const SessionPlan plan = plan_session(kind, options, *backend);
  std::vector<Lane> lanes;
  const std::string target = open_lanes(*backend, options.devices, lanes);

  db::Database database(options.db_path.empty() ? db::Database::default_path() : options.db_path);
  database.mark_abandoned_sessions();
  TuneSummary summary;
  summary.kernel = kind.kernel_record();
  summary.kernel.id = database.upsert_kernel(summary.kernel);
  summary.problem = kind.problem_record();
  summary.problem.id = database.upsert_problem(summary.problem);
  summary.strategy = plan.strategy_name;
  summary.space_size = kind.space().size();

  std::unique_ptr<search::Strategy> strategy =
      options.fixed_configs ? std::make_unique<FixedList>(*options.fixed_configs)
                            : search::make_strategy(plan.strategy_name, kind.space(), {plan.seed, plan.strategy_params});
  const nlohmann::json session_options = session_options_json(kind, options, plan, summary);
  const std::map<std::string, db::ResultRecord> prior =
      recorded_results(database, lanes, summary, options, plan.policy.l2_flush);
  for (auto& lane : lanes) {
    lane.session_id = database.begin_session(lane.record.id, summary.kernel.id, summary.problem.id,
                                             plan.strategy_name, session_options);
    summary.session_ids.push_back(lane.session_id);
    summary.devices.push_back(lane.record);
    lane.worker = std::make_unique<worker::WorkerProcess>(options.worker);
  }
  summary.session_id = lanes.front().session_id;
  summary.device = lanes.front().record;

  // The reference is compiled once, before any candidate: without it nothing can be verified.
  std::optional<device::CompileResult> reference;
  try {
    reference = kind.compile_reference(target);
  } catch (...) {
    finish_sessions(database, lanes, db::kSessionFailed);
    throw;
  }

  SearchLoop loop({kind, options, plan, *backend, lanes, target, reference, prior, *strategy, database, summary, elapsed});
  loop.run();
  if (plan.two_stage && !interrupt_flag().load())
    confirm_finalists(options, kind, target, plan.full_policy, lanes, database, summary);
  for (auto& lane : lanes) lane.worker->stop();
  if (!options.sanitize.scope.empty() && !interrupt_flag().load())
    sanitize_results(options, *kind.spec_problem(), backend->name(), kind, target, reference, plan.policy, database,
                     summary);
  finish_sessions(database, lanes, interrupt_flag().load() ? db::kSessionInterrupted : db::kSessionFinished);
  for (const auto& lane : lanes) {
    auto b = database.best(lane.record.id, summary.kernel.id, summary.problem.id);
    if (b && (!summary.best || *b->median_s < *summary.best->median_s)) summary.best = b;
  }
  summary.wall_seconds = elapsed();
  loop.finish_progress();
  return summary;
}

}  // namespace ktune::tuner
