#include "ktune/families/generated/generated_launch.h"

namespace ktune::generated {
namespace kc = ktune::cuda;

namespace {

kc::CUresult launch(const kc::DriverApi& api, kc::CUfunction function, const std::array<unsigned, 3>& grid,
                    unsigned threads, unsigned shared_bytes, kc::CUstream stream, void** arguments, bool dependent) {
  if (!dependent || !api.cuLaunchKernelEx)
    return api.cuLaunchKernel(function, grid[0], grid[1], grid[2], threads, 1, 1, shared_bytes, stream, arguments,
                              nullptr);
  kc::CUlaunchAttribute attribute;
  attribute.id = kc::cu::kLaunchAttributeProgrammaticStreamSerialization;
  attribute.value.programmatic_stream_serialization = 1;
  kc::CUlaunchConfig config;
  config.grid_x = grid[0];
  config.grid_y = grid[1];
  config.grid_z = grid[2];
  config.block_x = threads;
  config.shared_bytes = shared_bytes;
  config.stream = stream;
  config.attributes = &attribute;
  config.attribute_count = 1;
  return api.cuLaunchKernelEx(&config, function, arguments, nullptr);
}

}  // namespace

EnqueueStatus enqueue_gemm(const kc::DriverApi& api, const GemmFunctions& functions, const Launch& launch_plan,
                           std::vector<RepackLaunch>& repacks, KtuneGemmParams& params, kc::CUstream stream) {
  for (RepackLaunch& r : repacks) {
    void* repack_arguments[] = {&r.params};
    if (kc::CUresult rc = launch(api, functions.repack, r.grid, kRepackThreads, 0, stream, repack_arguments, false))
      return {rc, "cuLaunchKernel(operand repack)"};
  }
  // Only the wgmma kernel waits (griddepcontrol is sm_90's); the mma.sync path never repacks.
  void* arguments[] = {&params};
  const bool after_repack = !repacks.empty();
  if (kc::CUresult rc = launch(api, functions.gemm, launch_plan.grid, static_cast<unsigned>(launch_plan.shape.threads),
                               static_cast<unsigned>(launch_plan.shape.dynamic_shared_bytes), stream, arguments,
                               after_repack))
    return {rc, "cuLaunchKernel(generated gemm)"};
  if (launch_plan.reduce_grid > 0)
    if (kc::CUresult rc = launch(api, functions.reduce, {launch_plan.reduce_grid, 1, 1}, kReduceThreads, 0, stream,
                                 arguments, true))
      return {rc, "cuLaunchKernel(split-K reduction)"};
  return {};
}

}  // namespace ktune::generated
