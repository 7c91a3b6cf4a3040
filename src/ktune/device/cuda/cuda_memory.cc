#include "ktune/device/cuda/cuda_memory.h"

#include <cstring>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device::cuda {
namespace kc = ktune::cuda;
namespace {

class GpuBuffer : public DeviceBuffer {
 public:
  GpuBuffer(std::shared_ptr<CudaDeviceContext> context, kc::CUdeviceptr base, std::size_t bytes, std::size_t guard)
      : DeviceBuffer(bytes, guard, base + guard), context_(std::move(context)), base_(base) {}
  ~GpuBuffer() override {
    if (!context_->poisoned()) context_->api().cuMemFree(base_);
  }
  kc::CUdeviceptr data() const { return address(); }
  kc::CUdeviceptr band(bool front) const { return front ? base_ : address() + bytes(); }

 private:
  std::shared_ptr<CudaDeviceContext> context_;
  kc::CUdeviceptr base_;
};

const GpuBuffer& gpu(const DeviceBuffer& b) { return dynamic_cast<const GpuBuffer&>(b); }

void same_size(std::size_t a, std::size_t b, const char* what) {
  if (a != b)
    throw DeviceError(std::string(what) + ": " + std::to_string(a) + " bytes against a buffer of " + std::to_string(b));
}

std::uint32_t canary_word() {
  const auto c = static_cast<std::uint32_t>(kGuardCanary);
  return c | c << 8 | c << 16 | c << 24;
}

}  // namespace

CudaMemory::CudaMemory(std::shared_ptr<CudaDeviceContext> context, Loaded<kc::NvrtcCompiler> nvrtc,
                       std::filesystem::path cache_dir)
    : context_(std::move(context)), nvrtc_(std::move(nvrtc)), cache_dir_(std::move(cache_dir)) {}

CudaMemory::~CudaMemory() = default;

CheckKernels* CudaMemory::checks() {
  if (!checks_tried_) {
    checks_tried_ = true;
    if (!nvrtc_) {
      checks_error_ = "NVRTC is unavailable: " + nvrtc_.error;
    } else {
      try {
        checks_ = std::make_unique<CheckKernels>(context_, *nvrtc_, cache_dir_);
      } catch (const ContextPoisoned&) {
        throw;
      } catch (const DeviceError& e) {
        checks_error_ = e.what();
      }
    }
  }
  return checks_.get();
}

std::unique_ptr<DeviceBuffer> CudaMemory::allocate(std::size_t bytes) {
  context_->enter();
  const std::size_t guard = guard_bytes_for(bytes);
  kc::CUdeviceptr base = 0;
  // At least one byte: cuMemAlloc refuses 0 (an empty buffer without guard bands).
  context_->check(context_->api().cuMemAlloc(&base, std::max<std::size_t>(bytes + 2 * guard, 1)),
                  "cuMemAlloc(" + std::to_string(bytes) + " bytes + guard bands)");
  auto buffer = std::make_unique<GpuBuffer>(context_, base, bytes, guard);
  refill_guards(*buffer);
  return buffer;
}

void CudaMemory::upload(DeviceBuffer& dst, std::span<const std::byte> src) {
  same_size(src.size(), dst.bytes(), "upload");
  context_->enter();
  if (!src.empty())
    context_->check(context_->api().cuMemcpyHtoD(gpu(dst).data(), src.data(), src.size()), "cuMemcpyHtoD");
}

void CudaMemory::download(const DeviceBuffer& src, std::span<std::byte> dst) {
  same_size(dst.size(), src.bytes(), "download");
  context_->enter();
  if (!dst.empty())
    context_->check(context_->api().cuMemcpyDtoH(dst.data(), gpu(src).data(), dst.size()), "cuMemcpyDtoH");
}

void CudaMemory::fill(DeviceBuffer& dst, std::span<const std::byte> pattern) {
  if (pattern.empty() || dst.bytes() % pattern.size() != 0)
    throw DeviceError("fill: the buffer is not a whole number of " + std::to_string(pattern.size()) + "-byte patterns");
  context_->enter();
  const kc::DriverApi& api = context_->api();
  const kc::CUdeviceptr p = gpu(dst).data();
  if (dst.bytes() == 0) return;
  switch (pattern.size()) {
    case 1:
      context_->check(api.cuMemsetD8(p, static_cast<unsigned char>(pattern[0]), dst.bytes()), "cuMemsetD8");
      return;
    case 2: {
      unsigned short v;
      std::memcpy(&v, pattern.data(), 2);
      context_->check(api.cuMemsetD16(p, v, dst.bytes() / 2), "cuMemsetD16");
      return;
    }
    case 4: {
      unsigned v;
      std::memcpy(&v, pattern.data(), 4);
      context_->check(api.cuMemsetD32(p, v, dst.bytes() / 4), "cuMemsetD32");
      return;
    }
    default: {
      // No 8-byte memset in the driver API: upload one block of the pattern, then double it.
      std::vector<std::byte> block(std::min<std::size_t>(dst.bytes(), 1 << 20));
      for (std::size_t offset = 0; offset < block.size(); offset += pattern.size())
        std::memcpy(block.data() + offset, pattern.data(), pattern.size());
      context_->check(api.cuMemcpyHtoD(p, block.data(), block.size()), "cuMemcpyHtoD(fill)");
      for (std::size_t done = block.size(); done < dst.bytes();) {
        const std::size_t n = std::min(done, dst.bytes() - done);
        context_->check(api.cuMemcpyDtoD(p + done, p, n), "cuMemcpyDtoD(fill)");
        done += n;
      }
    }
  }
}

