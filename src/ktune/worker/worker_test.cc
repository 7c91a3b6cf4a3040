// The parent survives every way a worker can fail, reports it precisely, and the next call
// runs on a fresh worker.
#include "ktune/worker/worker_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace ktune::worker {
namespace {

using Outcome = WorkerProcess::Outcome;
using Crashed = WorkerProcess::Crashed;
using TimedOut = WorkerProcess::TimedOut;

WorkerCommand test_child() {
  WorkerCommand c;
  c.executable = KTUNE_WORKER_TEST_CHILD;
  c.stop_grace_seconds = 1;
  // Under sanitizers, let crashes be real signals instead of sanitizer reports.
  const char* asan = std::getenv("ASAN_OPTIONS");
  c.env["ASAN_OPTIONS"] = std::string(asan ? asan : "") + ":handle_segv=0:handle_abort=0";
  return c;
}

nlohmann::json reply_of(const Outcome& o) {
  if (auto* j = std::get_if<nlohmann::json>(&o)) return *j;
  if (auto* c = std::get_if<Crashed>(&o)) ADD_FAILURE() << "crashed: " << c->description << "\n" << c->stderr_tail;
  if (auto* t = std::get_if<TimedOut>(&o)) ADD_FAILURE() << "timed out after " << t->seconds << " s";
  return nullptr;
}

Crashed crash_of(const Outcome& o) {
  if (auto* c = std::get_if<Crashed>(&o)) return *c;
  ADD_FAILURE() << "expected a crash, got " << (std::holds_alternative<TimedOut>(o) ? "a timeout" : "a reply");
  return {};
}

bool alive(pid_t pid) { return kill(pid, 0) == 0; }

// After any failure the worker is usable again, on a new process.
void expect_recovers(WorkerProcess& w, pid_t old_pid) {
  auto reply = reply_of(w.call({{"op", "pid"}}, 10));
  ASSERT_TRUE(reply.is_object());
  EXPECT_NE(reply["pid"].get<pid_t>(), old_pid);
  EXPECT_FALSE(alive(old_pid)) << "the failed worker was not reaped";
}

TEST(WorkerProcess, StartsLazilyAndEchoes) {
  WorkerProcess w(test_child());
  EXPECT_FALSE(w.running());
  EXPECT_EQ(w.pid(), -1);
  nlohmann::json request = {{"op", "echo"}, {"payload", {1, 2.5, "three", nullptr}}};
  EXPECT_EQ(reply_of(w.call(request, 10)), request);
  EXPECT_TRUE(w.running());
  pid_t pid = w.pid();
  EXPECT_GT(pid, 0);
  EXPECT_EQ(reply_of(w.call({{"op", "pid"}}, 10))["pid"], pid);  // same process serves many calls
  EXPECT_EQ(w.restarts(), 0);
}

TEST(WorkerProcess, PassesEnvironment) {
  WorkerCommand c = test_child();
  c.env["KTUNE_TEST_VALUE"] = "forty-two";
  WorkerProcess w(c);
  EXPECT_EQ(reply_of(w.call({{"op", "env"}, {"name", "KTUNE_TEST_VALUE"}}, 10))["value"], "forty-two");
  EXPECT_EQ(reply_of(w.call({{"op", "env"}, {"name", "KTUNE_WORKER_FDS"}}, 10))["value"], "3,4");
}

TEST(WorkerProcess, HandlerExceptionIsAnErrorReplyAndTheWorkerLives) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto reply = reply_of(w.call({{"op", "throw"}, {"message", "tile too big"}}, 10));
  EXPECT_EQ(reply, (nlohmann::json{{"error", "tile too big"}}));
  EXPECT_EQ(reply_of(w.call({{"op", "pid"}}, 10))["pid"], pid);
  EXPECT_EQ(reply_of(w.call({{"op", "nonsense"}}, 10))["error"], "unknown op 'nonsense'");
}

TEST(WorkerProcess, SegfaultIsReportedAndTheNextCallGetsAFreshWorker) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto crashed = crash_of(w.call({{"op", "segfault"}}, 10));
  EXPECT_EQ(crashed.signal, SIGSEGV);
  EXPECT_EQ(crashed.description, "killed by SIGSEGV (Segmentation fault)");
  EXPECT_NE(crashed.stderr_tail.find("about to read a forbidden page"), std::string::npos) << crashed.stderr_tail;
  EXPECT_FALSE(w.running());
  expect_recovers(w, pid);
  EXPECT_EQ(w.restarts(), 1);
}

TEST(WorkerProcess, AbortIsReportedWithItsLastWords) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto crashed = crash_of(w.call({{"op", "abort"}}, 10));
  EXPECT_EQ(crashed.signal, SIGABRT);
  EXPECT_NE(crashed.description.find("SIGABRT"), std::string::npos);
  EXPECT_NE(crashed.stderr_tail.find("assertion failed: tile fits"), std::string::npos);
  expect_recovers(w, pid);
}

