#include "ktune/amdgpu/process.h"

#include <gtest/gtest.h>

namespace ktune::amdgpu {
namespace {

TEST(Process, CapturesOutputAndExitCode) {
  const ToolRun run = run_tool({"sh", "-c", "echo out; echo err >&2; exit 3"}, 30);
  ASSERT_TRUE(run.started) << run.spawn_error;
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_FALSE(run.succeeded());
  EXPECT_NE(run.output.find("out\n"), std::string::npos);
  EXPECT_NE(run.output.find("err\n"), std::string::npos);
  EXPECT_EQ(run.describe(), "exited with code 3");
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  // The shell's child (sleep) holds the pipe open; killing only the shell would hang here.
  const ToolRun run = run_tool({"sh", "-c", "sleep 30 & sleep 30"}, 0.5);
  EXPECT_TRUE(run.timed_out);
  EXPECT_LT(run.seconds, 10);
  EXPECT_EQ(run.describe().rfind("timed out after", 0), 0u);
}

TEST(Process, MissingProgramAndSignals) {
  const ToolRun missing = run_tool({"ktune-no-such-tool-xyz"});
  EXPECT_FALSE(missing.started);
  EXPECT_EQ(missing.describe(), "could not start: 'ktune-no-such-tool-xyz' not found in PATH");
  const ToolRun killed = run_tool({"sh", "-c", "kill -SEGV $$"}, 30);
  EXPECT_EQ(killed.signal, 11);
  EXPECT_FALSE(killed.succeeded());
  EXPECT_FALSE(run_tool({}).started);
}

TEST(Process, OutputIsCapped) {
  const ToolRun run = run_tool({"sh", "-c", "head -c 100000 /dev/zero"}, 30, 1000);
  EXPECT_TRUE(run.succeeded());
  EXPECT_EQ(run.output.size(), 1000u);
}

TEST(Process, FindProgramAndCommandLine) {
  EXPECT_FALSE(find_program("sh").empty());
  EXPECT_EQ(find_program("ktune-no-such-tool-xyz"), "");
  EXPECT_EQ(find_program("/nonexistent/clang"), "");
  EXPECT_EQ(command_line({"clang", "-DX=a b", "it's", "-O3"}), "clang '-DX=a b' 'it'\\''s' -O3");
}

}  // namespace
}  // namespace ktune::amdgpu
