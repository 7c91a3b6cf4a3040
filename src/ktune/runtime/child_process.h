#pragma once
// A child process for the runtime's background tunings: spawned without a shell in its own
// process group (stopping it also stops the compilers and workers it started), stdin from
// /dev/null, stdout kept, the tail of stderr kept. Written here rather than reusing
// ktune_device's run_subprocess so that ktune_runtime does not link the device engine, and
// because the runtime must be able to stop a child early (Runtime's destructor).

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

namespace ktune::runtime {

struct ChildOptions {
  double timeout_seconds = 600;                // then SIGTERM, and SIGKILL after grace_seconds
  double grace_seconds = 5;
  const std::atomic<bool>* stop = nullptr;     // set: stop the child the same way, early
  std::size_t max_stdout_bytes = 1 << 20;
  std::size_t stderr_tail_bytes = 4096;
};

struct ChildResult {
  bool started = false;
  std::string spawn_error;   // why it could not start
  int exit_code = -1;        // when it exited normally
  int signal = 0;            // when a signal ended it
  bool timed_out = false;
  bool stopped = false;      // ChildOptions::stop asked for it
  std::string out;           // stdout, first max_stdout_bytes
  std::string err_tail;      // stderr, last stderr_tail_bytes
  double seconds = 0;

  // "exited with code 2", "killed by signal 9", "timed out after 60 s", "could not start ...".
  std::string describe() const;
};

// argv[0] without a '/' is looked up in PATH. Never throws for the child's failures.
ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options);

// The absolute path of `name` in PATH, executable; empty when not found.
std::string find_in_path(const std::string& name);

}  // namespace ktune::runtime
