#pragma once
// Runs an offline tool (clang, ld.lld, llvm-objdump) with a time limit and captured output.
// The device module has the general runner (device/subprocess.h), but amdgpu sits before
// device in the module order so that the HIP backend can use it; this is the small subset
// the toolchain needs: posix_spawn without a shell, a new process group (a timeout kills
// the driver and the cc1/lld it started), stdout+stderr interleaved.

#include <cstddef>
#include <string>
#include <vector>

namespace ktune::amdgpu {

struct ToolRun {
  bool started = false;
  std::string spawn_error;
  int exit_code = -1;
  int signal = 0;
  bool timed_out = false;
  std::string output;  // stdout and stderr, first max_output_bytes
  double seconds = 0;

  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exited with code 1", "killed by signal 9", "timed out after 120 s", "could not start: ..."
  std::string describe() const;
};

// argv[0] is looked up in PATH when it has no '/'.
ToolRun run_tool(const std::vector<std::string>& argv, double timeout_seconds = 300,
                 std::size_t max_output_bytes = std::size_t{8} << 20);

// Absolute path of an executable found in PATH (or the path itself when it contains '/' and
// is executable); "" when not found.
std::string find_program(const std::string& name);

// "clang-19 -x hip ..." with arguments quoted where the shell would need it (for logs).
std::string command_line(const std::vector<std::string>& argv);

}  // namespace ktune::amdgpu
