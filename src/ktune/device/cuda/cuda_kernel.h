#pragma once
// A CUBIN loaded into a device's primary context, with device copies of its arguments.
// Lives in a worker process; one thread drives it.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/device.h"

namespace ktune::device::cuda {

class CudaKernel : public LoadedKernel {
 public:
  // Loads `cubin` (cuModuleLoadData), finds `function_name` (the lowered name), and opts in to
  // `geometry.shared_bytes` of dynamic shared memory when static + dynamic exceed the default
  // 48 KiB. `signature` ("f32*", "i32", ...; empty when unknown) is checked by bind().
  // Throws DeviceError (wrong architecture, no such kernel, too much shared memory, bad
  // geometry) or ContextPoisoned.
  CudaKernel(std::shared_ptr<CudaDeviceContext> context, const std::string& cubin, const std::string& function_name,
             const std::string& entry, const LaunchGeometry& geometry, std::vector<std::string> signature);
  ~CudaKernel() override;
  CudaKernel(const CudaKernel&) = delete;
  CudaKernel& operator=(const CudaKernel&) = delete;

  // Allocates a device buffer per array argument and uploads it; scalars are passed by value.
  // Throws DeviceError when the arguments do not match the kernel's parameters (count, and
  // sizes as the driver reports them on CUDA 12.4+, or the compiled signature).
  void bind(std::vector<HostArgument>& args) override;
  void upload(const HostArgument& arg) override;
  // One launch, then synchronize. Launch errors -> DeviceError; a faulting kernel -> ContextPoisoned.
  void run() override;
  double run_timed(bool cold) override;
  // GPU time of one launch from CUDA events (launch overhead excluded with the blocking kernel);
  // valid == false when the SM clock was throttled, the blocking kernel timed out, or this is
  // the kernel's first launch (timed without the blocking kernel, see CudaDeviceContext::time).
  TimedRun run_timed_sample(bool cold) override;
  void set_clean_flush(bool clean) override { context_->set_clean_flush(clean); }
  void download(HostArgument& arg) override;
  // Device copies of the input arrays in one allocation; at most a quarter of the free device
  // memory. Each timed run passes the next set's pointers; run() passes set 0.
  std::size_t enable_rotation(std::size_t min_total_bytes) override;
  std::size_t rotation_copies() const { return rotation_sets_; }
  // Session buffers (CudaMemory's), not owned; their rotation sets become the timed runs' copies.
  void bind_buffers(const std::vector<BufferArgument>& args) override;

  // Function attributes as the driver reports them (registers, static/local/const bytes,
  // max threads per block, PTX/binary version, max dynamic shared bytes).
  nlohmann::json attributes() const;
  // The context's timing method and counters (see CudaDeviceContext::timing_json).
  nlohmann::json timing() const { return context_->timing_json(); }

 private:
  struct Bound {
    std::string name;
    ElementType type = ElementType::F32;
    bool is_array = false;
    bool is_output = false;
    std::size_t bytes = 0;
    ktune::cuda::CUdeviceptr pointer = 0;  // arrays (0 for an empty array)
    ktune::cuda::CUdeviceptr launch_pointer = 0;  // what the next launch passes: pointer or a rotation copy
    std::vector<ktune::cuda::CUdeviceptr> copies;  // rotation sets 1..N-1 (inputs only)
    std::vector<std::byte> value;          // scalars
  };
  Bound& bound(const std::string& name, const char* what);
  void enqueue_launch();
  void free_buffers();
  void drop_rotation();

  std::shared_ptr<CudaDeviceContext> context_;
  std::string entry_;
  std::string function_name_;
  LaunchGeometry geometry_;
  std::vector<std::string> signature_;
  std::optional<std::vector<std::size_t>> parameter_sizes_;  // from cuFuncGetParamInfo
  ktune::cuda::CUmodule module_ = nullptr;
  ktune::cuda::CUfunction function_ = nullptr;
  std::vector<Bound> arguments_;
  std::vector<void*> parameters_;  // cuLaunchKernel's kernelParams: addresses of each value
  bool is_bound_ = false;
  bool owns_buffers_ = true;  // false after bind_buffers: the session frees them
  bool launched_ = false;  // a launch of this function has completed in this context
  ktune::cuda::CUdeviceptr rotation_slab_ = 0;
  std::size_t rotation_sets_ = 1;
  std::size_t next_set_ = 0;
};

}  // namespace ktune::device::cuda
