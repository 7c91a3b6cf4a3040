#include "ktune/iree/candidate_compile.h"

#include "ktune/iree/transform_strategy.h"

#include <fstream>
#include <sstream>

#include "ktune/device/subprocess.h"
#include "ktune/iree/run_compiler.h"
#include "ktune/iree/substitution.h"

namespace ktune::iree {
namespace fs = std::filesystem;

nlohmann::json CandidateBuild::to_json() const {
  nlohmann::json j = {{"ok", ok}, {"configured", configured.string()}, {"vmfb", vmfb.string()}, {"seconds", seconds}};
  if (!error.empty()) j["error"] = error;
  if (compiled_workgroup_size) j["compiled_workgroup_size"] = *compiled_workgroup_size;
  return j;
}

SubstitutedCompile compile_substituted(const IreeTools& tools, const fs::path& source, const Target& target,
                                       const std::vector<std::pair<std::string, fs::path>>& substitutions,
                                       const fs::path& vmfb, const fs::path& dump_dir,
                                       const std::vector<std::string>& extra_flags, double timeout_seconds) {
  SubstitutedCompile c;
  std::error_code ec;
  fs::remove_all(dump_dir, ec);
  c.command = {tools.compile.string(), source.string(), "-o", vmfb.string(),
               "--iree-hal-dump-executable-files-to=" + dump_dir.string()};
  std::vector<fs::path> files;
  for (const auto& [name, file] : substitutions) {
    c.command.push_back(substitution_flag(name, file));
    files.push_back(file);
  }
  // A configuration that names a transform strategy needs the library that holds it: one per
  // build, with every strategy this build's substitutions name (IREE takes a single library).
  if (const auto strategies = strategies_named_in(files); !strategies.empty()) {
    const fs::path library = vmfb.parent_path() / (vmfb.stem().string() + ".strategies.mlir");
    std::ofstream(library, std::ios::binary) << emit_strategy_library(strategies);
    c.command.push_back("--iree-codegen-transform-dialect-library=" + library.string());
  }
  for (const std::string& f : target.compile_flags()) c.command.push_back(f);
  for (const std::string& f : extra_flags) c.command.push_back(f);
  const CompilerRun run = run_iree_compile(c.command, timeout_seconds);
  const device::SubprocessResult& r = run.result;
  c.command = run.command;
  c.seconds = run.seconds;
  if (!r.succeeded()) {
    // IREE's first error line says what failed; the end of its output says where.
    const auto error_at = r.output.find("error:");
    std::string first;
    if (error_at != std::string::npos) {
      const auto end = r.output.find('\n', error_at);
      first = r.output.substr(error_at, std::min<std::size_t>(end == std::string::npos ? r.output.size() : end, error_at + 600) - error_at);
    }
    c.error = "iree-compile " + r.describe() + (first.empty() ? "" : ": " + first) + "\n" +
              (r.output.size() > 2000 ? "..." + r.output.substr(r.output.size() - 2000) : r.output);
    return c;
  }
  c.ok = true;
  return c;
}

void write_configured_candidate(const DumpedDispatch& dispatch, const MatmulCandidate& candidate, const fs::path& file) {
  std::ifstream in(dispatch.configured, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::ofstream(file, std::ios::binary) << apply_candidate(text.str(), dispatch.config, candidate);
}

CandidateBuild build_candidate(const IreeTools& tools, const DumpedDispatch& dispatch, const Target& target,
                               const MatmulCandidate& candidate, const fs::path& dir, double timeout_seconds) {
  CandidateBuild b;
  fs::create_directories(dir);
  if (dispatch.benchmark.empty()) {
    b.error = "the dump has no benchmark source for " + dispatch.name;
    return b;
  }
  b.configured = dir / ("configured_" + dispatch.name + ".mlir");
  try {
    write_configured_candidate(dispatch, candidate, b.configured);
  } catch (const std::exception& e) {
    b.error = e.what();
    return b;
  }
  b.vmfb = dir / "dispatch.vmfb";
  const fs::path dump = dir / "dump";
  const SubstitutedCompile c =
      compile_substituted(tools, dispatch.benchmark, target, {{dispatch.name, b.configured}}, b.vmfb, dump, {}, timeout_seconds);
  b.command = c.command;
  b.seconds = c.seconds;
  if (!c.ok) {
    b.error = c.error;
    return b;
  }
  b.compiled_workgroup_size = compiled_workgroup_size(dump, dispatch.name);
  if (b.compiled_workgroup_size && *b.compiled_workgroup_size != candidate.workgroup_size) {
    b.error = "IREE compiled a workgroup of " + std::to_string(*b.compiled_workgroup_size) + " threads, the candidate asks for " +
              std::to_string(candidate.workgroup_size) + ": the substitution did not take";
    return b;
  }
  b.ok = true;
  return b;
}

}  // namespace ktune::iree
