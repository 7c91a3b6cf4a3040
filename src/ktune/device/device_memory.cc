#include "ktune/device/device_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device {

bool guard_bands_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv(kGuardBandsVariable);
    return value == nullptr || std::string_view(value) != "0";
  }();
  return enabled;
}

std::size_t guard_bytes_for(std::size_t bytes) {
  if (!guard_bands_enabled()) return 0;
  constexpr std::size_t kUnit = 256, kMin = 64 << 10, kMax = 4 << 20;
  const std::size_t wanted = std::clamp(bytes / 8, kMin, kMax);
  return (wanted + kUnit - 1) / kUnit * kUnit;
}

std::string GuardViolation::describe() const {
  const std::string count = std::to_string(changed) + (changed == 1 ? " byte" : " bytes");
  if (before)
    return count + " written before the start (nearest " + std::to_string(distance) + " bytes before index 0)";
  return count + " written past the end (nearest " + std::to_string(distance) + " bytes past it)";
}

std::optional<GuardViolation> inspect_guard(std::span<const std::byte> band, bool front) {
  GuardViolation v;
  v.before = front;
  bool found = false;
  for (std::size_t i = 0; i < band.size(); ++i) {
    if (band[i] == kGuardCanary) continue;
    ++v.changed;
    // The front band ends at the buffer; the back band starts right after it.
    const std::size_t distance = front ? band.size() - 1 - i : i;
    if (!found || distance < v.distance) v.distance = distance;
    found = true;
  }
  if (!found) return std::nullopt;
  return v;
}

std::optional<GuardViolation> DeviceMemory::check_guards(DeviceBuffer& buffer) {
  if (buffer.guard_bytes() == 0) return std::nullopt;
  std::vector<std::byte> band(buffer.guard_bytes());
  std::optional<GuardViolation> violation;
  for (bool front : {true, false}) {
    download_guard(buffer, front, band);
    if (auto v = inspect_guard(band, front); v && !violation) violation = v;
  }
  if (violation) refill_guards(buffer);
  return violation;
}

std::optional<std::size_t> DeviceMemory::first_difference(const DeviceBuffer& a, const DeviceBuffer& b) {
  if (a.bytes() != b.bytes()) throw DeviceError("first_difference: buffers of different sizes");
  std::vector<std::byte> x(a.bytes()), y(b.bytes());
  download(a, x);
  download(b, y);
  auto mismatch = std::mismatch(x.begin(), x.end(), y.begin());
  if (mismatch.first == x.end()) return std::nullopt;
  return static_cast<std::size_t>(mismatch.first - x.begin());
}

verify::Comparison DeviceMemory::compare(const DeviceBuffer& out, const DeviceBuffer& ref, ElementType type,
                                         const verify::Tolerance& tolerance) {
  std::vector<std::byte> o(out.bytes()), r(ref.bytes());
  download(out, o);
  download(ref, r);
  return verify::compare(o, r, type, tolerance);
}

}  // namespace ktune::device
