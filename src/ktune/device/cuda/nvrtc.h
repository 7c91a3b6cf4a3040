#pragma once
// CUDA C++ -> CUBIN (and PTX) with NVRTC, loaded at run time. Works on machines without a GPU
// or driver: compile pools on CPU build machines use it to check and size kernels offline.
//
// Library search (first that loads wins):
//   $KTUNE_NVRTC_PATH (a file or a directory; when set, nothing else is tried),
//   libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so, then those names in $CUDA_HOME/lib64,
//   $CUDA_PATH/lib64 and /usr/local/cuda/lib64.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ktune/analysis/ptxas_info.h"
#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::cuda {

struct NvrtcRequest {
  std::string source;
  std::string program_name = "kernel.cu";  // the file name diagnostics show
  // "sm_90a", "sm_80", "sm_100f": CUBIN (+ PTX). "compute_90": PTX only (no ptxas, no usage).
  std::string arch = "sm_90a";
  std::vector<std::string> options;        // e.g. "-DBM=64", "-lineinfo", "-maxrregcount=64"
  std::vector<std::string> include_paths;  // passed as -I<path>, before the toolkit's include dir
  // In-memory headers: {include name, content}; `#include "name"` finds them.
  std::vector<std::pair<std::string, std::string>> headers;
  // Kernels to look up after compilation: "sgemm", "tile<64, 64>", "&ns::tile<64, 64>".
  // Their mangled (lowered) names come back in NvrtcResult::lowered_names.
  std::vector<std::string> name_expressions;
  bool resource_usage = true;  // -Xptxas -v, parsed into NvrtcResult::resources
};

struct NvrtcResult {
  bool ok = false;
  std::string error;  // what went wrong, in one paragraph, when !ok
  std::string log;    // NVRTC's program log: front-end diagnostics and ptxas -v output
  std::string cubin;  // ELF bytes; empty for compute_XX targets or on failure
  std::string ptx;
  std::map<std::string, std::string> lowered_names;  // name expression -> mangled name
  analysis::PtxasReport resources;                   // parsed from the log
  std::vector<std::string> options;                  // the exact options NVRTC received
  double seconds = 0.0;                              // wall time of create + compile + fetch

  // The mangled name for `name_expression`, or "" when it was not requested or not found.
  std::string lowered_name(std::string_view name_expression) const;
};

class NvrtcCompiler {
 public:
  // Searches the usual places (see the top of this file).
  static Loaded<NvrtcCompiler> load();
  // Loads exactly `path_or_name`.
  static Loaded<NvrtcCompiler> load_from(const std::string& path_or_name);

  int major_version() const;
  int minor_version() const;
  std::string version_string() const;  // "13.0"
  // Compute capabilities this NVRTC can target, as 75, 80, 86, 90, 100, 120...; empty when
  // the library cannot say (NVRTC before 11.2).
  const std::vector<int>& supported_archs() const;
  const std::string& library_path() const;
  // Toolkit include directory with cuda_fp16.h/cuda_bf16.h, added after the request's include
  // paths; empty when none was found ($CUDA_HOME, $CUDA_PATH, next to the library,
  // /usr/local/cuda).
  const std::string& cuda_include_dir() const;

  // Thread-safe: each call uses its own NVRTC program.
  NvrtcResult compile(const NvrtcRequest& request) const;
  NvrtcResult compile(const std::string& source, const std::string& program_name,
                      const std::vector<std::string>& options, const std::vector<std::string>& include_paths,
                      const std::string& arch) const;

  struct Api;  // resolved entry points (nvrtc.cc)

 private:
  static Loaded<NvrtcCompiler> from_library(Loaded<DynamicLibrary> library);
  std::shared_ptr<const DynamicLibrary> library_;
  std::shared_ptr<const Api> api_;
  int major_ = 0;
  int minor_ = 0;
  std::vector<int> supported_archs_;
  std::string include_dir_;
};

// "sm_90a" -> 90, "compute_100f" -> 100, "sm_80" -> 80; nullopt when not of that form.
std::optional<int> nvrtc_arch_number(std::string_view arch);

}  // namespace ktune::cuda
