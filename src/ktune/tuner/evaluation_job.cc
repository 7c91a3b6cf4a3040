#include "ktune/tuner/evaluation_job.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "ktune/device/registry.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/tuner/session_arguments.h"
#include "ktune/verify/compare.h"
#include "ktune/verify/poison.h"

namespace ktune::tuner {

std::string_view to_string(EvaluationStatus status) {
  switch (status) {
    case EvaluationStatus::Ok: return "ok";
    case EvaluationStatus::WrongResult: return "wrong_result";
    case EvaluationStatus::RuntimeError: return "runtime_error";
    case EvaluationStatus::MemoryError: return "memory_error";
  }
  return "?";
}

nlohmann::json to_json(const EvaluationRequest& r) {
  nlohmann::json j = {{"op", "evaluate"},
                      {"spec", r.spec_path},
                      {"sizes", config_to_json(r.size_overrides)},
                      {"config", config_to_json(r.config)},
                      {"backend", r.backend},
                      {"device", r.device},
                      {"artifact", r.artifact},
                      {"policy", measure::policy_to_json(r.policy)},
                      {"cold", r.cold},
                      {"measure", r.measure},
                      {"run_timeout_seconds", r.run_timeout_seconds}};
  j["reference_artifact"] = r.reference_artifact ? nlohmann::json(*r.reference_artifact) : nlohmann::json(nullptr);
  j["incumbent"] = r.incumbent ? measure::stats_to_json(*r.incumbent) : nlohmann::json(nullptr);
  return j;
}

EvaluationRequest evaluation_request_from_json(const nlohmann::json& j) {
  EvaluationRequest r;
  r.spec_path = j.at("spec").get<std::string>();
  r.size_overrides = config_from_json(j.at("sizes"));
  r.config = config_from_json(j.at("config"));
  r.backend = j.at("backend").get<std::string>();
  r.device = j.at("device").get<int>();
  r.artifact = j.at("artifact").get<device::CompileResult>();
  if (!j.at("reference_artifact").is_null()) r.reference_artifact = j.at("reference_artifact").get<device::CompileResult>();
  r.policy = measure::policy_from_json(j.at("policy"));
  if (!j.at("incumbent").is_null()) r.incumbent = measure::stats_from_json(j.at("incumbent"));
  r.cold = j.at("cold").get<bool>();
  r.measure = j.at("measure").get<bool>();
  r.run_timeout_seconds = j.value("run_timeout_seconds", 0.0);
  return r;
}

nlohmann::json to_json(const EvaluationReply& r) {
  nlohmann::json j = {{"status", to_string(r.status)}, {"error", r.error}, {"verified", r.verified},
                      {"verification", r.verification}, {"reference_seconds", r.reference_seconds},
                      {"phases", r.phases}};
  j["measurement"] = r.measurement ? measure::measurement_to_json(*r.measurement, true) : nlohmann::json(nullptr);
  if (!r.details.empty()) j["details"] = r.details;
  if (!r.cache_mode.empty()) {
    j["cache_mode"] = r.cache_mode;
    j["rotation_copies"] = r.rotation_copies;
  }
  return j;
}

EvaluationReply evaluation_reply_from_json(const nlohmann::json& j) {
  EvaluationReply r;
  const std::string status = j.at("status").get<std::string>();
  if (status == "ok") r.status = EvaluationStatus::Ok;
  else if (status == "wrong_result") r.status = EvaluationStatus::WrongResult;
  else if (status == "runtime_error") r.status = EvaluationStatus::RuntimeError;
  else if (status == "memory_error") r.status = EvaluationStatus::MemoryError;
  else throw std::invalid_argument("unknown evaluation status '" + status + "'");
  r.error = j.value("error", "");
  r.verified = j.value("verified", false);
  r.verification = j.value("verification", nlohmann::json::object());
  r.reference_seconds = j.value("reference_seconds", 0.0);
  r.phases = j.value("phases", nlohmann::json::object());
  r.details = j.value("details", nlohmann::json::object());
  r.cache_mode = j.value("cache_mode", "");
  r.rotation_copies = j.value("rotation_copies", std::size_t{1});
  if (j.contains("measurement") && !j.at("measurement").is_null())
    r.measurement = measure::measurement_from_json(j.at("measurement"));
  return r;
}

EvaluationReply evaluation_reply_or_error(const nlohmann::json& j) {
  EvaluationReply reply;
  try {
    if (j.contains("error") && !j.contains("status")) throw std::runtime_error(j.at("error").get<std::string>());
    reply = evaluation_reply_from_json(j);
  } catch (const std::exception& e) {
    reply.status = EvaluationStatus::RuntimeError;
    reply.error = e.what();
  }
  return reply;
}

// Ends the worker when one kernel run takes longer than allowed. A hung GPU kernel cannot be
// interrupted from inside the process, so the process ends itself and the tuner starts another.
class Evaluator::Watchdog {
 public:
  Watchdog() : thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void arm(double seconds, std::string what) {
    if (seconds <= 0) return;
    std::lock_guard lock(mutex_);
    deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                       std::chrono::duration<double>(seconds));
    limit_ = seconds;
    what_ = std::move(what);
    armed_ = true;
    wake_.notify_all();
  }
  void disarm() {
    std::lock_guard lock(mutex_);
    armed_ = false;
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
          std::chrono::steady_clock::now() >= deadline_) {
        std::fprintf(stderr, "ktune watchdog: %s did not finish within %.3g s; the worker ends itself\n",
                     what_.c_str(), limit_);
        std::fflush(stderr);
        ::_exit(kWatchdogExitCode);
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::chrono::steady_clock::time_point deadline_{};
  double limit_ = 0;
  std::string what_;
  bool armed_ = false;
  bool quit_ = false;
  std::thread thread_;
};

struct Evaluator::ProblemEntry {
  spec::TuningProblem problem;
  // Device-resident arguments and references, per backend and device ordinal.
  std::map<std::string, std::unique_ptr<SessionArguments>> sessions;
  SessionArguments& session(device::Backend& backend, const std::string& name, int ordinal) {
    auto& slot = sessions[name + "#" + std::to_string(ordinal)];
    if (!slot) slot = std::make_unique<SessionArguments>(problem, backend.memory(ordinal));
    return *slot;
  }
};

Evaluator::Evaluator() : watchdog_(std::make_unique<Watchdog>()) {}
Evaluator::~Evaluator() = default;

device::Backend& Evaluator::backend(const std::string& name) {
  auto it = backends_.find(name);
  if (it == backends_.end()) it = backends_.emplace(name, device::make_backend(name)).first;
  return *it->second;
}

std::size_t Evaluator::cache_bytes(const std::string& backend_name, int ordinal) {
  const std::string key = backend_name + "#" + std::to_string(ordinal);
  if (auto it = cache_bytes_.find(key); it != cache_bytes_.end()) return it->second;
  // What the flush buffers assume when a backend cannot tell.
  std::size_t bytes = std::size_t{32} << 20;
  for (const device::DeviceInfo& d : backend(backend_name).devices()) {
    if (d.ordinal != ordinal) continue;
    for (const char* property : {"l2_cache_bytes", "last_level_cache_bytes"}) {
      auto p = d.properties.find(property);
      if (p != d.properties.end() && p->is_number_integer() && p->get<std::int64_t>() > 0) {
        bytes = p->get<std::size_t>();
        break;
      }
    }
  }
  cache_bytes_[key] = bytes;
  return bytes;
}

Evaluator::ProblemEntry& Evaluator::problem_for(const EvaluationRequest& request) {
  const std::string key = request.spec_path + "|" + config_key(request.size_overrides);
  auto it = problems_.find(key);
  if (it == problems_.end()) {
    auto entry = std::make_unique<ProblemEntry>();
    entry->problem = spec::load_spec(request.spec_path, request.size_overrides);
    it = problems_.emplace(key, std::move(entry)).first;
  }
  return *it->second;
}

namespace {

// Adds the seconds since construction to phases[name] when it goes out of scope.
class PhaseTimer {
 public:
  PhaseTimer(nlohmann::json& phases, const char* name)
      : phases_(phases), name_(name), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    phases_[name_] = phases_.value(name_, 0.0) + seconds;
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  nlohmann::json& phases_;
  const char* name_;
  std::chrono::steady_clock::time_point start_;
};

std::string describe_findings(const std::vector<MemoryFinding>& findings) {
  std::string text = "memory outside the kernel's outputs was written: ";
  for (std::size_t i = 0; i < findings.size(); ++i) text += (i ? "; " : "") + findings[i].describe();
  return text;
}

template <typename Watchdog>
class KernelSamples : public measure::SampleSource {
 public:
  KernelSamples(device::LoadedKernel& kernel, bool cold, Watchdog& watchdog, double limit)
      : kernel_(kernel), cold_(cold), watchdog_(watchdog), limit_(limit) {}
  measure::Sample sample() override {
    watchdog_.arm(limit_, "a timed run of the kernel");
    device::TimedRun run = kernel_.run_timed_sample(cold_);
    watchdog_.disarm();
    return {run.seconds, run.valid};
  }
  void warmup_run() override {
    watchdog_.arm(limit_, "a warmup run of the kernel");
    (void)kernel_.run_timed(false);
    watchdog_.disarm();
  }

