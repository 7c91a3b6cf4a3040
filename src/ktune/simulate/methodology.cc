#include "ktune/simulate/methodology.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace ktune::simulate {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// numpy's round (half to even): the default floating-point rounding mode.
std::size_t round_index(double x, std::size_t size) {
  return std::min(size - 1, static_cast<std::size_t>(std::max(0.0, std::nearbyint(x))));
}

// sum_j w(j) p_j / sum_j p_j over the s successes, p_j = C(n-1-j, k-1) / C(n, k) (header,
// item 1), by the product p_{j+1} = p_j (n-j-k) / (n-1-j). Weights are non-negative and
// non-decreasing in j, so once p_j (s-1-j) w(s-1) is below 1e-17 of the weighted sum so far, the
// rest (p only falls) cannot change the result, nor the mass, in double precision.
template <typename Weight>
double conditional_expectation(std::size_t n, std::size_t s, std::size_t k, Weight weight) {
  const double w_max = weight(s - 1);
  double p = static_cast<double>(k) / static_cast<double>(n);
  double mass = 0, weighted = 0;
  for (std::size_t j = 0; j < s; ++j) {
    mass += p;
    weighted += p * weight(j);
    if (j + k >= n) break;  // p_{j+1} = 0: fewer than k configurations are worse than v_j
    p *= static_cast<double>(n - j - k) / static_cast<double>(n - 1 - j);
    if (p * static_cast<double>(s - 1 - j) * w_max <= 1e-17 * weighted) break;
  }
  return weighted / mass;
}

// B(x) for real x in [1, n]: linear between the integers around x (header, item 1).
template <typename AtEvaluations>
double interpolate(double x, AtEvaluations at) {
  const double floor_x = std::floor(x);
  const auto k = static_cast<std::size_t>(floor_x);
  const double fraction = x - floor_x;
  if (fraction == 0) return at(k);
  return (1 - fraction) * at(k) + fraction * at(k + 1);
}

double evaluations_at(const RandomBaseline& baseline, double seconds) {
  const double x = seconds / baseline.seconds_per_evaluation();
  return std::clamp(x, 1.0, static_cast<double>(baseline.configurations()));
}

double nan_mean(const std::vector<double>& values) {
  double sum = 0;
  std::size_t count = 0;
  for (double v : values) {
    if (std::isnan(v)) continue;
    sum += v;
    ++count;
  }
  return count == 0 ? kNaN : sum / static_cast<double>(count);
}

// A repeat's best-so-far as a step function of the clock (header, item 3).
class BestSoFar {
 public:
  explicit BestSoFar(const Trace& trace) {
    std::vector<TracePoint> points = trace.points;
    std::stable_sort(points.begin(), points.end(),
                     [](const TracePoint& a, const TracePoint& b) { return a.seconds < b.seconds; });
    for (const TracePoint& point : points) {
      if (!point.objective || (!best_.empty() && *point.objective >= best_.back())) continue;
      seconds_.push_back(point.seconds);
      best_.push_back(*point.objective);
    }
  }
  std::optional<double> at(double seconds) const {
    const auto it = std::upper_bound(seconds_.begin(), seconds_.end(), seconds);
    if (it == seconds_.begin()) return std::nullopt;
    return best_[static_cast<std::size_t>(it - seconds_.begin()) - 1];
  }

 private:
  std::vector<double> seconds_, best_;
};

// Before any repeat's first success the curve takes its first later value (the package's
// isotonic regression clips times outside its data); with none at all, the worst objective.
void fill_leading_gap(std::vector<double>& curve, double worst) {
  const auto first = std::find_if(curve.begin(), curve.end(), [](double v) { return !std::isnan(v); });
  std::fill(curve.begin(), first, first == curve.end() ? worst : *first);
}

