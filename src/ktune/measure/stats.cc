#include "ktune/measure/stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::measure {
namespace {

// Normal-consistency constant: IQR of a normal distribution is 1.349 sigma.
constexpr double kIqrPerSigma = 1.349;

void check_finite(std::span<const double> samples) {
  for (std::size_t i = 0; i < samples.size(); ++i)
    if (!std::isfinite(samples[i]))
      throw std::invalid_argument("summarize: sample " + std::to_string(i) + " is not finite");
}

double sorted_quantile(const std::vector<double>& sorted, double p) {
  double h = static_cast<double>(sorted.size() - 1) * p;
  std::size_t lo = static_cast<std::size_t>(std::floor(h));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// Quantile of an unsorted buffer: partial selection of the two neighbouring order statistics.
double select_quantile(std::vector<double>& v, double p) {
  double h = static_cast<double>(v.size() - 1) * p;
  std::size_t lo = static_cast<std::size_t>(std::floor(h));
  auto nth = v.begin() + static_cast<std::ptrdiff_t>(lo);
  std::nth_element(v.begin(), nth, v.end());
  double a = *nth;
  double frac = h - static_cast<double>(lo);
  if (frac == 0 || lo + 1 >= v.size()) return a;
  double b = *std::min_element(nth + 1, v.end());
  return a + frac * (b - a);
}

double number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(std::string("stats: missing key '") + key + "'");
  if (!it->is_number()) throw std::invalid_argument(std::string("stats: '") + key + "' must be a number");
  return it->get<double>();
}

}  // namespace

Stats summarize(std::span<const double> samples) {
  Stats s;
  if (samples.empty()) return s;
  check_finite(samples);
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = sorted_quantile(sorted, 0.25);
  s.median = sorted_quantile(sorted, 0.5);
  s.q3 = sorted_quantile(sorted, 0.75);
  double sum = 0;
  for (double x : sorted) sum += x;
  s.mean = sum / static_cast<double>(s.count);
  if (s.count > 1) {
    // Two passes: the one-pass formula cancels catastrophically for tight timings.
    double ss = 0;
    for (double x : sorted) ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / static_cast<double>(s.count - 1));
  }
  s.rel_stdev = s.mean != 0 ? s.stdev / s.mean : 0;
  return s;
}

double robust_noise(const Quartiles& q) {
  if (q.median == 0) return 0;
  return (q.q3 - q.q1) / kIqrPerSigma / std::abs(q.median);
}

double robust_noise(const Stats& s) {
  if (s.count == 0) return 0;
  return robust_noise(Quartiles{s.q1, s.median, s.q3});
}

Quartiles quartiles(std::span<const double> samples, std::vector<double>& scratch) {
  Quartiles q;
  if (samples.empty()) return q;
  scratch.assign(samples.begin(), samples.end());
  q.q1 = select_quantile(scratch, 0.25);
  q.median = select_quantile(scratch, 0.5);
  q.q3 = select_quantile(scratch, 0.75);
  return q;
}

nlohmann::json stats_to_json(const Stats& s) {
  return {{"count", s.count}, {"median", s.median}, {"mean", s.mean},   {"min", s.min},
          {"max", s.max},     {"q1", s.q1},         {"q3", s.q3},       {"stdev", s.stdev},
          {"rel_stdev", s.rel_stdev}};
}

Stats stats_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("stats: expected an object, got " + j.dump());
  Stats s;
  auto count = j.find("count");
  if (count == j.end()) throw std::invalid_argument("stats: missing key 'count'");
  if (!count->is_number_unsigned() && !(count->is_number_integer() && count->get<std::int64_t>() >= 0))
    throw std::invalid_argument("stats: 'count' must be a non-negative integer");
  s.count = count->get<std::size_t>();
  s.median = number(j, "median");
  s.mean = number(j, "mean");
  s.min = number(j, "min");
  s.max = number(j, "max");
  s.q1 = number(j, "q1");
  s.q3 = number(j, "q3");
  s.stdev = number(j, "stdev");
  s.rel_stdev = number(j, "rel_stdev");
  return s;
}

}  // namespace ktune::measure
