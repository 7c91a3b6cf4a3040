#include "ktune/device/cuda/launch_screen.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ktune/analysis/occupancy_nvidia.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/nvrtc.h"

namespace ktune::device::cuda {
namespace kc = ktune::cuda;
namespace {

std::int64_t number(const nlohmann::json& j, const char* key, std::vector<std::string>& missing) {
  if (j.contains(key) && j.at(key).is_number_integer()) return j.at(key).get<std::int64_t>();
  missing.emplace_back(key);
  return 0;
}

// Whether a CUBIN for `arch` ("sm_90a", "sm_100f", "sm_86") runs on compute capability major.minor.
std::string arch_mismatch(const std::string& arch, int major, int minor) {
  const std::optional<int> n = kc::nvrtc_arch_number(arch);
  if (!n) return {};  // not ours to judge
  const int arch_major = *n / 10;
  const int arch_minor = *n % 10;
  const std::string device = std::to_string(major) + "." + std::to_string(minor);
  if (arch.back() == 'a') {
    if (arch_major != major || arch_minor != minor)
      return "the CUBIN was compiled for " + arch + ", which runs only on compute capability " +
             std::to_string(arch_major) + "." + std::to_string(arch_minor) + ", not " + device;
    return {};
  }
  if (arch_major != major || arch_minor > minor)
    return "the CUBIN was compiled for " + arch + ", which does not run on compute capability " + device +
           " (SASS runs only on the same major version with an equal or higher minor)";
  return {};
}

}  // namespace

ScreenResult screen_launch(const nlohmann::json& device_properties, const nlohmann::json& compile_resources,
                           const LaunchGeometry& geometry) {
  kc::CudaDeviceProperties device;
  analysis::NvidiaArch arch;
  try {
    device = kc::device_properties_from_json(device_properties);
    arch = kc::occupancy_arch(device);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("cannot screen a CUDA launch: ") + e.what());
  }

  ScreenResult result;
  std::vector<std::string> reasons;
  std::vector<std::string> notes;

  std::int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    static const char* const kAxis[] = {"x", "y", "z"};
    const std::int64_t block = geometry.block[i];
    const std::int64_t grid = geometry.grid[i];
    if (block < 1 || block > device.max_block_dims[i])
      reasons.push_back("block." + std::string(kAxis[i]) + " = " + std::to_string(block) + " is outside 1.." +
                        std::to_string(device.max_block_dims[i]));
    if (grid < 1 || grid > device.max_grid_dims[i])
      reasons.push_back("grid." + std::string(kAxis[i]) + " = " + std::to_string(grid) + " is outside 1.." +
                        std::to_string(device.max_grid_dims[i]));
    threads *= std::max<std::int64_t>(block, 0);
  }
  if (geometry.shared_bytes < 0)
    reasons.push_back("dynamic shared memory of " + std::to_string(geometry.shared_bytes) + " bytes");

  std::vector<std::string> missing;
  const std::int64_t registers = number(compile_resources, "registers", missing);
  const std::int64_t static_shared = number(compile_resources, "shared_bytes", missing);
  const std::int64_t barriers = number(compile_resources, "barriers", missing);
  if (!missing.empty()) {
    std::string keys;
    for (const auto& k : missing) keys += (keys.empty() ? "" : ", ") + k;
    notes.push_back("compile resources lack " + keys + " (counted as 0)");
  }
  if (compile_resources.value("ptxas_found_entry", true) == false)
    notes.push_back("ptxas reported no usage for the entry; register and shared memory checks are incomplete");
  if (const std::string cubin_arch = compile_resources.value("arch", std::string()); !cubin_arch.empty()) {
    if (std::string mismatch = arch_mismatch(cubin_arch, device.compute_major, device.compute_minor); !mismatch.empty())
      reasons.push_back(mismatch);
  }

  analysis::OccupancyInput input;
  // Saturated so that absurd shapes stay absurd instead of wrapping around.
  input.threads_per_block = static_cast<int>(std::min<std::int64_t>(threads, 1 << 30));
  input.registers_per_thread = static_cast<int>(std::clamp<std::int64_t>(registers, 0, 1 << 20));
  input.static_shared_bytes = std::max<std::int64_t>(static_shared, 0);
  input.dynamic_shared_bytes = std::max<std::int64_t>(geometry.shared_bytes, 0);
  // As ptxas reports it: 0 (no barrier) puts no barrier limit on blocks per SM, as in the driver.
  input.barriers = static_cast<int>(std::clamp<std::int64_t>(barriers, 0, 1 << 20));
  const analysis::OccupancyResult occupancy = analysis::nvidia_occupancy(arch, input);
  if (!occupancy.launchable) reasons.push_back(occupancy.not_launchable_reason);

  result.occupancy = analysis::to_json(occupancy);
  result.occupancy["summary"] = occupancy.launchable ? occupancy.summary() : "not launchable";
  result.occupancy["threads_per_block"] = threads;
  result.occupancy["registers_per_thread"] = registers;
  result.occupancy["static_shared_bytes"] = static_shared;
  result.occupancy["dynamic_shared_bytes"] = geometry.shared_bytes;
  result.occupancy["barriers"] = input.barriers;
  result.occupancy["registers_known"] = compile_resources.contains("registers");
  result.occupancy["arch"] = device.arch();
  result.occupancy["notes"] = notes;

  result.launchable = reasons.empty();
  for (const auto& r : reasons) result.reason += (result.reason.empty() ? "" : "; ") + r;
  return result;
}

}  // namespace ktune::device::cuda