std::vector<double> baseline_curve(const RandomBaseline& baseline, std::span<const double> seconds) {
  if (baseline.simulated()) {
    std::vector<double> curve;
    for (double t : seconds) curve.push_back(baseline.at_seconds(t));
    return curve;
  }
  std::map<std::size_t, double> memo;  // many times share their k
  const auto at = [&](std::size_t k) {
    auto [it, inserted] = memo.try_emplace(k, 0.0);
    if (inserted) it->second = baseline.at_evaluations(k);
    return it->second;
  };
  std::vector<double> curve;
  curve.reserve(seconds.size());
  for (double t : seconds) curve.push_back(interpolate(evaluations_at(baseline, t), at));
  return curve;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : (values[m - 1] + values[m]) / 2;
}

nlohmann::json number_or_null(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

}  // namespace

// ---- item 1: baseline.py RandomSearchCalculatedBaseline -------------------------------------

RandomBaseline::RandomBaseline(const SpaceStatistics& space, Averaging averaging, std::size_t simulated_orders)
    : sorted_(space.objectives),
      configurations_(space.configurations),
      seconds_per_evaluation_(space.mean_evaluation_seconds),
      averaging_(averaging) {
  const std::string where = "methodology: space '" + space.name + "': ";
  if (sorted_.empty()) throw std::invalid_argument(where + "no successful configuration");
  if (configurations_ < sorted_.size())
    throw std::invalid_argument(where + "fewer configurations than successful ones");
  if (!(seconds_per_evaluation_ > 0) || !std::isfinite(seconds_per_evaluation_))
    throw std::invalid_argument(where + "mean_evaluation_seconds must be positive");
  for (double v : sorted_)
    if (!std::isfinite(v) || v < 0) throw std::invalid_argument(where + "objectives must be finite, >= 0");
  std::sort(sorted_.begin(), sorted_.end());
  if (simulated_orders > 0 && space.outcomes.size() == configurations_) {
    timeline_ = std::make_shared<const RandomSearchTimeline>(space, sorted_, simulated_orders);
  }
}

double RandomBaseline::median() const { return median_of(sorted_); }

std::size_t RandomBaseline::index_of(double objective) const {
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), objective);
  return std::min(sorted_.size() - 1, static_cast<std::size_t>(it - sorted_.begin()));
}

double RandomBaseline::expected_best_index(std::size_t k) const {
  k = std::clamp<std::size_t>(k, 1, configurations_);
  return conditional_expectation(configurations_, sorted_.size(), k,
                                 [](std::size_t j) { return static_cast<double>(j); });
}

double RandomBaseline::expected_best_objective(std::size_t k) const {
  k = std::clamp<std::size_t>(k, 1, configurations_);
  return conditional_expectation(configurations_, sorted_.size(), k,
                                 [this](std::size_t j) { return sorted_[j]; });
}

double RandomBaseline::at_evaluations(std::size_t k) const {
  if (averaging_ == Averaging::objective) return expected_best_objective(k);
  return sorted_[round_index(expected_best_index(k), sorted_.size())];
}

double RandomBaseline::at_seconds(double seconds) const {
  if (simulated()) {
    if (averaging_ == Averaging::objective) return timeline_->mean_objective(seconds);
    return sorted_[round_index(timeline_->mean_rank(seconds), sorted_.size())];
  }
  return interpolate(evaluations_at(*this, seconds), [this](std::size_t k) { return at_evaluations(k); });
}

std::size_t RandomBaseline::evaluations_to_reach(double objective) const {
  // B(n) is the optimum: hi always qualifies. B is non-increasing in k. The tolerance lets an
  // expectation that equals an objective in exact arithmetic reach it despite rounding.
  const double reach = objective + 1e-12 * std::abs(objective);
  std::size_t lo = 1, hi = configurations_;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (at_evaluations(mid) <= reach) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

double RandomBaseline::expected_draws_to_reach(double objective) const {
  const auto g = static_cast<std::size_t>(std::upper_bound(sorted_.begin(), sorted_.end(), objective) -
                                          sorted_.begin());
  if (g == 0) return kInf;
  return static_cast<double>(configurations_ + 1) / static_cast<double>(g + 1);
}

// ---- item 2: searchspace_statistics.py cutoff_point, cutoff_point_fevals_time_start_end -----

double cutoff_objective(const RandomBaseline& baseline, double percentile) {
  const std::vector<double>& v = baseline.sorted();
  const double optimum = v.front();
  // objective_performance_at_cutoff_point
  const double target = optimum + (baseline.median() - optimum) * (1 - percentile);
  // cutoff_point: the worst value within the target; one worse if that is the optimum
  auto j = static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), target) - v.begin()) - 1;
  if (percentile != 1.0 && v[j] == optimum) {
    j = static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), optimum) - v.begin());
    if (j == v.size())
      throw std::invalid_argument("methodology: every successful configuration has the optimum's objective");
  }
  return v[j];
}

