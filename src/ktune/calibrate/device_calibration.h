#pragma once
// `ktune calibrate`: measures a device's ceilings for the roofline with ktune's own machinery
// (the backend's compiler and loader, measure::run_measurement; cuBLASLt through the gemm
// family for tensor-core peaks). The command (cli/calibrate_command.cc) stores the outcome.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/analysis/roofline.h"
#include "ktune/device/device.h"

namespace ktune::calibrate {

struct CalibrationOptions {
  std::string backend = "cuda";  // "cuda" or "cpu"
  int device = 0;
  // Tensor-core maths measured with cuBLASLt (CUDA only): bf16, f16, tf32, fp8.
  std::vector<std::string> tensor_maths{"bf16", "f16", "tf32", "fp8"};
  std::int64_t gemm_size = 8192;         // M = N = K of the tensor-core GEMMs
  double max_seconds_per_ceiling = 4.0;  // measurement timeout of each ceiling
  std::function<void(const std::string&)> progress;  // one line per step; may be empty
};

struct CalibrationOutcome {
  device::DeviceInfo device;
  analysis::DeviceCeilings ceilings;
  // Per ceiling: kernel, sizes, threads, timing, statistics; plus "notes" for what could not be
  // measured and why.
  nlohmann::json method = nlohmann::json::object();
};

// Throws std::runtime_error (with the backend's reason) when the backend or the device is not
// available, or when a kernel fails to compile or run. A tensor math that cuBLASLt cannot run
// on this device is left out with a note instead.
CalibrationOutcome calibrate_device(const CalibrationOptions& options);

// The CPU copy and FMA kernels and the CUDA ones, as compiled (exposed for tests).
const char* cpu_calibration_source();
const char* cuda_calibration_source();

}  // namespace ktune::calibrate
