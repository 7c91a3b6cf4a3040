#pragma once
// Compiles a user's C++ kernel plus its launch shim into a shared object with the host
// compiler, through a content-addressed on-disk cache (see README.md).

#include <filesystem>
#include <string>
#include <vector>

#include "ktune/device/compile_cache.h"
#include "ktune/device/device.h"

namespace ktune::device::cpu {

struct CpuCompilerOptions {
  std::string cxx;                        // "" -> default_compiler_command()
  std::filesystem::path cache_directory;  // "" -> default_cache_root() / "cpu"
  double timeout_seconds = 120;           // the compiler (and all it started) is killed after this
  std::size_t max_log_bytes = 64 << 10;   // diagnostics beyond this are cut in the middle
};

class CpuCompiler : public Compiler {
 public:
  explicit CpuCompiler(CpuCompilerOptions options = {});
  CompileResult compile(const CompileRequest& request) override;

  // ktune's own flags, before the defines and the user's flags.
  static const std::vector<std::string>& base_flags();
  const CpuCompilerOptions& options() const { return options_; }

 private:
  CpuCompilerOptions options_;
  CompileCache cache_;
};

// Headers listed in a make-style dependency file (as written by -MMD), minus `exclude`.
// Handles line continuations and escaped spaces.
std::vector<std::string> parse_dependency_file(std::string_view text);

// Keeps the start and the end of an oversized compiler log, with a note of what was cut.
std::string trim_log(const std::string& log, std::size_t max_bytes);

}  // namespace ktune::device::cpu
