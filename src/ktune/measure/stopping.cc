#include "ktune/measure/stopping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::measure {
namespace {

struct ReasonName {
  StopReason reason;
  std::string_view name;
};
constexpr ReasonName kReasonNames[] = {
    {StopReason::Converged, "converged"}, {StopReason::NoiseStable, "noise_stable"},
    {StopReason::MaxSamples, "max_samples"}, {StopReason::Timeout, "timeout"},
    {StopReason::Raced, "raced"},         {StopReason::MaxTime, "max_time"},
};

}  // namespace

std::string_view to_string(StopReason reason) {
  for (const auto& r : kReasonNames)
    if (r.reason == reason) return r.name;
  return "unknown";
}

StopReason stop_reason_from_string(std::string_view name) {
  for (const auto& r : kReasonNames)
    if (r.name == name) return r.reason;
  throw std::invalid_argument("unknown stop reason '" + std::string(name) +
                              "' (expected converged, noise_stable, max_samples, timeout, raced or max_time)");
}

NoiseCriterion::NoiseCriterion(const Policy& policy, Options options)
    : min_samples_(static_cast<std::size_t>(std::max(policy.min_samples, 1))),
      max_noise_(policy.max_noise),
      min_seconds_(policy.min_seconds),
      options_(options) {
  if (options_.window < 2) throw std::invalid_argument("NoiseCriterion: window must be >= 2");
  if (options_.evaluations_per_doubling < 1)
    throw std::invalid_argument("NoiseCriterion: evaluations_per_doubling must be >= 1");
  options_.min_samples_for_noise = std::max<std::size_t>(options_.min_samples_for_noise, 2);
}

bool NoiseCriterion::due(std::size_t count) {
  if (count < options_.min_samples_for_noise || count < next_evaluation_) return false;
  // Geometric spacing past dense_limit: a fixed number of estimates per doubling of the count.
  if (count >= options_.dense_limit) next_evaluation_ = count + std::max<std::size_t>(1, count / options_.evaluations_per_doubling);
  return true;
}

std::optional<double> NoiseCriterion::current_noise() const {
  if (noise_values_.empty()) return std::nullopt;
  return noise_values_.back();
}

bool NoiseCriterion::trend_is_flat() const {
  std::size_t n = noise_values_.size();
  if (n < options_.window) return false;
  std::size_t first = n - options_.window;
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = first; i < n; ++i) {
    mean_x += noise_counts_[i];
    mean_y += noise_values_[i];
  }
  auto w = static_cast<double>(options_.window);
  mean_x /= w;
  mean_y /= w;
  if (mean_y <= 0) return true;
  double sxy = 0, sxx = 0;
  for (std::size_t i = first; i < n; ++i) {
    double dx = noise_counts_[i] - mean_x;
    sxy += dx * (noise_values_[i] - mean_y);
    sxx += dx * dx;
  }
  if (sxx == 0) return false;
  double slope = sxy / sxx;
  double span = noise_counts_[n - 1] - noise_counts_[first];
  return std::abs(slope) * span <= options_.max_relative_change * mean_y;
}

std::optional<StopReason> NoiseCriterion::check(const LoopState& state) {
  std::size_t count = state.samples.size();
  if (count == last_count_) return std::nullopt;  // a discarded sample: nothing new to judge
  last_count_ = count;
  const bool enough = count >= min_samples_ && state.measured_seconds >= min_seconds_;
  // The first sample that satisfies the minimums is always judged, so a quiet kernel stops exactly
  // there instead of waiting for the next scheduled estimate.
  const bool gate_just_opened = enough && !gate_open_;
  gate_open_ = gate_open_ || enough;
  if (!due(count) && !(gate_just_opened && count >= options_.min_samples_for_noise)) return std::nullopt;
  double noise = robust_noise(quartiles(state.samples, scratch_));
  noise_counts_.push_back(static_cast<double>(count));
  noise_values_.push_back(noise);
  if (!enough) return std::nullopt;
  if (noise <= max_noise_) return StopReason::Converged;
  if (trend_is_flat()) return StopReason::NoiseStable;
  return std::nullopt;
}

RacingCriterion::RacingCriterion(const Policy& policy, const std::optional<Stats>& incumbent)
    : active_(policy.racing && incumbent && incumbent->count > 0),
      min_samples_(static_cast<std::size_t>(std::max(policy.racing_min_samples, 1))) {
  if (active_) threshold_ = incumbent->median * (1 + policy.racing_margin);
  if (active_ && incumbent->q3 > 0) quartile_threshold_ = incumbent->q3 * (1 + kQuartileMargin);
  next_quartile_check_ = std::max(kQuartileSamples, min_samples_);
}

std::optional<StopReason> RacingCriterion::check(const LoopState& state) {
  if (!active_) return std::nullopt;
  for (; seen_ < state.samples.size(); ++seen_)
    fastest_ = seen_ == 0 ? state.samples[0] : std::min(fastest_, state.samples[seen_]);
  if (seen_ >= min_samples_ && fastest_ > threshold_) return StopReason::Raced;
  // Judged at sample counts growing by half each time, so the O(n) quartiles stay cheap.
  if (quartile_threshold_ > 0 && seen_ >= next_quartile_check_) {
    next_quartile_check_ = seen_ + seen_ / 2;
    if (quartiles(state.samples, scratch_).q1 > quartile_threshold_) return StopReason::Raced;
  }
  return std::nullopt;
}

// How many max_seconds budgets of valid and discarded time together end a measurement that has
// its min_samples valid ones.
constexpr double kDiscardedBudgets = 4.0;

LimitsCriterion::LimitsCriterion(const Policy& policy)
    : max_samples_(static_cast<std::size_t>(std::max(policy.max_samples, 1))),
      timeout_seconds_(policy.timeout_seconds),
      min_samples_(static_cast<std::size_t>(std::max(policy.min_samples, 1))),
      max_seconds_(policy.max_seconds) {}

std::optional<StopReason> LimitsCriterion::check(const LoopState& state) {
  if (state.samples.size() >= max_samples_) return StopReason::MaxSamples;
  if (state.discarded_samples >= 0 && static_cast<std::size_t>(state.discarded_samples) >= max_samples_)
    return StopReason::MaxSamples;
  if (state.elapsed_seconds >= timeout_seconds_) return StopReason::Timeout;
  if (max_seconds_ > 0 && state.samples.size() >= min_samples_ && state.measured_seconds >= max_seconds_)
    return StopReason::MaxTime;
  // Valid samples few and far between (a GEMM at its power limit, throttled on most samples):
  // the discarded time counts too once it is several budgets long, or the loop ran on towards
  // max_samples (a 5 ms GEMM's confirmation took 3.1 s for a 0.1 s budget; H100, session 22).
  if (max_seconds_ > 0 && state.samples.size() >= min_samples_ &&
      state.measured_seconds + state.discarded_seconds >= kDiscardedBudgets * max_seconds_)
    return StopReason::MaxTime;
  const std::size_t seen = state.samples.size() + static_cast<std::size_t>(std::max(state.discarded_samples, 0));
  if (max_seconds_ > 0 && state.samples.size() < min_samples_ && seen >= min_samples_ &&
      state.measured_seconds + state.discarded_seconds >= max_seconds_)
    return StopReason::MaxTime;
  return std::nullopt;
}

}  // namespace ktune::measure
