#pragma once
// Rates from a measured time, and "is A faster than B beyond noise?".

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ktune/measure/stats.h"

namespace ktune::measure {

struct Throughput {
  std::optional<double> gflops_per_second;  // 1e9 floating-point operations per second
  std::optional<double> gbytes_per_second;  // 1e9 bytes per second
};
// Each rate is present when its amount is given and seconds > 0 (and finite).
Throughput throughput(std::optional<double> flops, std::optional<double> bytes, double seconds);
nlohmann::json throughput_to_json(const Throughput& t);  // only the present rates

enum class Verdict { Faster, Slower, Indistinguishable };
std::string_view to_string(Verdict verdict);  // "faster", "slower", "indistinguishable"

struct CompareOptions {
  double k = 3.0;                         // standard errors the medians must be apart
  double min_relative_difference = 0.01;  // and at least this fraction of the slower median
  std::size_t min_count = 2;              // fewer samples on either side -> Indistinguishable
};

struct SpeedComparison {
  Verdict verdict = Verdict::Indistinguishable;  // of a relative to b
  double speedup = 0;             // b.median / a.median (> 1: a is faster); 0 when undefined
  double difference_seconds = 0;  // b.median - a.median
  double threshold_seconds = 0;   // |difference| must exceed this for a verdict other than Indistinguishable
};

// a is Faster than b when b.median - a.median > threshold, Slower when a.median - b.median >
// threshold, where
//   threshold = max(k * sqrt(se_a^2 + se_b^2), min_relative_difference * max(a.median, b.median))
//   se_x      = 1.2533 * (x.q3 - x.q1) / 1.349 / sqrt(x.count)
// se_x is the standard error of a median for normal data (1.2533 sigma / sqrt(n)) with sigma
// estimated robustly from the IQR. The standard-error term says the difference is not sampling
// noise; the relative floor guards against drift between two runs that the in-run spread cannot
// see (clocks, thermals: SHARK warns at 3% baseline drift), so a "faster than the baseline"
// decision is never made on a sub-1% difference.
SpeedComparison compare_to(const Stats& a, const Stats& b, const CompareOptions& options = {});

}  // namespace ktune::measure
