#pragma once
// What ktune records about one CUDA device, read through the driver API, and the occupancy
// constants that follow from it.

#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/analysis/occupancy_nvidia.h"
#include "ktune/device/cuda/driver_api.h"

namespace ktune::cuda {

struct CudaDeviceProperties {
  int ordinal = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::string uuid;  // "GPU-8c6f..." as nvidia-smi prints it
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::int64_t total_memory_bytes = 0;
  int clock_khz = 0;           // 0 when the driver no longer reports it
  int memory_clock_khz = 0;    // 0 when the driver no longer reports it
  int memory_bus_width_bits = 0;
  std::int64_t l2_cache_bytes = 0;
  int warp_size = 32;
  int max_threads_per_block = 0;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;
  std::array<std::int64_t, 3> max_block_dims{1024, 1024, 64};
  std::array<std::int64_t, 3> max_grid_dims{2147483647, 65535, 65535};
  int registers_per_multiprocessor = 0;
  int registers_per_block = 0;
  std::int64_t shared_memory_per_block = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  std::int64_t shared_memory_per_multiprocessor = 0;
  std::int64_t reserved_shared_memory_per_block = 0;
  int pci_domain = 0;
  int pci_bus = 0;
  int pci_device = 0;
  bool ecc_enabled = false;
  bool integrated = false;
  bool can_map_host_memory = false;
  bool stream_wait_value_nor = false;

  std::string arch() const;  // "sm_90"
  // DDR peak from memory clock and bus width; 0 when the clock is unknown.
  double peak_memory_bandwidth_bytes_per_second() const;
};

// Reads every field for device `ordinal`. Throws CudaError when the driver refuses.
CudaDeviceProperties query_device_properties(const CudaDriver& driver, int ordinal);

// Occupancy constants for this device: the device's own limits, with the carveout steps and
// barrier rules of its compute capability (or the nearest known one of the same major version,
// noted in `notes`). Throws std::invalid_argument when the major version is unknown too.
analysis::NvidiaArch occupancy_arch(const CudaDeviceProperties& device);

nlohmann::json to_json(const CudaDeviceProperties& device);
// The inverse of to_json, for code that holds only a recorded DeviceInfo::properties (the
// tuner screens launches with it). Absent fields keep their defaults; throws
// std::invalid_argument when "compute_capability" is missing or not "M.m".
CudaDeviceProperties device_properties_from_json(const nlohmann::json& json);

}  // namespace ktune::cuda
