#pragma once
// Runs iree-compile with a guard against its rare internal deadlocks. IREE's compiler has hung
// on its own thread pool before (iree-org/iree#22842: a worker re-entering a mutex it already
// held, about 1 in 1000 compiles, hip targets); ktune's CI saw an iree-compile for gfx942 hang
// until the test's 600 s limit. A deadlocked compiler uses no CPU time, so a compile whose
// process group has used none for kStallSeconds is killed and run once more single-threaded
// (--mlir-disable-threading), which has no pool to deadlock on.

#include <string>
#include <vector>

#include "ktune/device/subprocess.h"

namespace ktune::iree {

inline constexpr double kStallSeconds = 60;
inline constexpr const char* kSingleThreadedFlag = "--mlir-disable-threading";

struct CompilerRun {
  device::SubprocessResult result;      // of the last attempt
  std::vector<std::string> command;     // the command that ran last (with the flag on a retry)
  bool retried_single_threaded = false;
  double seconds = 0;                   // all attempts together
};

// `stall_seconds` is a parameter only so that tests can use a short one.
CompilerRun run_iree_compile(const std::vector<std::string>& command, double timeout_seconds,
                             double stall_seconds = kStallSeconds);

}  // namespace ktune::iree
