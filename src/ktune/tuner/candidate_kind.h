#pragma once
// What the tuning loop (tuner.h) needs from one kind of candidate. Every kind goes through the
// same loop: its space -> a strategy -> the compile pool (compile() on pool threads) -> an
// isolated worker (the request evaluation_request() builds; the worker answers an
// EvaluationReply) -> the database. Kinds: a spec's kernel (spec_kernel_kind.h), an IREE
// dispatch (iree/dispatch_kind.h).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/db/records.h"
#include "ktune/device/device.h"
#include "ktune/measure/policy.h"
#include "ktune/measure/stats.h"
#include "ktune/space/search_space.h"
#include "ktune/spec/problem.h"

namespace ktune::tuner {

class CandidateKind {
 public:
  virtual ~CandidateKind() = default;

  virtual const space::SearchSpace& space() const = 0;
  // Identity in the database: results are kept per device + kernel + problem (resume).
  virtual db::KernelRecord kernel_record() const = 0;
  virtual db::ProblemRecord problem_record() const = 0;
  // Strategy, seed, budgets and the measurement policy the kind asks for (options override).
  virtual spec::TuneSettings settings() const = 0;
  virtual measure::Policy policy() const = 0;
  // What the session options name as the source of the session ("spec" key).
  virtual std::string source_label() const = 0;
  // The backend whose devices measure (lanes; device records) and whose compile target applies.
  virtual std::string backend_name() const = 0;

  // Compiled once before any candidate; nullopt: nothing to verify against. Throws TuneError
  // when it does not compile (nothing could be verified).
  virtual std::optional<device::CompileResult> compile_reference(const std::string& target) = 0;
  // Thread-safe (compile pool). Failures are results (ok == false), never exceptions.
  virtual device::CompileResult compile(const Config& config, const std::string& target) = 0;
  // Static screening before any run on device `ordinal`: not launchable -> resource_limit.
  // Throws for a config the kind cannot even describe (recorded as runtime_error).
  virtual device::ScreenResult screen(device::Backend& backend, int ordinal, const Config& config,
                                      const device::CompileResult& compiled) = 0;
  // The worker request for one evaluation.
  struct Request {
    const Config* config = nullptr;
    int device = 0;
    const device::CompileResult* artifact = nullptr;
    const std::optional<device::CompileResult>* reference = nullptr;  // null or empty: not verified
    measure::Policy policy;
    std::optional<measure::Stats> incumbent;
    double run_timeout_seconds = 0;
  };
  virtual nlohmann::json evaluation_request(const Request& request) const = 0;
  // Seconds the tuner waits for the worker's answer before killing it.
  virtual double call_timeout(const measure::Policy& policy, bool computes_reference) const = 0;

  virtual std::optional<double> flop_count(const Config& config) const = 0;
  virtual std::optional<double> byte_count(const Config& config) const = 0;
  // The spec behind a kernel kind (compute-sanitizer re-runs need it); null for other kinds.
  virtual const spec::TuningProblem* spec_problem() const { return nullptr; }
};

}  // namespace ktune::tuner
