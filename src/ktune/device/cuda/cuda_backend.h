#pragma once

#include <mutex>
#include <optional>
// The CUDA backend: NVIDIA GPUs through the driver API, kernels compiled with NVRTC. Both
// libraries are loaded with dlopen, so the backend exists on every machine and says why it is
// unavailable where they are missing; the compiler works without a driver. See README.md.

#include <memory>
#include <optional>
#include <string>

#include "ktune/device/cuda/cuda_compiler.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/device.h"

namespace ktune::device::cuda {

struct CudaBackendOptions {
  CudaCompilerOptions compiler;
  TimingOptions timing;
};

class CudaBackend : public Backend {
 public:
  explicit CudaBackend(CudaBackendOptions options = {});
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  // Available when libcuda loads and initialises, NVRTC loads, and there is at least one GPU.
  Availability availability() const override;
  // One per GPU. properties: the device attributes (cuda/device_properties.h), "target" (what
  // to compile for), "driver_api_version", "driver_version" (NVML), "nvrtc_version", "clocks"
  // (MHz, from NVML where present), "peak_memory_bandwidth_bytes_per_second" and "timing"
  // (method, why the blocking kernel or throttle detection is off).
  std::vector<DeviceInfo> devices() const override;
  Compiler& compiler() override { return compiler_; }
  CudaCompiler& cuda_compiler() { return compiler_; }
  // Loads compiled.artifact (a CUBIN) into device `ordinal`'s primary context. Throws
  // DeviceError (unavailable, no such device, failed compile, unreadable or foreign CUBIN,
  // entry mismatch) or ContextPoisoned (an earlier kernel faulted in this process).
  std::unique_ptr<LoadedKernel> load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                     const LaunchGeometry& geometry) override;

  // Occupancy-based screening with the device's own limits (cuda/launch_screen.h).
  device::ScreenResult screen(int ordinal, const CompileResult& compiled, const LaunchGeometry& geometry) const override;

  // Compiles the check kernels (check_kernels.h) for the device into the compile cache.
  void prepare_workers(int ordinal) override;
  bool supports_clean_flush() const override { return true; }
  // Buffers shared by every kernel loaded on device `ordinal` in this process.
  DeviceMemory& memory(int ordinal) override;

  struct State;  // the driver, NVML and open contexts (cuda_backend.cc)

 private:
  std::shared_ptr<CudaDeviceContext> context_for(int ordinal);  // opened on first use
  CudaBackendOptions options_;
  mutable std::mutex devices_mutex_;
  mutable std::optional<std::vector<DeviceInfo>> devices_cache_;  // for screen(): devices don't change
  CudaCompiler compiler_;
  std::unique_ptr<State> state_;
};

// The NVRTC architecture to compile for on compute capability major.minor: "sm_90a" on 9.0
// and "sm_100a" on 10.0 (their arch-specific instructions: wgmma, setmaxnreg, tcgen05),
// else "sm_XY".
std::string nvrtc_target(int major, int minor);

// What identifies a device beyond its attributes: toolchain versions and clocks.
struct DeviceFacts {
  int driver_api_version = 0;  // cuDriverGetVersion, e.g. 13000
  std::string driver_version;  // NVML's "580.159.04"; "" without NVML
  std::string nvrtc_version;   // "13.0"; "" without NVRTC
  std::optional<unsigned> max_sm_clock_mhz;
  std::optional<unsigned> default_sm_clock_mhz;
  std::optional<unsigned> max_memory_clock_mhz;
  nlohmann::json timing = nlohmann::json::object();
};

// The DeviceInfo for a device. fingerprint = "cuda-" + 32 hex digits of SHA-256 over name,
// UUID, compute capability, SM count, L2 size, shared memory limits (per block, opt-in, per
// SM), memory size, driver versions and NVRTC version.
DeviceInfo describe_device(const ktune::cuda::CudaDeviceProperties& device, const DeviceFacts& facts);

}  // namespace ktune::device::cuda
