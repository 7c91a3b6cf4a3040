#pragma once
// The CUDA driver API (libcuda.so.1), loaded with dlopen so ktune runs where no NVIDIA driver is
// installed and can say so. Types and constants are declared here with the values of cuda.h
// (CUDA 13.0); the toolkit is not needed to build.
//
// Library search: $KTUNE_CUDA_DRIVER_PATH (a file; when set, nothing else is tried), then
// libcuda.so.1 and libcuda.so through the dynamic loader's usual search.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = std::uint64_t;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
struct CUuuid {
  unsigned char bytes[16];
};

// Values from cuda.h. Only what ktune uses.
namespace cu {
constexpr CUresult kSuccess = 0;
constexpr CUresult kErrorInvalidValue = 1;
constexpr CUresult kErrorOutOfMemory = 2;
constexpr CUresult kErrorNotInitialized = 3;
constexpr CUresult kErrorStubLibrary = 34;
constexpr CUresult kErrorNoDevice = 100;
constexpr CUresult kErrorNotReady = 600;

enum DeviceAttribute : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX = 2,
  kMaxBlockDimY = 3,
  kMaxBlockDimZ = 4,
  kMaxGridDimX = 5,
  kMaxGridDimY = 6,
  kMaxGridDimZ = 7,
  kMaxSharedMemoryPerBlock = 8,
  kTotalConstantMemory = 9,
  kWarpSize = 10,
  kMaxRegistersPerBlock = 12,
  kClockRate = 13,  // kHz
  kMultiprocessorCount = 16,
  kIntegrated = 18,
  kCanMapHostMemory = 19,
  kComputeMode = 20,
  kEccEnabled = 32,
  kPciBusId = 33,
  kPciDeviceId = 34,
  kMemoryClockRate = 36,  // kHz
  kGlobalMemoryBusWidth = 37,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiprocessor = 39,
  kAsyncEngineCount = 40,
  kUnifiedAddressing = 41,
  kPciDomainId = 50,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerMultiprocessor = 81,
  kMaxRegistersPerMultiprocessor = 82,
  kMaxSharedMemoryPerBlockOptin = 97,
  kMaxBlocksPerMultiprocessor = 106,
  kMaxPersistingL2CacheSize = 108,
  kReservedSharedMemoryPerBlock = 111,
  kCanUse64BitStreamMemOps = 122,
  kCanUseStreamWaitValueNor = 123,
};

enum FunctionAttribute : int {
  kFuncMaxThreadsPerBlock = 0,
  kFuncSharedSizeBytes = 1,
  kFuncConstSizeBytes = 2,
  kFuncLocalSizeBytes = 3,
  kFuncNumRegs = 4,
  kFuncPtxVersion = 5,
  kFuncBinaryVersion = 6,
  kFuncCacheModeCa = 7,
  kFuncMaxDynamicSharedSizeBytes = 8,
  kFuncPreferredSharedMemoryCarveout = 9,
  kFuncNonPortableClusterSizeAllowed = 14,
};

constexpr unsigned kEventDefault = 0x0;
constexpr unsigned kEventBlockingSync = 0x1;
constexpr unsigned kEventDisableTiming = 0x2;
constexpr unsigned kStreamDefault = 0x0;
constexpr unsigned kStreamNonBlocking = 0x1;
constexpr unsigned kMemHostAllocPortable = 0x1;
constexpr unsigned kMemHostAllocDeviceMap = 0x2;
constexpr unsigned kMemHostAllocWriteCombined = 0x4;
constexpr unsigned kStreamWaitValueGeq = 0x0;
constexpr unsigned kStreamWaitValueEq = 0x1;
constexpr unsigned kStreamWaitValueAnd = 0x2;
constexpr unsigned kStreamWaitValueNor = 0x3;
constexpr unsigned kStreamWriteValueDefault = 0x0;
}  // namespace cu

// cuLaunchKernelEx's configuration (CUDA 12.0+), laid out as cuda.h's CUlaunchAttribute and
// CUlaunchConfig; only the attributes ktune sets are named.
struct CUlaunchAttribute {
  int id = 0;
  char pad[4] = {};
  union {
    char bytes[64];
    int programmatic_stream_serialization;  // id kLaunchAttributeProgrammaticStreamSerialization
    struct {
      unsigned x, y, z;
    } cluster_dim;  // id kLaunchAttributeClusterDimension
  } value{};
};
static_assert(sizeof(CUlaunchAttribute) == 72);
struct CUlaunchConfig {
  unsigned grid_x = 1, grid_y = 1, grid_z = 1, block_x = 1, block_y = 1, block_z = 1, shared_bytes = 0;
  CUstream stream = nullptr;
  CUlaunchAttribute* attributes = nullptr;
  unsigned attribute_count = 0;
};
static_assert(sizeof(CUlaunchConfig) == 56);
namespace cu {
// The launch may start before the previous work in its stream finishes; the kernel waits for it
// with griddepcontrol.wait (programmatic dependent launch, sm_90).
constexpr int kLaunchAttributeProgrammaticStreamSerialization = 6;
// Thread-block cluster dimensions of a kernel compiled without __cluster_dims__ (sm_90).
constexpr int kLaunchAttributeClusterDimension = 4;
}  // namespace cu

