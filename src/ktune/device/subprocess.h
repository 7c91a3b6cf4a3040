#pragma once
// Runs a tool (host compiler, clang for HIP, an assembler) with a time limit and captured
// output. Spawns without a shell in a new process group, so a timeout kills the driver and
// everything it started (cc1plus, as, ld), not only the driver.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ktune::device {

struct SubprocessOptions {
  double timeout_seconds = 120;
  std::size_t max_output_bytes = 1 << 20;     // stdout+stderr kept beyond this are counted, not stored
  std::map<std::string, std::string> env;     // added to (or replacing entries of) the inherited environment
  // > 0: kill the child when its process group has used no CPU time for this many seconds (a
  // deadlocked compiler, waiting on itself forever). Only for tools that never wait on the
  // outside world (a GPU, the network, stdin): a compiler qualifies, a benchmark does not.
  double stall_seconds = 0;
};

struct SubprocessResult {
  bool started = false;  // false: could not spawn; spawn_error says why
  std::string spawn_error;
  int exit_code = -1;     // when it exited normally
  int signal = 0;         // when it was killed by a signal (including our SIGKILL on timeout)
  bool timed_out = false;
  bool stalled = false;   // killed by stall_seconds (timed_out is set too)
  std::string output;     // stdout and stderr interleaved, first max_output_bytes
  std::size_t output_bytes_dropped = 0;
  double seconds = 0;

  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exited with code 1", "killed by SIGSEGV", "timed out after 120 s", "could not start: ..."
  std::string describe() const;
};

// argv[0] is looked up in PATH when it has no '/'. Never throws for failures of the child.
SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options = {});

// CPU seconds (user + system, including reaped children) used so far by the live processes of
// process group `pgid`; nullopt when /proc cannot be read.
std::optional<double> process_group_cpu_seconds(int pgid);

// "SIGSEGV (Segmentation fault)".
std::string signal_description(int signal);

// Absolute path of an executable as run_subprocess would find it; "" if not found.
std::string find_executable(const std::string& name);

}  // namespace ktune::device
