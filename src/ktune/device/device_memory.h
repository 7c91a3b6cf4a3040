#pragma once
// Device-resident buffers that outlive one candidate. A tuning session makes its inputs,
// uploads them and computes the reference once; every candidate then runs on the same device
// buffers. Each buffer sits between two guard bands filled with a canary, so a kernel that
// writes past either end of an array is caught and named instead of silently corrupting the
// neighbouring buffer (another input, the reference). Checks that would otherwise copy whole
// buffers to the host (output against reference, input against its pristine copy) run on the
// device where the backend can; only a summary comes back.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "ktune/core/element_type.h"
#include "ktune/verify/compare.h"
#include "ktune/verify/tolerance.h"

namespace ktune::device {

// The byte every guard band holds. Not 0 (the commonest stray value) and not 0xFF.
inline constexpr std::byte kGuardCanary{0xCB};

// The guard band on each side of a buffer of `bytes`: an eighth of the buffer, at least 64 KiB
// and at most 4 MiB, in whole 256-byte units (so the buffer stays as aligned as an allocation).
// 0 when guard bands are off (see guard_bands_enabled).
std::size_t guard_bytes_for(std::size_t bytes);

// Guard bands are on unless the environment variable KTUNE_GUARD_BANDS is "0". Runs under
// compute-sanitizer turn them off: a guard band is part of the allocation, so an access that
// overruns a buffer into it is invisible to memcheck, which only knows allocation bounds.
inline constexpr const char* kGuardBandsVariable = "KTUNE_GUARD_BANDS";
bool guard_bands_enabled();

// One allocation: [front guard][bytes][back guard].
class DeviceBuffer {
 public:
  virtual ~DeviceBuffer() = default;
  std::size_t bytes() const { return bytes_; }
  std::size_t guard_bytes() const { return guard_; }
  // What a kernel is passed: a device address (CUDA, HIP) or a host pointer (CPU).
  std::uint64_t address() const { return address_; }

 protected:
  DeviceBuffer(std::size_t bytes, std::size_t guard, std::uint64_t address)
      : bytes_(bytes), guard_(guard), address_(address) {}

 private:
  std::size_t bytes_;
  std::size_t guard_;
  std::uint64_t address_;
};

// Where a guard band was overwritten: the changed byte nearest the buffer, as a distance from
// the buffer's first byte (front band: negative) or its end (back band: 0 = one past the end).
struct GuardViolation {
  bool before = false;          // in the front band (a write below index 0)
  std::size_t distance = 0;     // bytes from the buffer's edge to the nearest changed byte
  std::size_t changed = 0;      // changed bytes in that band
  std::string describe() const; // "12 bytes written past the end (nearest 0 bytes past it)"
};

// Allocation and checks on one device. Not thread-safe: the worker's one thread drives it.
// Every call is synchronous. Failures throw DeviceError (ContextPoisoned after a sticky fault).
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // A buffer of `bytes` between two guard bands of guard_bytes_for(bytes), the bands filled with
  // kGuardCanary. The contents are unspecified.
  virtual std::unique_ptr<DeviceBuffer> allocate(std::size_t bytes) = 0;
  virtual void upload(DeviceBuffer& dst, std::span<const std::byte> src) = 0;  // src.size() == dst.bytes()
  virtual void download(const DeviceBuffer& src, std::span<std::byte> dst) = 0;
  // Repeats `pattern` (1, 2, 4 or 8 bytes; the buffer a whole number of them) over the buffer.
  virtual void fill(DeviceBuffer& dst, std::span<const std::byte> pattern) = 0;
  virtual void copy(DeviceBuffer& dst, const DeviceBuffer& src) = 0;  // same size
  // Device memory still free (bounds how many rotation copies a session may keep).
  virtual std::size_t free_bytes() = 0;

  // Checks both guard bands; refills them with the canary when one was overwritten.
  virtual std::optional<GuardViolation> check_guards(DeviceBuffer& buffer);
  // The first byte at which two buffers of the same size differ.
  virtual std::optional<std::size_t> first_difference(const DeviceBuffer& a, const DeviceBuffer& b);
  // verify::compare of an output with a reference of the same type and size. The default
  // downloads both; backends that compare on the device return the same pass/fail and the same
  // statistics, and fall back to this when the device's answer cannot decide (a failure, whose
  // first mismatch only the host scan names, or sums that left the double range).
  virtual verify::Comparison compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                                     const verify::Tolerance& tolerance);

  // Reads a guard band (front or back) into host memory.
  virtual void download_guard(const DeviceBuffer& buffer, bool front, std::span<std::byte> dst) = 0;
  virtual void refill_guards(DeviceBuffer& buffer) = 0;
};

// The byte ranges of a guard band compared against the canary: nullopt when intact.
std::optional<GuardViolation> inspect_guard(std::span<const std::byte> band, bool front);

}  // namespace ktune::device
