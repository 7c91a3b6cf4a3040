#pragma once
// The parent side of a worker: a child process that runs requests (compile-free work such
// as loading, running and timing kernels) so that a crash or hang in user code costs one
// child, never the tuner. Failures of the child are outcomes, not exceptions; after one,
// the child is gone and the next call starts a fresh one.

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/worker/frame.h"

namespace ktune::worker {

struct WorkerCommand {
  std::filesystem::path executable;  // a path, or a name looked up in PATH
  std::vector<std::string> args;     // after argv[0]
  std::map<std::string, std::string> env;  // added to the inherited environment
  double stop_grace_seconds = 2;     // stop(): how long a polite exit may take before SIGKILL
  std::size_t output_tail_bytes = 4096;  // how much of the child's stdout+stderr to keep
  // A child whose sanitizer began a fatal report ("==PID==ERROR: AddressSanitizer: ...") before
  // the deadline is dying, not hanging: how long it may take to finish that report (symbolising
  // a stack can take seconds on a loaded machine) before it is killed.
  double report_grace_seconds = 30;
};

class WorkerProcess {
 public:
  // Does not start the child until the first call().
  explicit WorkerProcess(WorkerCommand command);
  ~WorkerProcess();  // stop()
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  struct Crashed {
    int signal = 0;             // the signal that killed it, 0 if none
    int exit_code = 0;          // its exit status when it exited by itself
    std::string stderr_tail;    // the end of its stdout+stderr (interleaved)
    std::string description;    // "killed by SIGSEGV (Segmentation fault)", "exited with code 3", ...
  };
  struct TimedOut {
    double seconds = 0;  // how long the call waited before killing the child
    std::string stderr_tail;
  };
  using Outcome = std::variant<nlohmann::json, Crashed, TimedOut>;

  // Sends a request and waits for the reply (the handler's JSON, or {"error": ...} when the
  // handler threw). On a crash, a protocol violation or the timeout, the child (and its
  // process group) is killed and reaped. timeout_seconds <= 0 waits without limit. A child
  // that is writing a sanitizer's fatal report when the deadline falls is a crash, not a
  // timeout (see report_grace_seconds).
  // Never throws for failures of the child. Calls are serialised (one request in flight).
  Outcome call(const nlohmann::json& request, double timeout_seconds);

  // Asks the child to exit, waits stop_grace_seconds, then SIGKILL. Idempotent.
  void stop();

  bool running() const;
  pid_t pid() const;       // -1 when no child is running
  int restarts() const;    // children started after the first
  std::string output_tail() const;  // of the current or last child

 private:
  bool start(std::string& error);
  Crashed crash(std::string description_prefix);
  // crash()'s report once the child has exited (or did not within its grace: killed here).
  Crashed crashed_after(bool exited, std::string description_prefix);
  // The deadline has passed: a timeout, or the crash a sanitizer report under way says it is.
  Outcome expire(double waited);
  TimedOut time_out(double waited);
  void kill_child();
  // Waits for the child to exit until `seconds` have passed, draining its output.
  bool reap(double seconds);
  void drain_output(int timeout_ms);
  void append_output(const char* data, std::size_t size);
  void close_pipes();

  WorkerCommand command_;
  mutable std::mutex mutex_;
  pid_t pid_ = -1;
  int status_ = 0;            // wait status once reaped
  int to_child_ = -1;         // requests
  int from_child_ = -1;       // replies
  int output_ = -1;           // child's stdout + stderr
  int starts_ = 0;
  std::uint64_t sequence_ = 0;
  std::string tail_;
  bool sanitizer_report_ = false;  // the current child's output began a fatal sanitizer report
  FrameDecoder decoder_;
  std::vector<pid_t> unreaped_;  // killed children that did not die in time (stuck in the kernel)
};

}  // namespace ktune::worker
