#include "ktune/iree/run_compiler.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace ktune::iree {
namespace {

namespace fs = std::filesystem;

// A stand-in for iree-compile: `body` is a shell script that sees the arguments.
fs::path fake_compiler(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / ("ktune_run_compiler_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

TEST(RunCompiler, AStalledCompileIsRetriedSingleThreaded) {
  // Hangs (sleeping, no CPU) unless given --mlir-disable-threading, as a deadlocked pool would.
  const fs::path tool = fake_compiler("hangs", "case \"$*\" in *--mlir-disable-threading*) echo compiled; exit 0;; esac\nsleep 60");
  const CompilerRun run = run_iree_compile({tool.string(), "model.mlir"}, 60, 1.5);
  EXPECT_TRUE(run.retried_single_threaded);
  EXPECT_TRUE(run.result.succeeded()) << run.result.describe();
  EXPECT_EQ(run.result.output, "compiled\n");
  EXPECT_EQ(run.command.back(), kSingleThreadedFlag);
  EXPECT_LT(run.seconds, 30.0);
}

TEST(RunCompiler, AFailureOrASecondStallIsNotRetried) {
  const fs::path fails = fake_compiler("fails", "echo 'error: bad' >&2; exit 1");
  CompilerRun run = run_iree_compile({fails.string(), "m.mlir"}, 60, 1.5);
  EXPECT_FALSE(run.retried_single_threaded);
  EXPECT_EQ(run.result.exit_code, 1);
  EXPECT_EQ(run.command.size(), 2u);

  // Already single-threaded and still stalled: that is the answer, not a reason to loop.
  const fs::path hangs = fake_compiler("always_hangs", "sleep 60");
  run = run_iree_compile({hangs.string(), "m.mlir", kSingleThreadedFlag}, 60, 1.5);
  EXPECT_FALSE(run.retried_single_threaded);
  EXPECT_TRUE(run.result.stalled);
  EXPECT_FALSE(run.result.succeeded());
}

}  // namespace
}  // namespace ktune::iree
