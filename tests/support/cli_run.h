#pragma once
// For tests that drive the ktune binary like a user would: where the checkout and the binary
// are, and one shell command run with its output captured.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace ktune::testing {

// The checkout: $KTUNE_TEST_SOURCE_DIR when set and non-empty (a test binary carried to a GPU
// machine, where the checkout lives elsewhere: see bench/run_gpu_suite.sh), else the source tree
// this test was built from. A relative value is taken from the working directory.
std::filesystem::path source_dir();

// The ktune binary: $KTUNE_TEST_KTUNE when set and non-empty, else the build's ktune.
std::filesystem::path ktune_binary();

// A file's bytes, unchanged; empty when it cannot be read.
std::string slurp(const std::filesystem::path& path);

// `s` as a single word for /bin/sh, whatever characters it holds.
std::string shell_quote(const std::string& s);

struct CommandResult {
  int code = -1;  // the exit status, 128 + the signal that ended it, or -1 when no shell ran
  std::string out, err;

  // stdout as JSON. When it is not JSON: a test failure showing stdout and stderr, and null.
  nlohmann::json json() const;
};

// Runs `shell_command` with /bin/sh, stdout and stderr captured separately through files
// ("stdout", "stderr") in `scratch_dir`, which must exist. The captures apply to the command
// as a whole, so the command's own redirections (2>&1, 2>/dev/null) still take effect.
CommandResult run_command(const std::string& shell_command, const std::filesystem::path& scratch_dir);

}  // namespace ktune::testing
