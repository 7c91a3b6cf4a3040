#pragma once
// The methodology score of Willemsen, van Nieuwpoort and van Werkhoven (2024), "A methodology
// for comparing optimization algorithms for auto-tuning", Future Generation Computer Systems,
// as implemented by the PyPI package autotuning-methodology (version 1.1.0 read; the file and
// function each part follows are named at the part, in methodology.cc too).
//
// Notation: a space has n configurations (failed ones included), s successful ones with
// objectives v_0 <= v_1 <= ... <= v_{s-1} (seconds, lower is better; v_0 is the optimum), median
// m of the v (numpy's: mean of the two middle values when s is even), mean cost per evaluation
// c = SpaceStatistics::mean_evaluation_seconds. Rounding is numpy's (half to even).
//
// 1. Random baseline: the best of k draws without replacement among all n configurations; a
//    failed draw finds nothing. P(best is v_j) = C(n-1-j, k-1) / C(n, k), computed by the product
//      p_0 = k/n,  p_{j+1} = p_j (n-j-k) / (n-1-j)          (every factor in [0, 1]: no overflow)
//    and, conditioned on at least one success (repeats that found nothing are left out, below),
//      E_index(k) = sum_j j p_j / sum_j p_j,     E_objective(k) = sum_j v_j p_j / sum_j p_j.
//    The baseline objective after k draws is B(k) = v[round(E_index(k))] (Averaging::rank, the
//    package's: baseline.py RandomSearchCalculatedBaseline._redwhite_index) or
//    B(k) = E_objective(k) (Averaging::objective). The package's closed form, index
//    round(k(s+1)/(k+1)) counted from the worst, is E_index when nothing fails, one index nearer
//    the optimum; it cannot count failed draws, hence the exact sum here. Over time,
//    B(t) = B(x) with x = clamp(t / c, 1, n), linear between the integers around x
//    (baseline.py time_to_fevals: max(round(t / c), 1), then a PCHIP smoothing of the steps).
// 2. Cutoffs (searchspace_statistics.py objective_performance_at_cutoff_point, cutoff_point,
//    cutoff_point_fevals_time_start_end): for a percentile p, target T(p) = v_0 + (m - v_0)(1-p);
//    j = the last index with v_j <= T(p), one worse (j + 1) if v_j is the optimum; the cutoff
//    objective is v_j and the cutoff evaluations K(p) the least k with B(k) <= v_j. With
//    K0 = K(cutoff_percentile_start = 0.01) and K1 = K(cutoff_percentile = 0.95): if K1 - K0 < 2,
//    K1 += 1 (at most n) and K0 -= 1 (the package's K0 == 0 case cannot arise: K >= 1). The
//    scored time range is [K0 c (0 when cutoff_percentile_start == 0), K1 c] (the package
//    multiplies by the median seconds of an evaluation; SpaceStatistics has the mean, which the
//    baseline's clock uses too); each strategy's run gets budget = K1 c (1 + 0.1)
//    (experiments.py calculate_budget, cutoff_margin).
// 3. Strategy curve (runner.py + curves.py StochasticOptimizationAlgorithm.get_curve_over_time):
//    per repeat, b_r(t) = the best objective among its evaluations finished by t (undefined before
//    its first success). rank: S(t) = v[round(mean_r index(b_r(t)))], index = position in the
//    sorted v (numpy searchsorted, side left); objective: S(t) = mean_r b_r(t); both over the
//    repeats with b_r(t) defined. Where none has one, S takes its first defined value later in
//    the range (the package's isotonic regression clips), or v_{s-1} if there is none. The
//    package fits a bootstrap-bagged isotonic regression to the pooled (time, index) points of
//    all repeats, an estimate of this mean that is random; the exact step functions need none.
// 4. Performance (baseline.py Baseline.get_standardised_curves): at R = 1000 times evenly over
//    the range (report_experiments.py get_aggregation_data, np.linspace(start, end, resolution)),
//      P(t) = (B(t) - S(t)) / (B(t) - v_0):  random search 0, the optimum 1, worse than random < 0.
//    Points where B(t) == v_0 are NaN and left out (the package raises there). Score of a space
//    = mean of P over the points; over spaces (report_experiments.py
//    get_strategies_aggregated_performance, get_strategy_scores): the pointwise mean of the
//    spaces' curves, score = its mean, error = its standard deviation.
// 5. Near-optimal evaluations (ktune's target, not the package's): the evaluations (failed ones
//    included) a repeat needs until an objective <= v_0 / 0.95 (95% of the optimum's
//    performance); its median over repeats (a repeat that never gets there counts as infinite)
//    against random search's expected (n + 1) / (g + 1), g = the successful configurations
//    within the target (the expected position of the first of g marked items in a random order).

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/simulate/random_search_timeline.h"
#include "ktune/simulate/trace.h"

