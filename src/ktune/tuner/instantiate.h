#pragma once
// Turns a TuningProblem + Config into what a backend needs: a compile request, launch
// geometry, and the host argument buffers (inputs filled as the spec says).

#include <string>
#include <vector>

#include "ktune/device/device.h"
#include "ktune/spec/problem.h"

namespace ktune::tuner {

// Backend name for the problem's language: cpp -> cpu, cuda -> cuda, hip -> hip.
std::string backend_for(const spec::TuningProblem& problem);

std::vector<device::ArgumentSignature> signature_of(const spec::TuningProblem& problem);

// The problem's kernel at `config` (parameters as defines, plus sizes marked size_defines).
device::CompileRequest compile_request(const spec::TuningProblem& problem, const Config& config,
                                       const std::string& target);
// The reference kernel (ReferenceSpec::Kind::Kernel): sizes marked as defines only.
device::CompileRequest reference_compile_request(const spec::TuningProblem& problem, const std::string& target);

// Throws SourceError naming the spec line when an expression fails or is not a valid size.
device::LaunchGeometry launch_geometry(const spec::TuningProblem& problem, const Config& config);
// Argument `index` of the spec for `config`: a scalar's value, or an array made and filled by
// its init. Throws SourceError naming the spec line.
device::HostArgument make_argument(const spec::TuningProblem& problem, std::size_t index, const Config& config);
// The element count of array argument `index` for `config` (SourceError when out of range).
std::size_t array_length(const spec::TuningProblem& problem, std::size_t index, const Config& config);
std::vector<device::HostArgument> make_arguments(const spec::TuningProblem& problem, const Config& config);

// Optional work counts for throughput (nullopt when the spec has no metrics).
std::optional<double> flop_count(const spec::TuningProblem& problem, const Config& config);
std::optional<double> byte_count(const spec::TuningProblem& problem, const Config& config);

}  // namespace ktune::tuner
