#pragma once
// Compiles generated GEMM kernels with NVRTC through the on-disk compile cache (background_compiler.h
// runs many at once), loads them into a worker's CUDA context and launches them on a problem's buffers.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/compile_cache.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/cluster_probe.h"
#include "ktune/families/generated/generated_kernel.h"

namespace ktune::generated {

DeviceTraits device_traits(const ktune::cuda::CudaDeviceProperties& properties);

struct CompiledKernel {
  bool ok = false;
  std::string error;   // compile diagnostics when !ok
  std::string cubin;
  nlohmann::json resources = nlohmann::json::object();  // registers, spills, shared, ptxas warnings
  double seconds = 0;  // 0 for a cache hit
  bool cached = false;
};

// The cache key covers the source, the target and the NVRTC version.
std::string compile_key(const std::string& source, const std::string& arch, const ktune::cuda::NvrtcCompiler& nvrtc);

// Compiles (or reads from `cache`) one kernel; `symbol` is the kernel whose ptxas report is
// kept. Thread-safe.
CompiledKernel compile_kernel(const std::string& source, const std::string& arch, const std::string& symbol,
                              const ktune::cuda::NvrtcCompiler& nvrtc, const device::CompileCache& cache);

struct CompileJob {
  std::string source;
  std::string arch;
  std::string symbol;
};

// A loaded kernel bound to one problem's buffers.
class LoadedGemmKernel {
 public:
  // Loads `cubin` into `context` (which must be current), raises the dynamic shared memory
  // limit and encodes the TMA descriptors. Throws device::DeviceError (or ContextPoisoned).
  // When the launch repacks an operand, operands.repack must hold launch().repacks.bytes():
  // plan_launch(knobs, traits, device) tells the caller beforehand. With `placement` a kernel
  // with clusters takes its GPC-aware cluster order (cluster_probe.h).
  LoadedGemmKernel(device::cuda::CudaDeviceContext& context, const std::string& cubin, const GeneratedKnobs& knobs,
                   const ProblemTraits& traits, const gemm::GemmProblem& problem, const DeviceTraits& device,
                   const DeviceOperands& operands, ClusterPlacement* placement = nullptr);
  ~LoadedGemmKernel();
  LoadedGemmKernel(const LoadedGemmKernel&) = delete;
  LoadedGemmKernel& operator=(const LoadedGemmKernel&) = delete;

  // The operand copies (if any), then the GEMM.
  void enqueue(ktune::cuda::CUstream stream);
  const Launch& launch() const { return launch_; }
  // Registers, local memory and the driver's occupancy for this launch shape.
  nlohmann::json attributes() const;

 private:
  int blocks_per_sm() const;  // the driver's occupancy for this launch shape; 0 unknown

  device::cuda::CudaDeviceContext& context_;
  ktune::cuda::CUmodule module_ = nullptr;
  ktune::cuda::CUfunction function_ = nullptr;
  ktune::cuda::CUfunction repack_function_ = nullptr;
  ktune::cuda::CUfunction reduce_function_ = nullptr;  // launch_.reduce_grid > 0
  Launch launch_;
  KtuneGemmParams params_;
  std::vector<RepackLaunch> repacks_;
};

}  // namespace ktune::generated
