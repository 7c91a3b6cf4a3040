#pragma once
// Static screening of a CUDA launch before anything runs: will the device accept this block
// shape, register count and shared memory, and how many blocks fit on an SM? The tuner calls
// it for each compiled candidate so that impossible ones never reach a worker, and records
// the occupancy with the result.

#include <string>

#include <nlohmann/json.hpp>

#include "ktune/device/device.h"

namespace ktune::device::cuda {

struct ScreenResult {
  bool launchable = false;
  std::string reason;  // why not, when !launchable (every reason, "; "-separated)
  // analysis::to_json(OccupancyResult) plus "summary" ("3 blocks/SM, 48/64 warps (75%),
  // limited by registers"), "threads_per_block", "registers_per_thread", "static_shared_bytes",
  // "dynamic_shared_bytes", "barriers", "registers_known", "arch" (the device's) and "notes".
  nlohmann::json occupancy = nlohmann::json::object();
};

// device_properties: DeviceInfo::properties of a CUDA device (what CudaBackend::devices()
// reports). compile_resources: CompileResult::resources from CudaCompiler (registers,
// shared_bytes, barriers, arch; missing numbers count as 0 and are noted). Checks, against
// the device's own limits: block dimensions and grid dimensions, threads per block, registers
// per block (regs x threads, allocation granularity included), static + dynamic shared memory
// against the per-block opt-in limit, and that the CUBIN's architecture runs on this device
// (sm_XY runs on M.m with the same major and m >= Y; sm_XYa only on exactly X.Y).
// Throws DeviceError when device_properties are not a CUDA device's.
ScreenResult screen_launch(const nlohmann::json& device_properties, const nlohmann::json& compile_resources,
                           const LaunchGeometry& geometry);

}  // namespace ktune::device::cuda