// The least simulated time at which the (simulated) baseline is within `objective`: bisection,
// B(t) being non-increasing up to the averaging's noise.
double seconds_to_reach(const RandomBaseline& baseline, double objective) {
  const double reach = objective + 1e-12 * std::abs(objective);
  double lo = 0, hi = 1;
  while (baseline.at_seconds(hi) > reach && hi < 1e12) hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (baseline.at_seconds(mid) <= reach ? hi : lo) = mid;
  }
  return hi;
}

TimeRange cutoff_time_range(const RandomBaseline& baseline, const MethodologyOptions& options) {
  const double p = options.cutoff_percentile, p_start = options.cutoff_percentile_start;
  if (!(p > 0 && p <= 1 && p_start >= 0 && p_start < p))
    throw std::invalid_argument("methodology: need 0 <= cutoff_percentile_start < cutoff_percentile <= 1");
  TimeRange range;
  range.start_cutoff_objective = cutoff_objective(baseline, p_start);
  range.end_cutoff_objective = cutoff_objective(baseline, p);
  std::size_t k0 = baseline.evaluations_to_reach(range.start_cutoff_objective);
  std::size_t k1 = baseline.evaluations_to_reach(range.end_cutoff_objective);
  // The safe margin. The package's K0 == 0 case cannot arise (K >= 1 here); it caps K1 with
  // cutoff_point(1.0)[0], an objective, where the evaluations [1] are meant: we cap at n.
  if (k1 < k0 + 2) {
    k1 = std::min(baseline.configurations(), k1 + 1);
    k0 -= 1;
  }
  if (k1 <= k0) throw std::invalid_argument("methodology: cutoff start and end are the same");
  const double c = baseline.seconds_per_evaluation();  // the package: total_time_median; see README
  range.start_evaluations = k0;
  range.end_evaluations = k1;
  range.start_seconds = p_start > 0 ? static_cast<double>(k0) * c : 0.0;
  range.end_seconds = static_cast<double>(k1) * c;
  if (baseline.simulated()) {  // the same cutoffs, reached on the simulated clock
    range.start_seconds = p_start > 0 ? seconds_to_reach(baseline, range.start_cutoff_objective) : 0.0;
    range.end_seconds = std::max(seconds_to_reach(baseline, range.end_cutoff_objective), range.start_seconds);
    // The package's safe margin, in time: a window narrower than two mean evaluations (both
    // cutoffs crossed by one step of the simulated curve) widens by one evaluation each way.
    if (range.end_seconds - range.start_seconds < 2 * c) {
      range.start_seconds = std::max(0.0, range.start_seconds - c);
      range.end_seconds += c;
    }
  }
  range.budget_seconds = range.end_seconds * (1 + options.budget_margin);  // calculate_budget
  return range;
}

// ---- item 3: curves.py StochasticOptimizationAlgorithm.get_curve_over_time ------------------

std::vector<double> strategy_curve(const RandomBaseline& baseline, std::span<const Trace> repeats,
                                   std::span<const double> seconds, Averaging averaging) {
  std::vector<BestSoFar> steps(repeats.begin(), repeats.end());
  const std::vector<double>& v = baseline.sorted();
  std::vector<double> curve(seconds.size(), kNaN);
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    double sum = 0;
    std::size_t count = 0;
    for (const BestSoFar& step : steps) {
      const std::optional<double> best = step.at(seconds[i]);
      if (!best) continue;  // no success yet: left out, as the package's NaN
      sum += averaging == Averaging::rank ? static_cast<double>(baseline.index_of(*best)) : *best;
      ++count;
    }
    if (count == 0) continue;
    const double mean = sum / static_cast<double>(count);
    curve[i] = averaging == Averaging::rank ? v[round_index(mean, v.size())] : mean;
  }
  fill_leading_gap(curve, v.back());
  return curve;
}

