#include "ktune/tuner/tuner.h"

#include <chrono>
#include <deque>
#include <future>

#include "ktune/core/thread_pool.h"
#include "ktune/device/device.h"
#include "ktune/device/registry.h"
#include "ktune/measure/throughput.h"
#include "ktune/search/strategy.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/instantiate.h"

namespace ktune::tuner {

std::atomic<bool>& interrupt_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

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

void fill_stats(db::ResultRecord& r, const measure::Measurement& m) {
  r.median_s = m.stats.median;
  r.mean_s = m.stats.mean;
  r.min_s = m.stats.min;
  r.max_s = m.stats.max;
  r.q1_s = m.stats.q1;
  r.q3_s = m.stats.q3;
  r.stdev_s = m.stats.stdev;
  r.samples = static_cast<std::int64_t>(m.stats.count);
  r.stop_reason = std::string(measure::to_string(m.stop));
  r.raced = m.stop == measure::StopReason::Raced;
}

std::optional<measure::Stats> stats_of(const db::ResultRecord& r) {
  if (r.status != db::Status::Ok || !r.median_s) return std::nullopt;
  measure::Stats s{};
  s.count = static_cast<std::size_t>(r.samples);
  s.median = *r.median_s;
  s.mean = r.mean_s.value_or(*r.median_s);
  s.min = r.min_s.value_or(*r.median_s);
  s.max = r.max_s.value_or(*r.median_s);
  s.q1 = r.q1_s.value_or(*r.median_s);
  s.q3 = r.q3_s.value_or(*r.median_s);
  s.stdev = r.stdev_s.value_or(0);
  s.rel_stdev = s.mean > 0 ? s.stdev / s.mean : 0;
  return s;
}

}  // namespace

