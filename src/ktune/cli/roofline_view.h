#pragma once
// Roofline columns for `ktune results` / `ktune best`: each result judged against the newest
// calibration of its device (analysis/roofline.h does the math).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/analysis/roofline.h"
#include "ktune/db/calibrations.h"
#include "ktune/db/records.h"

namespace ktune::db {
class Database;
}

namespace ktune::cli {

inline constexpr const char* kNoCalibration = "no calibration: run ktune calibrate";

analysis::DeviceCeilings ceilings_of(const db::CalibrationRecord& calibration);

class RooflineLookup {
 public:
  explicit RooflineLookup(db::Database& database) : database_(database) {}

  // The newest calibration of the device (looked up once per device).
  const std::optional<db::CalibrationRecord>& calibration(std::int64_t device_id);
  // nullopt when the result has neither GFLOP/s nor GB/s, or its device has no calibration.
  std::optional<analysis::RooflinePoint> classify(const db::ResultRecord& result);
  // The "roofline" field of a result's JSON: the point plus "math" and "calibration_id", or
  // {"note": "no calibration: run ktune calibrate"}; null without FLOP/byte counts.
  nlohmann::json to_json(const db::ResultRecord& result);

 private:
  std::string math_of(const db::ResultRecord& result);
  db::Database& database_;
  std::map<std::int64_t, std::optional<db::CalibrationRecord>> calibrations_;
  std::map<std::int64_t, nlohmann::json> problem_specs_;
};

// "12.3", "0.167", "2730": intensity in FLOP/byte with sensible digits.
std::string format_intensity(double intensity);

}  // namespace ktune::cli