 private:
  device::LoadedKernel& kernel_;
  bool cold_;
  Watchdog& watchdog_;
  double limit_;
};

}  // namespace

// The verified run: reference (once), reset outputs, run, check memory, compare outputs.
// Returns false when the candidate failed (reply says how).
bool Evaluator::verify_candidate(const EvaluationRequest& request, ProblemEntry& entry, device::LoadedKernel& kernel,
                                 EvaluationReply& reply, nlohmann::json& phases) {
  const spec::TuningProblem& problem = entry.problem;
  device::Backend& be = backend(request.backend);
  SessionArguments& session = entry.session(be, request.backend, request.device);
  const bool by_config = problem.reference.kind == spec::ReferenceSpec::Kind::Config;
  const Config ref_config = by_config ? problem.reference.config : request.config;
  {
    PhaseTimer t(phases, "reference");
    const auto start = std::chrono::steady_clock::now();
    const bool computed = session.ensure_reference(ref_config, [&](const std::vector<device::BufferArgument>& args) {
      const std::string entry_name = by_config ? problem.entry : problem.reference.entry;
      auto ref_kernel =
          be.load(request.device, *request.reference_artifact, entry_name, launch_geometry(problem, ref_config));
      ref_kernel->bind_buffers(args);
      ref_kernel->run();
    });
    if (computed) reply.reference_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  {
    PhaseTimer t(phases, "reset");
    session.prepare_verified_run(request.config);
  }
  {
    PhaseTimer t(phases, "run");
    watchdog_->arm(request.run_timeout_seconds, "the verification run of the kernel");
    kernel.run();
    watchdog_->disarm();
  }
  PhaseTimer t(phases, "check");
  std::vector<MemoryFinding> findings = session.check_memory(request.config);
  reply.verified = true;
  if (!findings.empty()) {
    reply.status = EvaluationStatus::MemoryError;
    reply.error = describe_findings(findings);
    for (const auto& f : findings) reply.verification["memory"].push_back({{"buffer", f.buffer}, {"finding", f.what}});
    return false;
  }
  bool pass = true;
  for (const auto& [name, c] : session.compare_outputs(request.config, ref_config, problem.reference.tolerance)) {
    reply.verification[name] = verify::comparison_to_json(c);
    if (!c.pass) {
      pass = false;
      if (!reply.error.empty()) reply.error += "; ";
      reply.error += "output '" + name + "': " + c.summary();
    }
  }
  if (!pass) reply.status = EvaluationStatus::WrongResult;
  return pass;
}

EvaluationReply Evaluator::evaluate(const EvaluationRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  EvaluationReply reply;
  nlohmann::json& phases = reply.phases;
  struct Total {
    nlohmann::json& phases;
    std::chrono::steady_clock::time_point start;
    ~Total() { phases["total"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  } total{phases, start};
  ProblemEntry& entry = problem_for(request);
  const spec::TuningProblem& problem = entry.problem;
  device::Backend& be = backend(request.backend);
  SessionArguments* session = nullptr;
  std::vector<device::BufferArgument> args;
  {
    PhaseTimer t(phases, "arguments");
    session = &entry.session(be, request.backend, request.device);
    args = session->arguments(request.config);
  }
  std::unique_ptr<device::LoadedKernel> kernel;
  {
    PhaseTimer t(phases, "load");
    kernel = be.load(request.device, request.artifact, problem.entry, launch_geometry(problem, request.config));
    kernel->bind_buffers(args);
  }
  if (request.reference_artifact && !verify_candidate(request, entry, *kernel, reply, phases)) return reply;

  if (request.measure) {
    measure::CacheMode mode = request.cold ? request.policy.cache : measure::CacheMode::Warm;
    if (mode == measure::CacheMode::Rotate) {
      // Copies spanning twice the cache: by the time a set comes round again, the others have
      // pushed it out. Kept by the session, so later candidates reuse them.
      PhaseTimer t(phases, "rotation");
      reply.rotation_copies = session->add_rotation(args, request.config, 2 * cache_bytes(request.backend, request.device));
      if (reply.rotation_copies < 2) mode = measure::CacheMode::Flush;
      else kernel->bind_buffers(args);
    }
    reply.cache_mode = std::string(measure::to_string(mode));
    kernel->set_clean_flush(request.policy.l2_flush == measure::L2Flush::Clean);
    KernelSamples<Watchdog> samples(*kernel, mode == measure::CacheMode::Flush, *watchdog_,
                                    request.run_timeout_seconds);
    {
      PhaseTimer t(phases, "measure");
      reply.measurement = measure::run_measurement(samples, request.policy, request.incumbent);
    }
    if (request.reference_artifact) {
      // The timed runs wrote memory too: a kernel that damages an input or a neighbour only
      // then is caught, and the session repaired, before the next candidate.
      PhaseTimer t(phases, "post_check");
      std::vector<MemoryFinding> findings = session->check_memory(request.config);
      if (!findings.empty()) {
        reply.status = EvaluationStatus::MemoryError;
        reply.error = describe_findings(findings) + " (during the timed runs)";
        for (const auto& f : findings) reply.verification["memory"].push_back({{"buffer", f.buffer}, {"finding", f.what}});
      }
    }
  }
  return reply;
}

nlohmann::json Evaluator::handle(const nlohmann::json& request) {
  const std::string op = request.value("op", "");
  if (op == "ping") return {{"ok", true}, {"pid", ::getpid()}};
  if (op != "evaluate") throw std::invalid_argument("unknown worker operation '" + op + "'");
  EvaluationRequest r = evaluation_request_from_json(request);
  try {
    return to_json(evaluate(r));
  } catch (const device::ContextPoisoned& e) {
    // The device context is unusable after a sticky error: never reuse it. The tuner sees the
    // exit code and this message, records the candidate, and starts a fresh worker.
    std::fprintf(stderr, "ktune worker: device context poisoned: %s\n", e.what());
    std::fflush(stderr);
    ::_exit(kContextPoisonedExitCode);
  } catch (const std::exception& e) {
    EvaluationReply reply;
    reply.status = EvaluationStatus::RuntimeError;
    reply.error = e.what();
    return to_json(reply);
  }
}

}  // namespace ktune::tuner
