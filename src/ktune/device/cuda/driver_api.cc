#include "ktune/device/cuda/driver_api.h"

#include <cstdlib>
#include <utility>
#include <vector>

namespace ktune::cuda {
namespace {

struct ErrorName {
  CUresult code;
  const char* name;
};

// From cuda.h; the codes a tuner meets: setup, resources, bad binaries and faulting kernels.
constexpr ErrorName kErrorNames[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {710, "CUDA_ERROR_ASSERT"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

// Resolves `field` from the first exported name in `names`; remembers required misses.
template <class Fn>
void resolve(const DynamicLibrary& library, Fn*& field, std::initializer_list<const char*> names, bool required,
             std::vector<std::string>& missing) {
  field = library.function<Fn>(names);
  if (!field && required) missing.emplace_back(*names.begin());
}

}  // namespace

std::string cuda_error_name(CUresult code) {
  for (const ErrorName& e : kErrorNames) {
    if (e.code == code) return e.name;
  }
  return "CUDA error " + std::to_string(code);
}

bool is_sticky_error(CUresult code) {
  switch (code) {
    case 214:  // ECC_UNCORRECTABLE
    case 700:  // ILLEGAL_ADDRESS
    case 702:  // LAUNCH_TIMEOUT
    case 710:  // ASSERT
    case 714:  // HARDWARE_STACK_ERROR
    case 715:  // ILLEGAL_INSTRUCTION
    case 716:  // MISALIGNED_ADDRESS
    case 717:  // INVALID_ADDRESS_SPACE
    case 718:  // INVALID_PC
    case 719:  // LAUNCH_FAILED
    case 999:  // UNKNOWN
      return true;
    default:
      return false;
  }
}

Loaded<CudaDriver> CudaDriver::load() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("KTUNE_CUDA_DRIVER_PATH"); path && path[0] != '\0') {
    candidates.emplace_back(path);  // the user said where; trying elsewhere would hide a mistake
  } else {
    candidates = {"libcuda.so.1", "libcuda.so"};
  }
  Loaded<CudaDriver> result = from_library(DynamicLibrary::open_first(candidates));
  if (!result) result.error = "CUDA driver not available: " + result.error;
  return result;
}

Loaded<CudaDriver> CudaDriver::load_from(const std::string& path_or_name) {
  Loaded<CudaDriver> result = from_library(DynamicLibrary::open_first({path_or_name}));
  if (!result) result.error = "CUDA driver not available: " + result.error;
  return result;
}

Loaded<CudaDriver> CudaDriver::from_library(Loaded<DynamicLibrary> library) {
  Loaded<CudaDriver> result;
  if (!library) {
    result.error = library.error + " (is the NVIDIA driver installed?)";
    return result;
  }
  const DynamicLibrary& lib = *library;
  auto api = std::make_shared<DriverApi>();
  std::vector<std::string> missing;
  resolve(lib, api->cuInit, {"cuInit"}, true, missing);
  resolve(lib, api->cuDriverGetVersion, {"cuDriverGetVersion"}, true, missing);
  resolve(lib, api->cuGetErrorName, {"cuGetErrorName"}, true, missing);
  resolve(lib, api->cuGetErrorString, {"cuGetErrorString"}, true, missing);
  resolve(lib, api->cuDeviceGetCount, {"cuDeviceGetCount"}, true, missing);
  resolve(lib, api->cuDeviceGet, {"cuDeviceGet"}, true, missing);
  resolve(lib, api->cuDeviceGetName, {"cuDeviceGetName"}, true, missing);
  resolve(lib, api->cuDeviceGetUuid, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"}, true, missing);
  resolve(lib, api->cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, true, missing);
  resolve(lib, api->cuDeviceTotalMem, {"cuDeviceTotalMem_v2"}, true, missing);
  resolve(lib, api->cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, true, missing);
  resolve(lib, api->cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}, true,
          missing);
  resolve(lib, api->cuCtxCreate, {"cuCtxCreate_v2"}, false, missing);
  resolve(lib, api->cuCtxDestroy, {"cuCtxDestroy_v2"}, false, missing);
  resolve(lib, api->cuCtxSetCurrent, {"cuCtxSetCurrent"}, true, missing);
  resolve(lib, api->cuCtxGetCurrent, {"cuCtxGetCurrent"}, true, missing);
  resolve(lib, api->cuCtxSynchronize, {"cuCtxSynchronize"}, true, missing);
  resolve(lib, api->cuModuleLoadData, {"cuModuleLoadData"}, true, missing);
  resolve(lib, api->cuModuleUnload, {"cuModuleUnload"}, true, missing);
  resolve(lib, api->cuModuleGetFunction, {"cuModuleGetFunction"}, true, missing);
  resolve(lib, api->cuFuncGetAttribute, {"cuFuncGetAttribute"}, true, missing);
  resolve(lib, api->cuFuncSetAttribute, {"cuFuncSetAttribute"}, true, missing);
  resolve(lib, api->cuFuncGetParamInfo, {"cuFuncGetParamInfo"}, false, missing);
  resolve(lib, api->cuTensorMapEncodeTiled, {"cuTensorMapEncodeTiled"}, false, missing);
  resolve(lib, api->cuMemsetD16, {"cuMemsetD16_v2"}, false, missing);
  resolve(lib, api->cuMemsetD32, {"cuMemsetD32_v2"}, false, missing);
  resolve(lib, api->cuOccupancyMaxActiveBlocksPerMultiprocessor, {"cuOccupancyMaxActiveBlocksPerMultiprocessor"},
          true, missing);
  resolve(lib, api->cuMemGetInfo, {"cuMemGetInfo_v2"}, true, missing);
  resolve(lib, api->cuMemAlloc, {"cuMemAlloc_v2"}, true, missing);
  resolve(lib, api->cuMemFree, {"cuMemFree_v2"}, true, missing);
  resolve(lib, api->cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, true, missing);
  resolve(lib, api->cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, true, missing);
  resolve(lib, api->cuMemcpyDtoD, {"cuMemcpyDtoD_v2"}, true, missing);
  resolve(lib, api->cuMemsetD8, {"cuMemsetD8_v2"}, true, missing);
  resolve(lib, api->cuMemsetD8Async, {"cuMemsetD8Async"}, true, missing);
  resolve(lib, api->cuMemHostAlloc, {"cuMemHostAlloc"}, true, missing);
  resolve(lib, api->cuMemFreeHost, {"cuMemFreeHost"}, true, missing);
  resolve(lib, api->cuMemHostGetDevicePointer, {"cuMemHostGetDevicePointer_v2"}, true, missing);
  resolve(lib, api->cuLaunchKernel, {"cuLaunchKernel"}, true, missing);
  resolve(lib, api->cuLaunchKernelEx, {"cuLaunchKernelEx"}, false, missing);
  resolve(lib, api->cuStreamCreate, {"cuStreamCreate"}, true, missing);
  resolve(lib, api->cuStreamDestroy, {"cuStreamDestroy_v2"}, true, missing);
  resolve(lib, api->cuStreamSynchronize, {"cuStreamSynchronize"}, true, missing);
  resolve(lib, api->cuStreamQuery, {"cuStreamQuery"}, true, missing);
  resolve(lib, api->cuEventCreate, {"cuEventCreate"}, true, missing);
  resolve(lib, api->cuEventDestroy, {"cuEventDestroy_v2"}, true, missing);
  resolve(lib, api->cuEventRecord, {"cuEventRecord"}, true, missing);
  resolve(lib, api->cuEventSynchronize, {"cuEventSynchronize"}, true, missing);
  // CUDA 12.8 added _v2 (same signature, defined behaviour for events recorded in graphs).
  resolve(lib, api->cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, true, missing);
  // _v2 are the CUDA 11.7+ stream memory operations that need no opt-in; the unsuffixed names
  // are the same functions in CUDA 12+ drivers.
  resolve(lib, api->cuStreamWaitValue32, {"cuStreamWaitValue32_v2", "cuStreamWaitValue32"}, false, missing);
  resolve(lib, api->cuStreamWriteValue32, {"cuStreamWriteValue32_v2", "cuStreamWriteValue32"}, false, missing);
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
    result.error = lib.path() + " lacks " + names + " (driver too old, or not NVIDIA's libcuda?)";
    return result;
  }

