#pragma once
// cuBLASLt (libcublasLt.so.13 or .12), loaded with dlopen so that ktune runs where it is
// absent and says why. The few types, enum values and entry points ktune uses are declared
// here with the values of CUDA 13.0's cublasLt.h / cublas_api.h / library_types.h; the
// toolkit is not needed to build. cuBLASLt keeps these values stable across 12.x and 13.x.
//
// Library search: $KTUNE_CUBLASLT_PATH (a file or a directory; when set, nothing else is
// tried), then libcublasLt.so.13, .so.12, .so through the dynamic loader, then the same names
// in $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::cublaslt {

using Status = int;  // cublasStatus_t
using Handle = struct cublasLtContext*;
using Stream = struct CUstream_st*;  // cudaStream_t and CUstream are the same type

struct MatmulDescOpaque {
  std::uint64_t data[32];
};
struct MatrixLayoutOpaque {
  std::uint64_t data[8];
};
struct MatmulPreferenceOpaque {
  std::uint64_t data[8];
};
using MatmulDesc = MatmulDescOpaque*;
using MatrixLayout = MatrixLayoutOpaque*;
using MatmulPreference = MatmulPreferenceOpaque*;

// cublasLtMatmulAlgo_t: "can be trivially serialized and later restored for use with the same
// version of cuBLAS".
struct MatmulAlgo {
  std::uint64_t data[8];
};

struct HeuristicResult {  // cublasLtMatmulHeuristicResult_t
  MatmulAlgo algo;
  std::size_t workspace_size;
  Status state;
  float waves_count;
  int reserved[4];
};
static_assert(sizeof(MatmulAlgo) == 64);
static_assert(sizeof(HeuristicResult) == 96);

