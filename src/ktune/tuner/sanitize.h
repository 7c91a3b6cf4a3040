#pragma once
// `ktune tune --sanitize`: re-runs the winner (or every correct candidate) once, verify-only,
// in a worker started under NVIDIA's compute-sanitizer (memcheck, racecheck, initcheck,
// synccheck), and records what it finds. Guard bands catch writes next to a buffer; the
// sanitizer catches every out-of-bounds access, shared-memory races and uninitialised reads.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/tuner/evaluation_job.h"
#include "ktune/worker/worker_process.h"

namespace ktune::tuner {

struct SanitizeOptions {
  std::string scope;                           // "" (off), "winner" or "all"
  std::vector<std::string> tools{"memcheck"};  // compute-sanitizer --tool values
  std::filesystem::path sanitizer;             // empty: find_compute_sanitizer()
  double timeout_seconds = 600;                // per tool and candidate (sanitized runs are slow)
};

// compute-sanitizer: `given` if set, else $KTUNE_COMPUTE_SANITIZER, PATH, $CUDA_HOME/bin,
// /usr/local/cuda/bin. nullopt when none is found.
std::optional<std::filesystem::path> find_compute_sanitizer(const std::filesystem::path& given = {});

// The findings compute-sanitizer counted: N of its last "ERROR SUMMARY: N error(s)" line
// (memcheck, initcheck, synccheck) or "RACECHECK SUMMARY: N hazards displayed" (racecheck);
// nullopt without either.
std::optional<long> sanitizer_error_count(const std::string& log);

// Runs `request` (made verify-only here) once per tool under compute-sanitizer in a fresh
// worker started with `worker`'s executable and arguments. Returns
// {"tools": {tool: {"errors": N, "report": "first lines", "status": "ok|wrong_result|...|crashed"}},
//  "errors": total, "sanitizer": path}; {"error": why} when it could not run.
nlohmann::json sanitize_candidate(EvaluationRequest request, const worker::WorkerCommand& worker,
                                  const SanitizeOptions& options);

}  // namespace ktune::tuner
