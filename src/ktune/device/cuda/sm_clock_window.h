#pragma once
// The SM clocks (MHz, from NVML) read after each timed sample of one measurement. A big GEMM that
// holds the GPU at its power limit runs its later measurements at a lower clock (an H200 confirmed
// l7b_up_prefill_m16384's finalists 15% slower than it had screened them, session 26); the
// median clock of each measurement says in which state the GPU was when it was taken, so a
// session can take a throttled measurement again (tuner/gemm_session.cc).

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::device::cuda {

class SmClockWindow {
 public:
  // Paths that never take the window (the spec-kernel worker times through the same context)
  // would grow it sample by sample: past kMaxReadings the older half is dropped.
  static constexpr std::size_t kMaxReadings = std::size_t{1} << 16;
  void add(unsigned mhz);
  void clear() { clocks_.clear(); }
  bool empty() const { return clocks_.empty(); }
  // {"median": M, "min": A, "max": B, "samples": N}; null without a reading.
  nlohmann::json summary() const;

 private:
  std::vector<unsigned> clocks_;
};

}  // namespace ktune::device::cuda