namespace ktune::simulate {

// How a baseline and a strategy's repeats are averaged: by the index of the objective in the
// sorted distribution (the package's way; robust to a few very slow configurations) or by the
// objective itself.
enum class Averaging { rank, objective };

struct MethodologyOptions {
  double cutoff_percentile = 0.95;        // experiments_defaults.json statistics_settings
  double cutoff_percentile_start = 0.01;  // experiments_defaults.json statistics_settings
  std::size_t resolution = 1000;          // experiments_defaults.json visualization_settings
  double budget_margin = 0.1;             // experiments.py calculate_budget cutoff_margin
  Averaging averaging = Averaging::rank;
  double near_optimal_fraction = 0.95;    // item 5: within optimum / 0.95
  // Random orders simulated for the baseline when the space gives every configuration's cost
  // (SpaceStatistics::outcomes; random_search_timeline.h); 0: the analytic baseline at the mean
  // cost per draw, as the package computes it.
  std::size_t baseline_orders = 2000;
};

// Item 1: the analytic random-search baseline of one space. Throws std::invalid_argument when
// the space has no successful configuration, fewer configurations than successes, or a
// non-positive mean_evaluation_seconds.
class RandomBaseline {
 public:
  // simulated_orders > 0 and space.outcomes given: B(t) from that many simulated random orders
  // charged each configuration's own cost (at_seconds; cutoff_time_range's times follow it).
  RandomBaseline(const SpaceStatistics& space, Averaging averaging, std::size_t simulated_orders = 0);
  bool simulated() const { return timeline_ && !timeline_->empty(); }

  const std::vector<double>& sorted() const { return sorted_; }  // successful, ascending
  std::size_t configurations() const { return configurations_; }
  double seconds_per_evaluation() const { return seconds_per_evaluation_; }
  double optimum() const { return sorted_.front(); }
  double median() const;
  std::size_t index_of(double objective) const;  // searchsorted left, at most s - 1

  // Exact expectations over k draws (k clamped to [1, n]), given at least one success.
  double expected_best_index(std::size_t k) const;
  double expected_best_objective(std::size_t k) const;
  double at_evaluations(std::size_t k) const;  // B(k)
  double at_seconds(double seconds) const;     // B(t)
  // Least k with B(k) <= objective (n when objective < every B(k) but B(n) = optimum).
  std::size_t evaluations_to_reach(double objective) const;
  // Expected draws until the first configuration with objective <= `objective` ((n+1)/(g+1)).
  double expected_draws_to_reach(double objective) const;

 private:
  std::vector<double> sorted_;
  std::size_t configurations_ = 0;
  double seconds_per_evaluation_ = 0;
  Averaging averaging_;
  std::shared_ptr<const RandomSearchTimeline> timeline_;
};

// Item 2.
struct TimeRange {
  double start_cutoff_objective = 0, end_cutoff_objective = 0;
  std::size_t start_evaluations = 0, end_evaluations = 0;
  double start_seconds = 0, end_seconds = 0;
  double budget_seconds = 0;  // what each strategy's run may spend
};
TimeRange cutoff_time_range(const RandomBaseline& baseline, const MethodologyOptions& options);

// The objective of `baseline` at a percentile of the way from the median to the optimum.
double cutoff_objective(const RandomBaseline& baseline, double percentile);

// Item 3. `repeats` are one strategy's traces on the baseline's space; `seconds` ascending.
std::vector<double> strategy_curve(const RandomBaseline& baseline, std::span<const Trace> repeats,
                                   std::span<const double> seconds, Averaging averaging);

// Item 4.
struct PerformanceCurve {
  std::vector<double> seconds;
  std::vector<double> performance;  // NaN where the baseline is at the optimum
  double score = 0;                 // mean of the non-NaN points; NaN if none
};
std::vector<double> sample_times(const TimeRange& range, std::size_t resolution);
PerformanceCurve performance_curve(const RandomBaseline& baseline, const TimeRange& range,
                                   std::span<const Trace> repeats, const MethodologyOptions& options);

// Item 5.
struct NearOptimal {
  double target_objective = 0;
  std::optional<double> median_evaluations;  // nullopt: the median repeat never got there
  double random_expected_evaluations = 0;
  std::optional<double> fraction;            // median / random expectation
  std::size_t repeats_reached = 0;
};
std::optional<std::size_t> evaluations_to_reach(const Trace& trace, double objective);
NearOptimal near_optimal_evaluations(const RandomBaseline& baseline, std::span<const Trace> repeats,
                                     double fraction_of_optimum = 0.95);

// One space, every strategy whose traces are given (grouped by Trace::strategy, in order of
// first appearance). A trace naming another space throws std::invalid_argument.
struct StrategyResult {
  std::string strategy;
  std::size_t repeats = 0;
  PerformanceCurve curve;
  NearOptimal near_optimal;
};
struct SpaceResult {
  std::string space;
  std::size_t configurations = 0, successful = 0;
  double optimum = 0, median = 0;
  TimeRange range;
  MethodologyOptions options;
  std::vector<StrategyResult> strategies;
};
SpaceResult evaluate_space(const SpaceStatistics& space, std::span<const Trace> traces,
                           const MethodologyOptions& options = {});

// Over spaces: per strategy, over the spaces that have it (the package requires all).
struct AggregateScore {
  std::string strategy;
  double score = 0;
  double error = 0;  // standard deviation over time of the spaces' mean curve
  std::size_t spaces = 0;
};
std::vector<AggregateScore> aggregate_scores(std::span<const SpaceResult> spaces);

// plot_points: curve points written, evenly spread over the range (0: every point).
nlohmann::json to_json(const SpaceResult& result, std::size_t plot_points = 100);
nlohmann::json to_json(std::span<const AggregateScore> scores);

}  // namespace ktune::simulate
