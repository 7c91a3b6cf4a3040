#pragma once
// Rows of the tuning database as plain structs. `id` fields are filled in by reads and
// ignored by writes (upserts and inserts return the id).

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/db/status.h"

namespace ktune::db {

// One device, identified by a fingerprint that the device backend computes from whatever
// changes timings (model, compute capability, driver, clocks policy, ...).
struct DeviceRecord {
  std::int64_t id = 0;
  std::string fingerprint;
  std::string backend;  // "cuda", "hip", "cpu"
  std::string name;
  nlohmann::json properties = nlohmann::json::object();
};

// One kernel, identified by (hash, name). The hash covers the source text and anything else
// that changes the generated code; the name is the entry point, so that two kernels from one
// file stay apart.
struct KernelRecord {
  std::int64_t id = 0;
  std::string hash;
  std::string name;
  std::string language;  // "cuda", "hip", "cpp", ...
  std::string source_path;
};

// One problem (sizes, types, layouts), identified by the hash of its normalized spec.
struct ProblemRecord {
  std::int64_t id = 0;
  std::string hash;
  std::string name;
  nlohmann::json sizes = nlohmann::json::object();
  nlohmann::json spec = nlohmann::json::object();
};

// Session states; finish_session accepts the last three.
inline constexpr std::string_view kSessionRunning = "running";
inline constexpr std::string_view kSessionFinished = "finished";
inline constexpr std::string_view kSessionInterrupted = "interrupted";
inline constexpr std::string_view kSessionFailed = "failed";

struct SessionRecord {
  std::int64_t id = 0;
  std::int64_t device_id = 0, kernel_id = 0, problem_id = 0;
  std::string strategy;
  nlohmann::json options = nlohmann::json::object();
  std::string started_at, finished_at;  // ISO 8601 UTC; finished_at empty while running
  std::string state;                    // running / finished / interrupted / failed
  std::string host;                     // where the tuning process ran, and its pid:
  std::int64_t pid = 0;                 // lets a later run tell a killed session from a live one
};

// One evaluated configuration. Times are in seconds.
struct ResultRecord {
  std::int64_t id = 0;
  std::int64_t session_id = 0;  // 0: measured outside a session (stored as NULL)
  std::int64_t device_id = 0, kernel_id = 0, problem_id = 0;
  std::string config_key;  // ktune::config_key(config): the identity used for resume
  nlohmann::json config = nlohmann::json::object();
  Status status = Status::Ok;
  std::optional<double> median_s, mean_s, min_s, max_s, q1_s, q3_s, stdev_s;
  std::int64_t samples = 0;
  std::string stop_reason;  // why measurement stopped: "converged", "max_time", "raced", ...
  bool raced = false;       // abandoned early because it could not beat the best
  std::optional<double> gflops, gbps;
  double compile_seconds = 0;
  bool compile_cache_hit = false;
  nlohmann::json resources = nlohmann::json::object();     // registers, shared memory, spills, ...
  nlohmann::json verification = nlohmann::json::object();  // comparison summary
  std::string error;                                       // compiler log excerpt, signal, message
  std::string created_at;  // ISO 8601 UTC; filled in by insert_result when empty
  double started_at_unix = 0, finished_at_unix = 0;  // wall-clock span of the evaluation (traces)
  // Where the evaluation's time went, in seconds: the worker's phases (arguments, reference,
  // load, reset, run, check, measure, post_check, total) and the tuner's (compile, compile_wait,
  // worker_call: the round trip, record: the commit of the previous result).
  nlohmann::json phases = nlohmann::json::object();
  // compute-sanitizer's findings when the candidate was re-run under it (ktune tune --sanitize).
  nlohmann::json sanitizer = nlohmann::json::object();
};

}  // namespace ktune::db
