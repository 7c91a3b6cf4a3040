#include "ktune/device/hip/hip_runtime.h"

#include <cstdlib>
#include <cstring>

namespace ktune::hip {
namespace {

struct ErrorName {
  hipError_t code;
  const char* name;
};

// From hip_runtime_api.h (ROCm 6); the codes a tuner meets.
constexpr ErrorName kErrorNames[] = {
    {0, "hipSuccess"},
    {1, "hipErrorInvalidValue"},
    {2, "hipErrorOutOfMemory"},
    {3, "hipErrorNotInitialized"},
    {4, "hipErrorDeinitialized"},
    {9, "hipErrorInvalidConfiguration"},
    {35, "hipErrorInsufficientDriver"},
    {98, "hipErrorInvalidDeviceFunction"},
    {100, "hipErrorNoDevice"},
    {101, "hipErrorInvalidDevice"},
    {200, "hipErrorInvalidImage"},
    {201, "hipErrorInvalidContext"},
    {209, "hipErrorNoBinaryForGpu"},
    {214, "hipErrorECCNotCorrectable"},
    {218, "hipErrorInvalidKernelFile"},
    {400, "hipErrorInvalidHandle"},
    {500, "hipErrorNotFound"},
    {600, "hipErrorNotReady"},
    {700, "hipErrorIllegalAddress"},
    {701, "hipErrorLaunchOutOfResources"},
    {702, "hipErrorLaunchTimeOut"},
    {710, "hipErrorAssert"},
    {719, "hipErrorLaunchFailure"},
    {801, "hipErrorNotSupported"},
    {999, "hipErrorUnknown"},
};

template <class Fn>
void resolve(const DynamicLibrary& library, Fn*& field, std::initializer_list<const char*> names,
             std::vector<std::string>& missing) {
  field = library.function<Fn>(names);
  if (!field) missing.emplace_back(*names.begin());
}

bool is_arch_char(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == ':' || c == '+' || c == '-';
}

}  // namespace

std::string hip_error_name(hipError_t code) {
  for (const ErrorName& e : kErrorNames)
    if (e.code == code) return e.name;
  return "HIP error " + std::to_string(code);
}

bool is_sticky_error(hipError_t code) {
  switch (code) {
    case 214:  // ECCNotCorrectable
    case 700:  // IllegalAddress
    case 702:  // LaunchTimeOut
    case 710:  // Assert
    case 719:  // LaunchFailure
    case 999:  // Unknown
      return true;
    default:
      return false;
  }
}

std::vector<std::string> hip_runtime_candidates() {
  std::vector<std::string> directories;
  if (const char* rocm = std::getenv("ROCM_PATH"); rocm && rocm[0] != '\0')
    directories.push_back(std::string(rocm) + "/lib");
  directories.emplace_back("/opt/rocm/lib");
  return library_candidates("KTUNE_HIP_PATH", {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"},
                            directories);
}

std::string gcn_arch_name(const unsigned char* properties, std::size_t size) {
  for (std::size_t i = 256; i + 4 < size; ++i) {
    if (properties[i] != 'g' || properties[i + 1] != 'f' || properties[i + 2] != 'x') continue;
    if (properties[i - 1] != '\0') continue;  // the start of a field, not the middle of a name
    std::size_t end = i + 3;
    while (end < size && is_arch_char(properties[end])) ++end;
    if (end == i + 3 || end >= size || properties[end] != '\0') continue;
    return std::string(reinterpret_cast<const char*>(properties + i), end - i);
  }
  return "";
}

Loaded<HipRuntime> HipRuntime::load() { return load_from(hip_runtime_candidates()); }

Loaded<HipRuntime> HipRuntime::load_from(const std::vector<std::string>& candidates) {
  Loaded<HipRuntime> result;
  Loaded<DynamicLibrary> library = DynamicLibrary::open_first(candidates);
  if (!library) {
    result.error = "HIP runtime not available: libamdhip64.so not found (is ROCm installed? set ROCM_PATH or "
                   "KTUNE_HIP_PATH): " + library.error;
    return result;
  }
  const DynamicLibrary& lib = *library;
  auto api = std::make_shared<RuntimeApi>();
  std::vector<std::string> missing;
  resolve(lib, api->hipInit, {"hipInit"}, missing);
  resolve(lib, api->hipDriverGetVersion, {"hipDriverGetVersion"}, missing);
  resolve(lib, api->hipRuntimeGetVersion, {"hipRuntimeGetVersion"}, missing);
  resolve(lib, api->hipGetErrorName, {"hipGetErrorName"}, missing);
  resolve(lib, api->hipGetErrorString, {"hipGetErrorString"}, missing);
  resolve(lib, api->hipGetDeviceCount, {"hipGetDeviceCount"}, missing);
  resolve(lib, api->hipSetDevice, {"hipSetDevice"}, missing);
  resolve(lib, api->hipDeviceGetName, {"hipDeviceGetName"}, missing);
  resolve(lib, api->hipDeviceGetAttribute, {"hipDeviceGetAttribute"}, missing);
  resolve(lib, api->hipDeviceTotalMem, {"hipDeviceTotalMem"}, missing);
  resolve(lib, api->hipGetDeviceProperties, {"hipGetDevicePropertiesR0600", "hipGetDeviceProperties"}, missing);
  resolve(lib, api->hipDeviceSynchronize, {"hipDeviceSynchronize"}, missing);
  resolve(lib, api->hipMemGetInfo, {"hipMemGetInfo"}, missing);
  resolve(lib, api->hipModuleLoadData, {"hipModuleLoadData"}, missing);
  resolve(lib, api->hipModuleUnload, {"hipModuleUnload"}, missing);
  resolve(lib, api->hipModuleGetFunction, {"hipModuleGetFunction"}, missing);
  resolve(lib, api->hipModuleLaunchKernel, {"hipModuleLaunchKernel"}, missing);
  resolve(lib, api->hipMalloc, {"hipMalloc"}, missing);
  resolve(lib, api->hipFree, {"hipFree"}, missing);
  resolve(lib, api->hipMemcpy, {"hipMemcpy"}, missing);
  resolve(lib, api->hipMemsetAsync, {"hipMemsetAsync"}, missing);
  resolve(lib, api->hipStreamCreate, {"hipStreamCreate"}, missing);
  resolve(lib, api->hipStreamDestroy, {"hipStreamDestroy"}, missing);
  resolve(lib, api->hipStreamSynchronize, {"hipStreamSynchronize"}, missing);
  resolve(lib, api->hipEventCreate, {"hipEventCreate"}, missing);
  resolve(lib, api->hipEventDestroy, {"hipEventDestroy"}, missing);
  resolve(lib, api->hipEventRecord, {"hipEventRecord"}, missing);
  resolve(lib, api->hipEventSynchronize, {"hipEventSynchronize"}, missing);
  resolve(lib, api->hipEventElapsedTime, {"hipEventElapsedTime"}, missing);
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    result.error = "HIP runtime not available: " + lib.path() + " does not export " + names +
                   " (not libamdhip64, or too old)";
    return result;
  }
  auto runtime = std::make_shared<HipRuntime>();
  runtime->library_ = library.value;
  runtime->api_ = api;
  if (hipError_t rc = api->hipInit(0); rc != hipc::kSuccess) {
    result.error = "HIP runtime not available: " + runtime->error_text(rc, "hipInit") + " (" + lib.path() + ")";
    return result;
  }
  int version = 0;
  if (api->hipRuntimeGetVersion(&version) == hipc::kSuccess) runtime->runtime_version_ = version;
  result.value = std::move(runtime);
  return result;
}

std::string HipRuntime::error_text(hipError_t code, const char* call) const {
  std::string text = std::string(call) + ": " + hip_error_name(code);
  if (api_ && api_->hipGetErrorString) {
    if (const char* s = api_->hipGetErrorString(code); s && s[0] != '\0') text += std::string(": ") + s;
  }
  return text;
}

void HipRuntime::check(hipError_t code, const char* call) const {
  if (code != hipc::kSuccess) throw HipError(code, error_text(code, call));
}

int HipRuntime::device_count() const {
  int count = 0;
  const hipError_t rc = api_->hipGetDeviceCount(&count);
  if (rc == hipc::kErrorNoDevice) return 0;
  check(rc, "hipGetDeviceCount");
  return count;
}

std::string HipRuntime::device_name(int ordinal) const {
  char name[256] = {};
  check(api_->hipDeviceGetName(name, static_cast<int>(sizeof(name) - 1), ordinal), "hipDeviceGetName");
  return name;
}

int HipRuntime::attribute(int attribute, int ordinal) const {
  int value = 0;
  check(api_->hipDeviceGetAttribute(&value, attribute, ordinal), "hipDeviceGetAttribute");
  return value;
}

std::string HipRuntime::device_arch(int ordinal) const {
  // Larger than any hipDeviceProp_t so far (about 1.5 KiB in ROCm 6): the runtime writes its
  // struct, the rest stays zero.
  std::vector<unsigned char> buffer(16384, 0);
  check(api_->hipGetDeviceProperties(buffer.data(), ordinal), "hipGetDeviceProperties");
  return gcn_arch_name(buffer.data(), buffer.size());
}

}  // namespace ktune::hip
