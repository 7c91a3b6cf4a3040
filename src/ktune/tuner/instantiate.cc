#include "ktune/tuner/instantiate.h"

#include "ktune/core/source_error.h"
#include "ktune/verify/data_init.h"

namespace ktune::tuner {

std::string backend_for(const spec::TuningProblem& problem) {
  switch (problem.language) {
    case spec::Language::Cpp: return "cpu";
    case spec::Language::Cuda: return "cuda";
    case spec::Language::Hip: return "hip";
  }
  return "cpu";
}

std::vector<device::ArgumentSignature> signature_of(const spec::TuningProblem& problem) {
  std::vector<device::ArgumentSignature> sig;
  for (const auto& a : problem.arguments) sig.push_back({a.name, a.type, a.is_array, a.output});
  return sig;
}

namespace {
Config size_defines(const spec::TuningProblem& problem) {
  Config defines;
  for (const auto& name : problem.defines_from_sizes) defines[name] = problem.sizes.at(name);
  return defines;
}
}  // namespace

device::CompileRequest compile_request(const spec::TuningProblem& problem, const Config& config,
                                       const std::string& target) {
  device::CompileRequest r;
  r.entry = problem.entry;
  r.sources = problem.sources;
  r.defines = size_defines(problem);
  for (const auto& [name, value] : config) r.defines[name] = value;
  r.user_flags = problem.flags;
  r.signature = signature_of(problem);
  r.target = target;
  return r;
}

device::CompileRequest reference_compile_request(const spec::TuningProblem& problem, const std::string& target) {
  device::CompileRequest r;
  r.entry = problem.reference.entry;
  r.sources = problem.reference.sources;
  r.defines = size_defines(problem);
  r.user_flags = problem.flags;
  r.signature = signature_of(problem);
  r.target = target;
  return r;
}

device::LaunchGeometry launch_geometry(const spec::TuningProblem& problem, const Config& config) {
  device::LaunchGeometry g;
  if (!problem.launch) return g;
  const auto& l = *problem.launch;
  static const char* kAxis[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    g.grid[i] = spec::evaluate_int(problem, l.grid[i], config, l.line, std::string("launch.grid.") + kAxis[i]);
    g.block[i] = spec::evaluate_int(problem, l.block[i], config, l.line, std::string("launch.block.") + kAxis[i]);
    if (g.grid[i] < 1 || g.block[i] < 1)
      throw SourceError(problem.spec_path.string(), l.line, 0,
                        "launch geometry for " + config_key(config) + " has a dimension below 1 (grid " +
                            std::to_string(g.grid[i]) + ", block " + std::to_string(g.block[i]) + " in " + kAxis[i] + ")");
  }
  if (!l.shared_memory.empty()) {
    g.shared_bytes = spec::evaluate_int(problem, l.shared_memory, config, l.line, "launch.shared_memory");
    if (g.shared_bytes < 0)
      throw SourceError(problem.spec_path.string(), l.line, 0, "launch.shared_memory is negative for " + config_key(config));
  }
  return g;
}

std::size_t array_length(const spec::TuningProblem& problem, std::size_t index, const Config& config) {
  const spec::Argument& a = problem.arguments.at(index);
  std::int64_t n = spec::evaluate_int(problem, a.length, config, a.line, "argument '" + a.name + "' length");
  if (n < 0 || n > (std::int64_t{1} << 40) / static_cast<std::int64_t>(element_size(a.type)))
    throw SourceError(problem.spec_path.string(), a.line, 0,
                      "argument '" + a.name + "' length " + std::to_string(n) + " is out of range");
  return static_cast<std::size_t>(n);
}

device::HostArgument make_argument(const spec::TuningProblem& problem, std::size_t index, const Config& config) {
  const spec::Argument& a = problem.arguments.at(index);
  if (!a.is_array) {
    Value v = spec::evaluate(problem, a.value, config, a.line, "argument '" + a.name + "' value");
    try {
      return device::scalar_argument(a.name, a.type, v);
    } catch (const std::exception& e) {
      throw SourceError(problem.spec_path.string(), a.line, 0, "argument '" + a.name + "': " + e.what());
    }
  }
  device::HostArgument arg = device::array_argument(a.name, a.type, array_length(problem, index, config), a.output);
  try {
    verify::initialize(arg.data, a.type, a.init);
  } catch (const std::exception& e) {
    throw SourceError(problem.spec_path.string(), a.line, 0, "argument '" + a.name + "' init: " + e.what());
  }
  return arg;
}

std::vector<device::HostArgument> make_arguments(const spec::TuningProblem& problem, const Config& config) {
  std::vector<device::HostArgument> args;
  for (std::size_t i = 0; i < problem.arguments.size(); ++i) args.push_back(make_argument(problem, i, config));
  return args;
}

std::optional<double> flop_count(const spec::TuningProblem& problem, const Config& config) {
  if (problem.flops.empty()) return std::nullopt;
  return spec::evaluate(problem, problem.flops, config, 0, "metrics.flops").as_double();
}

std::optional<double> byte_count(const spec::TuningProblem& problem, const Config& config) {
  if (problem.bytes.empty()) return std::nullopt;
  return spec::evaluate(problem, problem.bytes, config, 0, "metrics.bytes").as_double();
}

}  // namespace ktune::tuner
