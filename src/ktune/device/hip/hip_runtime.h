#pragma once
// The HIP runtime (libamdhip64.so), loaded with dlopen so ktune runs where ROCm is not
// installed and can say so. Types and constants are declared here with the values of ROCm 6's
// hip_runtime_api.h / driver_types.h (the attribute numbers below are the same in ROCm 5.x for
// the ones ktune reads); no ROCm header is needed to build.
//
// Library search: $KTUNE_HIP_PATH (a file, or a directory holding libamdhip64.so*), then
// libamdhip64.so, .so.6, .so.5 through the dynamic loader's search, then $ROCM_PATH/lib and
// /opt/rocm/lib.
//
// NOT RUN ON AMD HARDWARE: no AMD GPU was available while this was written. What is tested is
// the loading logic (which library is missing, which entry point is missing).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::hip {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t*;
using hipFunction_t = struct ihipModuleSymbol_t*;
using hipStream_t = struct ihipStream_t*;
using hipEvent_t = struct ihipEvent_t*;

namespace hipc {
constexpr hipError_t kSuccess = 0;
constexpr hipError_t kErrorNoDevice = 100;
constexpr hipError_t kErrorNotReady = 600;

// hipDeviceAttribute_t (ROCm 6.x).
enum DeviceAttribute : int {
  kClockRate = 5,  // kHz
  kL2CacheSize = 19,
  kMaxBlocksPerMultiProcessor = 25,
  kMaxBlockDimX = 26,
  kMaxGridDimX = 29,
  kMaxThreadsPerBlock = 56,
  kMaxThreadsPerMultiProcessor = 57,
  kMemoryBusWidth = 59,
  kMemoryClockRate = 60,  // kHz
  kMultiprocessorCount = 63,
  kPciBusId = 67,
  kPciDeviceId = 68,
  kPciDomainId = 69,
  kMaxSharedMemoryPerBlock = 74,
  kWarpSize = 87,
  kMaxSharedMemoryPerMultiprocessor = 10002,
};

enum MemcpyKind : int { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3 };
}  // namespace hipc

// Entry points. Required ones are never null after HipRuntime::load() succeeds.
struct RuntimeApi {
  hipError_t (*hipInit)(unsigned flags) = nullptr;
  hipError_t (*hipDriverGetVersion)(int* version) = nullptr;
  hipError_t (*hipRuntimeGetVersion)(int* version) = nullptr;
  const char* (*hipGetErrorName)(hipError_t error) = nullptr;
  const char* (*hipGetErrorString)(hipError_t error) = nullptr;

  hipError_t (*hipGetDeviceCount)(int* count) = nullptr;
  hipError_t (*hipSetDevice)(int ordinal) = nullptr;
  hipError_t (*hipDeviceGetName)(char* name, int length, hipDevice_t device) = nullptr;
  hipError_t (*hipDeviceGetAttribute)(int* value, int attribute, int device) = nullptr;
  hipError_t (*hipDeviceTotalMem)(std::size_t* bytes, hipDevice_t device) = nullptr;
  // The properties struct changed layout between ROCm 5 and 6 (hipDeviceProp_tR0600); ktune
  // only reads gcnArchName from it, by content (see gcn_arch_name), so either export serves.
  hipError_t (*hipGetDeviceProperties)(void* properties, int device) = nullptr;  // R0600 when exported
  hipError_t (*hipDeviceSynchronize)() = nullptr;
  hipError_t (*hipMemGetInfo)(std::size_t* free_bytes, std::size_t* total_bytes) = nullptr;

  hipError_t (*hipModuleLoadData)(hipModule_t* module, const void* image) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t module) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t* function, hipModule_t module, const char* name) = nullptr;
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                                      unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                                      hipStream_t stream, void** parameters, void** extra) = nullptr;

  hipError_t (*hipMalloc)(void** pointer, std::size_t bytes) = nullptr;
  hipError_t (*hipFree)(void* pointer) = nullptr;
  hipError_t (*hipMemcpy)(void* destination, const void* source, std::size_t bytes, int kind) = nullptr;
  hipError_t (*hipMemsetAsync)(void* destination, int value, std::size_t bytes, hipStream_t stream) = nullptr;

  hipError_t (*hipStreamCreate)(hipStream_t* stream) = nullptr;
  hipError_t (*hipStreamDestroy)(hipStream_t stream) = nullptr;
  hipError_t (*hipStreamSynchronize)(hipStream_t stream) = nullptr;
  hipError_t (*hipEventCreate)(hipEvent_t* event) = nullptr;
  hipError_t (*hipEventDestroy)(hipEvent_t event) = nullptr;
  hipError_t (*hipEventRecord)(hipEvent_t event, hipStream_t stream) = nullptr;
  hipError_t (*hipEventSynchronize)(hipEvent_t event) = nullptr;
  hipError_t (*hipEventElapsedTime)(float* milliseconds, hipEvent_t start, hipEvent_t end) = nullptr;
};

class HipError : public std::runtime_error {
 public:
  HipError(hipError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  hipError_t code() const { return code_; }

 private:
  hipError_t code_;
};

// "hipErrorOutOfMemory" for the codes a tuner meets; "HIP error N" otherwise (no runtime needed).
std::string hip_error_name(hipError_t code);
// Errors after which the process's device state cannot be trusted (a kernel faulted).
bool is_sticky_error(hipError_t code);

// Candidate paths for libamdhip64 (see the header comment), in order.
std::vector<std::string> hip_runtime_candidates();

// The first "gfx..." processor name (with its ":feature+/-" suffix) in a device-properties
// buffer, skipping the leading 256-byte name field; "" when none. Reading by content keeps
// ktune independent of hipDeviceProp_t's layout, which ROCm changed between versions.
std::string gcn_arch_name(const unsigned char* properties, std::size_t size);

class HipRuntime {
 public:
  // Loads libamdhip64 and runs hipInit(0). The error starts with "HIP runtime not available: "
  // and lists every location tried, or names the missing entry point / the failing hipInit.
  static Loaded<HipRuntime> load();
  static Loaded<HipRuntime> load_from(const std::vector<std::string>& candidates);

  const RuntimeApi& api() const { return *api_; }
  const std::string& library_path() const { return library_->path(); }
  int runtime_version() const { return runtime_version_; }  // e.g. 60241134 for ROCm 6.2

  // "hipMalloc: hipErrorOutOfMemory: out of memory".
  std::string error_text(hipError_t code, const char* call) const;
  // Throws HipError with error_text when `code` is not hipSuccess.
  void check(hipError_t code, const char* call) const;

  int device_count() const;
  std::string device_name(int ordinal) const;
  int attribute(int attribute, int ordinal) const;
  std::string device_arch(int ordinal) const;  // "gfx942:sramecc+:xnack-"; "" when unknown

 private:
  std::shared_ptr<const DynamicLibrary> library_;
  std::shared_ptr<const RuntimeApi> api_;
  int runtime_version_ = 0;
};

}  // namespace ktune::hip