// ---- item 4: baseline.py Baseline.get_standardised_curves -----------------------------------

std::vector<double> sample_times(const TimeRange& range, std::size_t resolution) {
  if (resolution < 2) throw std::invalid_argument("methodology: resolution must be at least 2");
  std::vector<double> times(resolution);
  const double step = (range.end_seconds - range.start_seconds) / static_cast<double>(resolution - 1);
  for (std::size_t i = 0; i < resolution; ++i) times[i] = range.start_seconds + static_cast<double>(i) * step;
  times.back() = range.end_seconds;
  return times;
}

PerformanceCurve performance_curve(const RandomBaseline& baseline, const TimeRange& range,
                                   std::span<const Trace> repeats, const MethodologyOptions& options) {
  PerformanceCurve out;
  out.seconds = sample_times(range, options.resolution);
  const std::vector<double> random = baseline_curve(baseline, out.seconds);
  const std::vector<double> strategy = strategy_curve(baseline, repeats, out.seconds, options.averaging);
  out.performance.resize(out.seconds.size());
  for (std::size_t i = 0; i < out.seconds.size(); ++i) {
    const double headroom = random[i] - baseline.optimum();
    out.performance[i] = headroom > 0 ? (random[i] - strategy[i]) / headroom : kNaN;
  }
  out.score = nan_mean(out.performance);
  return out;
}

// ---- item 5: evaluations to near-optimal -----------------------------------------------------

std::optional<std::size_t> evaluations_to_reach(const Trace& trace, double objective) {
  for (std::size_t i = 0; i < trace.points.size(); ++i) {
    const std::optional<double>& found = trace.points[i].objective;
    if (found && *found <= objective) return i + 1;
  }
  return std::nullopt;
}

NearOptimal near_optimal_evaluations(const RandomBaseline& baseline, std::span<const Trace> repeats,
                                     double fraction_of_optimum) {
  if (!(fraction_of_optimum > 0 && fraction_of_optimum <= 1))
    throw std::invalid_argument("methodology: near_optimal_fraction must be in (0, 1]");
  NearOptimal out;
  out.target_objective = baseline.optimum() / fraction_of_optimum;
  out.random_expected_evaluations = baseline.expected_draws_to_reach(out.target_objective);
  std::vector<double> needed;
  for (const Trace& trace : repeats) {
    const std::optional<std::size_t> n = evaluations_to_reach(trace, out.target_objective);
    needed.push_back(n ? static_cast<double>(*n) : kInf);
    if (n) ++out.repeats_reached;
  }
  if (needed.empty()) return out;
  const double median = median_of(needed);
  if (std::isfinite(median)) {
    out.median_evaluations = median;
    out.fraction = median / out.random_expected_evaluations;
  }
  return out;
}

// ---- per space, over spaces -------------------------------------------------------------------

SpaceResult evaluate_space(const SpaceStatistics& space, std::span<const Trace> traces,
                           const MethodologyOptions& options) {
  const RandomBaseline baseline(space, options.averaging, options.baseline_orders);
  SpaceResult result{space.name,        baseline.configurations(), baseline.sorted().size(),
                     baseline.optimum(), baseline.median(),         cutoff_time_range(baseline, options),
                     options,           {}};
  std::vector<std::string> order;
  std::map<std::string, std::vector<Trace>> groups;
  for (const Trace& trace : traces) {
    if (!trace.space.empty() && trace.space != space.name)
      throw std::invalid_argument("methodology: a trace of space '" + trace.space + "' given for '" +
                                  space.name + "'");
    auto [it, inserted] = groups.try_emplace(trace.strategy);
    if (inserted) order.push_back(trace.strategy);
    it->second.push_back(trace);
  }
  for (const std::string& name : order) {
    const std::vector<Trace>& repeats = groups.at(name);
    result.strategies.push_back({name, repeats.size(), performance_curve(baseline, result.range, repeats, options),
                                 near_optimal_evaluations(baseline, repeats, options.near_optimal_fraction)});
  }
  return result;
}

