#include "ktune/device/subprocess.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>

namespace ktune::device {
namespace {

TEST(Subprocess, CapturesStdoutAndStderr) {
  auto r = run_subprocess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.started) << r.spawn_error;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.succeeded());
  EXPECT_NE(r.output.find("out\n"), std::string::npos);
  EXPECT_NE(r.output.find("err\n"), std::string::npos);
  EXPECT_EQ(r.describe(), "exited with code 3");
}

TEST(Subprocess, ReportsSignals) {
  auto r = run_subprocess({"sh", "-c", "kill -SEGV $$"});
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.describe(), "killed by SIGSEGV (Segmentation fault)");
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  // The grandchild holds the output pipe open: only killing the group ends the wait.
  SubprocessOptions options;
  options.timeout_seconds = 0.5;
  auto start = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "sleep 60 & sleep 60"}, options);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_LT(elapsed, 5.0);
  EXPECT_NE(r.describe().find("timed out"), std::string::npos);
}

TEST(Subprocess, StallGuardKillsAChildThatUsesNoCpu) {
  SubprocessOptions options;
  options.timeout_seconds = 60;
  options.stall_seconds = 1.5;
  auto start = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "sleep 60 & sleep 60"}, options);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.stalled);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.succeeded());
  EXPECT_LT(elapsed, 20.0);
  EXPECT_NE(r.describe().find("stalled"), std::string::npos) << r.describe();
}

TEST(Subprocess, StallGuardLeavesABusyChildToTheTimeout) {
  SubprocessOptions options;
  options.timeout_seconds = 4;
  options.stall_seconds = 2;
  auto r = run_subprocess({"sh", "-c", "while :; do :; done"}, options);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.stalled) << "a child burning CPU is not stalled";
  EXPECT_NE(r.describe().find("timed out"), std::string::npos) << r.describe();
}

TEST(Subprocess, ProcessGroupCpuTimeCountsThisProcess) {
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x = x + 1e-9 * i;
  const std::optional<double> cpu = process_group_cpu_seconds(getpgrp());
  ASSERT_TRUE(cpu.has_value());
  EXPECT_GT(*cpu, 0.0);
  EXPECT_FALSE(process_group_cpu_seconds(-12345).has_value());
}

TEST(Subprocess, KeepsOnlyTheFirstBytesOfHugeOutput) {
  SubprocessOptions options;
  options.max_output_bytes = 1000;
  auto r = run_subprocess({"sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x"}, options);
  EXPECT_TRUE(r.succeeded()) << r.describe();
  EXPECT_EQ(r.output.size(), 1000u);
  EXPECT_EQ(r.output_bytes_dropped, 299000u);
}

TEST(Subprocess, MissingProgramIsAResult) {
  auto r = run_subprocess({"/nonexistent/ktune-no-such-tool", "--version"});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.succeeded());
  EXPECT_NE(r.spawn_error.find("No such file"), std::string::npos) << r.spawn_error;
  EXPECT_FALSE(run_subprocess({}).started);
}

TEST(Subprocess, PassesEnvironmentAndClosesStdin) {
  SubprocessOptions options;
  options.env["KTUNE_SUBPROCESS_TEST"] = "hello";
  auto r = run_subprocess({"sh", "-c", "echo $KTUNE_SUBPROCESS_TEST; cat"}, options);
  EXPECT_TRUE(r.succeeded()) << r.describe();
  EXPECT_EQ(r.output, "hello\n");
}

TEST(Subprocess, FindsExecutablesInPath) {
  EXPECT_FALSE(find_executable("sh").empty());
  EXPECT_EQ(find_executable("sh").front(), '/');
  EXPECT_TRUE(find_executable("ktune-no-such-tool").empty());
  EXPECT_TRUE(find_executable("/etc").empty());
}

}  // namespace
}  // namespace ktune::device
