#include "ktune/analysis/roofline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ktune::analysis {

namespace {

bool positive(const std::optional<double>& v) { return v && std::isfinite(*v) && *v > 0; }

std::string json_string(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The gemm problem's dtype as a roofline math: tensor-core precisions keep their name,
// strict fp32 uses the FP32 peak.
std::string gemm_math(const std::string& dtype) {
  if (dtype == "f32" || dtype == "fp32" || dtype == "float") return "fp32";
  if (dtype == "fp16" || dtype == "half") return "f16";
  if (dtype == "bfloat16") return "bf16";
  if (dtype == "f8e4m3" || dtype == "e4m3" || dtype == "fp8e4m3" || dtype == "f8") return "fp8";
  return dtype.empty() ? std::string("bf16") : dtype;  // a gemm problem's default dtype
}

}  // namespace

std::optional<ComputeRoof> compute_roof(const DeviceCeilings& ceilings, std::string_view math) {
  if (math == "fp32") {
    if (!positive(ceilings.fp32_gflops)) return std::nullopt;
    return ComputeRoof{"fp32", *ceilings.fp32_gflops};
  }
  auto it = ceilings.tensor_tflops.find(std::string(math));
  if (it == ceilings.tensor_tflops.end() || !std::isfinite(it->second) || it->second <= 0) return std::nullopt;
  return ComputeRoof{"tensor " + std::string(math), it->second * 1000.0};
}

std::string roofline_math(const nlohmann::json& config, const nlohmann::json& problem_spec) {
  const std::string family = json_string(config, "family");
  const bool gemm = json_string(problem_spec, "op") == "gemm" || family == "cublaslt" || family == "generated";
  if (gemm) return gemm_math(json_string(problem_spec, "dtype"));
  if (problem_spec.is_object()) {
    auto roofline = problem_spec.find("roofline");
    if (roofline != problem_spec.end()) {
      std::string math = json_string(*roofline, "compute");
      if (!math.empty()) return math;
    }
    std::string math = json_string(problem_spec, "compute");
    if (!math.empty()) return math;
  }
  return "fp32";
}

std::string_view bound_name(Bound bound) {
  switch (bound) {
    case Bound::Memory: return "memory";
    case Bound::Compute: return "compute";
    case Bound::Latency: return "latency";
    case Bound::Unknown: break;
  }
  return "unknown";
}

RooflinePoint classify(const Achieved& achieved, const DeviceCeilings& ceilings, std::string_view math,
                       double saturated) {
  if (!(saturated > 0 && saturated <= 1))
    throw std::invalid_argument("roofline: the saturation fraction must be in (0, 1], got " + std::to_string(saturated));
  RooflinePoint point;
  const bool has_flops = positive(achieved.gflops);
  const bool has_bytes = positive(achieved.gbps);
  if (!has_flops && !has_bytes) {
    point.note = "no FLOP or byte counts (give the spec flops/bytes expressions)";
    return point;
  }
  const std::optional<ComputeRoof> compute = compute_roof(ceilings, math);
  const bool has_copy = positive(ceilings.copy_gbps);
  if (compute) {
    point.compute_roof = compute->name;
    point.compute_roof_gflops = compute->gflops;
  }
  if (has_flops && has_bytes) point.intensity = *achieved.gflops / *achieved.gbps;
  if (point.intensity && has_copy) point.memory_roof_gflops = *ceilings.copy_gbps * *point.intensity;
  if (compute && has_copy) point.ridge_intensity = compute->gflops / *ceilings.copy_gbps;

  // Which roof caps this result: with both, the lower one at its intensity (the ridge is where
  // they cross); with one count or one ceiling, the only roof that can be drawn.
  const bool memory_possible = has_bytes && has_copy;
  const bool compute_possible = has_flops && compute.has_value();
  if (memory_possible && compute_possible && point.intensity) {
    point.roof = *point.memory_roof_gflops < compute->gflops ? "memory" : "compute";
  } else if (memory_possible && (!has_flops || !compute)) {
    point.roof = "memory";
    if (has_flops) point.note = "no " + std::string(math) + " compute ceiling measured: judged against the memory roof only";
  } else if (compute_possible && (!has_bytes || !has_copy)) {
    point.roof = "compute";
    if (has_bytes) point.note = "no copy bandwidth measured: judged against the compute roof only";
  }
  if (point.roof.empty()) {
    if (has_flops && !compute) point.note = "no " + std::string(math) + " compute ceiling measured";
    else point.note = "no copy bandwidth measured";
    return point;
  }
  if (point.roof == "memory") {
    point.fraction = *achieved.gbps / *ceilings.copy_gbps;
    point.bound = *point.fraction >= saturated ? Bound::Memory : Bound::Latency;
    // Warm or small inputs come from cache, which is faster than the device-memory copy roof.
    if (*point.fraction > 1.05) point.note = "above the copy-bandwidth roof: the data is served from cache";
  } else {
    point.fraction = *achieved.gflops / compute->gflops;
    point.bound = *point.fraction >= saturated ? Bound::Compute : Bound::Latency;
  }
  return point;
}

nlohmann::json to_json(const RooflinePoint& point) {
  nlohmann::json j = nlohmann::json::object();
  if (point.intensity) j["intensity"] = *point.intensity;
  if (point.memory_roof_gflops) j["memory_roof_gflops"] = *point.memory_roof_gflops;
  if (point.compute_roof_gflops) j["compute_roof_gflops"] = *point.compute_roof_gflops;
  if (!point.compute_roof.empty()) j["compute_roof"] = point.compute_roof;
  if (point.ridge_intensity) j["ridge_intensity"] = *point.ridge_intensity;
  if (!point.roof.empty()) j["roof"] = point.roof;
  if (point.fraction) j["fraction"] = *point.fraction;
  j["bound"] = std::string(bound_name(point.bound));
  if (!point.note.empty()) j["note"] = point.note;
  return j;
}

nlohmann::json to_json(const DeviceCeilings& ceilings) {
  nlohmann::json j = nlohmann::json::object();
  if (ceilings.copy_gbps) j["copy_gbps"] = *ceilings.copy_gbps;
  if (ceilings.fp32_gflops) j["fp32_gflops"] = *ceilings.fp32_gflops;
  j["tensor_tflops"] = nlohmann::json::object();
  for (const auto& [math, tflops] : ceilings.tensor_tflops) j["tensor_tflops"][math] = tflops;
  return j;
}

}  // namespace ktune::analysis