// Entry points. Required ones are never null after CudaDriver::load() succeeds; the ones marked
// optional may be null on older drivers, so check before calling.
struct DriverApi {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char** name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult error, const char** text) = nullptr;

  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetUuid)(CUuuid* uuid, CUdevice device) = nullptr;  // _v2 when exported
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem)(std::size_t* bytes, CUdevice device) = nullptr;

  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*cuCtxCreate)(CUcontext* context, unsigned flags, CUdevice device) = nullptr;  // optional (_v2)
  CUresult (*cuCtxDestroy)(CUcontext context) = nullptr;                                 // optional (_v2)
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext* context) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;

  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name) = nullptr;
  CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction function) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  // Optional (CUDA 12.4+): offset and size of kernel parameter `index`; CUDA_ERROR_INVALID_VALUE
  // past the last one.
  CUresult (*cuFuncGetParamInfo)(CUfunction function, std::size_t index, std::size_t* offset,
                                 std::size_t* size) = nullptr;
  // Optional (CUDA 12.0+): a TMA descriptor (CUtensorMap, 128 bytes) for cp.async.bulk.tensor.
  // The enums (data type, interleave, swizzle, L2 promotion, out-of-bounds fill) pass as int.
  CUresult (*cuTensorMapEncodeTiled)(void* tensor_map, int data_type, unsigned rank, void* global_address,
                                     const std::uint64_t* global_dim, const std::uint64_t* global_strides,
                                     const std::uint32_t* box_dim, const std::uint32_t* element_strides, int interleave,
                                     int swizzle, int l2_promotion, int oob_fill) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction function, int block_size,
                                                          std::size_t dynamic_shared_bytes) = nullptr;

  CUresult (*cuMemGetInfo)(std::size_t* free_bytes, std::size_t* total_bytes) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr* pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr destination, const void* source, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoH)(void* destination, CUdeviceptr source, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoD)(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr destination, unsigned char value, std::size_t count) = nullptr;
  // Optional: fills with a 16- or 32-bit pattern (output poisoning without an upload).
  CUresult (*cuMemsetD16)(CUdeviceptr destination, unsigned short value, std::size_t count) = nullptr;
  CUresult (*cuMemsetD32)(CUdeviceptr destination, unsigned value, std::size_t count) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, std::size_t count,
                              CUstream stream) = nullptr;
  CUresult (*cuMemHostAlloc)(void** pointer, std::size_t bytes, unsigned flags) = nullptr;
  CUresult (*cuMemFreeHost)(void* pointer) = nullptr;
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr* device_pointer, void* host_pointer, unsigned flags) = nullptr;

  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                             CUstream stream, void** parameters, void** extra) = nullptr;
  // Optional (CUDA 12.0+): a launch with attributes (see CUlaunchConfig).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig* config, CUfunction function, void** parameters,
                               void** extra) = nullptr;
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuStreamQuery)(CUstream stream) = nullptr;
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end) = nullptr;
  // Optional: stream memory operations (a blocking kernel-free "wait for host flag").
  CUresult (*cuStreamWaitValue32)(CUstream stream, CUdeviceptr address, std::uint32_t value, unsigned flags) = nullptr;
  CUresult (*cuStreamWriteValue32)(CUstream stream, CUdeviceptr address, std::uint32_t value,
                                   unsigned flags) = nullptr;
};

class CudaError : public std::runtime_error {
 public:
  CudaError(CUresult code, const std::string& message) : std::runtime_error(message), code_(code) {}
  CUresult code() const { return code_; }

 private:
  CUresult code_;
};

// "CUDA_ERROR_OUT_OF_MEMORY" for the codes ktune is likely to meet; "CUDA error N" otherwise.
// Works without a driver (the stub library cannot name its own errors).
std::string cuda_error_name(CUresult code);

// Errors CUDA documents as leaving the context unusable: "any further CUDA work will return
// the same error; the process must be terminated and relaunched" (illegal address, launch
// failed/timeout, assert, misaligned address, illegal instruction, hardware stack error,
// invalid PC or address space, uncorrectable ECC), plus CUDA_ERROR_UNKNOWN, which a faulting
// kernel can also leave behind.
bool is_sticky_error(CUresult code);

class CudaDriver {
 public:
  // Loads libcuda and runs cuInit(0). Fails with "CUDA driver not available: <reason>" when the
  // library is missing, is the toolkit's stub, lacks an entry point, or cuInit fails.
  static Loaded<CudaDriver> load();
  static Loaded<CudaDriver> load_from(const std::string& path_or_name);

  const DriverApi& api() const { return *api_; }
  const std::string& library_path() const { return library_->path(); }
  int version() const { return version_; }  // 13000 for CUDA 13.0
  std::string version_string() const;       // "13.0"

  // "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory".
  std::string error_text(CUresult code) const;
  // Throws CudaError with error_text when `code` is not success.
  void check(CUresult code, const char* call) const;

  int device_count() const;

 private:
  static Loaded<CudaDriver> from_library(Loaded<DynamicLibrary> library);
  std::shared_ptr<const DynamicLibrary> library_;
  std::shared_ptr<const DriverApi> api_;
  int version_ = 0;
};

}  // namespace ktune::cuda
