#pragma once
// The roofline model of one measured result against a device's calibrated ceilings
// (`ktune calibrate`): arithmetic intensity, the roof that applies at that intensity, how much
// of it the result reaches, and whether the kernel is memory-, compute- or latency-bound.
// Pure functions on numbers; the database and the CLI feed them.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ktune::analysis {

// What `ktune calibrate` measured on a device. Units as the names say.
struct DeviceCeilings {
  std::optional<double> copy_gbps;             // device memory read + write, GB/s
  std::optional<double> fp32_gflops;           // FFMA-bound (CPU: FMA-bound vector) peak
  std::map<std::string, double> tensor_tflops;  // by math: "bf16", "f16", "tf32", "fp8"
  bool empty() const { return !copy_gbps && !fp32_gflops && tensor_tflops.empty(); }
};

// The compute roof for a kind of math: "fp32" is the FP32 peak; "bf16", "f16", "tf32", "fp8"
// are tensor-core peaks. nullopt when that ceiling was not measured (a tensor math never
// falls back to the FP32 peak: that would call a slow tensor kernel compute-bound).
struct ComputeRoof {
  std::string name;  // "fp32", "tensor bf16", ...
  double gflops = 0;
};
std::optional<ComputeRoof> compute_roof(const DeviceCeilings& ceilings, std::string_view math);

// Which math a result is judged against. GEMM results (the problem's spec has "op": "gemm", or
// the config's family is "cublaslt" or "generated") use the tensor peak of the problem's dtype
// (f32 GEMMs with strict fp32 math use "fp32"). Spec kernels use "fp32" unless the problem's
// spec JSON names one under "roofline": {"compute": ...} or "compute".
std::string roofline_math(const nlohmann::json& config, const nlohmann::json& problem_spec);

enum class Bound {
  Memory,   // below the ridge and at least `saturated` of the memory roof
  Compute,  // at or above the ridge and at least `saturated` of the compute roof
  Latency,  // under `saturated` of the roof that applies: neither saturated
  Unknown,  // no FLOP/byte counts, or no ceiling for the roof that applies
};
std::string_view bound_name(Bound bound);  // "memory", "compute", "latency", "unknown"

// What a result achieved; from the results row (gflops and gbps come from the spec's flops
// and bytes expressions, or the gemm problem, divided by the median time).
struct Achieved {
  std::optional<double> gflops;
  std::optional<double> gbps;
};

struct RooflinePoint {
  std::optional<double> intensity;            // FLOP/byte (gflops / gbps)
  std::optional<double> memory_roof_gflops;   // copy_gbps x intensity
  std::optional<double> compute_roof_gflops;  // the peak of `compute_roof`
  std::string compute_roof;                   // its name ("fp32", "tensor bf16"); empty if none
  std::optional<double> ridge_intensity;      // compute peak / copy bandwidth, FLOP/byte
  std::string roof;                           // "memory" or "compute": the one that applies; empty if none
  std::optional<double> fraction;             // achieved / that roof (can pass 1 for cache-resident data)
  Bound bound = Bound::Unknown;
  std::string note;  // why Unknown, or which information was missing
};

inline constexpr double kSaturatedFraction = 0.5;

// Classifies one result. With both counts the roof is min(memory roof, compute roof) at the
// result's intensity; with only bytes it is the memory roof, with only FLOPs the compute roof.
// `saturated` must be in (0, 1]; throws std::invalid_argument otherwise.
RooflinePoint classify(const Achieved& achieved, const DeviceCeilings& ceilings, std::string_view math,
                       double saturated = kSaturatedFraction);

// {"intensity", "memory_roof_gflops", "compute_roof_gflops", "compute_roof", "ridge_intensity",
//  "roof", "fraction", "bound", "note"}; missing values are omitted.
nlohmann::json to_json(const RooflinePoint& point);
nlohmann::json to_json(const DeviceCeilings& ceilings);

}  // namespace ktune::analysis
