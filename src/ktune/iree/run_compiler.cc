#include "ktune/iree/run_compiler.h"

#include <algorithm>

namespace ktune::iree {

CompilerRun run_iree_compile(const std::vector<std::string>& command, double timeout_seconds, double stall_seconds) {
  CompilerRun run;
  run.command = command;
  device::SubprocessOptions options;
  options.timeout_seconds = timeout_seconds;
  options.stall_seconds = stall_seconds;
  run.result = device::run_subprocess(run.command, options);
  run.seconds = run.result.seconds;
  const bool already_single = std::find(command.begin(), command.end(), kSingleThreadedFlag) != command.end();
  if (!run.result.stalled || already_single) return run;
  // The retry gets what is left of the time limit, and no stall guard: a single-threaded
  // compile that still makes no progress is left to the timeout.
  run.command.push_back(kSingleThreadedFlag);
  run.retried_single_threaded = true;
  options.timeout_seconds = std::max(1.0, timeout_seconds - run.seconds);
  options.stall_seconds = 0;
  run.result = device::run_subprocess(run.command, options);
  run.seconds += run.result.seconds;
  return run;
}

}  // namespace ktune::iree
