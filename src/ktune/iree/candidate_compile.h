#pragma once
// Compiling one candidate of one dispatch: its configured source rewritten (substitution.h),
// then the dispatch's standalone benchmark source (`*_benchmark.mlir`, from the model's dump)
// compiled with the substitution into a module that iree-benchmark-module runs alone. The
// compiled binary's workgroup size is read back from the dump: a candidate whose knobs IREE
// did not apply is caught here, not measured as if it were new.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/matmul_candidates.h"

namespace ktune::iree {

struct CandidateBuild {
  bool ok = false;
  std::string error;                  // iree-compile's message, or why the build does not count
  std::filesystem::path configured;   // the rewritten configuration (the substitution's file)
  std::filesystem::path vmfb;         // the dispatch benchmark module
  std::vector<std::string> command;   // the exact iree-compile command line
  std::optional<std::int64_t> compiled_workgroup_size;
  double seconds = 0;
  nlohmann::json to_json() const;
};

// One iree-compile of `source` for `target` with executables substituted ({executable name:
// configured file}), the executables dumped to `dump_dir`. Never throws for a refused compile:
// ok == false with IREE's first error line and the end of its output.
struct SubstitutedCompile {
  bool ok = false;
  std::string error;
  std::vector<std::string> command;
  double seconds = 0;
};
SubstitutedCompile compile_substituted(const IreeTools& tools, const std::filesystem::path& source, const Target& target,
                                       const std::vector<std::pair<std::string, std::filesystem::path>>& substitutions,
                                       const std::filesystem::path& vmfb, const std::filesystem::path& dump_dir,
                                       const std::vector<std::string>& extra_flags = {}, double timeout_seconds = 300);

// Writes the configured source of `dispatch` with `candidate` applied to `file`. Throws
// DispatchParseError when the source does not hold what the dispatch was parsed with.
void write_configured_candidate(const DumpedDispatch& dispatch, const MatmulCandidate& candidate,
                                const std::filesystem::path& file);

// Builds `candidate` of `dispatch` (from a model compiled for `target`) in `dir`. Never throws
// for a candidate IREE refuses: that is a build with ok == false and the tool's message.
CandidateBuild build_candidate(const IreeTools& tools, const DumpedDispatch& dispatch, const Target& target,
                               const MatmulCandidate& candidate, const std::filesystem::path& dir,
                               double timeout_seconds = 300);

}  // namespace ktune::iree
