#include "ktune/device/cuda/nvml.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace ktune::cuda {

// The slice of nvml.h that ktune uses, with its values; stable since NVML 10.
namespace nvml_abi {
using nvmlReturn_t = int;
constexpr nvmlReturn_t kSuccess = 0;
constexpr int kClockSm = 1;
constexpr int kClockMem = 2;
}  // namespace nvml_abi
using namespace nvml_abi;

struct Nvml::Api {
  nvmlReturn_t (*Init)() = nullptr;
  nvmlReturn_t (*Shutdown)() = nullptr;
  const char* (*ErrorString)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*SystemGetDriverVersion)(char*, unsigned) = nullptr;  // optional
  nvmlReturn_t (*DeviceGetHandleByUUID)(const char*, DeviceHandle*) = nullptr;
  nvmlReturn_t (*DeviceGetClockInfo)(DeviceHandle, int, unsigned*) = nullptr;
  nvmlReturn_t (*DeviceGetMaxClockInfo)(DeviceHandle, int, unsigned*) = nullptr;                // optional
  nvmlReturn_t (*DeviceGetDefaultApplicationsClock)(DeviceHandle, int, unsigned*) = nullptr;    // optional
  nvmlReturn_t (*DeviceGetCurrentClocksEventReasons)(DeviceHandle, unsigned long long*) = nullptr;  // optional

  std::string error_text(nvmlReturn_t code) const {
    const char* text = ErrorString ? ErrorString(code) : nullptr;
    return (text ? std::string(text) : std::string("NVML error")) + " (" + std::to_string(code) + ")";
  }
};

Loaded<Nvml> Nvml::load() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("KTUNE_NVML_PATH"); path && path[0] != '\0') {
    candidates.emplace_back(path);
  } else {
    candidates = {"libnvidia-ml.so.1", "libnvidia-ml.so"};
  }
  Loaded<Nvml> result = from_library(DynamicLibrary::open_first(candidates));
  if (!result) result.error = "NVML not available: " + result.error;
  return result;
}

Loaded<Nvml> Nvml::load_from(const std::string& path_or_name) {
  Loaded<Nvml> result = from_library(DynamicLibrary::open_first({path_or_name}));
  if (!result) result.error = "NVML not available: " + result.error;
  return result;
}

