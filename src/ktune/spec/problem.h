#pragma once
// TuningProblem: everything ktune knows about one tuning problem, loaded from a spec file.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/core/element_type.h"
#include "ktune/expr/expr.h"
#include "ktune/measure/policy.h"
#include "ktune/space/search_space.h"
#include "ktune/verify/data_init.h"
#include "ktune/verify/tolerance.h"

namespace ktune::spec {

enum class Language { Cpp, Cuda, Hip };
std::string_view language_name(Language language);

struct Argument {
  std::string name;
  ElementType type = ElementType::F32;
  bool is_array = true;
  expr::Expr length;  // arrays: number of elements
  expr::Expr value;   // scalars: the value passed
  verify::Init init;  // arrays: how inputs are filled
  // The spec gave `init` (an output so initialised is reset to it before each verified run,
  // for kernels that accumulate into it or update it in place; without one it is poisoned).
  bool init_explicit = false;
  bool output = false;
  // Workspace the kernel may write (partial sums, counters): reset to `init` before each
  // verified run, neither compared nor checked for changes like an input.
  bool scratch = false;
  int line = 0;
};

struct LaunchSpec {  // GPU languages only
  std::array<expr::Expr, 3> grid;
  std::array<expr::Expr, 3> block;
  expr::Expr shared_memory;  // dynamic shared memory bytes; empty -> 0
  int line = 0;
};

struct ReferenceSpec {
  enum class Kind { None, Kernel, Config };
  Kind kind = Kind::None;
  std::vector<std::filesystem::path> sources;  // Kernel: a reference kernel with the same signature
  std::string entry;
  Config config;  // Config: the problem's own kernel at a trusted configuration
  verify::Tolerance tolerance;
  int line = 0;
};

struct TuneSettings {
  std::string strategy = "random";
  std::optional<std::uint64_t> max_evaluations;
  std::optional<double> max_seconds;
  std::uint64_t seed = 0;
  nlohmann::json strategy_params = nlohmann::json::object();
  double candidate_timeout_seconds = 0;  // 0: derived from the measurement policy
};

struct TuningProblem {
  std::filesystem::path spec_path;
  std::string name;
  Language language = Language::Cpp;
  std::vector<std::filesystem::path> sources;  // absolute
  std::string entry;
  std::vector<std::string> flags;
  std::vector<std::string> defines_from_sizes;  // sizes also passed as -D (kernel.size_defines: true)
  Config sizes;
  std::vector<space::Parameter> parameters;
  std::vector<space::Constraint> constraints;
  std::optional<LaunchSpec> launch;
  std::vector<Argument> arguments;
  ReferenceSpec reference;
  expr::Expr flops;  // empty if not given
  expr::Expr bytes;
  measure::Policy policy;
  TuneSettings tune;

  // Content identity of the kernel code: sources, entry, language, flags.
  std::string kernel_hash() const;
  // Identity of the problem: sizes, arguments, launch, reference (not measurement settings).
  std::string problem_hash() const;
  // Normalised description stored in the database.
  nlohmann::json to_json() const;
  // The names visible to expressions for a config: sizes, then parameters.
  Config environment(const Config& config) const;
  space::SearchSpace make_space() const;
};

// Loads and validates a spec file; every problem is a SourceError naming file, line, column.
// `size_overrides` replace sizes from the file (command line --size M=1024); unknown names are errors.
TuningProblem load_spec(const std::filesystem::path& path, const Config& size_overrides = {});
// Same, from text; relative source paths resolve against `base_dir`. Used by tests and the fuzzer.
TuningProblem parse_spec(const std::string& yaml_text, const std::string& file_name,
                         const std::filesystem::path& base_dir, const Config& size_overrides = {});

// Evaluates an expression of the problem for a config; errors name the spec line and what was evaluated.
Value evaluate(const TuningProblem& problem, const expr::Expr& e, const Config& config, int line,
               const std::string& what);
std::int64_t evaluate_int(const TuningProblem& problem, const expr::Expr& e, const Config& config, int line,
                          const std::string& what);

}  // namespace ktune::spec
