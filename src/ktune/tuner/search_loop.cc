#include "ktune/tuner/search_loop.h"

#include <algorithm>
#include <thread>

#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/result_stats.h"

namespace ktune::tuner {

namespace {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A single run far slower than the best so far is a hang: the worker's watchdog ends it. The
// spec's candidate timeout, where it sets one, caps that.
double run_timeout(double spec_timeout, const std::optional<measure::Stats>& incumbent) {
  double seconds = incumbent ? std::max(2.0, 200.0 * incumbent->median) : 0.0;
  if (spec_timeout > 0) seconds = seconds > 0 ? std::min(seconds, spec_timeout) : spec_timeout;
  return seconds;
}

void apply_reply(const EvaluationReply& reply, const CandidateKind& kind, const Config& config, db::ResultRecord& r) {
  r.verification = reply.verification;
  r.error = reply.error;
  for (const auto& [phase, seconds] : reply.phases.items()) r.phases[phase] = seconds;
  for (const auto& [key, value] : reply.details.items()) r.resources[key] = value;
  if (reply.phases.contains("total"))
    r.phases["overhead"] = r.phases["worker_call"].get<double>() - reply.phases["total"].get<double>();
  switch (reply.status) {
    case EvaluationStatus::WrongResult: r.status = db::Status::WrongResult; break;
    case EvaluationStatus::RuntimeError: r.status = db::Status::RuntimeError; break;
    case EvaluationStatus::MemoryError: r.status = db::Status::MemoryError; break;
    case EvaluationStatus::Ok: r.status = db::Status::Ok; break;
  }
  if (!reply.measurement) return;
  fill_result_stats(r, *reply.measurement);
  if (reply.measurement->discarded_samples > 0) r.resources["discarded_samples"] = reply.measurement->discarded_samples;
  if (reply.measurement->from_discarded) r.resources["from_discarded_samples"] = true;
  if (!reply.cache_mode.empty()) r.resources["cache_mode"] = reply.cache_mode;
  if (reply.rotation_copies > 1) r.resources["rotation_copies"] = reply.rotation_copies;
  fill_rates(kind, config, r);
}

}  // namespace

void fill_rates(const CandidateKind& kind, const Config& config, db::ResultRecord& r) {
  if (!r.median_s || *r.median_s <= 0) return;
  if (auto flops = kind.flop_count(config)) r.gflops = *flops / *r.median_s / 1e9;
  if (auto bytes = kind.byte_count(config)) r.gbps = *bytes / *r.median_s / 1e9;
}

bool apply_outcome(const worker::WorkerProcess::Outcome& outcome, const CandidateKind& kind, const Config& config,
                   db::ResultRecord& r) {
  if (const auto* reply_json = std::get_if<nlohmann::json>(&outcome)) {
    apply_reply(evaluation_reply_or_error(*reply_json), kind, config, r);
    return true;
  }
  if (const auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
    if (crashed->exit_code == kWatchdogExitCode) r.status = db::Status::Timeout;
    else if (crashed->exit_code == kContextPoisonedExitCode) r.status = db::Status::RuntimeError;
    else r.status = db::Status::Crashed;
    r.error = crashed->description + (crashed->stderr_tail.empty() ? "" : "\n" + crashed->stderr_tail);
    return false;
  }
  const auto& timed_out = std::get<worker::WorkerProcess::TimedOut>(outcome);
  r.status = db::Status::Timeout;
  r.error = "no answer within " + std::to_string(timed_out.seconds) + " s; the worker was killed" +
            (timed_out.stderr_tail.empty() ? "" : "\n" + timed_out.stderr_tail);
  return false;
}

SearchLoop::SearchLoop(SearchContext context)
    : c_(std::move(context)),
      plan_(c_.plan),
      progress_(c_.options.progress, c_.options.progress_stream, plan_.max_seconds),
      pool_(c_.options.compile_jobs > 0 ? static_cast<std::size_t>(c_.options.compile_jobs) : 0) {
  const std::uint64_t space_size = c_.kind.space().size();
  if (c_.options.fixed_configs) update_.total = c_.options.fixed_configs->size();
  else update_.total = plan_.max_evaluations ? std::min<std::uint64_t>(*plan_.max_evaluations, space_size) : space_size;
  for (const auto& [key, r] : c_.prior) consider_best(r);
  // Ahead of the workers, on a pool thread, while the first candidates compile.
  for (const auto& lane : c_.lanes) {
    device::Backend* b = &c_.backend;
    prepared_.push_back(pool_.submit([b, ordinal = lane.ordinal] { b->prepare_workers(ordinal); }));
  }
  depth_ = pool_.size() + c_.lanes.size();
}

bool SearchLoop::any_busy() const {
  return std::any_of(c_.lanes.begin(), c_.lanes.end(), [](const Lane& lane) { return lane.busy; });
}

void SearchLoop::consider_best(const db::ResultRecord& r) {
  if (r.status == db::Status::Ok && r.median_s && (!best_seconds_ || *r.median_s < *best_seconds_)) {
    best_seconds_ = r.median_s;
    best_key_ = r.config_key;
    incumbent_ = result_stats(r);
  }
}

void SearchLoop::record(Lane& lane, db::ResultRecord r) {
  TuneSummary& summary = c_.summary;
  r.session_id = lane.session_id;
  r.device_id = lane.record.id;
  r.kernel_id = summary.kernel.id;
  r.problem_id = summary.problem.id;
  if (r.finished_at_unix == 0) r.finished_at_unix = now_unix();
  const auto insert_start = std::chrono::steady_clock::now();
  r.id = c_.database.insert_result(r);
  summary.phase_totals["record"] = summary.phase_totals.value("record", 0.0) + seconds_since(insert_start);
  for (const auto& [phase, seconds] : r.phases.items())
    if (seconds.is_number()) summary.phase_totals[phase] = summary.phase_totals.value(phase, 0.0) + seconds.get<double>();
  ++summary.evaluated;
  ++summary.by_status[std::string(db::to_string(r.status))];
  if (r.raced) ++summary.raced;
  consider_best(r);
  c_.strategy.tell({config_from_json(r.config), r.status == db::Status::Ok ? r.median_s : std::nullopt,
                    r.compile_seconds + std::max(0.0, r.finished_at_unix - r.started_at_unix)});
  update_.done = summary.evaluated + summary.resumed;
  (r.status == db::Status::Ok ? update_.ok : update_.failed)++;
  update_.last_config = r.config_key;
  update_.last_status = std::string(db::to_string(r.status));
  update_.last_seconds = r.median_s;
  update_.best_seconds = best_seconds_;
  update_.best_config = best_key_;
  progress_.update(update_);
  summary.results.push_back(std::move(r));
}

void SearchLoop::refill() {
  while (!exhausted_ && pending_.size() < depth_ && budget_left() && time_left() && !interrupt_flag().load()) {
    std::optional<Config> config = c_.strategy.ask();
    if (!config) {
      exhausted_ = true;
      break;
    }
    ++counted_;
    auto it = c_.prior.find(config_key(*config));
    if (it != c_.prior.end()) {
      ++c_.summary.resumed;
      ++update_.resumed;
      c_.strategy.tell({*config, it->second.status == db::Status::Ok ? it->second.median_s : std::nullopt});
      update_.done = c_.summary.evaluated + c_.summary.resumed;
      continue;
    }
    CandidateKind* k = &c_.kind;
    pending_.push_back(
        {*config, pool_.submit([k, c = *config, target = c_.target] { return k->compile(c, target); }), now_unix()});
  }
}

nlohmann::json SearchLoop::evaluation_request(const Pending& p, const Lane& lane,
                                              const device::CompileResult& compiled) const {
  CandidateKind::Request req;
  req.config = &p.config;
  req.device = lane.ordinal;
  req.artifact = &compiled;
  req.reference = &c_.reference;
  req.policy = plan_.policy;
  if (plan_.policy.racing) req.incumbent = incumbent_;
  req.run_timeout_seconds = run_timeout(plan_.candidate_timeout_seconds, incumbent_);
  return c_.kind.evaluation_request(req);
}

void SearchLoop::dispatch(Lane& lane) {
  Pending p = std::move(pending_.front());
  pending_.pop_front();
  const auto wait_start = std::chrono::steady_clock::now();
  device::CompileResult compiled = p.compiled.get();
  db::ResultRecord r;
  r.phases["compile"] = compiled.seconds;
  r.phases["compile_wait"] = seconds_since(wait_start);
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
    screen = c_.kind.screen(c_.backend, lane.ordinal, p.config, compiled);
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
  const double timeout = c_.kind.call_timeout(plan_.policy, !lane.reference_warm && c_.reference);
  nlohmann::json request_json = evaluation_request(p, lane, compiled);
  lane.result = std::move(r);
  lane.config = p.config;
  lane.busy = true;
  lane.call_started = std::chrono::steady_clock::now();
  worker::WorkerProcess* w = lane.worker.get();
  lane.call = std::async(std::launch::async, [w, j = std::move(request_json), timeout] { return w->call(j, timeout); });
}

void SearchLoop::complete(Lane& lane) {
  worker::WorkerProcess::Outcome outcome = lane.call.get();
  lane.busy = false;
  db::ResultRecord r = std::move(lane.result);
  r.finished_at_unix = now_unix();
  r.phases["worker_call"] = seconds_since(lane.call_started);
  r.resources["device_ordinal"] = lane.ordinal;
  lane.reference_warm = apply_outcome(outcome, c_.kind, lane.config, r);
  record(lane, std::move(r));
}

void SearchLoop::run() {
  for (;;) {
    const bool stopping = interrupt_flag().load() || !time_left();
    if (!stopping) refill();
    for (auto& lane : c_.lanes) {
      while (!stopping && !lane.busy && !pending_.empty() &&
             pending_.front().compiled.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
        dispatch(lane);
    }
    if (!any_busy() && (stopping || pending_.empty())) break;
    bool progressed = false;
    for (auto& lane : c_.lanes) {
      if (lane.busy && lane.call.wait_for(std::chrono::milliseconds(2)) == std::future_status::ready) {
        complete(lane);
        progressed = true;
      }
    }
    if (!progressed && !any_busy() && !pending_.empty()) pending_.front().compiled.wait_for(std::chrono::milliseconds(20));
  }
  drain();
}

void SearchLoop::drain() {
  pool_.cancel_pending();
  for (auto& p : prepared_)
    if (p.valid()) p.wait();
  if (interrupt_flag().load()) c_.summary.stop_reason = "interrupted";
  else if (!time_left()) c_.summary.stop_reason = "time budget";
  else if (exhausted_) c_.summary.stop_reason = c_.options.fixed_configs ? "done" : "space exhausted";
  else c_.summary.stop_reason = "max evaluations";
  // Compiles still queued belong to configs that were never measured; wait so no thread outlives us.
  for (auto& p : pending_)
    if (p.compiled.valid()) p.compiled.wait();
}

void SearchLoop::finish_progress() {
  update_.best_seconds = best_seconds_;
  update_.best_config = best_key_;
  progress_.finish(update_);
}

}  // namespace ktune::tuner
