#include "ktune/families/gemm/gemm_pick.h"

#include <cmath>
#include <cstdio>

namespace ktune::gemm {
namespace {

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * fraction);
  return buffer;
}

std::string ratio(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3fx", x);
  return buffer;
}

nlohmann::json comparison_json(const measure::SpeedComparison& c) {
  return {{"verdict", measure::to_string(c.verdict)},
          {"speedup", c.speedup},
          {"difference_seconds", c.difference_seconds},
          {"threshold_seconds", c.threshold_seconds}};
}

// Every time of `s` times `factor`.
measure::Stats scaled(measure::Stats s, double factor) {
  for (double* t : {&s.median, &s.mean, &s.min, &s.max, &s.q1, &s.q3, &s.stdev}) *t *= factor;
  return s;
}

// The candidate's clock over the baseline's where it exceeds it by more than the tolerance.
std::optional<double> clock_advantage(const MeasuredCandidate& c, const MeasuredCandidate& base, double tolerance) {
  if (!c.sm_clock_mhz || !base.sm_clock_mhz || *base.sm_clock_mhz <= 0) return std::nullopt;
  const double r = *c.sm_clock_mhz / *base.sm_clock_mhz;
  return r > 1.0 + tolerance ? std::optional<double>(r) : std::nullopt;
}

std::string mhz(double clock) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f MHz", clock);
  return buffer;
}

}  // namespace

GemmPick choose_pick(const std::vector<MeasuredCandidate>& candidates, std::size_t baseline,
                     const measure::CompareOptions& options, double clock_tolerance) {
  GemmPick result;
  const bool baseline_ok = baseline < candidates.size() && candidates[baseline].stats.has_value();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i == baseline || !candidates[i].stats) continue;
    if (!result.fastest || candidates[i].stats->median < candidates[*result.fastest].stats->median) result.fastest = i;
  }
  if (!baseline_ok) {
    if (!result.fastest) {
      result.reason = "no candidate ran correctly";
      return result;
    }
    result.pick = result.fastest;
    result.reason = "the baseline did not run correctly, so the fastest verified candidate (" +
                    candidates[*result.fastest].label + ") is picked without the baseline rule";
    return result;
  }
  const measure::Stats& base = *candidates[baseline].stats;
  // A candidate's stats as judged: at the baseline's clock where it ran faster clocks.
  auto judged = [&](std::size_t i) {
    const auto advantage = clock_advantage(candidates[i], candidates[baseline], clock_tolerance);
    return advantage ? scaled(*candidates[i].stats, *advantage) : *candidates[i].stats;
  };
  if (result.fastest) result.fastest_vs_baseline = measure::compare_to(judged(*result.fastest), base, options);

  // The fastest among those that are faster than the baseline beyond noise: a candidate with
  // a slightly higher median but a tight spread may qualify where the fastest does not.
  std::optional<std::size_t> best;
  std::optional<measure::SpeedComparison> best_comparison;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i == baseline || !candidates[i].stats) continue;
    const measure::SpeedComparison c = measure::compare_to(judged(i), base, options);
    if (c.verdict != measure::Verdict::Faster) continue;
    if (!best || judged(i).median < judged(*best).median) {
      best = i;
      best_comparison = c;
    }
  }
  if (best) {
    result.pick = best;
    result.pick_vs_baseline = best_comparison;
    result.speedup = base.median / judged(*best).median;
    result.clock_adjusted = clock_advantage(candidates[*best], candidates[baseline], clock_tolerance).has_value();
    result.reason = candidates[*best].label + " is faster than the baseline beyond noise (" + ratio(result.speedup) +
                    (result.clock_adjusted ? " at the baseline's clock" : "") + "; the medians differ by more than " +
                    percent(best_comparison->threshold_seconds / base.median) + " of the baseline)";
    return result;
  }
  result.pick = baseline;
  result.baseline_kept = true;
  if (!result.fastest) {
    result.reason = "no other candidate ran correctly; keeping the baseline";
  } else {
    const measure::SpeedComparison& c = *result.fastest_vs_baseline;
    const MeasuredCandidate& f = candidates[*result.fastest];
    const bool adjusted = clock_advantage(f, candidates[baseline], clock_tolerance).has_value();
    result.reason = "no candidate is faster than the baseline beyond noise (the fastest, " + f.label + ", is at " +
                    ratio(c.speedup) +
                    (adjusted ? " at the baseline's clock (measured at " + mhz(*f.sm_clock_mhz) + " against " +
                                    mhz(*candidates[baseline].sm_clock_mhz) + ")"
                              : std::string()) +
                    ", within the " + percent(c.threshold_seconds / base.median) +
                    " noise threshold or slower); keeping the baseline";
  }
  return result;
}

nlohmann::json GemmPick::to_json() const {
  nlohmann::json j = {{"pick", pick ? nlohmann::json(*pick) : nlohmann::json(nullptr)},
                      {"baseline_kept", baseline_kept},
                      {"fastest", fastest ? nlohmann::json(*fastest) : nlohmann::json(nullptr)},
                      {"speedup", speedup},
                      {"clock_adjusted", clock_adjusted},
                      {"reason", reason}};
  j["fastest_vs_baseline"] = fastest_vs_baseline ? comparison_json(*fastest_vs_baseline) : nlohmann::json(nullptr);
  j["pick_vs_baseline"] = pick_vs_baseline ? comparison_json(*pick_vs_baseline) : nlohmann::json(nullptr);
  return j;
}

BaselineRuns combine_baseline_runs(const measure::Stats& first, const std::optional<measure::Stats>& second) {
  BaselineRuns runs{first, 0};
  if (!second) return runs;
  const double lo = std::min(first.median, second->median);
  if (lo > 0) runs.drift = std::fabs(first.median - second->median) / lo;
  if (second->median < first.median) runs.best = *second;
  return runs;
}

}  // namespace ktune::gemm