// report_experiments.py get_strategies_aggregated_performance + get_strategy_scores: the
// pointwise mean of the spaces' curves; score = its mean, error = its (population) std.
std::vector<AggregateScore> aggregate_scores(std::span<const SpaceResult> spaces) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const std::vector<double>*>> curves;
  for (const SpaceResult& space : spaces)
    for (const StrategyResult& s : space.strategies) {
      auto [it, inserted] = curves.try_emplace(s.strategy);
      if (inserted) order.push_back(s.strategy);
      it->second.push_back(&s.curve.performance);
    }
  std::vector<AggregateScore> scores;
  for (const std::string& name : order) {
    const auto& list = curves.at(name);
    std::vector<double> mean(list.front()->size());
    for (std::size_t i = 0; i < mean.size(); ++i) {
      std::vector<double> at_i;
      for (const std::vector<double>* curve : list) {
        if (curve->size() != mean.size())
          throw std::invalid_argument("methodology: spaces scored at different resolutions");
        at_i.push_back((*curve)[i]);
      }
      mean[i] = nan_mean(at_i);
    }
    AggregateScore score{name, nan_mean(mean), 0, list.size()};
    std::vector<double> squares;
    for (double m : mean) squares.push_back((m - score.score) * (m - score.score));
    score.error = std::sqrt(nan_mean(squares));
    scores.push_back(score);
  }
  return scores;
}

// ---- JSON -------------------------------------------------------------------------------------

nlohmann::json to_json(const SpaceResult& result, std::size_t plot_points) {
  const TimeRange& r = result.range;
  nlohmann::json out = {
      {"space", result.space},
      {"configurations", result.configurations},
      {"successful", result.successful},
      {"optimum", result.optimum},
      {"median", result.median},
      {"averaging", result.options.averaging == Averaging::rank ? "rank" : "objective"},
      {"cutoff_percentile", result.options.cutoff_percentile},
      {"cutoff_percentile_start", result.options.cutoff_percentile_start},
      {"budget_seconds", r.budget_seconds},
      {"time_range",
       {{"start_seconds", r.start_seconds}, {"end_seconds", r.end_seconds},
        {"start_evaluations", r.start_evaluations}, {"end_evaluations", r.end_evaluations},
        {"start_cutoff_objective", r.start_cutoff_objective}, {"end_cutoff_objective", r.end_cutoff_objective},
        {"resolution", result.options.resolution}}},
      {"strategies", nlohmann::json::object()}};
  for (const StrategyResult& s : result.strategies) {
    const std::size_t size = s.curve.seconds.size();
    const std::size_t points = plot_points == 0 || plot_points >= size ? size : std::max<std::size_t>(plot_points, 2);
    nlohmann::json curve = nlohmann::json::array();
    for (std::size_t p = 0; p < points; ++p) {
      const std::size_t i = points == size ? p : (p * (size - 1) + (points - 1) / 2) / (points - 1);
      curve.push_back({s.curve.seconds[i], number_or_null(s.curve.performance[i])});
    }
    const NearOptimal& near = s.near_optimal;
    out["strategies"][s.strategy] = {
        {"score", number_or_null(s.curve.score)},
        {"repeats", s.repeats},
        {"curve", std::move(curve)},
        {"evaluations_to_near_optimal",
         {{"fraction_of_optimum", result.options.near_optimal_fraction},
          {"target_objective", near.target_objective},
          {"median", number_or_null(near.median_evaluations)},
          {"random_expected", number_or_null(near.random_expected_evaluations)},
          {"fraction_of_random", number_or_null(near.fraction)},
          {"repeats_reached", near.repeats_reached}}}};
  }
  return out;
}

nlohmann::json to_json(std::span<const AggregateScore> scores) {
  nlohmann::json out = nlohmann::json::object();
  for (const AggregateScore& s : scores)
    out[s.strategy] = {{"score", number_or_null(s.score)}, {"error", number_or_null(s.error)}, {"spaces", s.spaces}};
  return out;
}

}  // namespace ktune::simulate
