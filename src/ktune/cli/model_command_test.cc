// `ktune model tune` through the binary on IREE's CPU target (no GPU): where it builds. Skips
// without IREE's tools (scripts/install-deps.sh makes .venv), as the end-to-end tests do.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/cli_run.h"

namespace {
namespace fs = std::filesystem;
using ktune::testing::CommandResult;
using ktune::testing::shell_quote;

class ModelTuneWorkDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ktune-model-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cwd");
    fs::create_directories(dir_ / "db");
    if (!fs::exists(ktune::testing::source_dir() / ".venv" / "bin" / "iree-compile") && std::getenv("KTUNE_IREE_DIR") == nullptr)
      GTEST_SKIP() << "IREE is not installed (scripts/install-deps.sh makes .venv)";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `ktune --db <dir>/db/k.db model tune MODEL --target cpu:host ARGS`, run from <dir>/cwd.
  CommandResult tune(const std::string& args) {
    const std::string model = (ktune::testing::source_dir() / "examples" / "iree" / "matmul_32x2048x1024_f16.mlir").string();
    return ktune::testing::run_command(
        "cd " + shell_quote((dir_ / "cwd").string()) + " && " + shell_quote(ktune::testing::ktune_binary().string()) +
            " --db " + shell_quote((dir_ / "db" / "k.db").string()) + " --json model tune " + shell_quote(model) +
            " --target cpu:host --repetitions 3 --hal-profile-runs 0 --progress none " + args,
        dir_);
  }

  fs::path dir_;
};

// It wrote ./ktune-work into whatever directory it ran from; now the builds sit beside the
// database, so a re-run from elsewhere finds them (and resumes from that database).
TEST_F(ModelTuneWorkDir, DefaultsToBesideTheDatabase) {
  const CommandResult first = tune("");
  ASSERT_EQ(first.code, 0) << first.err << first.out;
  EXPECT_FALSE(fs::exists(dir_ / "cwd" / "ktune-work"));
  ASSERT_TRUE(fs::is_directory(dir_ / "db" / "ktune-work"));
  int sessions = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "db" / "ktune-work")) {
    ++sessions;
    EXPECT_EQ(e.path().filename().string().rfind("matmul_32x2048x1024_f16-host-", 0), 0u) << e.path();
    EXPECT_TRUE(fs::exists(e.path() / "default")) << e.path();
    EXPECT_TRUE(fs::exists(e.path() / "inputs")) << e.path();
  }
  EXPECT_EQ(sessions, 1);
}

TEST_F(ModelTuneWorkDir, WorkDirChoosesAndOutMustAgree) {
  const CommandResult r = tune("--work-dir " + shell_quote((dir_ / "work").string()));
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "work" / "default"));
  EXPECT_FALSE(fs::exists(dir_ / "db" / "ktune-work"));
  const CommandResult both = tune("--work-dir a --out b");
  EXPECT_NE(both.code, 0);
  EXPECT_NE(both.err.find("--work-dir and --out"), std::string::npos) << both.err;
}

}  // namespace
