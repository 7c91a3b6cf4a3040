#pragma once
// A recorded space from a tuning database: the results of one (device, kernel, problem), one per
// configuration (the latest when a configuration was measured twice), with what each cost.
// Record with an exhaustive session on a cold compile cache (`ktune tune SPEC --strategy
// exhaustive --no-racing`), then export: the costs are what a search would pay.

#include <optional>
#include <string>
#include <vector>

#include "ktune/db/database.h"
#include "ktune/simulate/recorded_space.h"

namespace ktune::simulate {

struct RecordSelection {
  std::optional<std::string> kernel;   // kernel name (exact)
  std::optional<std::string> problem;  // problem name (exact)
  std::optional<std::string> device;   // device fingerprint or name (exact)
  std::string name;                    // the recording's name (default: the kernel's, and the problem's if it differs)
  // The space's definition when it is a spec's (membership "constraints"); empty: the recorded
  // configurations are the space, each parameter's values collected from them.
  std::vector<space::Parameter> parameters;
  std::vector<std::string> constraints;
  Config constants;
  std::string source;
};

// Throws RecordingError when the selection matches no results, or results of more than one
// (device, kernel, problem) (the message lists them, so the user can narrow it).
RecordedSpace record_from_database(db::Database& db, const RecordSelection& selection);

// What one stored result cost: the compile (the tuner's compile_seconds, or the GEMM family's
// NVRTC seconds in resources.compile.seconds or resources.kernel_resources.nvrtc_seconds) and the evaluation round trip (phases.worker_call,
// else the worker's total, else the wall-clock span).
RecordedResult recorded_result(const db::ResultRecord& r);

}  // namespace ktune::simulate
