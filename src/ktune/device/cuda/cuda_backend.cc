#include "ktune/device/cuda/cuda_backend.h"
#include "ktune/device/cuda/launch_screen.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/device/cuda/cuda_kernel.h"
#include "ktune/device/cuda/check_kernels.h"
#include "ktune/device/cuda/cuda_memory.h"
#include "ktune/device/cuda/nvml.h"

namespace ktune::device::cuda {
namespace kc = ktune::cuda;

struct CudaBackend::State {
  std::once_flag driver_once;
  Loaded<kc::CudaDriver> driver;
  std::once_flag nvml_once;
  Loaded<kc::Nvml> nvml;
  std::mutex mutex;  // guards contexts
  std::map<int, std::shared_ptr<CudaDeviceContext>> contexts;
  std::map<int, std::unique_ptr<CudaMemory>> memories;  // destroyed before the contexts

  const Loaded<kc::CudaDriver>& loaded_driver() {
    std::call_once(driver_once, [this] { driver = kc::CudaDriver::load(); });
    return driver;
  }
  const Loaded<kc::Nvml>& loaded_nvml() {
    std::call_once(nvml_once, [this] { nvml = kc::Nvml::load(); });
    return nvml;
  }
  std::shared_ptr<CudaDeviceContext> existing_context(int ordinal) {
    std::lock_guard lock(mutex);
    auto it = contexts.find(ordinal);
    return it == contexts.end() ? nullptr : it->second;
  }
};

std::string nvrtc_target(int major, int minor) {
  // The "a" targets unlock instructions that exist on exactly that chip; a tuned kernel may use them.
  if ((major == 9 || major == 10) && minor == 0) return "sm_" + std::to_string(major * 10) + "a";
  return "sm_" + std::to_string(major * 10 + minor);
}

DeviceInfo describe_device(const kc::CudaDeviceProperties& device, const DeviceFacts& facts) {
  DeviceInfo info;
  info.backend = "cuda";
  info.ordinal = device.ordinal;
  info.name = device.name;
  info.properties = kc::to_json(device);
  info.properties["target"] = nvrtc_target(device.compute_major, device.compute_minor);
  info.properties["driver_api_version"] = facts.driver_api_version;
  info.properties["driver_version"] = facts.driver_version;
  info.properties["nvrtc_version"] = facts.nvrtc_version;
  auto optional_mhz = [](const std::optional<unsigned>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  info.properties["clocks"] = {{"sm_max_mhz", optional_mhz(facts.max_sm_clock_mhz)},
                               {"sm_default_mhz", optional_mhz(facts.default_sm_clock_mhz)},
                               {"memory_max_mhz", optional_mhz(facts.max_memory_clock_mhz)},
                               {"sm_attribute_khz", device.clock_khz},
                               {"memory_attribute_khz", device.memory_clock_khz}};
  info.properties["peak_memory_bandwidth_bytes_per_second"] = device.peak_memory_bandwidth_bytes_per_second();
  info.properties["timing"] = facts.timing;

  Sha256 h;
  auto part = [&](const std::string& s) { h.update(s).update(std::string_view("\0", 1)); };
  part("cuda");
  part(device.name);
  part(device.uuid);
  part(std::to_string(device.compute_major) + "." + std::to_string(device.compute_minor));
  part(std::to_string(device.multiprocessors));
  part(std::to_string(device.l2_cache_bytes));
  part(std::to_string(device.shared_memory_per_block));
  part(std::to_string(device.shared_memory_per_block_optin));
  part(std::to_string(device.shared_memory_per_multiprocessor));
  part(std::to_string(device.total_memory_bytes));
  part(std::to_string(facts.driver_api_version));
  part(facts.driver_version);
  part(facts.nvrtc_version);
  info.fingerprint = "cuda-" + h.hex_digest().substr(0, 32);
  return info;
}

CudaBackend::CudaBackend(CudaBackendOptions options)
    : options_(std::move(options)), compiler_(options_.compiler), state_(std::make_unique<State>()) {}

CudaBackend::~CudaBackend() = default;

Availability CudaBackend::availability() const {
  const Loaded<kc::CudaDriver>& driver = state_->loaded_driver();
  if (!driver) return {false, driver.error};
  const Loaded<kc::NvrtcCompiler>& nvrtc = compiler_.nvrtc();
  if (!nvrtc)
    return {false, nvrtc.error + " (the CUDA backend compiles kernels with NVRTC: install the CUDA toolkit or set "
                                 "KTUNE_NVRTC_PATH)"};
  try {
    if (driver->device_count() == 0)
      return {false, "the CUDA driver " + driver->version_string() + " (" + driver->library_path() + ") found no GPU"};
  } catch (const kc::CudaError& e) {
    return {false, std::string("CUDA driver loaded but cannot count devices: ") + e.what()};
  }
  return {true, ""};
}

std::vector<DeviceInfo> CudaBackend::devices() const {
  if (!availability().available) return {};
  const kc::CudaDriver& driver = *state_->loaded_driver();
  const Loaded<kc::Nvml>& nvml = state_->loaded_nvml();
  const Loaded<kc::NvrtcCompiler>& nvrtc = compiler_.nvrtc();
  std::vector<DeviceInfo> list;
  const int count = driver.device_count();
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    kc::CudaDeviceProperties device;
    try {
      device = kc::query_device_properties(driver, ordinal);
    } catch (const kc::CudaError& e) {
      throw DeviceError("cannot read the properties of CUDA device " + std::to_string(ordinal) + ": " + e.what());
    }
    DeviceFacts facts;
    facts.driver_api_version = driver.version();
    facts.nvrtc_version = nvrtc ? nvrtc->version_string() : "";
    std::string nvml_problem = nvml ? std::string() : nvml.error;
    if (nvml) {
      facts.driver_version = nvml->driver_version();
      try {
        kc::Nvml::DeviceHandle handle = nvml->device_by_uuid(device.uuid);
        facts.max_sm_clock_mhz = nvml->max_sm_clock_mhz(handle);
        facts.default_sm_clock_mhz = nvml->default_sm_clock_mhz(handle);
        facts.max_memory_clock_mhz = nvml->max_memory_clock_mhz(handle);
      } catch (const std::exception& e) {
        nvml_problem = e.what();
      }
    }
    if (auto context = state_->existing_context(ordinal)) {
      facts.timing = context->timing_json();  // what this process actually does
    } else {
      // What a worker will do, as far as can be told without opening a context here.
      const TimingOptions& t = options_.timing;
      std::string fallback;
      if (!t.blocking_kernel) fallback = "disabled by the backend options";
      else if (!device.can_map_host_memory) fallback = "the device cannot map host memory";
      else if (!nvrtc) fallback = nvrtc.error;
      facts.timing = {{"method", fallback.empty() ? "blocking_kernel" : "cuda_events"},
                      {"flush_bytes", t.flush_bytes > 0 ? t.flush_bytes
                                                        : 2 * static_cast<std::size_t>(std::max<std::int64_t>(
                                                                  device.l2_cache_bytes, 32 << 20))},
                      {"throttle_detection", nvml_problem.empty() && t.throttle_threshold > 0 ? "nvml" : "off"}};
      if (!fallback.empty()) facts.timing["fallback_reason"] = fallback;
      if (t.throttle_threshold <= 0) facts.timing["throttle_reason"] = "disabled by the backend options";
      else if (!nvml_problem.empty()) facts.timing["throttle_reason"] = nvml_problem;
      else facts.timing["throttle_threshold"] = t.throttle_threshold;
    }
    list.push_back(describe_device(device, facts));
  }
  return list;
}

device::ScreenResult CudaBackend::screen(int ordinal, const CompileResult& compiled, const LaunchGeometry& geometry) const {
  std::vector<DeviceInfo> devices;
  {
    std::lock_guard lock(devices_mutex_);
    if (!devices_cache_) devices_cache_ = this->devices();
    devices = *devices_cache_;
  }
  if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= devices.size())
    return {false, "no CUDA device " + std::to_string(ordinal), {}};
  cuda::ScreenResult r = cuda::screen_launch(devices[static_cast<std::size_t>(ordinal)].properties, compiled.resources, geometry);
  return {r.launchable, r.reason, r.occupancy};
}

