#include "ktune/cli/roofline_view.h"

#include <cstdio>

#include "ktune/db/database.h"

namespace ktune::cli {

analysis::DeviceCeilings ceilings_of(const db::CalibrationRecord& calibration) {
  analysis::DeviceCeilings c;
  c.copy_gbps = calibration.copy_gbps;
  c.fp32_gflops = calibration.fp32_gflops;
  c.tensor_tflops = calibration.tensor_tflops;
  return c;
}

const std::optional<db::CalibrationRecord>& RooflineLookup::calibration(std::int64_t device_id) {
  auto it = calibrations_.find(device_id);
  if (it == calibrations_.end()) it = calibrations_.emplace(device_id, db::latest_calibration(database_, device_id)).first;
  return it->second;
}

std::string RooflineLookup::math_of(const db::ResultRecord& result) {
  auto it = problem_specs_.find(result.problem_id);
  if (it == problem_specs_.end()) {
    auto problem = database_.problem(result.problem_id);
    it = problem_specs_.emplace(result.problem_id, problem ? problem->spec : nlohmann::json::object()).first;
  }
  return analysis::roofline_math(result.config, it->second);
}

std::optional<analysis::RooflinePoint> RooflineLookup::classify(const db::ResultRecord& result) {
  if (!result.gflops && !result.gbps) return std::nullopt;
  const auto& c = calibration(result.device_id);
  if (!c) return std::nullopt;
  return analysis::classify({result.gflops, result.gbps}, ceilings_of(*c), math_of(result));
}

nlohmann::json RooflineLookup::to_json(const db::ResultRecord& result) {
  if (!result.gflops && !result.gbps) return nullptr;
  const auto& c = calibration(result.device_id);
  if (!c) return {{"note", kNoCalibration}};
  const std::string math = math_of(result);
  nlohmann::json j = analysis::to_json(analysis::classify({result.gflops, result.gbps}, ceilings_of(*c), math));
  j["math"] = math;
  j["calibration_id"] = c->id;
  return j;
}

std::string format_intensity(double intensity) {
  char text[32];
  if (intensity >= 100) std::snprintf(text, sizeof text, "%.0f", intensity);
  else if (intensity >= 1) std::snprintf(text, sizeof text, "%.2f", intensity);
  else std::snprintf(text, sizeof text, "%.3f", intensity);
  return text;
}

}  // namespace ktune::cli
