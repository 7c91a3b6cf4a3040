#include "ktune/tuner/spec_kernel_kind.h"

#include <algorithm>

#include "ktune/device/registry.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/tuner/tuner.h"

namespace ktune::tuner {

SpecKernelKind::SpecKernelKind(const std::filesystem::path& spec_path, const Config& size_overrides)
    : problem_(spec::load_spec(spec_path, size_overrides)),
      size_overrides_(size_overrides),
      space_(problem_.make_space()),
      compiler_backend_(device::make_backend(backend_for(problem_))) {}

db::KernelRecord SpecKernelKind::kernel_record() const {
  return {0, problem_.kernel_hash(), problem_.name, std::string(spec::language_name(problem_.language)),
          problem_.sources.front().string()};
}

db::ProblemRecord SpecKernelKind::problem_record() const {
  return {0, problem_.problem_hash(), problem_.name, config_to_json(problem_.sizes), problem_.to_json()};
}

std::string SpecKernelKind::backend_name() const { return backend_for(problem_); }

std::optional<device::CompileResult> SpecKernelKind::compile_reference(const std::string& target) {
  if (problem_.reference.kind == spec::ReferenceSpec::Kind::None) return std::nullopt;
  device::CompileRequest req = problem_.reference.kind == spec::ReferenceSpec::Kind::Kernel
                                   ? reference_compile_request(problem_, target)
                                   : compile_request(problem_, problem_.reference.config, target);
  device::CompileResult r = compiler_backend_->compiler().compile(req);
  if (!r.ok) throw TuneError("the reference kernel does not compile, so no candidate can be verified:\n" + r.log);
  return r;
}

device::CompileResult SpecKernelKind::compile(const Config& config, const std::string& target) {
  return compiler_backend_->compiler().compile(compile_request(problem_, config, target));
}

device::ScreenResult SpecKernelKind::screen(device::Backend& backend, int ordinal, const Config& config,
                                            const device::CompileResult& compiled) {
  return backend.screen(ordinal, compiled, launch_geometry(problem_, config));
}

nlohmann::json SpecKernelKind::evaluation_request(const Request& r) const {
  EvaluationRequest req;
  req.spec_path = problem_.spec_path.string();
  req.size_overrides = size_overrides_;
  req.config = *r.config;
  req.backend = backend_name();
  req.device = r.device;
  req.artifact = *r.artifact;
  if (r.reference) req.reference_artifact = *r.reference;
  req.policy = r.policy;
  req.incumbent = r.incumbent;
  req.run_timeout_seconds = r.run_timeout_seconds;
  return to_json(req);
}

double SpecKernelKind::call_timeout(const measure::Policy& policy, bool computes_reference) const {
  const double spec_timeout = problem_.tune.candidate_timeout_seconds;
  double timeout = spec_timeout > 0 ? spec_timeout : policy.warmup_seconds + 1.5 * policy.timeout_seconds + 10.0;
  if (computes_reference) timeout += 60.0;  // the first call also computes the reference
  return timeout;
}

std::optional<double> SpecKernelKind::flop_count(const Config& config) const { return tuner::flop_count(problem_, config); }
std::optional<double> SpecKernelKind::byte_count(const Config& config) const { return tuner::byte_count(problem_, config); }

}  // namespace ktune::tuner