std::unique_ptr<LoadedKernel> CudaBackend::load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                                const LaunchGeometry& geometry) {
  // A poisoned context says so before anything else can fail for its sake.
  if (auto existing = state_->existing_context(ordinal); existing && existing->poisoned()) existing->enter();
  const Availability available = availability();
  if (!available.available) throw DeviceError("the CUDA backend is not available: " + available.reason);
  if (!compiled.ok) throw DeviceError("cannot load a kernel whose compile failed");
  const kc::CudaDriver& driver = *state_->loaded_driver();
  const int count = driver.device_count();
  if (ordinal < 0 || ordinal >= count)
    throw DeviceError("no CUDA device " + std::to_string(ordinal) + " (this machine has " + std::to_string(count) + ")");

  const nlohmann::json& resources = compiled.resources;
  std::string function_name = entry;
  std::vector<std::string> signature;
  if (resources.is_object()) {
    if (resources.contains("entry") && resources.at("entry").is_string() && resources.at("entry") != entry)
      throw DeviceError("'" + compiled.artifact.string() + "' was compiled for kernel '" +
                        resources.at("entry").get<std::string>() + "', not '" + entry + "'");
    if (resources.contains("lowered_name") && resources.at("lowered_name").is_string() &&
        !resources.at("lowered_name").get<std::string>().empty())
      function_name = resources.at("lowered_name").get<std::string>();
    if (resources.contains("signature") && resources.at("signature").is_array()) {
      for (const auto& s : resources.at("signature"))
        if (s.is_string()) signature.push_back(s.get<std::string>());
    }
  }

  std::string cubin;
  {
    std::ifstream in(compiled.artifact, std::ios::binary);
    std::ostringstream bytes;
    if (in) bytes << in.rdbuf();
    if (!in || in.bad()) throw DeviceError("cannot read CUBIN '" + compiled.artifact.string() + "'");
    cubin = bytes.str();
  }
  if (cubin.size() < 4 || cubin.compare(0, 4, "\x7f" "ELF") != 0)
    throw DeviceError("'" + compiled.artifact.string() + "' is not a CUBIN (no ELF header)");

  std::shared_ptr<CudaDeviceContext> context = context_for(ordinal);
  return std::make_unique<CudaKernel>(std::move(context), cubin, function_name, entry, geometry, std::move(signature));
}

