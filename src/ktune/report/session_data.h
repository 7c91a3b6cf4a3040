#pragma once
// Everything a report or a trace needs about one tuning session, read from the database once:
// the session, its device, kernel and problem, its results, and the device's measured
// ceilings when some calibration left them in the database.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/db/database.h"
#include "ktune/db/records.h"

namespace ktune::report {

// Measured limits of a device, for the roofline. Never guessed: only what a calibration stored.
struct Ceilings {
  std::optional<double> memory_gbps;                             // copy bandwidth, GB/s
  std::vector<std::pair<std::string, double>> compute_gflops;    // (name, GFLOP/s), e.g. fp32, tensor
  std::string source;                                            // where they were read from
  bool empty() const { return !memory_gbps && compute_gflops.empty(); }
};

struct SessionData {
  db::SessionRecord session;
  db::DeviceRecord device;
  db::KernelRecord kernel;
  db::ProblemRecord problem;
  std::vector<db::ResultRecord> results;  // in evaluation order (oldest first)
  std::optional<Ceilings> ceilings;
};

// Throws std::runtime_error when the session, or a row it refers to, is missing.
SessionData load_session_data(db::Database& database, std::int64_t session_id);

// Looks for ceilings of `device`: in its properties under "ceilings" or "calibration", then in
// the newest row for the device of any table whose name mentions calibration or ceilings
// (a calibration command may add one; the schema of version 1 has none). Numeric fields are
// recognised by name: *bandwidth*/*gbps*/*bytes_per_s* for memory, *flops* for compute
// (units from the name: tb/tflops scale by 1000, bytes/flops per second by 1e-9).
std::optional<Ceilings> find_ceilings(db::Database& database, const db::DeviceRecord& device);

// The same recognition on one JSON object (nested objects are searched with dotted names).
Ceilings ceilings_from_json(const nlohmann::json& fields, const std::string& source);

}  // namespace ktune::report
