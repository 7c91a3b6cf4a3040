#pragma once
// The HIP backend: AMD GPUs through the HIP runtime (libamdhip64, dlopen), kernels compiled
// offline with a stock LLVM (or hiprtc). The backend exists on every machine; availability()
// says which library is missing, and the compiler works without ROCm. See README.md.
//
// The runtime path (devices, load, launch, timing) has NOT run on AMD hardware: no AMD GPU was
// available. Verified: offline compilation, code-object analysis, loader behaviour without ROCm.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ktune/device/device.h"
#include "ktune/device/hip/hip_compiler.h"
#include "ktune/device/hip/hip_kernel.h"

namespace ktune::device::hip {

class HipBackend : public Backend {
 public:
  explicit HipBackend(HipCompilerOptions options = {});
  ~HipBackend() override;

  std::string name() const override { return "hip"; }
  // Available when libamdhip64 loads, hipInit succeeds and there is at least one GPU. The
  // reason names the library that was not found and where ktune looked.
  Availability availability() const override;
  // properties: "target" (gcnArchName, e.g. "gfx942:sramecc+:xnack-"), "processor",
  // "compute_units", "warp_size", "max_threads_per_block", "max_shared_memory_per_block",
  // "l2_cache_bytes", "clock_khz", "memory_clock_khz", "memory_bus_width", "total_memory_bytes",
  // "pci" and "runtime_version".
  std::vector<DeviceInfo> devices() const override;
  Compiler& compiler() override { return compiler_; }
  HipCompiler& hip_compiler() { return compiler_; }
  std::unique_ptr<LoadedKernel> load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                     const LaunchGeometry& geometry) override;
  // AMD occupancy (analysis::amdgpu_occupancy) from the code object's metadata.
  ScreenResult screen(int ordinal, const CompileResult& compiled, const LaunchGeometry& geometry) const override;

  DeviceMemory& memory(int ordinal) override;

  // The runtime, loaded on first use; .error says why not (no ROCm on this machine, ...).
  const Loaded<ktune::hip::HipRuntime>& runtime() const;

 private:
  HipCompiler compiler_;
  mutable std::once_flag runtime_once_;
  mutable Loaded<ktune::hip::HipRuntime> runtime_;
  mutable std::mutex mutex_;
  mutable std::optional<std::vector<DeviceInfo>> devices_cache_;
  std::map<int, std::shared_ptr<HipDeviceState>> states_;
  std::map<int, std::unique_ptr<DeviceMemory>> memories_;
  std::shared_ptr<HipDeviceState> state_for(int ordinal);
};

// Occupancy screening of a compiled kernel for `arch` (a processor or target id) launched
// with `geometry`: not launchable when the workgroup exceeds the kernel's
// max_flat_workgroup_size or the arch's limits, or LDS (static + dynamic) does not fit.
// details: the analysis::AmdgpuOccupancyResult as JSON plus workgroup_size and
// dynamic_lds_bytes (what `ktune inspect --result` reads back).
ScreenResult screen_amdgpu(const std::string& arch, const nlohmann::json& resources, const LaunchGeometry& geometry);

}  // namespace ktune::device::hip
