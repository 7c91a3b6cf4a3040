#include "ktune/device/cpu/cpu_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device::cpu {
namespace {

// The allocation: guard, data, guard, on 256-byte alignment like a GPU allocation.
class HostBuffer : public DeviceBuffer {
 public:
  static std::unique_ptr<HostBuffer> make(std::size_t bytes) {
    const std::size_t guard = guard_bytes_for(bytes);
    auto storage = std::unique_ptr<std::byte[]>(new (std::nothrow) std::byte[bytes + 2 * guard + 256]);
    if (!storage) throw DeviceError("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    auto base = reinterpret_cast<std::uintptr_t>(storage.get());
    std::byte* front = storage.get() + (256 - base % 256) % 256;
    return std::unique_ptr<HostBuffer>(new HostBuffer(std::move(storage), front, bytes, guard));
  }
  std::byte* data() const { return front_ + guard_bytes(); }
  std::byte* band(bool front) const { return front ? front_ : data() + bytes(); }

 private:
  HostBuffer(std::unique_ptr<std::byte[]> storage, std::byte* front, std::size_t bytes, std::size_t guard)
      : DeviceBuffer(bytes, guard, reinterpret_cast<std::uintptr_t>(front + guard)),
        storage_(std::move(storage)),
        front_(front) {
    std::memset(band(true), static_cast<int>(kGuardCanary), guard);
    std::memset(band(false), static_cast<int>(kGuardCanary), guard);
  }
  std::unique_ptr<std::byte[]> storage_;
  std::byte* front_;
};

HostBuffer& host(DeviceBuffer& b) { return dynamic_cast<HostBuffer&>(b); }
const HostBuffer& host(const DeviceBuffer& b) { return dynamic_cast<const HostBuffer&>(b); }

void same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b)
    throw DeviceError(std::string(what) + ": " + std::to_string(a) + " bytes against a buffer of " + std::to_string(b));
}

}  // namespace

std::unique_ptr<DeviceBuffer> CpuMemory::allocate(std::size_t bytes) { return HostBuffer::make(bytes); }

void CpuMemory::upload(DeviceBuffer& dst, std::span<const std::byte> src) {
  same_size(src.size(), dst.bytes(), "upload");
  if (!src.empty()) std::memcpy(host(dst).data(), src.data(), src.size());
}

void CpuMemory::download(const DeviceBuffer& src, std::span<std::byte> dst) {
  same_size(dst.size(), src.bytes(), "download");
  if (!dst.empty()) std::memcpy(dst.data(), host(src).data(), dst.size());
}

void CpuMemory::fill(DeviceBuffer& dst, std::span<const std::byte> pattern) {
  if (pattern.empty() || dst.bytes() % pattern.size() != 0)
    throw DeviceError("fill: the buffer is not a whole number of " + std::to_string(pattern.size()) + "-byte patterns");
  std::byte* p = host(dst).data();
  for (std::size_t offset = 0; offset < dst.bytes(); offset += pattern.size())
    std::memcpy(p + offset, pattern.data(), pattern.size());
}

void CpuMemory::copy(DeviceBuffer& dst, const DeviceBuffer& src) {
  same_size(src.bytes(), dst.bytes(), "copy");
  if (src.bytes() > 0) std::memcpy(host(dst).data(), host(src).data(), src.bytes());
}

std::size_t CpuMemory::free_bytes() {
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return std::size_t{1} << 30;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
}

std::optional<std::size_t> CpuMemory::first_difference(const DeviceBuffer& a, const DeviceBuffer& b) {
  same_size(a.bytes(), b.bytes(), "first_difference");
  const std::byte *x = host(a).data(), *y = host(b).data();
  if (a.bytes() == 0 || std::memcmp(x, y, a.bytes()) == 0) return std::nullopt;
  return static_cast<std::size_t>(std::mismatch(x, x + a.bytes(), y).first - x);
}

verify::Comparison CpuMemory::compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                                      const verify::Tolerance& tolerance) {
  return verify::compare({host(out).data(), out.bytes()}, {host(ref).data(), ref.bytes()}, type, tolerance);
}

void CpuMemory::download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) {
  same_size(dst.size(), buffer.guard_bytes(), "download_guard");
  std::memcpy(dst.data(), host(buffer).band(front), dst.size());
}

void CpuMemory::refill_guards(DeviceBuffer& buffer) {
  for (bool front : {true, false})
    std::memset(host(buffer).band(front), static_cast<int>(kGuardCanary), buffer.guard_bytes());
}

}  // namespace ktune::device::cpu
