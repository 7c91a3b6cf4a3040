#include "ktune/device/cuda/device_properties.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace ktune::cuda {
namespace {

std::string format_uuid(const CUuuid& uuid) {
  // nvidia-smi's spelling: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
  std::string text = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof(hex), "%02x", uuid.bytes[i]);
    text += hex;
  }
  return text;
}

}  // namespace

std::string CudaDeviceProperties::arch() const {
  return "sm_" + std::to_string(compute_major * 10 + compute_minor);
}

double CudaDeviceProperties::peak_memory_bandwidth_bytes_per_second() const {
  // Two transfers per clock (DDR), bus width in bits.
  return 2.0 * memory_clock_khz * 1000.0 * (memory_bus_width_bits / 8.0);
}

CudaDeviceProperties query_device_properties(const CudaDriver& driver, int ordinal) {
  const DriverApi& api = driver.api();
  CUdevice device = 0;
  driver.check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet");

  CudaDeviceProperties p;
  p.ordinal = ordinal;
  char name[256] = {};
  driver.check(api.cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName");
  p.name = name;
  CUuuid uuid{};
  driver.check(api.cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid");
  p.uuid = format_uuid(uuid);
  std::size_t total = 0;
  driver.check(api.cuDeviceTotalMem(&total, device), "cuDeviceTotalMem");
  p.total_memory_bytes = static_cast<std::int64_t>(total);

  auto required = [&](cu::DeviceAttribute attribute, const char* what) {
    int value = 0;
    CUresult rc = api.cuDeviceGetAttribute(&value, attribute, device);
    if (rc != cu::kSuccess) {
      throw CudaError(rc, std::string("cuDeviceGetAttribute(") + what + "): " + driver.error_text(rc));
    }
    return value;
  };
  // Some attributes are deprecated (clock rates in CUDA 13) or newer than an old driver.
  auto optional = [&](cu::DeviceAttribute attribute) {
    int value = 0;
    return api.cuDeviceGetAttribute(&value, attribute, device) == cu::kSuccess ? value : 0;
  };
  p.compute_major = required(cu::kComputeCapabilityMajor, "compute capability major");
  p.compute_minor = required(cu::kComputeCapabilityMinor, "compute capability minor");
  p.multiprocessors = required(cu::kMultiprocessorCount, "multiprocessor count");
  p.warp_size = required(cu::kWarpSize, "warp size");
  p.max_threads_per_block = required(cu::kMaxThreadsPerBlock, "max threads per block");
  p.max_threads_per_multiprocessor = required(cu::kMaxThreadsPerMultiprocessor, "max threads per SM");
  p.registers_per_multiprocessor = required(cu::kMaxRegistersPerMultiprocessor, "registers per SM");
  p.registers_per_block = required(cu::kMaxRegistersPerBlock, "registers per block");
  p.shared_memory_per_block = required(cu::kMaxSharedMemoryPerBlock, "shared memory per block");
  p.shared_memory_per_multiprocessor = required(cu::kMaxSharedMemoryPerMultiprocessor, "shared memory per SM");
  p.shared_memory_per_block_optin = required(cu::kMaxSharedMemoryPerBlockOptin, "opt-in shared memory per block");
  p.max_blocks_per_multiprocessor = optional(cu::kMaxBlocksPerMultiprocessor);
  p.max_block_dims = {required(cu::kMaxBlockDimX, "max block dim x"), required(cu::kMaxBlockDimY, "max block dim y"),
                      required(cu::kMaxBlockDimZ, "max block dim z")};
  p.max_grid_dims = {required(cu::kMaxGridDimX, "max grid dim x"), required(cu::kMaxGridDimY, "max grid dim y"),
                     required(cu::kMaxGridDimZ, "max grid dim z")};
  p.reserved_shared_memory_per_block = optional(cu::kReservedSharedMemoryPerBlock);
  p.clock_khz = optional(cu::kClockRate);
  p.memory_clock_khz = optional(cu::kMemoryClockRate);
  p.memory_bus_width_bits = optional(cu::kGlobalMemoryBusWidth);
  p.l2_cache_bytes = optional(cu::kL2CacheSize);
  p.pci_domain = optional(cu::kPciDomainId);
  p.pci_bus = optional(cu::kPciBusId);
  p.pci_device = optional(cu::kPciDeviceId);
  p.ecc_enabled = optional(cu::kEccEnabled) != 0;
  p.integrated = optional(cu::kIntegrated) != 0;
  p.can_map_host_memory = optional(cu::kCanMapHostMemory) != 0;
  p.stream_wait_value_nor = optional(cu::kCanUseStreamWaitValueNor) != 0;
  return p;
}

analysis::NvidiaArch occupancy_arch(const CudaDeviceProperties& device) {
  const analysis::NvidiaArch* base = analysis::find_nvidia_arch(device.compute_major, device.compute_minor);
  std::string notes;
  if (!base) {
    for (const analysis::NvidiaArch& known : analysis::known_nvidia_archs()) {
      if (known.major != device.compute_major) continue;
      if (!base || std::abs(known.minor - device.compute_minor) < std::abs(base->minor - device.compute_minor)) {
        base = &known;
      }
    }
    if (!base) {
      throw std::invalid_argument("no occupancy rules for compute capability " + std::to_string(device.compute_major) +
                                  "." + std::to_string(device.compute_minor) + " (" + device.name + ")");
    }
    notes = "carveout steps and barrier rules borrowed from " + base->name + "; ";
  }
  analysis::NvidiaArch arch = *base;
  arch.name = device.arch();
  arch.minor = device.compute_minor;
  arch.notes = notes + "limits read from " + device.name;
  // The device's own numbers win over the table wherever the driver reports them.
  auto take = [](auto& field, auto value) {
    if (value > 0) field = value;
  };
  take(arch.warp_size, device.warp_size);
  take(arch.max_threads_per_block, device.max_threads_per_block);
  take(arch.max_threads_per_sm, device.max_threads_per_multiprocessor);
  take(arch.max_blocks_per_sm, device.max_blocks_per_multiprocessor);
  take(arch.registers_per_sm, device.registers_per_multiprocessor);
  take(arch.registers_per_block, device.registers_per_block);
  take(arch.shared_memory_per_sm, device.shared_memory_per_multiprocessor);
  take(arch.shared_memory_per_block, device.shared_memory_per_block);
  take(arch.shared_memory_per_block_optin, device.shared_memory_per_block_optin);
  take(arch.reserved_shared_memory_per_block, device.reserved_shared_memory_per_block);
  return arch;
}

nlohmann::json to_json(const CudaDeviceProperties& d) {
  return {
      {"ordinal", d.ordinal},
      {"name", d.name},
      {"uuid", d.uuid},
      {"arch", d.arch()},
      {"compute_capability", std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
      {"multiprocessors", d.multiprocessors},
      {"total_memory_bytes", d.total_memory_bytes},
      {"clock_khz", d.clock_khz},
      {"memory_clock_khz", d.memory_clock_khz},
      {"memory_bus_width_bits", d.memory_bus_width_bits},
      {"l2_cache_bytes", d.l2_cache_bytes},
      {"warp_size", d.warp_size},
      {"max_threads_per_block", d.max_threads_per_block},
      {"max_threads_per_multiprocessor", d.max_threads_per_multiprocessor},
      {"max_blocks_per_multiprocessor", d.max_blocks_per_multiprocessor},
      {"max_block_dims", d.max_block_dims},
      {"max_grid_dims", d.max_grid_dims},
      {"registers_per_multiprocessor", d.registers_per_multiprocessor},
      {"registers_per_block", d.registers_per_block},
      {"shared_memory_per_block", d.shared_memory_per_block},
      {"shared_memory_per_block_optin", d.shared_memory_per_block_optin},
      {"shared_memory_per_multiprocessor", d.shared_memory_per_multiprocessor},
      {"reserved_shared_memory_per_block", d.reserved_shared_memory_per_block},
      {"pci", {{"domain", d.pci_domain}, {"bus", d.pci_bus}, {"device", d.pci_device}}},
      {"ecc_enabled", d.ecc_enabled},
      {"integrated", d.integrated},
      {"can_map_host_memory", d.can_map_host_memory},
      {"stream_wait_value_nor", d.stream_wait_value_nor},
  };
}

CudaDeviceProperties device_properties_from_json(const nlohmann::json& j) {
  CudaDeviceProperties d;
  const std::string capability = j.value("compute_capability", std::string());
  const std::size_t dot = capability.find('.');
  try {
    if (dot == std::string::npos) throw std::invalid_argument("no dot");
    std::size_t used = 0;
    d.compute_major = std::stoi(capability.substr(0, dot), &used);
    if (used != dot) throw std::invalid_argument("junk");
    d.compute_minor = std::stoi(capability.substr(dot + 1), &used);
    if (used != capability.size() - dot - 1) throw std::invalid_argument("junk");
  } catch (const std::exception&) {
    throw std::invalid_argument("not the properties of a CUDA device: \"compute_capability\" is '" + capability +
                                "', expected \"major.minor\" such as \"9.0\"");
  }
  auto get = [&](const char* key, auto& field) {
    if (j.contains(key) && !j.at(key).is_null()) j.at(key).get_to(field);
  };
  get("ordinal", d.ordinal);
  get("name", d.name);
  get("uuid", d.uuid);
  get("multiprocessors", d.multiprocessors);
  get("total_memory_bytes", d.total_memory_bytes);
  get("clock_khz", d.clock_khz);
  get("memory_clock_khz", d.memory_clock_khz);
  get("memory_bus_width_bits", d.memory_bus_width_bits);
  get("l2_cache_bytes", d.l2_cache_bytes);
  get("warp_size", d.warp_size);
  get("max_threads_per_block", d.max_threads_per_block);
  get("max_threads_per_multiprocessor", d.max_threads_per_multiprocessor);
  get("max_blocks_per_multiprocessor", d.max_blocks_per_multiprocessor);
  get("max_block_dims", d.max_block_dims);
  get("max_grid_dims", d.max_grid_dims);
  get("registers_per_multiprocessor", d.registers_per_multiprocessor);
  get("registers_per_block", d.registers_per_block);
  get("shared_memory_per_block", d.shared_memory_per_block);
  get("shared_memory_per_block_optin", d.shared_memory_per_block_optin);
  get("shared_memory_per_multiprocessor", d.shared_memory_per_multiprocessor);
  get("reserved_shared_memory_per_block", d.reserved_shared_memory_per_block);
  if (j.contains("pci") && j.at("pci").is_object()) {
    const nlohmann::json& pci = j.at("pci");
    d.pci_domain = pci.value("domain", 0);
    d.pci_bus = pci.value("bus", 0);
    d.pci_device = pci.value("device", 0);
  }
  get("ecc_enabled", d.ecc_enabled);
  get("integrated", d.integrated);
  get("can_map_host_memory", d.can_map_host_memory);
  get("stream_wait_value_nor", d.stream_wait_value_nor);
  return d;
}

}  // namespace ktune::cuda