Loaded<Nvml> Nvml::from_library(Loaded<DynamicLibrary> library) {
  Loaded<Nvml> result;
  if (!library) {
    result.error = library.error;
    return result;
  }
  auto api = std::make_shared<Api>();
  try {
    const DynamicLibrary& lib = *library;
    api->Init = lib.require_function<nvmlReturn_t()>({"nvmlInit_v2", "nvmlInit"});
    api->Shutdown = lib.require_function<nvmlReturn_t()>({"nvmlShutdown"});
    api->ErrorString = lib.require_function<const char*(nvmlReturn_t)>({"nvmlErrorString"});
    api->SystemGetDriverVersion = lib.function<nvmlReturn_t(char*, unsigned)>({"nvmlSystemGetDriverVersion"});
    api->DeviceGetHandleByUUID =
        lib.require_function<nvmlReturn_t(const char*, DeviceHandle*)>({"nvmlDeviceGetHandleByUUID"});
    api->DeviceGetClockInfo =
        lib.require_function<nvmlReturn_t(DeviceHandle, int, unsigned*)>({"nvmlDeviceGetClockInfo"});
    api->DeviceGetMaxClockInfo = lib.function<nvmlReturn_t(DeviceHandle, int, unsigned*)>({"nvmlDeviceGetMaxClockInfo"});
    api->DeviceGetDefaultApplicationsClock =
        lib.function<nvmlReturn_t(DeviceHandle, int, unsigned*)>({"nvmlDeviceGetDefaultApplicationsClock"});
    // Renamed in NVML 12.2 ("throttle" -> "event"); same function.
    api->DeviceGetCurrentClocksEventReasons = lib.function<nvmlReturn_t(DeviceHandle, unsigned long long*)>(
        {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
  } catch (const DynamicLibraryError& e) {
    result.error = e.what();
    return result;
  }
  if (nvmlReturn_t rc = api->Init(); rc != kSuccess) {
    result.error = "nvmlInit failed: " + api->error_text(rc) + " (" + library->path() + ")";
    return result;
  }
  auto nvml = std::make_shared<Nvml>();
  nvml->library_ = std::move(library.value);
  nvml->api_ = std::move(api);
  result.value = std::move(nvml);
  return result;
}

Nvml::~Nvml() {
  if (api_) api_->Shutdown();
}

const std::string& Nvml::library_path() const { return library_->path(); }

std::string Nvml::driver_version() const {
  if (!api_->SystemGetDriverVersion) return {};
  char text[96] = {};
  if (api_->SystemGetDriverVersion(text, sizeof(text) - 1) != kSuccess) return {};
  return text;
}

Nvml::DeviceHandle Nvml::device_by_uuid(const std::string& uuid) const {
  DeviceHandle handle = nullptr;
  if (nvmlReturn_t rc = api_->DeviceGetHandleByUUID(uuid.c_str(), &handle); rc != kSuccess || !handle)
    throw std::runtime_error("nvmlDeviceGetHandleByUUID(" + uuid + "): " + api_->error_text(rc));
  return handle;
}

std::optional<unsigned> Nvml::clock(DeviceHandle device, int clock_type, int which) const {
  auto* fn = which == 0 ? api_->DeviceGetClockInfo : which == 1 ? api_->DeviceGetMaxClockInfo
                                                                : api_->DeviceGetDefaultApplicationsClock;
  unsigned mhz = 0;
  if (!fn || fn(device, clock_type, &mhz) != kSuccess || mhz == 0) return std::nullopt;
  return mhz;
}

std::optional<unsigned> Nvml::sm_clock_mhz(DeviceHandle device) const { return clock(device, kClockSm, 0); }
std::optional<unsigned> Nvml::max_sm_clock_mhz(DeviceHandle device) const { return clock(device, kClockSm, 1); }
std::optional<unsigned> Nvml::default_sm_clock_mhz(DeviceHandle device) const { return clock(device, kClockSm, 2); }
std::optional<unsigned> Nvml::max_memory_clock_mhz(DeviceHandle device) const { return clock(device, kClockMem, 1); }

std::optional<std::uint64_t> Nvml::clock_event_reasons(DeviceHandle device) const {
  unsigned long long reasons = 0;
  if (!api_->DeviceGetCurrentClocksEventReasons || api_->DeviceGetCurrentClocksEventReasons(device, &reasons) != kSuccess)
    return std::nullopt;
  return reasons;
}

std::string describe_clock_event_reasons(std::uint64_t reasons) {
  // nvmlClocksEventReason* bits from nvml.h.
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {0x1, "GPU idle"},
      {0x2, "applications clock setting"},
      {0x4, "software power cap"},
      {0x8, "hardware slowdown"},
      {0x10, "sync boost"},
      {0x20, "software thermal slowdown"},
      {0x40, "hardware thermal slowdown"},
      {0x80, "hardware power brake"},
      {0x100, "display clock setting"},
  };
  if (reasons == 0) return "none";
  std::string text;
  std::uint64_t known = 0;
  for (const auto& [bit, name] : kNames) {
    known |= bit;
    if (reasons & bit) text += (text.empty() ? "" : ", ") + std::string(name);
  }
  if (reasons & ~known) text += (text.empty() ? "" : ", ") + std::string("other (0x") + [&] {
    char hex[32];
    std::snprintf(hex, sizeof(hex), "%llx", static_cast<unsigned long long>(reasons & ~known));
    return std::string(hex);
  }() + ")";
  return text;
}

}  // namespace ktune::cuda
