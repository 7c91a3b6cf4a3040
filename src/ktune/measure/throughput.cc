#include "ktune/measure/throughput.h"

#include <algorithm>
#include <cmath>

namespace ktune::measure {
namespace {

constexpr double kMedianStandardErrorFactor = 1.2533;  // sqrt(pi / 2)
constexpr double kIqrPerSigma = 1.349;

double median_standard_error(const Stats& s) {
  double sigma = std::max(0.0, s.q3 - s.q1) / kIqrPerSigma;
  return kMedianStandardErrorFactor * sigma / std::sqrt(static_cast<double>(s.count));
}

}  // namespace

Throughput throughput(std::optional<double> flops, std::optional<double> bytes, double seconds) {
  Throughput t;
  if (!std::isfinite(seconds) || seconds <= 0) return t;
  if (flops && std::isfinite(*flops)) t.gflops_per_second = *flops / seconds / 1e9;
  if (bytes && std::isfinite(*bytes)) t.gbytes_per_second = *bytes / seconds / 1e9;
  return t;
}

nlohmann::json throughput_to_json(const Throughput& t) {
  nlohmann::json j = nlohmann::json::object();
  if (t.gflops_per_second) j["gflops_per_second"] = *t.gflops_per_second;
  if (t.gbytes_per_second) j["gbytes_per_second"] = *t.gbytes_per_second;
  return j;
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Faster: return "faster";
    case Verdict::Slower: return "slower";
    case Verdict::Indistinguishable: return "indistinguishable";
  }
  return "unknown";
}

SpeedComparison compare_to(const Stats& a, const Stats& b, const CompareOptions& options) {
  SpeedComparison c;
  std::size_t min_count = std::max<std::size_t>(options.min_count, 1);
  if (a.count < min_count || b.count < min_count) return c;
  c.difference_seconds = b.median - a.median;
  if (a.median > 0) c.speedup = b.median / a.median;
  double se_a = median_standard_error(a), se_b = median_standard_error(b);
  c.threshold_seconds = std::max(options.k * std::sqrt(se_a * se_a + se_b * se_b),
                                 options.min_relative_difference * std::max(a.median, b.median));
  if (c.difference_seconds > c.threshold_seconds) c.verdict = Verdict::Faster;
  else if (-c.difference_seconds > c.threshold_seconds) c.verdict = Verdict::Slower;
  return c;
}

}  // namespace ktune::measure