std::shared_ptr<CudaDeviceContext> CudaBackend::context_for(int ordinal) {
  std::lock_guard lock(state_->mutex);
  auto& slot = state_->contexts[ordinal];
  if (!slot) {
    const Loaded<kc::Nvml>& nvml = state_->loaded_nvml();
    try {
      slot = std::make_shared<CudaDeviceContext>(state_->loaded_driver().value, ordinal, nvml.value, nvml.error,
                                                 options_.timing);
    } catch (...) {
      state_->contexts.erase(ordinal);
      throw;
    }
  }
  return slot;
}

void CudaBackend::prepare_workers(int ordinal) {
  try {
    const auto& driver = state_->loaded_driver();
    if (!driver || !compiler_.nvrtc()) return;
    const std::string arch = kc::query_device_properties(*driver.value, ordinal).arch();
    (void)cached_cubin(*compiler_.nvrtc().value, compiler_.options().cache_directory, check_kernels_source(),
                       "ktune_check_kernels.cu", arch, ".check.cubin");
  } catch (const std::exception&) {
    // The worker compiles them itself (and says why if it cannot).
  }
}

DeviceMemory& CudaBackend::memory(int ordinal) {
  if (auto existing = state_->existing_context(ordinal); existing && existing->poisoned()) existing->enter();
  const Availability available = availability();
  if (!available.available) throw DeviceError("the CUDA backend is not available: " + available.reason);
  const int count = state_->loaded_driver()->device_count();
  if (ordinal < 0 || ordinal >= count)
    throw DeviceError("no CUDA device " + std::to_string(ordinal) + " (this machine has " + std::to_string(count) + ")");
  std::shared_ptr<CudaDeviceContext> context = context_for(ordinal);
  std::lock_guard lock(state_->mutex);
  auto& slot = state_->memories[ordinal];
  if (!slot) slot = std::make_unique<CudaMemory>(std::move(context), compiler_.nvrtc(), compiler_.options().cache_directory);
  return *slot;
}

}  // namespace ktune::device::cuda
