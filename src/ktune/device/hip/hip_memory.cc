#include "ktune/device/hip/hip_memory.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ktune::device::hip {
namespace kh = ktune::hip;
namespace {

class HipBuffer : public DeviceBuffer {
 public:
  HipBuffer(std::shared_ptr<HipDeviceState> device, void* base, std::size_t bytes, std::size_t guard)
      : DeviceBuffer(bytes, guard, reinterpret_cast<std::uintptr_t>(base) + guard),
        device_(std::move(device)),
        base_(base) {}
  ~HipBuffer() override {
    if (!device_->poisoned.load()) device_->runtime->api().hipFree(base_);
  }
  void* data() const { return reinterpret_cast<void*>(address()); }
  void* band(bool front) const { return front ? base_ : static_cast<std::byte*>(data()) + bytes(); }

 private:
  std::shared_ptr<HipDeviceState> device_;
  void* base_;
};

const HipBuffer& amd(const DeviceBuffer& b) { return dynamic_cast<const HipBuffer&>(b); }

void same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b)
    throw DeviceError(std::string(what) + ": " + std::to_string(a) + " bytes against a buffer of " + std::to_string(b));
}

}  // namespace

std::unique_ptr<DeviceBuffer> HipMemory::allocate(std::size_t bytes) {
  device_->enter();
  const std::size_t guard = guard_bytes_for(bytes);
  void* base = nullptr;
  device_->check(device_->runtime->api().hipMalloc(&base, bytes + 2 * guard), "hipMalloc");
  auto buffer = std::make_unique<HipBuffer>(device_, base, bytes, guard);
  refill_guards(*buffer);
  return buffer;
}

void HipMemory::upload(DeviceBuffer& dst, std::span<const std::byte> src) {
  same_size(src.size(), dst.bytes(), "upload");
  device_->enter();
  if (!src.empty())
    device_->check(device_->runtime->api().hipMemcpy(amd(dst).data(), src.data(), src.size(), kh::hipc::kHostToDevice),
                   "hipMemcpy (upload)");
}

void HipMemory::download(const DeviceBuffer& src, std::span<std::byte> dst) {
  same_size(dst.size(), src.bytes(), "download");
  device_->enter();
  if (!dst.empty())
    device_->check(device_->runtime->api().hipMemcpy(dst.data(), amd(src).data(), dst.size(), kh::hipc::kDeviceToHost),
                   "hipMemcpy (download)");
}

void HipMemory::memset_bytes(std::uint64_t address, unsigned char value, std::size_t bytes) {
  const kh::RuntimeApi& api = device_->runtime->api();
  device_->check(api.hipMemsetAsync(reinterpret_cast<void*>(address), value, bytes, nullptr), "hipMemsetAsync");
  device_->check(api.hipDeviceSynchronize(), "hipDeviceSynchronize");
}

void HipMemory::fill(DeviceBuffer& dst, std::span<const std::byte> pattern) {
  if (pattern.empty() || dst.bytes() % pattern.size() != 0)
    throw DeviceError("fill: the buffer is not a whole number of " + std::to_string(pattern.size()) + "-byte patterns");
  device_->enter();
  if (dst.bytes() == 0) return;
  if (pattern.size() == 1) return memset_bytes(dst.address(), static_cast<unsigned char>(pattern[0]), dst.bytes());
  // One block of the pattern uploaded, then doubled in place.
  const kh::RuntimeApi& api = device_->runtime->api();
  auto* p = static_cast<std::byte*>(amd(dst).data());
  std::vector<std::byte> block(std::min<std::size_t>(dst.bytes(), 1 << 20));
  for (std::size_t offset = 0; offset < block.size(); offset += pattern.size())
    std::memcpy(block.data() + offset, pattern.data(), pattern.size());
  device_->check(api.hipMemcpy(p, block.data(), block.size(), kh::hipc::kHostToDevice), "hipMemcpy (fill)");
  for (std::size_t done = block.size(); done < dst.bytes();) {
    const std::size_t n = std::min(done, dst.bytes() - done);
    device_->check(api.hipMemcpy(p + done, p, n, kh::hipc::kDeviceToDevice), "hipMemcpy (fill)");
    done += n;
  }
}

void HipMemory::copy(DeviceBuffer& dst, const DeviceBuffer& src) {
  same_size(src.bytes(), dst.bytes(), "copy");
  device_->enter();
  if (src.bytes() > 0)
    device_->check(device_->runtime->api().hipMemcpy(amd(dst).data(), amd(src).data(), src.bytes(),
                                                     kh::hipc::kDeviceToDevice),
                   "hipMemcpy (copy)");
}

std::size_t HipMemory::free_bytes() {
  device_->enter();
  std::size_t free = 0, total = 0;
  device_->check(device_->runtime->api().hipMemGetInfo(&free, &total), "hipMemGetInfo");
  return free;
}

void HipMemory::download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) {
  same_size(dst.size(), buffer.guard_bytes(), "download_guard");
  device_->enter();
  device_->check(device_->runtime->api().hipMemcpy(dst.data(), amd(buffer).band(front), dst.size(),
                                                   kh::hipc::kDeviceToHost),
                 "hipMemcpy (guard)");
}

void HipMemory::refill_guards(DeviceBuffer& buffer) {
  if (buffer.guard_bytes() == 0) return;
  device_->enter();
  for (bool front : {true, false})
    memset_bytes(reinterpret_cast<std::uintptr_t>(amd(buffer).band(front)), static_cast<unsigned char>(kGuardCanary),
                 buffer.guard_bytes());
}

}  // namespace ktune::device::hip
