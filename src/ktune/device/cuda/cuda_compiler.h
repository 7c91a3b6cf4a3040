#pragma once
// CUDA C++ -> CUBIN with NVRTC for one GPU architecture (CompileRequest::target, e.g. "sm_90a"),
// through a content-addressed on-disk cache. Needs no GPU and no driver, so compile pools on
// CPU machines can build and size kernels. See README.md.

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "ktune/device/compile_cache.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/device/device.h"

namespace ktune::device::cuda {

struct CudaCompilerOptions {
  std::filesystem::path cache_directory;  // "" -> default_cache_root() / "cuda"
  std::string nvrtc_library;              // "" -> the usual search (see cuda/nvrtc.h); else exactly this
  std::size_t max_log_bytes = 64 << 10;   // diagnostics beyond this are cut in the middle
};

// CompileResult::resources of a successful compile (a JSON object):
//   entry, lowered_name (the symbol to load: mangled for C++ kernels, plain for extern "C"),
//   arch, registers, barriers, shared_bytes (static), stack_frame_bytes, spill_store_bytes,
//   spill_load_bytes, cumulative_stack_bytes, local_bytes, constant_bytes, max_registers_override,
//   ptxas_found_entry (false when ptxas printed nothing for the entry: the numbers are then 0),
//   ptxas_warnings, cubin_bytes, nvrtc_version, options (exactly what NVRTC received), headers
//   (files the cache key covers), signature (["f32*", "i32", ...] from the request, when given).
class CudaCompiler : public Compiler {
 public:
  explicit CudaCompiler(CudaCompilerOptions options = {});

  // Compiles request.sources[0] as the translation unit. The directory of every source is an
  // include path (main source's first), so further sources are headers it #includes. The entry
  // is looked up with nvrtcAddNameExpression("&" + entry): extern "C" kernels, C++ kernels in
  // namespaces and template instances ("gemm<float, 64>", instantiated on demand) all work;
  // an overloaded name is ambiguous and fails. Thread-safe; errors are results.
  CompileResult compile(const CompileRequest& request) override;

  // NVRTC, loaded on first use (from any thread); .error says why not.
  const Loaded<ktune::cuda::NvrtcCompiler>& nvrtc() const;
  const CudaCompilerOptions& options() const { return options_; }
  const CompileCache& cache() const { return cache_; }

 private:
  CudaCompilerOptions options_;
  CompileCache cache_;
  mutable std::once_flag nvrtc_once_;
  mutable Loaded<ktune::cuda::NvrtcCompiler> nvrtc_;
};

// Files `source` reads through #include, recursively, in discovery order: "name" is looked up
// next to the including file and then in `include_dirs`, <name> in `include_dirs` only; names
// found nowhere (toolkit and system headers, covered by the NVRTC version) are skipped. A
// textual scan: an #include whose name comes from a macro is not seen.
std::vector<std::filesystem::path> scan_includes(const std::filesystem::path& source,
                                                 const std::vector<std::filesystem::path>& include_dirs);

// Directories named by -I options in `flags`: "-Idir", "-I dir", "--include-path=dir",
// "--include-path dir". Relative ones resolve against the working directory.
std::vector<std::filesystem::path> include_dirs_from_flags(const std::vector<std::string>& flags);

}  // namespace ktune::device::cuda
