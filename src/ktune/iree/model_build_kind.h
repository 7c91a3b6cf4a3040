#pragma once
// Whole-model builds as a kind of candidate: the default build and tuned builds (each a set of
// substituted dispatches), each verified against the default's outputs and timed with
// iree-benchmark-module on the session's random inputs, through the same tuning loop and
// database as every candidate. `model profile` times the default this way, `model tune` times
// the default and the tuned build in one session.

#include <map>

#include "ktune/iree/model_session.h"
#include "ktune/tuner/candidate_kind.h"

namespace ktune::iree {

struct ModelBuild {
  std::string label;  // "default", "tuned"
  std::vector<std::pair<std::string, std::filesystem::path>> substitutions;  // dispatch -> configured file
};

class ModelBuildKind : public tuner::CandidateKind {
 public:
  ModelBuildKind(const ModelSession& session, std::vector<ModelBuild> builds, measure::Policy policy);

  const space::SearchSpace& space() const override { return space_; }
  db::KernelRecord kernel_record() const override;
  db::ProblemRecord problem_record() const override;
  spec::TuneSettings settings() const override;
  measure::Policy policy() const override { return policy_; }
  std::string source_label() const override { return session_.model.model.string(); }
  std::string backend_name() const override { return session_.model.target.device; }

  std::optional<device::CompileResult> compile_reference(const std::string& target) override;
  device::CompileResult compile(const Config& config, const std::string& target) override;
  device::ScreenResult screen(device::Backend&, int, const Config&, const device::CompileResult&) override { return {}; }
  nlohmann::json evaluation_request(const Request& request) const override;
  double call_timeout(const measure::Policy& policy, bool computes_reference) const override;
  std::optional<double> flop_count(const Config&) const override { return std::nullopt; }
  std::optional<double> byte_count(const Config&) const override { return std::nullopt; }

  // The default build's evaluation also captures IREE's in-model dispatch profile (HalProfile,
  // `runs` model executions; 0: none), where the device's HAL driver supports it.
  void set_hal_profile_runs(int runs) { hal_profile_runs_ = runs; }

  static Config config_for(const std::string& label) { return {{"build", Value::string(label)}}; }
  // Where a build's module is (after compile).
  std::filesystem::path vmfb(const std::string& label) const;

 private:
  const ModelSession& session_;
  std::vector<ModelBuild> builds_;
  measure::Policy policy_;
  space::SearchSpace space_;
  int hal_profile_runs_ = 0;
};

}  // namespace ktune::iree
