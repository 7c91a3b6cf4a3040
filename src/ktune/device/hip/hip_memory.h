#pragma once
// DeviceMemory on one AMD GPU: hipMalloc'd buffers with guard bands. The checks use
// DeviceMemory's host-side versions (downloads); device-side check kernels are CUDA-only so far.
//
// NOT RUN ON AMD HARDWARE (no AMD GPU was available).

#include <memory>

#include "ktune/device/device_memory.h"
#include "ktune/device/hip/hip_kernel.h"

namespace ktune::device::hip {

class HipMemory : public DeviceMemory {
 public:
  explicit HipMemory(std::shared_ptr<HipDeviceState> device) : device_(std::move(device)) {}
  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override;
  void upload(DeviceBuffer& dst, std::span<const std::byte> src) override;
  void download(const DeviceBuffer& src, std::span<std::byte> dst) override;
  void fill(DeviceBuffer& dst, std::span<const std::byte> pattern) override;
  void copy(DeviceBuffer& dst, const DeviceBuffer& src) override;
  std::size_t free_bytes() override;
  void download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) override;
  void refill_guards(DeviceBuffer& buffer) override;

 private:
  void memset_bytes(std::uint64_t address, unsigned char value, std::size_t bytes);
  std::shared_ptr<HipDeviceState> device_;
};

}  // namespace ktune::device::hip
