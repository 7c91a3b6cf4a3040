#pragma once
// DeviceMemory on one GPU: cuMemAlloc'd buffers with guard bands, checked by the device-side
// check kernels (check_kernels.h) so that only summaries are copied back. Without NVRTC the
// checks fall back to DeviceMemory's host-side versions (downloads).

#include <filesystem>
#include <memory>

#include "ktune/device/cuda/check_kernels.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/device_memory.h"

namespace ktune::device::cuda {

class CudaMemory : public DeviceMemory {
 public:
  CudaMemory(std::shared_ptr<CudaDeviceContext> context, Loaded<ktune::cuda::NvrtcCompiler> nvrtc,
             std::filesystem::path cache_dir);
  ~CudaMemory() override;

  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override;
  void upload(DeviceBuffer& dst, std::span<const std::byte> src) override;
  void download(const DeviceBuffer& src, std::span<std::byte> dst) override;
  void fill(DeviceBuffer& dst, std::span<const std::byte> pattern) override;
  void copy(DeviceBuffer& dst, const DeviceBuffer& src) override;
  std::size_t free_bytes() override;
  std::optional<GuardViolation> check_guards(DeviceBuffer& buffer) override;
  std::optional<std::size_t> first_difference(const DeviceBuffer& a, const DeviceBuffer& b) override;
  verify::Comparison compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                             const verify::Tolerance& tolerance) override;
  void download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) override;
  void refill_guards(DeviceBuffer& buffer) override;

  // Whether checks run on the device, and why not.
  bool device_checks() const { return checks_ != nullptr; }
  const std::string& device_checks_error() const { return checks_error_; }

 private:
  CheckKernels* checks();  // compiled on first use; null (with checks_error_) when unavailable
  std::shared_ptr<CudaDeviceContext> context_;
  Loaded<ktune::cuda::NvrtcCompiler> nvrtc_;
  std::filesystem::path cache_dir_;
  std::unique_ptr<CheckKernels> checks_;
  bool checks_tried_ = false;
  std::string checks_error_;
};

}  // namespace ktune::device::cuda
