#include "ktune/iree/iree_tools.h"

#include <unistd.h>

#include <cstdlib>
#include <regex>

#include "ktune/device/subprocess.h"

namespace ktune::iree {
namespace fs = std::filesystem;
namespace {

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

fs::path tool(const fs::path& dir, const char* name) {
  const fs::path p = dir / name;
  return is_executable(p) ? p : fs::path();
}

// The tools in `dir` with iree-compile's version; the reason when it is not usable.
std::optional<IreeTools> probe(const fs::path& dir, const std::string& where, std::string& reason) {
  IreeTools t;
  t.dir = dir;
  t.where = where;
  t.compile = tool(dir, "iree-compile");
  if (t.compile.empty()) {
    reason = dir.string() + " has no iree-compile";
    return std::nullopt;
  }
  t.benchmark_module = tool(dir, "iree-benchmark-module");
  t.run_module = tool(dir, "iree-run-module");
  t.profile = tool(dir, "iree-profile");
  device::SubprocessOptions options;
  options.timeout_seconds = 60;
  const device::SubprocessResult r = device::run_subprocess({t.compile.string(), "--version"}, options);
  const auto version = parse_compiler_version(r.output);
  if (!r.succeeded() || !version) {
    reason = t.compile.string() + " --version " + r.describe() + ": " + r.output.substr(0, 400);
    return std::nullopt;
  }
  t.version = version->first;
  t.revision = version->second;
  return t;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> parse_compiler_version(const std::string& text) {
  static const std::regex line(R"(IREE compiler version\s+(\S+)(?:\s+@\s+([0-9a-fA-F]+))?)");
  std::smatch m;
  if (!std::regex_search(text, m, line)) return std::nullopt;
  return std::pair{m[1].str(), m[2].matched ? m[2].str() : std::string()};
}

IreeLookup find_iree_tools(const fs::path& given, const fs::path& executable) {
  IreeLookup lookup;
  std::string reason;
  auto explicit_dir = [&](const fs::path& dir, const std::string& where) {
    lookup.searched.push_back(where + " " + dir.string());
    lookup.tools = probe(dir, where, reason);
    if (!lookup.tools) lookup.reason = where + ": " + reason + ". " + kInstallHint;
    return lookup;
  };
  if (!given.empty()) return explicit_dir(given, "--iree-tools");
  if (const char* env = std::getenv("KTUNE_IREE_DIR"); env && *env) return explicit_dir(env, "KTUNE_IREE_DIR");

  std::vector<std::pair<fs::path, std::string>> candidates;
  if (!executable.empty()) candidates.push_back({executable.parent_path().parent_path() / ".venv" / "bin", ".venv"});
  std::error_code ec;
  if (const fs::path cwd = fs::current_path(ec); !ec) candidates.push_back({cwd / ".venv" / "bin", ".venv"});
  if (const std::string on_path = device::find_executable("iree-compile"); !on_path.empty())
    candidates.push_back({fs::path(on_path).parent_path(), "PATH"});
  for (const auto& [dir, where] : candidates) {
    lookup.searched.push_back(where + " " + dir.string());
    if (!is_executable(dir / "iree-compile")) continue;
    if ((lookup.tools = probe(dir, where, reason))) return lookup;
  }
  lookup.reason = "IREE's tools were not found (looked in " + std::to_string(lookup.searched.size()) +
                  " places" + (reason.empty() ? "" : "; " + reason) + "). " + kInstallHint;
  return lookup;
}

}  // namespace ktune::iree