  const CUresult init = api->cuInit(0);
  if (init == cu::kErrorStubLibrary) {
    result.error = lib.path() +
                   " is the CUDA toolkit's stub library (cuInit returned CUDA_ERROR_STUB_LIBRARY): "
                   "no GPU driver installed";
    return result;
  }
  if (init != cu::kSuccess) {
    const char* text = nullptr;
    std::string detail;
    if (api->cuGetErrorString(init, &text) == cu::kSuccess && text) detail = std::string(": ") + text;
    result.error = "cuInit failed with " + cuda_error_name(init) + detail + " (" + lib.path() + ")";
    return result;
  }
  auto driver = std::make_shared<CudaDriver>();
  if (CUresult rc = api->cuDriverGetVersion(&driver->version_); rc != cu::kSuccess) {
    result.error = "cuDriverGetVersion failed with " + cuda_error_name(rc);
    return result;
  }
  driver->library_ = std::move(library.value);
  driver->api_ = std::move(api);
  result.value = std::move(driver);
  return result;
}

std::string CudaDriver::version_string() const {
  return std::to_string(version_ / 1000) + "." + std::to_string(version_ % 1000 / 10);
}

std::string CudaDriver::error_text(CUresult code) const {
  const char* name = nullptr;
  const char* text = nullptr;
  std::string result;
  if (api_->cuGetErrorName(code, &name) == cu::kSuccess && name) {
    result = name;
  } else {
    result = cuda_error_name(code);
  }
  if (api_->cuGetErrorString(code, &text) == cu::kSuccess && text) result += std::string(": ") + text;
  return result;
}

void CudaDriver::check(CUresult code, const char* call) const {
  if (code != cu::kSuccess) throw CudaError(code, std::string(call) + ": " + error_text(code));
}

int CudaDriver::device_count() const {
  int count = 0;
  check(api_->cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

}  // namespace ktune::cuda
