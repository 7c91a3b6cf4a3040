#include "support/cli_run.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ktune::testing {
namespace {

namespace fs = std::filesystem;

fs::path from_env(const char* name, const fs::path& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? fs::absolute(value) : fallback;
}

}  // namespace

fs::path source_dir() { return from_env("KTUNE_TEST_SOURCE_DIR", KTUNE_SOURCE_DIR); }

fs::path ktune_binary() { return from_env("KTUNE_TEST_KTUNE", fs::path(KTUNE_BINARY_DIR) / "ktune"); }

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

nlohmann::json CommandResult::json() const {
  try {
    return nlohmann::json::parse(out);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "stdout is not JSON: " << e.what() << "\n" << out << "\nstderr:\n" << err;
    return nullptr;
  }
}

CommandResult run_command(const std::string& shell_command, const fs::path& scratch_dir) {
  const fs::path out = scratch_dir / "stdout", err = scratch_dir / "stderr";
  // A group, not a plain suffix: `cmd 2>&1 >out 2>err` would send cmd's stderr to the file
  // named last instead of into stdout. The newline ends a trailing comment in the command.
  const std::string full =
      "{ " + shell_command + "\n} >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  CommandResult r;
  const int status = std::system(full.c_str());
  if (status == -1) return r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace ktune::testing
