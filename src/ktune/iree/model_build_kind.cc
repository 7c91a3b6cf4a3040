#include "ktune/iree/model_build_kind.h"

#include <chrono>

#include "ktune/core/sha256.h"
#include "ktune/iree/candidate_compile.h"

namespace ktune::iree {
namespace fs = std::filesystem;

namespace {

std::vector<space::Parameter> build_parameter(const std::vector<ModelBuild>& builds) {
  space::Parameter p{"build", {}, 0};
  for (const auto& b : builds) p.values.push_back(Value::string(b.label));
  return {p};
}

}  // namespace

ModelBuildKind::ModelBuildKind(const ModelSession& session, std::vector<ModelBuild> builds, measure::Policy policy)
    : session_(session), builds_(std::move(builds)), policy_(policy), space_(build_parameter(builds_), {}) {}

db::KernelRecord ModelBuildKind::kernel_record() const {
  return {0, sha256_hex("model|" + session_.model_hash + "|" + session_.tools.version + "|" + session_.model.target.text()),
          session_.model.model.stem().string(), "iree-model", session_.model.model.string()};
}

db::ProblemRecord ModelBuildKind::problem_record() const {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& t : session_.function.inputs) inputs.push_back(t.text);
  return {0, sha256_hex(session_.model_hash + "|" + session_.function.name + "|" + session_.model.target.text()),
          session_.model.model.stem().string() + ":" + session_.function.name,
          nlohmann::json::object(),
          {{"model", session_.model.model.string()}, {"function", session_.function.name}, {"inputs", inputs},
           {"target", session_.model.target.text()}, {"iree", session_.tools.version}}};
}

spec::TuneSettings ModelBuildKind::settings() const {
  spec::TuneSettings s;
  s.strategy = "exhaustive";
  return s;
}

std::optional<device::CompileResult> ModelBuildKind::compile_reference(const std::string&) {
  device::CompileResult r;
  r.ok = true;
  r.artifact = session_.model.vmfb;
  return r;
}

fs::path ModelBuildKind::vmfb(const std::string& label) const {
  if (label == "default") return session_.model.vmfb;
  return session_.work_dir / "builds" / label / "model.vmfb";
}

device::CompileResult ModelBuildKind::compile(const Config& config, const std::string&) {
  const auto start = std::chrono::steady_clock::now();
  device::CompileResult r;
  const std::string label = config.at("build").as_string();
  const ModelBuild* build = nullptr;
  for (const auto& b : builds_)
    if (b.label == label) build = &b;
  r.artifact = vmfb(label).parent_path();
  r.resources["model_vmfb"] = vmfb(label).string();
  nlohmann::json subs = nlohmann::json::object();
  if (build)
    for (const auto& [name, file] : build->substitutions) subs[name] = file.string();
  r.resources["substitutions"] = subs;
  if (!build) {
    r.log = "no build named " + label;
    return r;
  }
  if (!build->substitutions.empty()) {
    fs::create_directories(r.artifact);
    const SubstitutedCompile c = compile_substituted(session_.tools, session_.model.model, session_.model.target, build->substitutions,
                                                     vmfb(label), r.artifact / "dump", session_.extra_flags);
    r.resources["command"] = c.command;
    if (!c.ok) {
      r.log = c.error;
      return r;
    }
  }
  r.ok = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

nlohmann::json ModelBuildKind::evaluation_request(const Request& q) const {
  IreeEvaluationRequest r = session_.request_base(q.device);
  r.work_dir = q.artifact->artifact.string();
  r.model_vmfb = q.artifact->resources.value("model_vmfb", "");
  if (q.reference && *q.reference) r.reference_vmfb = (*q.reference)->artifact.string();
  r.benchmark_vmfb = r.model_vmfb;
  r.benchmark_function = session_.function.name;
  r.benchmark_with_inputs = true;
  r.policy = q.policy;
  if (hal_profile_runs_ > 0 && q.config && q.config->at("build").as_string() == "default") {
    r.profile_runs = hal_profile_runs_;
    r.profile_tool = session_.tools.profile.string();
  }
  return r.to_json();
}

double ModelBuildKind::call_timeout(const measure::Policy& policy, bool computes_reference) const {
  return (hal_profile_runs_ > 0 ? 4 : 2) * 120.0 + policy.timeout_seconds + (computes_reference ? 120.0 : 0.0);
}

}  // namespace ktune::iree
