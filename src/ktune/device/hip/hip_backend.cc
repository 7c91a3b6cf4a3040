#include "ktune/device/hip/hip_backend.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/core/sha256.h"
#include "ktune/device/hip/hip_kernel.h"
#include "ktune/device/hip/hip_memory.h"

namespace ktune::device::hip {
namespace kh = ktune::hip;

HipBackend::HipBackend(HipCompilerOptions options) : compiler_(std::move(options)) {}
HipBackend::~HipBackend() = default;

const Loaded<kh::HipRuntime>& HipBackend::runtime() const {
  std::call_once(runtime_once_, [this] { runtime_ = kh::HipRuntime::load(); });
  return runtime_;
}

Availability HipBackend::availability() const {
  const Loaded<kh::HipRuntime>& rt = runtime();
  if (!rt) {
    // Say about hiprtc too, so a user installing ROCm knows everything that is missing.
    const Loaded<kh::Hiprtc>& rtc = compiler_.hiprtc();
    std::string rtc_note;
    if (!rtc) {
      rtc_note = rtc.error.find("not found") != std::string::npos
                     ? "\nhiprtc not available either: libhiprtc.so not found in the same places ($KTUNE_HIPRTC_PATH)"
                     : "\n" + rtc.error;
    }
    return {false, rt.error + rtc_note +
                       "\n(compiling for AMD targets works without ROCm: ktune tune SPEC --target gfx942 --offline)"};
  }
  try {
    if (rt->device_count() == 0) return {false, "the HIP runtime (" + rt->library_path() + ") found no AMD GPU"};
  } catch (const kh::HipError& e) {
    return {false, std::string("HIP runtime loaded but cannot count devices: ") + e.what()};
  }
  return {true, ""};
}

std::vector<DeviceInfo> HipBackend::devices() const {
  if (!availability().available) return {};
  const kh::HipRuntime& rt = *runtime();
  std::vector<DeviceInfo> list;
  const int count = rt.device_count();
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    DeviceInfo info;
    info.backend = "hip";
    info.ordinal = ordinal;
    try {
      info.name = rt.device_name(ordinal);
      const std::string target = rt.device_arch(ordinal);
      auto attr = [&](int a) { return rt.attribute(a, ordinal); };
      std::size_t total = 0;
      rt.check(rt.api().hipDeviceTotalMem(&total, ordinal), "hipDeviceTotalMem");
      info.properties = {{"target", target},
                         {"processor", analysis::amdgpu_processor_name(target)},
                         {"compute_units", attr(kh::hipc::kMultiprocessorCount)},
                         {"warp_size", attr(kh::hipc::kWarpSize)},
                         {"max_threads_per_block", attr(kh::hipc::kMaxThreadsPerBlock)},
                         {"max_shared_memory_per_block", attr(kh::hipc::kMaxSharedMemoryPerBlock)},
                         {"l2_cache_bytes", attr(kh::hipc::kL2CacheSize)},
                         {"clock_khz", attr(kh::hipc::kClockRate)},
                         {"memory_clock_khz", attr(kh::hipc::kMemoryClockRate)},
                         {"memory_bus_width", attr(kh::hipc::kMemoryBusWidth)},
                         {"total_memory_bytes", total},
                         {"pci", {{"domain", attr(kh::hipc::kPciDomainId)},
                                  {"bus", attr(kh::hipc::kPciBusId)},
                                  {"device", attr(kh::hipc::kPciDeviceId)}}},
                         {"runtime_version", rt.runtime_version()}};
    } catch (const kh::HipError& e) {
      throw DeviceError("cannot read the properties of HIP device " + std::to_string(ordinal) + ": " + e.what());
    }
    Sha256 h;
    auto part = [&](const std::string& s) { h.update(s).update(std::string_view("\0", 1)); };
    part("hip");
    part(info.name);
    for (const char* key : {"target", "compute_units", "l2_cache_bytes", "total_memory_bytes", "runtime_version"})
      part(info.properties[key].dump());
    part(info.properties["pci"].dump());
    info.fingerprint = "hip-" + h.hex_digest().substr(0, 32);
    list.push_back(std::move(info));
  }
  return list;
}

