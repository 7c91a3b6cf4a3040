#pragma once
// A code object loaded with hipModuleLoadData, with device copies of its arguments. Lives in a
// worker process; one thread drives it.
//
// NOT RUN ON AMD HARDWARE (no AMD GPU was available): written against the HIP module API as
// documented (hipModuleLaunchKernel takes kernelParams like cuLaunchKernel).

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ktune/device/device.h"
#include "ktune/device/hip/hip_runtime.h"

namespace ktune::device::hip {

// Shared by every kernel loaded on one device in this process. A faulting kernel poisons it:
// everything after that throws ContextPoisoned, and the worker should be replaced.
struct HipDeviceState {
  std::shared_ptr<const ktune::hip::HipRuntime> runtime;
  int ordinal = 0;
  std::size_t flush_bytes = 0;  // cold runs overwrite this many bytes first (2x L2, >= 256 MiB)
  std::atomic<bool> poisoned{false};
  std::string poison_reason;

  // Throws ContextPoisoned (sticky error, marking the state) or DeviceError when `code` is not
  // hipSuccess.
  void check(ktune::hip::hipError_t code, const char* call);
  void enter();  // hipSetDevice; throws ContextPoisoned when poisoned
};

class HipKernel : public LoadedKernel {
 public:
  // `signature` ("float32*", "int32", ...; empty when unknown) is checked by bind().
  HipKernel(std::shared_ptr<HipDeviceState> device, const std::string& code_object, const std::string& function_name,
            const std::string& entry, const LaunchGeometry& geometry, std::vector<std::string> signature);
  ~HipKernel() override;
  HipKernel(const HipKernel&) = delete;
  HipKernel& operator=(const HipKernel&) = delete;

  void bind(std::vector<HostArgument>& args) override;
  void upload(const HostArgument& arg) override;
  void run() override;
  // GPU time of one launch from HIP events; cold: the flush buffer is overwritten first.
  double run_timed(bool cold) override;
  void download(HostArgument& arg) override;
  // Session buffers (HipMemory's), not owned. Rotation sets are not used (cold runs flush).
  void bind_buffers(const std::vector<BufferArgument>& args) override;

 private:
  struct Bound {
    std::string name;
    ElementType type = ElementType::F32;
    bool is_array = false;
    std::size_t bytes = 0;
    void* pointer = nullptr;        // arrays
    std::vector<std::byte> value;   // scalars
  };
  Bound& bound(const std::string& name, const char* what);
  void launch();
  void free_buffers();

  std::shared_ptr<HipDeviceState> device_;
  std::string entry_;
  LaunchGeometry geometry_;
  std::vector<std::string> signature_;
  ktune::hip::hipModule_t module_ = nullptr;
  ktune::hip::hipFunction_t function_ = nullptr;
  ktune::hip::hipStream_t stream_ = nullptr;
  ktune::hip::hipEvent_t start_ = nullptr, stop_ = nullptr;
  void* flush_buffer_ = nullptr;
  std::vector<Bound> arguments_;
  std::vector<void*> parameters_;
  bool is_bound_ = false;
  bool owns_buffers_ = true;  // false after bind_buffers
  void free_arguments();
};

}  // namespace ktune::device::hip