namespace lt {
// cublasStatus_t
constexpr Status kSuccess = 0;
constexpr Status kNotInitialized = 1;
constexpr Status kAllocFailed = 3;
constexpr Status kInvalidValue = 7;
constexpr Status kArchMismatch = 8;
constexpr Status kMappingError = 11;
constexpr Status kExecutionFailed = 13;
constexpr Status kInternalError = 14;
constexpr Status kNotSupported = 15;
constexpr Status kLicenseError = 16;

// cudaDataType_t
constexpr int kR16F = 2;
constexpr int kR16BF = 14;
constexpr int kR32F = 0;
constexpr int kR8FE4M3 = 28;

// cublasComputeType_t
constexpr int kCompute32F = 68;
constexpr int kCompute32FFastTF32 = 77;

// cublasOperation_t
constexpr std::int32_t kOpN = 0;
constexpr std::int32_t kOpT = 1;

// cublasLtMatmulDescAttributes_t
enum MatmulDescAttribute : int {
  kDescComputeType = 0,
  kDescScaleType = 1,
  kDescPointerMode = 2,
  kDescTransA = 3,
  kDescTransB = 4,
  kDescEpilogue = 7,
  kDescBiasPointer = 8,
  kDescBiasBatchStride = 10,
  kDescFastAccum = 25,
  kDescBiasDataType = 26,
};

// cublasLtMatrixLayoutAttribute_t
enum MatrixLayoutAttribute : int {
  kLayoutType = 0,
  kLayoutOrder = 1,
  kLayoutRows = 2,
  kLayoutCols = 3,
  kLayoutLd = 4,
  kLayoutBatchCount = 5,
  kLayoutStridedBatchOffset = 6,
};

// cublasLtEpilogue_t
constexpr std::uint32_t kEpilogueDefault = 1;
constexpr std::uint32_t kEpilogueRelu = 2;
constexpr std::uint32_t kEpilogueBias = 4;
constexpr std::uint32_t kEpilogueReluBias = 6;
constexpr std::uint32_t kEpilogueGelu = 32;
constexpr std::uint32_t kEpilogueGeluBias = 36;

// cublasLtReductionScheme_t
constexpr std::uint32_t kReductionNone = 0;
constexpr std::uint32_t kReductionInplace = 1;
constexpr std::uint32_t kReductionComputeType = 2;
constexpr std::uint32_t kReductionOutputType = 4;
constexpr std::uint32_t kReductionMask = 7;

// cublasLtMatmulPreferenceAttributes_t
enum PreferenceAttribute : int {
  kPrefSearchMode = 0,
  kPrefMaxWorkspaceBytes = 1,  // uint64_t
  kPrefReductionSchemeMask = 3,
  kPrefMinAlignmentABytes = 5,  // uint32_t
  kPrefMinAlignmentBBytes = 6,
  kPrefMinAlignmentCBytes = 7,
  kPrefMinAlignmentDBytes = 8,
};

// cublasLtMatmulAlgoCapAttributes_t
enum AlgoCapAttribute : int {
  kCapSplitKSupport = 0,          // int32_t
  kCapReductionSchemeMask = 1,    // uint32_t
  kCapCtaSwizzlingSupport = 2,    // uint32_t
  kCapStridedBatchSupport = 3,    // int32_t
  kCapOutOfPlaceResultSupport = 4,
  kCapUploSupport = 5,
  kCapTileIds = 6,                // uint32_t[]
  kCapCustomOptionMax = 7,        // int32_t
  kCapCustomMemoryOrder = 10,     // int32_t
  kCapPointerModeMask = 11,
  kCapEpilogueMask = 12,          // uint32_t
  kCapStagesIds = 13,             // uint32_t[]
  kCapLdNegative = 14,
  kCapNumericalImplFlags = 15,    // uint64_t
  kCapMinAlignmentABytes = 16,    // uint32_t
  kCapMinAlignmentBBytes = 17,
  kCapMinAlignmentCBytes = 18,
  kCapMinAlignmentDBytes = 19,
};

// cublasLtMatmulAlgoConfigAttributes_t
enum AlgoConfigAttribute : int {
  kConfigId = 0,            // int32_t (read-only)
  kConfigTileId = 1,        // uint32_t
  kConfigSplitKNum = 2,     // int32_t
  kConfigReductionScheme = 3,  // uint32_t
  kConfigCtaSwizzling = 4,  // uint32_t
  kConfigCustomOption = 5,  // uint32_t
  kConfigStagesId = 6,      // uint32_t
  kConfigInnerShapeId = 7,  // uint16_t
  kConfigClusterShapeId = 8,  // uint16_t
};
}  // namespace lt

// Entry points. Every one is required except those marked optional.
struct Api {
  Status (*Create)(Handle* handle) = nullptr;
  Status (*Destroy)(Handle handle) = nullptr;
  std::size_t (*GetVersion)() = nullptr;
  std::size_t (*GetCudartVersion)() = nullptr;             // optional
  const char* (*GetStatusName)(Status status) = nullptr;    // optional
  const char* (*GetStatusString)(Status status) = nullptr;  // optional

  Status (*MatmulDescCreate)(MatmulDesc* desc, int compute_type, int scale_type) = nullptr;
  Status (*MatmulDescDestroy)(MatmulDesc desc) = nullptr;
  Status (*MatmulDescSetAttribute)(MatmulDesc desc, int attribute, const void* buffer, std::size_t size) = nullptr;
  Status (*MatmulDescGetAttribute)(MatmulDesc desc, int attribute, void* buffer, std::size_t size,
                                   std::size_t* written) = nullptr;

  Status (*MatrixLayoutCreate)(MatrixLayout* layout, int type, std::uint64_t rows, std::uint64_t cols,
                               std::int64_t ld) = nullptr;
  Status (*MatrixLayoutDestroy)(MatrixLayout layout) = nullptr;
  Status (*MatrixLayoutSetAttribute)(MatrixLayout layout, int attribute, const void* buffer, std::size_t size) = nullptr;
  Status (*MatrixLayoutGetAttribute)(MatrixLayout layout, int attribute, void* buffer, std::size_t size,
                                     std::size_t* written) = nullptr;