TEST(WorkerProcess, HangIsKilledAtTheTimeout) {
  for (const char* op : {"hang", "spin"}) {
    WorkerProcess w(test_child());
    pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
    auto start = std::chrono::steady_clock::now();
    auto outcome = w.call({{"op", op}}, 0.3);
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto* timed_out = std::get_if<TimedOut>(&outcome);
    ASSERT_NE(timed_out, nullptr) << op;
    EXPECT_GE(timed_out->seconds, 0.3);
    EXPECT_LT(elapsed, 3.0);
    expect_recovers(w, pid);
  }
}

// A sanitizer's fatal report under way at the deadline (symbolising the stack can take seconds
// on a loaded machine) is the crash it reports, not a hang; it is waited for, within a grace.
TEST(WorkerProcess, ASanitizerReportUnderWayAtTheDeadlineIsACrash) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  // The deadline leaves the child 2 s to print its first line even on a loaded machine; the
  // report ends 4 s after it.
  Crashed c = crash_of(w.call({{"op", "sanitizer_report"}, {"seconds", 4.0}}, 2.0));
  EXPECT_EQ(c.exit_code, 1) << c.description;
  EXPECT_NE(c.description.find("its sanitizer report began before the "), std::string::npos) << c.description;
  EXPECT_NE(c.description.find(" s deadline; exited with code 1"), std::string::npos) << c.description;
  EXPECT_NE(c.stderr_tail.find("ERROR: AddressSanitizer: SEGV"), std::string::npos) << c.stderr_tail;
  EXPECT_NE(c.stderr_tail.find("SUMMARY: AddressSanitizer"), std::string::npos) << c.stderr_tail;
  expect_recovers(w, pid);
}

// Its first line read in two pieces, after more output than the tail keeps: still seen.
TEST(WorkerProcess, ASanitizerReportSplitAcrossReadsIsSeen) {
  WorkerProcess w(test_child());
  Crashed c = crash_of(w.call({{"op", "sanitizer_report"}, {"seconds", 3.0}, {"split", true}, {"preamble", 20000}}, 2.0));
  EXPECT_EQ(c.exit_code, 1) << c.description;
  EXPECT_NE(c.description.find("its sanitizer report began before the "), std::string::npos) << c.description;
}

TEST(WorkerProcess, ASanitizerReportThatNeverEndsIsKilledAfterItsGrace) {
  WorkerCommand command = test_child();
  command.report_grace_seconds = 0.5;
  WorkerProcess w(command);
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto start = std::chrono::steady_clock::now();
  Crashed c = crash_of(w.call({{"op", "sanitizer_report"}, {"seconds", -1}}, 2.0));
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(c.signal, SIGKILL) << c.description;
  EXPECT_NE(c.description.find("was not finished within its grace"), std::string::npos) << c.description;
  EXPECT_GE(elapsed, 2.5);
  EXPECT_LT(elapsed, 10.0);
  expect_recovers(w, pid);
}

// Only a fatal report's first line counts: other output before a hang leaves it a timeout.
TEST(WorkerProcess, OutputThatIsNoSanitizerReportLeavesAHangATimeout) {
  WorkerProcess w(test_child());
  auto outcome = w.call({{"op", "print_then_hang"}, {"text", "==1==ERROR: not a Sanitizer report\nruntime error: x\n"}}, 2.0);
  auto* timed_out = std::get_if<TimedOut>(&outcome);
  ASSERT_NE(timed_out, nullptr);
  EXPECT_NE(timed_out->stderr_tail.find("not a Sanitizer report"), std::string::npos) << timed_out->stderr_tail;
}

TEST(WorkerProcess, ExitWhileHandlingIsACrashWithTheExitCode) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto crashed = crash_of(w.call({{"op", "exit"}, {"code", 3}}, 10));
  EXPECT_EQ(crashed.signal, 0);
  EXPECT_EQ(crashed.exit_code, 3);
  EXPECT_EQ(crashed.description, "exited with code 3");
  expect_recovers(w, pid);
}

TEST(WorkerProcess, OutputFloodDoesNotCorruptTheProtocol) {
  WorkerProcess w(test_child());
  // 4 MiB through stdout: more than the pipe holds, so the parent must drain while waiting.
  auto reply = reply_of(w.call({{"op", "print"}, {"bytes", 4 << 20}}, 20));
  EXPECT_EQ(reply["printed"], 4 << 20);
  std::string tail = w.output_tail();
  EXPECT_LE(tail.size(), 4096u);
  EXPECT_NE(tail.find("last words on stderr"), std::string::npos);
  EXPECT_EQ(reply_of(w.call({{"op", "echo"}, {"x", 1}}, 10))["x"], 1);
  EXPECT_EQ(w.restarts(), 0);
}

TEST(WorkerProcess, GarbageOnTheReplyChannelIsAProtocolCrash) {
  for (const char* op : {"protocol_garbage", "huge_length"}) {
    WorkerProcess w(test_child());
    pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
    auto start = std::chrono::steady_clock::now();
    auto crashed = crash_of(w.call({{"op", op}}, 10));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
    EXPECT_NE(crashed.description.find("protocol error"), std::string::npos) << crashed.description;
    EXPECT_EQ(crashed.signal, SIGKILL) << crashed.description;
    expect_recovers(w, pid);
  }
}

