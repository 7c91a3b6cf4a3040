#pragma once
// Device ceilings measured by `ktune calibrate` (table device_calibrations, schema version 2):
// copy bandwidth, FP32 peak and tensor-core peaks, with how they were measured. A new
// calibration adds a row; the newest row of a device is the one in use.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/db/database.h"

namespace ktune::db {

struct CalibrationRecord {
  std::int64_t id = 0;
  std::int64_t device_id = 0;
  std::string created_at;  // ISO 8601 UTC; filled in by insert_calibration when empty
  std::optional<double> copy_gbps;              // device memory read + write, GB/s
  std::optional<double> fp32_gflops;            // FP32 FMA peak, GFLOP/s
  std::map<std::string, double> tensor_tflops;  // tensor-core peaks by math ("bf16", "f16", ...)
  // Kernels, sizes, thread counts, timing method and statistics of each measurement. Keys avoid
  // the words the report's ceiling finder reads as ceilings (flop, gbps, bandwidth).
  nlohmann::json method = nlohmann::json::object();
};

// Inserts and commits; returns the id. Throws std::invalid_argument for a missing device id or
// a ceiling that is not finite and positive, SqliteError when the device does not exist.
std::int64_t insert_calibration(Database& database, const CalibrationRecord& calibration);
// The newest calibration of the device, if any.
std::optional<CalibrationRecord> latest_calibration(Database& database, std::int64_t device_id);
// Every calibration of the device, newest first.
std::vector<CalibrationRecord> calibrations(Database& database, std::int64_t device_id);

// {"id", "device_id", "created_at", "copy_gbps", "fp32_gflops", "tensor_tflops", "method"}.
nlohmann::json to_json(const CalibrationRecord& calibration);

}  // namespace ktune::db
