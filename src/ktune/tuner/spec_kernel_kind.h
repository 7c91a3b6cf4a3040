#pragma once
// The kind every spec file describes: a user's kernel with tunable parameters (instantiate.h
// turns a config into a compile request, launch geometry and arguments; evaluation_job.h runs
// it in the worker).

#include <memory>

#include "ktune/tuner/candidate_kind.h"

namespace ktune::tuner {

class SpecKernelKind : public CandidateKind {
 public:
  // Loads the spec (SourceError naming file and line when it is wrong).
  SpecKernelKind(const std::filesystem::path& spec_path, const Config& size_overrides);

  const space::SearchSpace& space() const override { return space_; }
  db::KernelRecord kernel_record() const override;
  db::ProblemRecord problem_record() const override;
  spec::TuneSettings settings() const override { return problem_.tune; }
  measure::Policy policy() const override { return problem_.policy; }
  std::string source_label() const override { return problem_.spec_path.string(); }
  std::string backend_name() const override;

  std::optional<device::CompileResult> compile_reference(const std::string& target) override;
  device::CompileResult compile(const Config& config, const std::string& target) override;
  device::ScreenResult screen(device::Backend& backend, int ordinal, const Config& config,
                              const device::CompileResult& compiled) override;
  nlohmann::json evaluation_request(const Request& request) const override;
  double call_timeout(const measure::Policy& policy, bool computes_reference) const override;
  std::optional<double> flop_count(const Config& config) const override;
  std::optional<double> byte_count(const Config& config) const override;
  const spec::TuningProblem* spec_problem() const override { return &problem_; }

 private:
  spec::TuningProblem problem_;
  Config size_overrides_;
  space::SearchSpace space_;
  // Compiles go through one backend's compiler (thread-safe).
  std::unique_ptr<device::Backend> compiler_backend_;
};

}  // namespace ktune::tuner