ScreenResult screen_amdgpu(const std::string& arch_name, const nlohmann::json& resources, const LaunchGeometry& geometry) {
  const analysis::AmdgpuArch* arch = analysis::find_amdgpu_arch(analysis::amdgpu_processor_name(arch_name));
  if (!arch) return {true, "", {{"note", "no occupancy rules for '" + arch_name + "'"}}};
  analysis::AmdgpuOccupancyInput in;
  const std::int64_t threads = geometry.block[0] * geometry.block[1] * geometry.block[2];
  in.workgroup_size = static_cast<int>(std::min<std::int64_t>(threads, 1 << 30));
  in.vgprs = resources.value("vgpr_count", 0);
  in.sgprs = resources.value("sgpr_count", 0);
  in.lds_bytes = resources.value("lds_bytes", std::int64_t{0}) + geometry.shared_bytes;
  in.wavefront_size = resources.value("wavefront_size", 0);
  if (const int max_flat = resources.value("max_flat_workgroup_size", 0); max_flat > 0) in.max_flat_workgroup_size = max_flat;
  analysis::AmdgpuOccupancyResult occ;
  try {
    occ = analysis::amdgpu_occupancy(*arch, in);
  } catch (const std::exception& e) {
    return {false, std::string("occupancy cannot be computed: ") + e.what(), {}};
  }
  nlohmann::json details = analysis::to_json(occ);
  details["arch"] = arch->name;
  details["workgroup_size"] = in.workgroup_size;
  details["dynamic_lds_bytes"] = geometry.shared_bytes;
  return {occ.launchable, occ.not_launchable_reason, details};
}

ScreenResult HipBackend::screen(int ordinal, const CompileResult& compiled, const LaunchGeometry& geometry) const {
  std::string target = compiled.resources.value("target", std::string());
  if (runtime()) {
    std::lock_guard lock(mutex_);
    if (!devices_cache_) devices_cache_ = devices();
    if (ordinal >= 0 && static_cast<std::size_t>(ordinal) < devices_cache_->size())
      target = (*devices_cache_)[static_cast<std::size_t>(ordinal)].properties.value("target", target);
  }
  return screen_amdgpu(target, compiled.resources, geometry);
}

std::unique_ptr<LoadedKernel> HipBackend::load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                               const LaunchGeometry& geometry) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = states_.find(ordinal); it != states_.end()) it->second->enter();  // poisoned says so first
  }
  const Availability available = availability();
  if (!available.available) throw DeviceError("the HIP backend is not available: " + available.reason);
  if (!compiled.ok) throw DeviceError("cannot load a kernel whose compile failed");
  const int count = runtime()->device_count();
  if (ordinal < 0 || ordinal >= count)
    throw DeviceError("no HIP device " + std::to_string(ordinal) + " (this machine has " + std::to_string(count) + ")");
  const nlohmann::json& r = compiled.resources;
  if (r.contains("entry") && r["entry"].is_string() && r["entry"] != entry)
    throw DeviceError("'" + compiled.artifact.string() + "' was compiled for kernel '" + r["entry"].get<std::string>() +
                      "', not '" + entry + "'");
  const std::string function_name = r.value("lowered_name", entry);
  std::vector<std::string> signature;
  if (r.contains("signature") && r["signature"].is_array())
    for (const auto& s : r["signature"])
      if (s.is_string()) signature.push_back(s.get<std::string>());

  std::string code_object;
  {
    std::ifstream in(compiled.artifact, std::ios::binary);
    std::ostringstream bytes;
    if (in) bytes << in.rdbuf();
    if (!in || in.bad()) throw DeviceError("cannot read code object '" + compiled.artifact.string() + "'");
    code_object = bytes.str();
  }
  if (code_object.size() < 4 || code_object.compare(0, 4, "\x7f" "ELF") != 0)
    throw DeviceError("'" + compiled.artifact.string() + "' is not an AMDGPU code object (no ELF header)");

  std::shared_ptr<HipDeviceState> state = state_for(ordinal);
  return std::make_unique<HipKernel>(std::move(state), code_object, function_name, entry, geometry, std::move(signature));
}

std::shared_ptr<HipDeviceState> HipBackend::state_for(int ordinal) {
  std::lock_guard lock(mutex_);
  auto& slot = states_[ordinal];
  if (!slot) {
    slot = std::make_shared<HipDeviceState>();
    slot->runtime = runtime().value;
    slot->ordinal = ordinal;
    int l2 = 0;
    try {
      l2 = runtime()->attribute(kh::hipc::kL2CacheSize, ordinal);
    } catch (const kh::HipError&) {
    }
    // MI300X's Infinity Cache (256 MB) sits behind L2 and is not reported: flush at least 512 MiB.
    slot->flush_bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(std::max(l2, 0)), std::size_t{512} << 20);
  }
  return slot;
}

DeviceMemory& HipBackend::memory(int ordinal) {
  const Availability available = availability();
  if (!available.available) throw DeviceError("the HIP backend is not available: " + available.reason);
  std::shared_ptr<HipDeviceState> state = state_for(ordinal);
  std::lock_guard lock(mutex_);
  auto& slot = memories_[ordinal];
  if (!slot) slot = std::make_unique<HipMemory>(std::move(state));
  return *slot;
}

}  // namespace ktune::device::hip
