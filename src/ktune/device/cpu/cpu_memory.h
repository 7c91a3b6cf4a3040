#pragma once
// DeviceMemory for the CPU backend: host allocations with guard bands. A CPU kernel runs in the
// worker's own address space, so its stray writes can reach anything; the guard bands catch
// the common overrun past either end of an array, and the session's pristine copies catch
// writes into inputs.

#include <memory>

#include "ktune/device/device_memory.h"

namespace ktune::device::cpu {

class CpuMemory : public DeviceMemory {
 public:
  std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) override;
  void upload(DeviceBuffer& dst, std::span<const std::byte> src) override;
  void download(const DeviceBuffer& src, std::span<std::byte> dst) override;
  void fill(DeviceBuffer& dst, std::span<const std::byte> pattern) override;
  void copy(DeviceBuffer& dst, const DeviceBuffer& src) override;
  std::size_t free_bytes() override;
  std::optional<std::size_t> first_difference(const DeviceBuffer& a, const DeviceBuffer& b) override;
  verify::Comparison compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                             const verify::Tolerance& tolerance) override;
  void download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) override;
  void refill_guards(DeviceBuffer& buffer) override;
};

}  // namespace ktune::device::cpu
