#pragma once
// Summary statistics of timing samples (seconds).

#include <cstddef>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::measure {

struct Stats {
  std::size_t count = 0;
  double median = 0, mean = 0, min = 0, max = 0;
  double q1 = 0, q3 = 0;     // 25th and 75th percentiles
  double stdev = 0;          // sample standard deviation (n - 1); 0 for fewer than 2 samples
  double rel_stdev = 0;      // stdev / mean (0 when mean is 0)

  bool operator==(const Stats&) const = default;
};

// Quantiles by linear interpolation between order statistics (h = (n - 1) p; numpy's default).
// count 0 -> all fields zero. Throws std::invalid_argument on a non-finite sample.
Stats summarize(std::span<const double> samples);

// Robust relative noise: the interquartile range as a normal-equivalent standard deviation
// (IQR / 1.349), divided by the median. Unlike stdev / mean it ignores a few preempted or
// interrupted runs, which would otherwise keep a CPU measurement from ever converging.
// 0 when the median is 0 or there are no samples.
double robust_noise(const Stats& stats);

struct Quartiles {
  double q1 = 0, median = 0, q3 = 0;
};
// The three quartiles in O(n) (nth_element on `scratch`, which is overwritten); same
// interpolation as summarize. Used by the loop, which re-estimates noise as samples arrive.
Quartiles quartiles(std::span<const double> samples, std::vector<double>& scratch);
double robust_noise(const Quartiles& q);

nlohmann::json stats_to_json(const Stats& stats);
// Throws std::invalid_argument naming a missing or mistyped key; extra keys are ignored.
Stats stats_from_json(const nlohmann::json& j);

}  // namespace ktune::measure
