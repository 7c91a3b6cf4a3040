#pragma once
// NVML (libnvidia-ml.so.1, shipped with the NVIDIA driver), loaded with dlopen, for what the
// CUDA driver API cannot tell: the SM clock right now, its default and maximum, and why it is
// lowered. The timing loop reads the clock after each sample to throw away throttled ones
// (nvbench's rule: below 0.75 x the default clock).
//
// Library search: $KTUNE_NVML_PATH (a file; when set, nothing else is tried), then
// libnvidia-ml.so.1 and libnvidia-ml.so.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::cuda {

class Nvml {
 public:
  struct Api;                             // resolved entry points (nvml.cc)
  using DeviceHandle = struct NvmlDeviceOpaque*;

  // Loads the library and runs nvmlInit_v2. Fails with "NVML not available: <reason>".
  static Loaded<Nvml> load();
  static Loaded<Nvml> load_from(const std::string& path_or_name);
  ~Nvml();  // nvmlShutdown
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  const std::string& library_path() const;
  std::string driver_version() const;  // "580.159.04"; empty when NVML cannot say

  // The device with this UUID ("GPU-8c6f..." as CUDA and nvidia-smi print it). Throws
  // std::runtime_error naming the NVML error.
  DeviceHandle device_by_uuid(const std::string& uuid) const;

  // Clocks in MHz; nullopt when the device does not report that clock.
  std::optional<unsigned> sm_clock_mhz(DeviceHandle device) const;          // right now
  std::optional<unsigned> max_sm_clock_mhz(DeviceHandle device) const;      // highest it can run
  std::optional<unsigned> default_sm_clock_mhz(DeviceHandle device) const;  // default applications clock
  std::optional<unsigned> max_memory_clock_mhz(DeviceHandle device) const;
  // nvmlClocksEventReasons bits (power cap, thermal...); nullopt when not reported.
  std::optional<std::uint64_t> clock_event_reasons(DeviceHandle device) const;

  Nvml() = default;  // use load()

 private:
  static Loaded<Nvml> from_library(Loaded<DynamicLibrary> library);
  std::optional<unsigned> clock(DeviceHandle device, int clock_type, int which) const;

  std::shared_ptr<const DynamicLibrary> library_;
  std::shared_ptr<const Api> api_;
};

// "power cap, thermal slowdown" for nvmlClocksEventReasons bits; "none" for 0.
std::string describe_clock_event_reasons(std::uint64_t reasons);

}  // namespace ktune::cuda
