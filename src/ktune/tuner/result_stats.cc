#include "ktune/tuner/result_stats.h"

#include <string>

namespace ktune::tuner {

void fill_result_stats(db::ResultRecord& r, const measure::Measurement& m) {
  r.median_s = m.stats.median;
  r.mean_s = m.stats.mean;
  r.min_s = m.stats.min;
  r.max_s = m.stats.max;
  r.q1_s = m.stats.q1;
  r.q3_s = m.stats.q3;
  r.stdev_s = m.stats.stdev;
  r.samples = static_cast<std::int64_t>(m.stats.count);
  r.stop_reason = std::string(measure::to_string(m.stop));
  r.raced = m.stop == measure::StopReason::Raced;
}

std::optional<measure::Stats> result_stats(const db::ResultRecord& r) {
  if (r.status != db::Status::Ok || !r.median_s) return std::nullopt;
  measure::Stats s{};
  s.count = static_cast<std::size_t>(r.samples);
  s.median = *r.median_s;
  s.mean = r.mean_s.value_or(s.median);
  s.min = r.min_s.value_or(s.median);
  s.max = r.max_s.value_or(s.median);
  s.q1 = r.q1_s.value_or(s.median);
  s.q3 = r.q3_s.value_or(s.median);
  s.stdev = r.stdev_s.value_or(0);
  s.rel_stdev = s.mean > 0 ? s.stdev / s.mean : 0;
  return s;
}

}  // namespace ktune::tuner