TuneSummary run_tuning(const TuneOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };

  spec::TuningProblem problem = spec::load_spec(options.spec_path, options.size_overrides);
  space::SearchSpace space = problem.make_space();

  std::unique_ptr<device::Backend> backend = device::make_backend(backend_for(problem));
  device::Availability availability = backend->availability();
  if (!availability.available)
    throw TuneError("the " + backend->name() + " backend is not available on this machine: " + availability.reason);
  std::vector<device::DeviceInfo> devices = backend->devices();
  if (options.device < 0 || static_cast<std::size_t>(options.device) >= devices.size())
    throw TuneError("no " + backend->name() + " device " + std::to_string(options.device) + " (found " +
                    std::to_string(devices.size()) + ")");
  const device::DeviceInfo& dev = devices[static_cast<std::size_t>(options.device)];
  const std::string target = dev.properties.value("target", "");

  measure::Policy policy = problem.policy;
  if (options.racing) policy.racing = *options.racing;
  const std::string strategy_name = options.fixed_configs ? "fixed" : options.strategy.value_or(problem.tune.strategy);
  const std::uint64_t seed = options.seed.value_or(problem.tune.seed);
  const auto max_evaluations = options.max_evaluations ? options.max_evaluations : problem.tune.max_evaluations;
  const auto max_seconds = options.max_seconds ? options.max_seconds : problem.tune.max_seconds;

  db::Database database(options.db_path.empty() ? db::Database::default_path() : options.db_path);
  database.mark_abandoned_sessions();
  TuneSummary summary;
  summary.device = {0, dev.fingerprint, dev.backend, dev.name, dev.properties};
  summary.device.id = database.upsert_device(summary.device);
  summary.kernel = {0, problem.kernel_hash(), problem.name, std::string(spec::language_name(problem.language)),
                    problem.sources.front().string()};
  summary.kernel.id = database.upsert_kernel(summary.kernel);
  summary.problem = {0, problem.problem_hash(), problem.name, config_to_json(problem.sizes), problem.to_json()};
  summary.problem.id = database.upsert_problem(summary.problem);
  summary.strategy = strategy_name;
  summary.space_size = space.size();

  std::map<std::string, db::ResultRecord> prior;
  if (options.resume && !options.fixed_configs)
    for (auto& r : database.results_for(summary.device.id, summary.kernel.id, summary.problem.id))
      prior[r.config_key] = std::move(r);

  std::unique_ptr<search::Strategy> strategy =
      options.fixed_configs ? std::make_unique<FixedList>(*options.fixed_configs)
                            : search::make_strategy(strategy_name, space, {seed, problem.tune.strategy_params});

  nlohmann::json session_options = {{"spec", problem.spec_path.string()},
                                    {"sizes", config_to_json(problem.sizes)},
                                    {"seed", seed},
                                    {"policy", measure::policy_to_json(policy)},
                                    {"label", options.session_label.empty() ? "tune" : options.session_label}};
  if (max_evaluations) session_options["max_evaluations"] = *max_evaluations;
  if (max_seconds) session_options["max_seconds"] = *max_seconds;
  summary.session_id = database.begin_session(summary.device.id, summary.kernel.id, summary.problem.id,
                                              strategy_name, session_options);

  // The reference is compiled once, before any candidate: without it nothing can be verified.
  std::optional<device::CompileResult> reference;
  if (problem.reference.kind != spec::ReferenceSpec::Kind::None) {
    device::CompileRequest req = problem.reference.kind == spec::ReferenceSpec::Kind::Kernel
                                     ? reference_compile_request(problem, target)
                                     : compile_request(problem, problem.reference.config, target);
    device::CompileResult r = backend->compiler().compile(req);
    if (!r.ok) {
      database.finish_session(summary.session_id, db::kSessionFailed);
      throw TuneError("the reference kernel does not compile, so no candidate can be verified:\n" + r.log);
    }
    reference = r;
  }

  std::optional<measure::Stats> incumbent;
  std::optional<double> best_seconds;
  std::string best_key;
  auto consider_best = [&](const db::ResultRecord& r) {
    if (r.status == db::Status::Ok && r.median_s && (!best_seconds || *r.median_s < *best_seconds)) {
      best_seconds = r.median_s;
      best_key = r.config_key;
      incumbent = stats_of(r);
    }
  };

  report::Progress progress(options.progress, options.progress_stream, max_seconds);
  report::ProgressUpdate update;
  if (options.fixed_configs) update.total = options.fixed_configs->size();
  else update.total = max_evaluations ? std::min<std::uint64_t>(*max_evaluations, space.size()) : space.size();

  ThreadPool pool(options.compile_jobs > 0 ? static_cast<std::size_t>(options.compile_jobs) : 0);
  worker::WorkerProcess worker(options.worker);
  const std::size_t depth = pool.size() + 1;
  std::deque<Pending> pending;
  bool exhausted = false;
  std::uint64_t counted = 0;  // resumed + evaluated + in flight, against max_evaluations
  bool reference_warm = false;

  auto budget_left = [&] { return !max_evaluations || counted < *max_evaluations; };
  auto time_left = [&] { return !max_seconds || elapsed() < *max_seconds; };

  auto record = [&](db::ResultRecord r) {
    r.session_id = summary.session_id;
    r.device_id = summary.device.id;
    r.kernel_id = summary.kernel.id;
    r.problem_id = summary.problem.id;
    r.id = database.insert_result(r);
    ++summary.evaluated;
    ++summary.by_status[std::string(db::to_string(r.status))];
    if (r.raced) ++summary.raced;
    consider_best(r);
    strategy->tell({config_from_json(r.config), r.status == db::Status::Ok ? r.median_s : std::nullopt});
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

  for (const auto& [key, r] : prior) consider_best(r);

  while (!interrupt_flag().load()) {
    while (!exhausted && pending.size() < depth && budget_left() && time_left()) {
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
      device::CompileRequest req = compile_request(problem, *config, target);
      device::Compiler* compiler = &backend->compiler();
      pending.push_back({*config, pool.submit([compiler, req] { return compiler->compile(req); }), now_unix()});
    }
    if (pending.empty()) break;
    if (!time_left()) break;

    Pending p = std::move(pending.front());
    pending.pop_front();
    device::CompileResult compiled = p.compiled.get();

    db::ResultRecord r;
    r.config_key = config_key(p.config);
    r.config = config_to_json(p.config);
    r.compile_seconds = compiled.seconds;
    r.compile_cache_hit = compiled.cache_hit;
    r.resources = compiled.resources;
    r.started_at_unix = p.started_unix;
    if (!compiled.ok) {
      r.status = compiled.log.find("timed out") != std::string::npos ? db::Status::Timeout : db::Status::CompileError;
      r.error = compiled.log;
      r.finished_at_unix = now_unix();
      record(std::move(r));
      continue;
    }

    EvaluationRequest req;
    req.spec_path = problem.spec_path.string();
    req.size_overrides = options.size_overrides;
    req.config = p.config;
    req.backend = backend->name();
    req.device = options.device;
    req.artifact = compiled;
    req.reference_artifact = reference;
    req.policy = policy;
    if (policy.racing) req.incumbent = incumbent;

    double timeout = problem.tune.candidate_timeout_seconds > 0
                         ? problem.tune.candidate_timeout_seconds
                         : policy.warmup_seconds + 1.5 * policy.timeout_seconds + 10.0;
    if (!reference_warm && reference) timeout += 60.0;  // the first call also computes the reference

    worker::WorkerProcess::Outcome outcome = worker.call(to_json(req), timeout);
    r.finished_at_unix = now_unix();
    if (auto* reply_json = std::get_if<nlohmann::json>(&outcome)) {
      EvaluationReply reply;
      try {
        if (reply_json->contains("error") && !reply_json->contains("status"))
          throw std::runtime_error(reply_json->at("error").get<std::string>());
        reply = evaluation_reply_from_json(*reply_json);
      } catch (const std::exception& e) {
        reply.status = EvaluationStatus::RuntimeError;
        reply.error = e.what();
      }
      reference_warm = true;
      r.verification = reply.verification;
      r.error = reply.error;
      if (reply.status == EvaluationStatus::WrongResult) r.status = db::Status::WrongResult;
      else if (reply.status == EvaluationStatus::RuntimeError) r.status = db::Status::RuntimeError;
      else r.status = db::Status::Ok;
      if (reply.measurement) {
        fill_stats(r, *reply.measurement);
        if (auto flops = flop_count(problem, p.config); flops && r.median_s && *r.median_s > 0)
          r.gflops = *flops / *r.median_s / 1e9;
        if (auto bytes = byte_count(problem, p.config); bytes && r.median_s && *r.median_s > 0)
          r.gbps = *bytes / *r.median_s / 1e9;
      }
    } else if (auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
      reference_warm = false;
      r.status = db::Status::Crashed;
      r.error = crashed->description + (crashed->stderr_tail.empty() ? "" : "\n" + crashed->stderr_tail);
    } else {
      const auto& timed_out = std::get<worker::WorkerProcess::TimedOut>(outcome);
      reference_warm = false;
      r.status = db::Status::Timeout;
      r.error = "no answer within " + std::to_string(timed_out.seconds) + " s; the worker was killed" +
                (timed_out.stderr_tail.empty() ? "" : "\n" + timed_out.stderr_tail);
    }
    record(std::move(r));
  }

  pool.cancel_pending();
  if (interrupt_flag().load()) summary.stop_reason = "interrupted";
  else if (!time_left()) summary.stop_reason = "time budget";
  else if (exhausted) summary.stop_reason = options.fixed_configs ? "done" : "space exhausted";
  else summary.stop_reason = "max evaluations";
  // Futures still pending belong to configs that were never measured; wait so no thread outlives us.
  for (auto& p : pending)
    if (p.compiled.valid()) p.compiled.wait();
  worker.stop();
  database.finish_session(summary.session_id,
                          interrupt_flag().load() ? db::kSessionInterrupted : db::kSessionFinished);
  summary.best = database.best(summary.device.id, summary.kernel.id, summary.problem.id);
  summary.wall_seconds = elapsed();
  update.best_seconds = best_seconds;
  update.best_config = best_key;
  progress.finish(update);
  return summary;
}

}  // namespace ktune::tuner
