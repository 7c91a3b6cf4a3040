#include "ktune/families/cublaslt/cublaslt_api.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace ktune::cublaslt {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

const std::vector<std::string>& library_names() {
  static const std::vector<std::string> names = {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
  return names;
}

}  // namespace

std::string status_name(Status status) {
  switch (status) {
    case lt::kSuccess: return "CUBLAS_STATUS_SUCCESS";
    case lt::kNotInitialized: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case lt::kAllocFailed: return "CUBLAS_STATUS_ALLOC_FAILED";
    case lt::kInvalidValue: return "CUBLAS_STATUS_INVALID_VALUE";
    case lt::kArchMismatch: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case lt::kMappingError: return "CUBLAS_STATUS_MAPPING_ERROR";
    case lt::kExecutionFailed: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case lt::kInternalError: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case lt::kNotSupported: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case lt::kLicenseError: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "cuBLAS status " + std::to_string(status);
  }
}

Loaded<CublasLt> CublasLt::load() {
  std::vector<std::string> candidates;
  if (std::string explicit_path = env("KTUNE_CUBLASLT_PATH"); !explicit_path.empty()) {
    // The user said where it is; looking elsewhere would hide their mistake.
    std::error_code ec;
    if (std::filesystem::is_directory(explicit_path, ec)) {
      for (const std::string& name : library_names())
        candidates.push_back((std::filesystem::path(explicit_path) / name).string());
    } else {
      candidates.push_back(explicit_path);
    }
  } else {
    std::vector<std::string> directories;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
      if (std::string root = env(var); !root.empty()) directories.push_back(root + "/lib64");
    directories.emplace_back("/usr/local/cuda/lib64");
    candidates = library_candidates(nullptr, library_names(), directories);
  }
  Loaded<CublasLt> result = from_library(DynamicLibrary::open_first(candidates));
  if (!result) result.error = "cuBLASLt not available: " + result.error + " (set KTUNE_CUBLASLT_PATH to libcublasLt.so)";
  return result;
}

Loaded<CublasLt> CublasLt::load_from(const std::string& path_or_name) {
  Loaded<CublasLt> result = from_library(DynamicLibrary::open_first({path_or_name}));
  if (!result) result.error = "cuBLASLt not available: " + result.error;
  return result;
}

Loaded<CublasLt> CublasLt::from_library(Loaded<DynamicLibrary> library) {
  Loaded<CublasLt> result;
  if (!library) {
    result.error = library.error;
    return result;
  }
  auto api = std::make_shared<Api>();
  const DynamicLibrary& lib = *library;
  try {
    auto require = [&lib](auto& slot, const char* name) {
      using Fn = std::remove_pointer_t<std::remove_reference_t<decltype(slot)>>;
      slot = lib.require_function<Fn>({name});
    };
    auto optional = [&lib](auto& slot, const char* name) {
      using Fn = std::remove_pointer_t<std::remove_reference_t<decltype(slot)>>;
      slot = lib.function<Fn>({name});
    };
    require(api->Create, "cublasLtCreate");
    require(api->Destroy, "cublasLtDestroy");
    require(api->GetVersion, "cublasLtGetVersion");
    optional(api->GetCudartVersion, "cublasLtGetCudartVersion");
    optional(api->GetStatusName, "cublasLtGetStatusName");
    optional(api->GetStatusString, "cublasLtGetStatusString");
    require(api->MatmulDescCreate, "cublasLtMatmulDescCreate");
    require(api->MatmulDescDestroy, "cublasLtMatmulDescDestroy");
    require(api->MatmulDescSetAttribute, "cublasLtMatmulDescSetAttribute");
    require(api->MatmulDescGetAttribute, "cublasLtMatmulDescGetAttribute");
    require(api->MatrixLayoutCreate, "cublasLtMatrixLayoutCreate");
    require(api->MatrixLayoutDestroy, "cublasLtMatrixLayoutDestroy");
    require(api->MatrixLayoutSetAttribute, "cublasLtMatrixLayoutSetAttribute");
    require(api->MatrixLayoutGetAttribute, "cublasLtMatrixLayoutGetAttribute");
    require(api->MatmulPreferenceCreate, "cublasLtMatmulPreferenceCreate");
    require(api->MatmulPreferenceDestroy, "cublasLtMatmulPreferenceDestroy");
    require(api->MatmulPreferenceSetAttribute, "cublasLtMatmulPreferenceSetAttribute");
    require(api->MatmulAlgoGetHeuristic, "cublasLtMatmulAlgoGetHeuristic");
    require(api->MatmulAlgoGetIds, "cublasLtMatmulAlgoGetIds");
    require(api->MatmulAlgoInit, "cublasLtMatmulAlgoInit");
    require(api->MatmulAlgoCheck, "cublasLtMatmulAlgoCheck");
    require(api->MatmulAlgoCapGetAttribute, "cublasLtMatmulAlgoCapGetAttribute");
    require(api->MatmulAlgoConfigSetAttribute, "cublasLtMatmulAlgoConfigSetAttribute");
    require(api->MatmulAlgoConfigGetAttribute, "cublasLtMatmulAlgoConfigGetAttribute");
    require(api->Matmul, "cublasLtMatmul");
  } catch (const DynamicLibraryError& e) {
    result.error = e.what();
    return result;
  }
  auto lt_library = std::make_shared<CublasLt>();
  lt_library->version_ = api->GetVersion();
  lt_library->library_ = std::move(library.value);
  lt_library->api_ = std::move(api);
  if (lt_library->major_version() < 11)
    result.error = lt_library->library_path() + " reports cuBLAS version " + lt_library->version_string() +
                   "; ktune needs cuBLASLt 11 or newer";
  else
    result.value = std::move(lt_library);
  return result;
}

std::string CublasLt::version_string() const {
  return std::to_string(version_ / 10000) + "." + std::to_string((version_ / 100) % 100) + "." +
         std::to_string(version_ % 100);
}

std::string CublasLt::error_text(Status status, const std::string& call) const {
  std::string text = call + ": " + status_name(status);
  if (api_ && api_->GetStatusString) {
    if (const char* s = api_->GetStatusString(status); s && *s) text += std::string(" (") + s + ")";
  }
  return text;
}

void CublasLt::check(Status status, const std::string& call) const {
  if (status != lt::kSuccess) throw CublasLtError(status, error_text(status, call));
}

}  // namespace ktune::cublaslt