  Status (*MatmulPreferenceCreate)(MatmulPreference* preference) = nullptr;
  Status (*MatmulPreferenceDestroy)(MatmulPreference preference) = nullptr;
  Status (*MatmulPreferenceSetAttribute)(MatmulPreference preference, int attribute, const void* buffer,
                                         std::size_t size) = nullptr;

  Status (*MatmulAlgoGetHeuristic)(Handle handle, MatmulDesc desc, MatrixLayout a, MatrixLayout b, MatrixLayout c,
                                   MatrixLayout d, MatmulPreference preference, int requested,
                                   HeuristicResult* results, int* returned) = nullptr;
  Status (*MatmulAlgoGetIds)(Handle handle, int compute_type, int scale_type, int a_type, int b_type, int c_type,
                             int d_type, int requested, int* ids, int* returned) = nullptr;
  Status (*MatmulAlgoInit)(Handle handle, int compute_type, int scale_type, int a_type, int b_type, int c_type,
                           int d_type, int algo_id, MatmulAlgo* algo) = nullptr;
  Status (*MatmulAlgoCheck)(Handle handle, MatmulDesc desc, MatrixLayout a, MatrixLayout b, MatrixLayout c,
                            MatrixLayout d, const MatmulAlgo* algo, HeuristicResult* result) = nullptr;
  Status (*MatmulAlgoCapGetAttribute)(const MatmulAlgo* algo, int attribute, void* buffer, std::size_t size,
                                      std::size_t* written) = nullptr;
  Status (*MatmulAlgoConfigSetAttribute)(MatmulAlgo* algo, int attribute, const void* buffer, std::size_t size) = nullptr;
  Status (*MatmulAlgoConfigGetAttribute)(const MatmulAlgo* algo, int attribute, void* buffer, std::size_t size,
                                         std::size_t* written) = nullptr;

  Status (*Matmul)(Handle handle, MatmulDesc desc, const void* alpha, const void* a, MatrixLayout a_desc, const void* b,
                   MatrixLayout b_desc, const void* beta, const void* c, MatrixLayout c_desc, void* d,
                   MatrixLayout d_desc, const MatmulAlgo* algo, void* workspace, std::size_t workspace_size,
                   Stream stream) = nullptr;
};

class CublasLtError : public std::runtime_error {
 public:
  CublasLtError(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const { return status_; }

 private:
  Status status_;
};

// "CUBLAS_STATUS_NOT_SUPPORTED" for the documented codes, "cuBLAS status N" otherwise.
// Works without the library.
std::string status_name(Status status);

class CublasLt {
 public:
  // Finds and loads the library (see the search order above). Failure is a value whose error
  // reads "cuBLASLt not available: tried N location(s): ..." or names missing entry points.
  static Loaded<CublasLt> load();
  static Loaded<CublasLt> load_from(const std::string& path_or_name);

  const Api& api() const { return *api_; }
  const std::string& library_path() const { return library_->path(); }
  std::size_t version() const { return version_; }  // CUBLAS_VERSION: major*10000 + minor*100 + patch
  std::string version_string() const;               // "13.0.2"
  int major_version() const { return static_cast<int>(version_ / 10000); }

  // "cublasLtMatmul: CUBLAS_STATUS_NOT_SUPPORTED (the functionality requested is not supported)".
  std::string error_text(Status status, const std::string& call) const;
  // Throws CublasLtError(error_text) when `status` is not success.
  void check(Status status, const std::string& call) const;

 private:
  static Loaded<CublasLt> from_library(Loaded<DynamicLibrary> library);
  std::shared_ptr<const DynamicLibrary> library_;
  std::shared_ptr<const Api> api_;
  std::size_t version_ = 0;
};

}  // namespace ktune::cublaslt