TEST(WorkerProcess, DeathInTheMiddleOfAReply) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto crashed = crash_of(w.call({{"op", "half_reply"}}, 10));
  EXPECT_EQ(crashed.exit_code, 5);
  EXPECT_EQ(crashed.description, "died in the middle of a reply; exited with code 5");
  expect_recovers(w, pid);
}

TEST(WorkerProcess, ClosedReplyPipeWithALiveChildIsKilled) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto crashed = crash_of(w.call({{"op", "close_reply"}}, 10));
  EXPECT_EQ(crashed.signal, SIGKILL);
  expect_recovers(w, pid);
}

TEST(WorkerProcess, LargeMessagesBothWays) {
  WorkerProcess w(test_child());
  std::string big(3 << 20, 'r');
  EXPECT_EQ(reply_of(w.call({{"op", "echo"}, {"data", big}}, 20))["data"], big);
  EXPECT_EQ(reply_of(w.call({{"op", "big"}, {"bytes", 5 << 20}}, 20))["data"].get<std::string>().size(),
            std::size_t{5} << 20);
}

TEST(WorkerProcess, InvalidUtf8InARepliesIsReplacedNotFatal) {
  WorkerProcess w(test_child());
  auto reply = reply_of(w.call({{"op", "bad_utf8"}}, 10));
  std::string text = reply["text"];
  EXPECT_EQ(text.substr(0, 3), "ok ");
  EXPECT_EQ(text.substr(text.size() - 4), " end");
}

TEST(WorkerProcess, MissingExecutableIsACrashNotAnException) {
  WorkerCommand c;
  c.executable = "/nonexistent/ktune-worker";
  WorkerProcess w(c);
  auto crashed = crash_of(w.call({{"op", "echo"}}, 5));
  EXPECT_EQ(crashed.exit_code, 127);
  EXPECT_NE(crashed.description.find("could not start worker"), std::string::npos);
  EXPECT_NE(crashed.description.find("No such file"), std::string::npos);
}

TEST(WorkerProcess, ProgramThatIsNotAWorkerIsACrash) {
  WorkerCommand c;
  c.executable = "true";
  WorkerProcess w(c);
  auto crashed = crash_of(w.call({{"op", "echo"}}, 5));
  EXPECT_EQ(crashed.exit_code, 0);
  EXPECT_EQ(crashed.description, "exited with code 0");
}

TEST(WorkerProcess, StopExitsPolitelyAndIsIdempotent) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  auto start = std::chrono::steady_clock::now();
  w.stop();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.9);
  EXPECT_FALSE(w.running());
  EXPECT_FALSE(alive(pid));
  w.stop();
  // Usable again after stop.
  expect_recovers(w, pid);
}

TEST(WorkerProcess, StopKillsAWorkerThatWillNotExit) {
  WorkerCommand c = test_child();
  c.stop_grace_seconds = 0.2;
  pid_t pid;
  {
    WorkerProcess w(c);
    pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
    EXPECT_EQ(reply_of(w.call({{"op", "hang_at_exit"}}, 10))["armed"], true);
    auto start = std::chrono::steady_clock::now();
    w.stop();
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(elapsed, 0.2);
    EXPECT_LT(elapsed, 3.0);
    EXPECT_FALSE(alive(pid));
    // The destructor after a stop() has nothing left to do.
  }
  EXPECT_FALSE(alive(pid));
}

TEST(WorkerProcess, DestructorStopsTheWorker) {
  pid_t pid;
  {
    WorkerProcess w(test_child());
    pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
    EXPECT_TRUE(alive(pid));
  }
  EXPECT_FALSE(alive(pid));
}

TEST(WorkerProcess, DeathBetweenCallsIsReplacedBeforeTheNextRequest) {
  WorkerProcess w(test_child());
  pid_t pid = reply_of(w.call({{"op", "pid"}}, 10))["pid"];
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  // Wait until the kernel has really ended it (still a zombie: not reaped by us yet).
  for (int i = 0; i < 1000; ++i) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  auto reply = reply_of(w.call({{"op", "echo"}, {"after", "kill"}}, 10));
  EXPECT_EQ(reply["after"], "kill");
  EXPECT_EQ(w.restarts(), 1);
  EXPECT_NE(w.pid(), pid);
}

TEST(WorkerProcess, ManyFailuresInARow) {
  WorkerProcess w(test_child());
  const char* ops[] = {"segfault", "abort", "exit", "protocol_garbage", "half_reply"};
  for (int round = 0; round < 2; ++round)
    for (const char* op : ops) {
      EXPECT_TRUE(std::holds_alternative<Crashed>(w.call({{"op", op}}, 10))) << op;
      EXPECT_EQ(reply_of(w.call({{"op", "echo"}, {"n", round}}, 10))["n"], round);
    }
  EXPECT_EQ(w.restarts(), 10);
}

}  // namespace
}  // namespace ktune::worker