void CudaMemory::copy(DeviceBuffer& dst, const DeviceBuffer& src) {
  same_size(src.bytes(), dst.bytes(), "copy");
  context_->enter();
  if (src.bytes() > 0)
    context_->check(context_->api().cuMemcpyDtoD(gpu(dst).data(), gpu(src).data(), src.bytes()), "cuMemcpyDtoD");
}

std::size_t CudaMemory::free_bytes() {
  context_->enter();
  std::size_t free = 0, total = 0;
  context_->check(context_->api().cuMemGetInfo(&free, &total), "cuMemGetInfo");
  return free;
}

std::optional<GuardViolation> CudaMemory::check_guards(DeviceBuffer& buffer) {
  if (buffer.guard_bytes() == 0) return std::nullopt;
  CheckKernels* k = checks();
  if (!k) return DeviceMemory::check_guards(buffer);
  const std::size_t words = buffer.guard_bytes() / 4;  // guard bands are whole 256-byte units
  const GpuBuffer& b = gpu(buffer);
  if (k->count_not_equal(b.band(true), words, canary_word()) == 0 &&
      k->count_not_equal(b.band(false), words, canary_word()) == 0)
    return std::nullopt;
  // Rare: the host scan says exactly where.
  return DeviceMemory::check_guards(buffer);
}

std::optional<std::size_t> CudaMemory::first_difference(const DeviceBuffer& a, const DeviceBuffer& b) {
  same_size(a.bytes(), b.bytes(), "first_difference");
  CheckKernels* k = checks();
  if (!k) return DeviceMemory::first_difference(a, b);
  const std::size_t words = a.bytes() / 4;
  if (auto word = k->first_different_word(gpu(a).data(), gpu(b).data(), words)) {
    std::byte x[4], y[4];
    context_->check(context_->api().cuMemcpyDtoH(x, gpu(a).data() + *word * 4, 4), "cuMemcpyDtoH");
    context_->check(context_->api().cuMemcpyDtoH(y, gpu(b).data() + *word * 4, 4), "cuMemcpyDtoH");
    std::size_t i = 0;
    while (i < 3 && x[i] == y[i]) ++i;
    return *word * 4 + i;
  }
  const std::size_t tail = a.bytes() % 4;
  if (tail == 0) return std::nullopt;
  std::byte x[4], y[4];
  context_->check(context_->api().cuMemcpyDtoH(x, gpu(a).data() + words * 4, tail), "cuMemcpyDtoH");
  context_->check(context_->api().cuMemcpyDtoH(y, gpu(b).data() + words * 4, tail), "cuMemcpyDtoH");
  for (std::size_t i = 0; i < tail; ++i)
    if (x[i] != y[i]) return words * 4 + i;
  return std::nullopt;
}

verify::Comparison CudaMemory::compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                                       const verify::Tolerance& tolerance) {
  same_size(out.bytes(), ref.bytes(), "compare");
  CheckKernels* k = checks();
  if (!k) return DeviceMemory::compare(out, ref, type, tolerance);
  DeviceComparison d = k->compare(gpu(out).data(), gpu(ref).data(), out.bytes() / element_size(type), type, tolerance);
  // A pass decided on the device needs nothing more; a failure is scanned again on the host,
  // which names the first mismatch.
  if (d.decided && d.comparison.pass) return d.comparison;
  return DeviceMemory::compare(out, ref, type, tolerance);
}

void CudaMemory::download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) {
  same_size(dst.size(), buffer.guard_bytes(), "download_guard");
  context_->enter();
  context_->check(context_->api().cuMemcpyDtoH(dst.data(), gpu(buffer).band(front), dst.size()), "cuMemcpyDtoH(guard)");
}

void CudaMemory::refill_guards(DeviceBuffer& buffer) {
  if (buffer.guard_bytes() == 0) return;
  context_->enter();
  for (bool front : {true, false})
    context_->check(context_->api().cuMemsetD8(gpu(buffer).band(front), static_cast<unsigned char>(kGuardCanary),
                                               buffer.guard_bytes()),
                    "cuMemsetD8(guard band)");
}

}  // namespace ktune::device::cuda
