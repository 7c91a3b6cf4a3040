#pragma once
// Finding IREE's command-line tools (iree-compile, iree-benchmark-module, iree-run-module,
// iree-profile) from the pinned PyPI wheels, and what version they are. ktune drives them as
// subprocesses; nothing of IREE is linked in.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ktune::iree {

// The release the project pins (scripts/install-deps.sh installs it into .venv).
inline constexpr const char* kPinnedVersion = "3.13.0";
inline constexpr const char* kInstallHint =
    "run scripts/install-deps.sh (it creates .venv with iree-base-compiler==3.13.0 and "
    "iree-base-runtime==3.13.0), or `pip install iree-base-compiler==3.13.0 iree-base-runtime==3.13.0` "
    "into any environment and give its bin directory with --iree-tools DIR or KTUNE_IREE_DIR";

struct IreeTools {
  std::filesystem::path dir;  // where iree-compile was found
  std::filesystem::path compile, benchmark_module, run_module, profile;  // empty when absent
  std::string version;        // "3.13.0rc20261016" from `iree-compile --version`
  std::string revision;       // the git hash after '@'
  std::string where;          // how it was found: "--iree-tools", "KTUNE_IREE_DIR", ".venv", "PATH"
};

struct IreeLookup {
  std::optional<IreeTools> tools;
  std::string reason;                 // why not found (with kInstallHint)
  std::vector<std::string> searched;  // the places looked at, in order
};

// Looks in order: `given` (--iree-tools DIR), $KTUNE_IREE_DIR, the .venv/bin of the source
// tree next to `executable` (build/ktune -> .venv/bin) and of the working directory, then PATH.
// A directory that was named explicitly but lacks iree-compile is an error, not skipped.
IreeLookup find_iree_tools(const std::filesystem::path& given = {}, const std::filesystem::path& executable = {});

// "IREE compiler version 3.13.0rc20261016 @ 89ece87..." -> {version, revision}; nullopt when
// the text has no such line.
std::optional<std::pair<std::string, std::string>> parse_compiler_version(const std::string& text);

}  // namespace ktune::iree
