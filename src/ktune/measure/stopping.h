#pragma once
// Stopping criteria of the measurement loop, one small class each (as nvbench does), so a
// backend or an experiment can swap or add one without touching the loop.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ktune/measure/policy.h"
#include "ktune/measure/stats.h"

namespace ktune::measure {

enum class StopReason {
  Converged,    // enough samples and time, and the noise is below max_noise
  NoiseStable,  // enough samples and time, and the noise estimate stopped changing (above max_noise)
  MaxSamples,   // max_samples valid samples (or as many discarded ones)
  Timeout,      // wall time ran out
  Raced,        // clearly slower than the incumbent; stopped early
  MaxTime,      // max_seconds measured (with min_samples in), whatever the noise; while fewer
                // than min_samples are valid, discarded samples count towards both
};

// "converged", "noise_stable", "max_samples", "timeout", "raced", "max_time"
std::string_view to_string(StopReason reason);
// Throws std::invalid_argument listing the accepted names.
StopReason stop_reason_from_string(std::string_view name);

// What the loop has seen so far; passed to every criterion after every sample.
struct LoopState {
  std::span<const double> samples;  // valid samples, in order
  double measured_seconds = 0;      // sum of valid samples
  double elapsed_seconds = 0;       // wall time since the loop began, warmup included
  int discarded_samples = 0;
  double discarded_seconds = 0;     // sum of discarded samples
  bool last_sample_valid = true;
};

class StoppingCriterion {
 public:
  virtual ~StoppingCriterion() = default;
  // nullopt: keep sampling. Called after every sample, valid or discarded, in loop order.
  virtual std::optional<StopReason> check(const LoopState& state) = 0;
};

// nvbench's "stdrel" criterion with a robust noise estimate (robust_noise in stats.h).
// Once count >= min_samples and measured time >= min_seconds:
//   Converged   when the current noise <= max_noise;
//   NoiseStable when the last `window` noise estimates show no trend: the least-squares slope of
//               noise against sample count, projected over the window's span of samples, changes
//               the noise by at most max_relative_change of its mean. This ends inherently noisy
//               measurements that would never reach max_noise.
// Noise needs >= min_samples_for_noise samples. It is re-estimated after every valid sample up to
// dense_limit samples, then after every further count / evaluations_per_doubling samples, so the
// estimates stay a fixed number per doubling and a 100k-sample run spends O(n log n) on them
// rather than O(n^2).
class NoiseCriterion final : public StoppingCriterion {
 public:
  struct Options {
    std::size_t window = 64;
    double max_relative_change = 0.05;
    std::size_t min_samples_for_noise = 5;
    std::size_t dense_limit = 256;
    std::size_t evaluations_per_doubling = 64;
  };
  explicit NoiseCriterion(const Policy& policy) : NoiseCriterion(policy, Options{}) {}
  NoiseCriterion(const Policy& policy, Options options);
  std::optional<StopReason> check(const LoopState& state) override;

  // Latest noise estimate (nullopt before min_samples_for_noise samples).
  std::optional<double> current_noise() const;
  // How many noise estimates were made (each costs O(samples)).
  std::size_t evaluations() const { return noise_values_.size(); }

 private:
  bool due(std::size_t count);
  bool trend_is_flat() const;

  std::size_t min_samples_;
  double max_noise_;
  double min_seconds_;
  Options options_;
  std::size_t last_count_ = 0;
  std::size_t next_evaluation_ = 0;
  bool gate_open_ = false;
  std::vector<double> scratch_;
  std::vector<double> noise_counts_;  // sample count at each evaluation
  std::vector<double> noise_values_;
};

// Racing: once racing_min_samples valid samples exist, stop if even the candidate's fastest sample
// is slower than the incumbent's median by more than racing_margin. The minimum is a deliberately
// conservative lower bound: noise only ever makes a sample slower, so a candidate is raced out only
// when no sample of it came close. Inactive when racing is off or there is no incumbent.
// Second, for candidates close to the incumbent: once kQuartileSamples valid samples exist, stop
// when the candidate's first quartile is above the incumbent's third quartile by more than
// kQuartileMargin: three quarters of its samples are slower than three quarters of the best's,
// so more samples would only refine a time that cannot win. This ends the mid-field candidates
// that the margin rule lets run to full convergence (minimum time and noise).
class RacingCriterion final : public StoppingCriterion {
 public:
  RacingCriterion(const Policy& policy, const std::optional<Stats>& incumbent);
  std::optional<StopReason> check(const LoopState& state) override;

 private:
  static constexpr std::size_t kQuartileSamples = 10;
  static constexpr double kQuartileMargin = 0.01;
  bool active_;
  double threshold_ = 0;
  double quartile_threshold_ = 0;  // 0: the incumbent has no q3
  std::size_t min_samples_;
  std::size_t seen_ = 0;
  std::size_t next_quartile_check_ = kQuartileSamples;
  double fastest_ = 0;
  std::vector<double> scratch_;
};

// Hard limits, always checked last: MaxSamples at max_samples valid samples (or as many discarded
// ones, so a source whose samples are all discarded cannot spin forever on a clock that does not
// move), Timeout once elapsed wall time >= timeout_seconds, MaxTime once max_seconds (> 0) are
// measured and min_samples are in. While fewer than min_samples are valid, discarded samples
// count towards both: a GEMM that holds the GPU at its power limit has every sample discarded as
// throttled (its statistics then come from them, Measurement::from_discarded), and without this
// it ran to max_samples: 200 samples of 5.5 ms per screened candidate, 33.7 s to tune
// 8192x8192x28672 (H100, session 16).
class LimitsCriterion final : public StoppingCriterion {
 public:
  explicit LimitsCriterion(const Policy& policy);
  std::optional<StopReason> check(const LoopState& state) override;

 private:
  std::size_t max_samples_;
  double timeout_seconds_;
  std::size_t min_samples_;
  double max_seconds_;
};

}  // namespace ktune::measure
