#pragma once
// Enqueues one planned generated GEMM on a stream: its operand repacks, the GEMM kernel and its
// split-K reduction, in that order. The tuner's worker (generated_runner.h) and the run-time
// executor (gemm/gemm_executor.h) both launch through here, so what is measured is what runs.

#include <string>
#include <vector>

#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/repack.h"

namespace ktune::generated {

struct GemmFunctions {
  ktune::cuda::CUfunction gemm = nullptr;
  ktune::cuda::CUfunction repack = nullptr;  // when launch.repacks.any()
  ktune::cuda::CUfunction reduce = nullptr;  // when launch.reduce_grid > 0
};

// The first failing call's result and what it was; ok() when every launch was accepted.
struct EnqueueStatus {
  ktune::cuda::CUresult result = 0;
  std::string what;
  bool ok() const { return result == 0; }
};

// A kernel that reads what the launch before it wrote (the GEMM after a repack, the reduction
// after the GEMM) goes as that launch's programmatic dependent where the driver has
// cuLaunchKernelEx: it may start while the one before finishes, and waits for it with
// griddepcontrol.wait. Two back-to-back launches otherwise leave the GPU idle for the second's
// launch latency (~2 us between a split-K GEMM and its reduction on the H100, session 20).
EnqueueStatus enqueue_gemm(const ktune::cuda::DriverApi& api, const GemmFunctions& functions, const Launch& launch,
                           std::vector<RepackLaunch>& repacks, KtuneGemmParams& params, ktune::cuda::CUstream stream);

}  // namespace ktune::generated
