#include "ktune/device/cuda/sm_clock_window.h"

#include <algorithm>

namespace ktune::device::cuda {

void SmClockWindow::add(unsigned mhz) {
  if (clocks_.size() >= kMaxReadings)
    clocks_.erase(clocks_.begin(), clocks_.begin() + static_cast<std::ptrdiff_t>(kMaxReadings / 2));
  clocks_.push_back(mhz);
}

nlohmann::json SmClockWindow::summary() const {
  if (clocks_.empty()) return nullptr;
  std::vector<unsigned> sorted = clocks_;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  // The lower middle of an even count: a clock, not an average of two.
  const unsigned median = sorted[(n - 1) / 2];
  return {{"median", median}, {"min", sorted.front()}, {"max", sorted.back()}, {"samples", n}};
}

}  // namespace ktune::device::cuda
