#pragma once
// What a worker process does for one candidate: bind the session's device-resident arguments
// (made and uploaded once per problem), compute the reference once, reset the outputs on the
// device, run the candidate, check memory (guard bands, inputs) and compare outputs on the
// device, then measure. Every phase is timed and reported.
// The tuner sends an EvaluationRequest as JSON; the reply is an EvaluationReply as JSON.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/device/device.h"
#include "ktune/measure/measurement.h"
#include "ktune/measure/policy.h"
#include "ktune/measure/stats.h"
#include "ktune/spec/problem.h"

namespace ktune::tuner {

struct EvaluationRequest {
  std::string spec_path;
  Config size_overrides;
  Config config;
  std::string backend;
  int device = 0;
  device::CompileResult artifact;
  std::optional<device::CompileResult> reference_artifact;  // none: not verified
  measure::Policy policy;
  std::optional<measure::Stats> incumbent;  // for racing
  bool cold = true;                          // false: warm samples whatever policy.cache says
  bool measure = true;                       // false: verify only
  // A single kernel run longer than this is a hang: the worker prints why and exits with
  // kWatchdogExitCode (0: no per-run limit; the tuner's call timeout still applies).
  double run_timeout_seconds = 0;
};

// Exit codes of a worker that ended itself on purpose (the tuner maps them to statuses).
inline constexpr int kWatchdogExitCode = 124;         // a run exceeded run_timeout_seconds -> timeout
inline constexpr int kContextPoisonedExitCode = 125;  // sticky device error (e.g. illegal address) -> runtime_error

enum class EvaluationStatus { Ok, WrongResult, RuntimeError, MemoryError };
std::string_view to_string(EvaluationStatus status);

struct EvaluationReply {
  EvaluationStatus status = EvaluationStatus::Ok;
  std::string error;
  bool verified = false;
  nlohmann::json verification = nlohmann::json::object();  // per output: comparison summary
  std::optional<measure::Measurement> measurement;
  double reference_seconds = 0;  // time spent computing the reference (0 when cached)
  // How the samples met the caches (measured replies only): "flush", "rotate" or "warm", and
  // the number of input copy sets rotated through (1 unless "rotate"). A "rotate" policy the
  // backend cannot honour (no input arrays, too little memory) falls back to "flush".
  std::string cache_mode;
  std::size_t rotation_copies = 1;
  // Seconds per phase inside the worker: "arguments" (make/reuse device buffers), "reference"
  // (compute it, 0 when cached), "load" (module load + bind), "reset" (poison/reset outputs),
  // "run" (the verified run), "check" (guard bands, inputs, outputs against the reference),
  // "measure" (warmup + samples), "post_check" (memory after the timed runs); plus "total".
  nlohmann::json phases = nlohmann::json::object();
  // A kind's own findings about the candidate beyond its time (IREE's in-model dispatch profile,
  // "hal_profile"), recorded with the result under these keys in its resources.
  nlohmann::json details = nlohmann::json::object();
};

nlohmann::json to_json(const EvaluationRequest& r);
EvaluationRequest evaluation_request_from_json(const nlohmann::json& j);
nlohmann::json to_json(const EvaluationReply& r);
EvaluationReply evaluation_reply_from_json(const nlohmann::json& j);
// A worker's reply as an EvaluationReply, never throwing: a reply that is only an error, or one
// that does not parse, becomes a RuntimeError carrying that message.
EvaluationReply evaluation_reply_or_error(const nlohmann::json& j);

// Worker-side state that outlives one request: loaded problems, backends, reference outputs.
class Evaluator {
 public:
  Evaluator();
  ~Evaluator();
  // The worker::Handler: {"op":"evaluate", ...} and {"op":"ping"}.
  nlohmann::json handle(const nlohmann::json& request);
  EvaluationReply evaluate(const EvaluationRequest& request);

 private:
  struct ProblemEntry;
  ProblemEntry& problem_for(const EvaluationRequest& request);
  bool verify_candidate(const EvaluationRequest& request, ProblemEntry& entry, device::LoadedKernel& kernel,
                        EvaluationReply& reply, nlohmann::json& phases);
  device::Backend& backend(const std::string& name);
  // Bytes of the device's last-level cache (CUDA/HIP: L2), from its properties; cached.
  std::size_t cache_bytes(const std::string& backend_name, int ordinal);
  std::map<std::string, std::size_t> cache_bytes_;
  std::map<std::string, std::unique_ptr<ProblemEntry>> problems_;
  std::map<std::string, std::unique_ptr<device::Backend>> backends_;
  class Watchdog;
  std::unique_ptr<Watchdog> watchdog_;
};

}  // namespace ktune::tuner
