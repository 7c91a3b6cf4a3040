#include "ktune/simulate/methodology.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace ktune::simulate {
namespace {

// A space as the tests build it: per configuration its objective (nullopt: failed) and cost.
struct TestSpace {
  std::vector<std::optional<double>> objectives;
  std::vector<double> seconds;
  SpaceStatistics statistics(const std::string& name = "s") const {
    SpaceStatistics out{name, {}, objectives.size(), 0, {}};
    for (const auto& o : objectives)
      if (o) out.objectives.push_back(*o);
    out.mean_evaluation_seconds =
        std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(seconds.size());
    return out;
  }
};

TestSpace uniform_cost(std::vector<std::optional<double>> objectives, double seconds) {
  TestSpace space{std::move(objectives), {}};
  space.seconds.assign(space.objectives.size(), seconds);
  return space;
}

TestSpace one_to_nine() {  // objectives 1..9, 2 s each: the hand examples
  std::vector<std::optional<double>> v;
  for (int i = 1; i <= 9; ++i) v.push_back(static_cast<double>(i));
  return uniform_cost(v, 2.0);
}

// Evaluates configurations in `order` until the clock passes `budget`.
Trace run(const TestSpace& space, const std::vector<std::size_t>& order, double budget,
          const std::string& strategy, std::uint64_t seed = 0) {
  Trace trace{"s", strategy, seed, {}};
  double clock = 0;
  for (std::size_t i : order) {
    if (clock >= budget) break;
    clock += space.seconds[i];
    trace.points.push_back({clock, space.objectives[i]});
  }
  return trace;
}

Trace random_trace(const TestSpace& space, double budget, std::uint64_t seed) {
  std::vector<std::size_t> order(space.objectives.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  return run(space, order, budget, "random", seed);
}

Trace trace_of(std::vector<std::pair<double, std::optional<double>>> points, const std::string& strategy = "x") {
  Trace trace{"s", strategy, 0, {}};
  for (auto [t, o] : points) trace.points.push_back({t, o});
  return trace;
}

// Lognormal objectives with some failures; costs in [0.5, 1.5] s, failures cheaper.
TestSpace realistic_space(std::size_t n, std::size_t failures, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 0.6);
  std::uniform_real_distribution<double> cost(0.5, 1.5);
  TestSpace space;
  for (std::size_t i = 0; i < n; ++i) {
    const bool failed = i < failures;
    space.objectives.push_back(failed ? std::nullopt : std::optional<double>(1e-3 * std::exp(normal(rng))));
    space.seconds.push_back(failed ? 0.3 * cost(rng) : cost(rng));
  }
  return space;
}

// ---- item 1: the baseline ---------------------------------------------------------------------

TEST(RandomBaseline, MatchesEnumerationOfEverySubset) {
  // 7 successes with ties, 3 failures: every subset of every size k.
  const std::vector<double> values = {3, 1, 4, 1, 5, 9, 2};
  std::vector<std::optional<double>> objectives(values.begin(), values.end());
  objectives.insert(objectives.end(), 3, std::nullopt);
  const TestSpace space = uniform_cost(objectives, 1.0);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = 10, s = 7;  // item i < s is sorted[i]; items s.. fail
  const RandomBaseline baseline(space.statistics(), Averaging::objective);
  for (std::size_t k = 1; k <= n; ++k) {
    double index_sum = 0, objective_sum = 0, subsets = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      if (static_cast<std::size_t>(std::popcount(mask)) != k) continue;
      const auto best = static_cast<std::size_t>(std::countr_zero(mask));  // lowest item drawn
      if (best >= s) continue;  // nothing found: conditioned away
      index_sum += static_cast<double>(best);
      objective_sum += sorted[best];
      subsets += 1;
    }
    EXPECT_NEAR(baseline.expected_best_index(k), index_sum / subsets, 1e-12) << "k=" << k;
    EXPECT_NEAR(baseline.expected_best_objective(k), objective_sum / subsets, 1e-12) << "k=" << k;
    EXPECT_DOUBLE_EQ(baseline.at_evaluations(k), baseline.expected_best_objective(k));
  }
}

TEST(RandomBaseline, LargeSpaceWithoutFailuresMatchesClosedForm) {
  // Nothing fails: E[index of the best of k among n] = (n - k) / (k + 1) exactly.
  const std::size_t n = 100000;
  SpaceStatistics stats{"big", {}, n, 1.0, {}};
  for (std::size_t i = 0; i < n; ++i) stats.objectives.push_back(static_cast<double>(n - i));
  const RandomBaseline baseline(stats, Averaging::rank);
  for (std::size_t k : {1, 2, 10, 1000, 50000, 99999, 100000}) {
    const double expected = static_cast<double>(n - k) / static_cast<double>(k + 1);
    EXPECT_NEAR(baseline.expected_best_index(k), expected, 1e-9 * std::max(1.0, expected)) << "k=" << k;
  }
  EXPECT_EQ(baseline.at_evaluations(n), 1.0);
  EXPECT_EQ(baseline.at_evaluations(2), 33334.0);  // v[round(99998 / 3)] = v[33333]
}

TEST(RandomBaseline, LargeSpaceWithFailuresMatchesMonteCarlo) {
  const std::size_t n = 100000, s = 20000, k = 10, trials = 20000;
  SpaceStatistics stats{"big", {}, n, 1.0, {}};
  for (std::size_t i = 0; i < s; ++i) stats.objectives.push_back(static_cast<double>(i));
  const RandomBaseline baseline(stats, Averaging::rank);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  double sum = 0, sum_sq = 0, found = 0;
  for (std::size_t t = 0; t < trials; ++t) {
    std::set<std::size_t> drawn;
    while (drawn.size() < k) drawn.insert(pick(rng));
    if (*drawn.begin() >= s) continue;
    const auto best = static_cast<double>(*drawn.begin());
    sum += best;
    sum_sq += best * best;
    found += 1;
  }
  const double mean = sum / found, error = std::sqrt((sum_sq / found - mean * mean) / found);
  EXPECT_NEAR(baseline.expected_best_index(k), mean, 5 * error);
}

TEST(RandomBaseline, OverTimeInterpolatesBetweenEvaluations) {
  const RandomBaseline baseline(one_to_nine().statistics(), Averaging::objective);
  EXPECT_DOUBLE_EQ(baseline.at_seconds(0), baseline.at_evaluations(1));  // at least one draw
  EXPECT_DOUBLE_EQ(baseline.at_seconds(6), baseline.at_evaluations(3));
  EXPECT_DOUBLE_EQ(baseline.at_seconds(5), (baseline.at_evaluations(2) + baseline.at_evaluations(3)) / 2);
  EXPECT_DOUBLE_EQ(baseline.at_seconds(1000), 1.0);
  EXPECT_NEAR(baseline.at_evaluations(3), 10.0 / 4, 1e-12);  // 1 + (9 - 3) / (3 + 1)
  EXPECT_DOUBLE_EQ(baseline.expected_draws_to_reach(2.5), 10.0 / 3);  // (n + 1) / (g + 1)
}

TEST(RandomBaseline, RejectsDegenerateSpaces) {
  EXPECT_THROW(RandomBaseline(SpaceStatistics{"none", {}, 5, 1.0, {}}, Averaging::rank), std::invalid_argument);
  EXPECT_THROW(RandomBaseline(SpaceStatistics{"clock", {1, 2}, 2, 0.0, {}}, Averaging::rank), std::invalid_argument);
  const RandomBaseline flat(SpaceStatistics{"flat", {2, 2, 2}, 4, 1.0, {}}, Averaging::rank);
  EXPECT_THROW(cutoff_time_range(flat, {}), std::invalid_argument);
}

// ---- item 2: the cutoffs ----------------------------------------------------------------------

TEST(Cutoff, HandExample) {
  // median 5, optimum 1. End: target 1 + 4 * 0.05 = 1.2 holds only the optimum, so one worse: 2;
  // E[index](k) = (9 - k)/(k + 1) is 1.5 at k = 3 (rounds to 2: value 3), 1 at k = 4 (value 2).
  // Start: target 1 + 4 * 0.99 = 4.96, value 4; E[index](2) = 2.33 -> value 3 <= 4, k = 1 gives 5.
  for (Averaging averaging : {Averaging::rank, Averaging::objective}) {  // objective: 10 / (k+1)
    const RandomBaseline baseline(one_to_nine().statistics(), averaging);
    const TimeRange range = cutoff_time_range(baseline, {});
    EXPECT_EQ(range.end_cutoff_objective, 2);
    EXPECT_EQ(range.start_cutoff_objective, 4);
    EXPECT_EQ(range.start_evaluations, 2u);
    EXPECT_EQ(range.end_evaluations, 4u);
    EXPECT_DOUBLE_EQ(range.start_seconds, 4);
    EXPECT_DOUBLE_EQ(range.end_seconds, 8);
    EXPECT_DOUBLE_EQ(range.budget_seconds, 8.8);
  }
}

TEST(Cutoff, SafeMarginWhenStartAndEndMeet) {
  // {1, 2, 10, 10, 10}: both cutoffs are 2 (median 10; 9.91 and 1.45 -> one worse than the
  // optimum), reached at k = 2 (E[index] = 3/3 = 1); the margin widens [2, 2] to [1, 3].
  const RandomBaseline baseline(uniform_cost({1.0, 2.0, 10.0, 10.0, 10.0}, 3.0).statistics(), Averaging::rank);
  const TimeRange range = cutoff_time_range(baseline, {});
  EXPECT_EQ(range.start_cutoff_objective, 2);
  EXPECT_EQ(range.end_cutoff_objective, 2);
  EXPECT_EQ(range.start_evaluations, 1u);
  EXPECT_EQ(range.end_evaluations, 3u);
  EXPECT_DOUBLE_EQ(range.start_seconds, 3);
  EXPECT_DOUBLE_EQ(range.end_seconds, 9);
  MethodologyOptions from_zero;
  from_zero.cutoff_percentile_start = 0;
  EXPECT_DOUBLE_EQ(cutoff_time_range(baseline, from_zero).start_seconds, 0);
}

// ---- items 3 and 4: curves and scores ---------------------------------------------------------

double random_search_score(Averaging averaging) {
  const TestSpace space = realistic_space(600, 60, 3);
  MethodologyOptions options;
  options.averaging = averaging;
  const RandomBaseline baseline(space.statistics(), averaging);
  const TimeRange range = cutoff_time_range(baseline, options);
  std::vector<Trace> traces;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) traces.push_back(random_trace(space, range.budget_seconds, seed));
  return evaluate_space(space.statistics(), traces, options).strategies.at(0).curve.score;
}

TEST(Score, RandomSearchOverManySeedsScoresZero) {
  EXPECT_NEAR(random_search_score(Averaging::rank), 0.0, 0.03);
  EXPECT_NEAR(random_search_score(Averaging::objective), 0.0, 0.03);
}

TEST(Score, OptimumAtTheFirstEvaluationScoresOne) {
  const TestSpace space = realistic_space(300, 30, 5);
  const SpaceStatistics stats = space.statistics();
  std::vector<std::size_t> order(space.objectives.size());
  std::iota(order.begin(), order.end(), 0);
  const auto best = static_cast<std::size_t>(
      std::min_element(space.objectives.begin() + 30, space.objectives.end()) - space.objectives.begin());
  std::swap(order[0], order[best]);
  for (Averaging averaging : {Averaging::rank, Averaging::objective}) {
    MethodologyOptions options;
    options.averaging = averaging;
    const Trace trace = run(space, order, 1e9, "lucky");
    const SpaceResult result = evaluate_space(stats, std::vector<Trace>{trace}, options);
    EXPECT_NEAR(result.strategies.at(0).curve.score, 1.0, 1e-12);
  }
}

TEST(Score, WorseThanRandomScoresNegative) {
  const TestSpace space = realistic_space(300, 30, 5);
  std::vector<std::size_t> order(space.objectives.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin() + 30, order.end(),  // failures first, then the worst first
            [&](std::size_t a, std::size_t b) { return *space.objectives[a] > *space.objectives[b]; });
  const SpaceResult result = evaluate_space(space.statistics(), std::vector<Trace>{run(space, order, 1e9, "bad")});
  EXPECT_LT(result.strategies.at(0).curve.score, -0.5);
}

TEST(Score, RepeatsWithoutSuccessAreLeftOutOfTheMean) {
  // 1..9 at 2 s: range [4, 8] s; B(t) at 8 s is v[round((9-4)/5)] = 2.
  const SpaceStatistics stats = one_to_nine().statistics();
  const Trace found = trace_of({{1, 1.0}});
  const Trace late = trace_of({{1, std::nullopt}, {3, std::nullopt}, {6, 9.0}});
  const SpaceResult result = evaluate_space(stats, std::vector<Trace>{found, late});
  const PerformanceCurve& curve = result.strategies.at(0).curve;
  EXPECT_EQ(curve.seconds.size(), 1000u);
  EXPECT_DOUBLE_EQ(curve.performance.front(), 1.0);  // only `found` counts before 6 s
  // From 6 s the mean index is (0 + 8) / 2 = 4: objective 5, performance (2 - 5) / (2 - 1).
  EXPECT_DOUBLE_EQ(curve.performance.back(), -3.0);
}

TEST(Score, FailuresBeforeTheFirstSuccess) {
  const SpaceStatistics stats = one_to_nine().statistics();
  const RandomBaseline baseline(stats, Averaging::rank);
  const TimeRange range = cutoff_time_range(baseline, {});
  // Failed until 6 s, then the optimum: the package's clipping takes it back to 4 s.
  const Trace late_optimum = trace_of({{2, std::nullopt}, {4.5, std::nullopt}, {6, 1.0}});
  EXPECT_NEAR(performance_curve(baseline, range, std::vector<Trace>{late_optimum}, {}).score, 1.0, 1e-12);
  // Nothing found in the range at all: the worst objective, far below random.
  const Trace failing = trace_of({{2, std::nullopt}, {4, std::nullopt}, {9, 1.0}});
  const PerformanceCurve curve = performance_curve(baseline, range, std::vector<Trace>{failing}, {});
  const double b = baseline.at_seconds(range.start_seconds);
  EXPECT_DOUBLE_EQ(curve.performance.front(), (b - 9) / (b - 1));
  EXPECT_LT(curve.score, -1.0);
}

// ---- item 5: evaluations to 95% of the optimum --------------------------------------------------

TEST(NearOptimal, HandExample) {
  // Target 1 / 0.95 = 1.0526: 1.0 and 1.04 qualify (g = 2), random needs (10 + 1) / 3.
  std::vector<std::optional<double>> v = {1.0, 1.04, 1.2, 1.5, 2.0, 3.0, 4.0, 5.0, std::nullopt, std::nullopt};
  const RandomBaseline baseline(uniform_cost(v, 1.0).statistics(), Averaging::rank);
  const Trace a = trace_of({{1, 2.0}, {2, std::nullopt}, {3, 1.04}, {4, 1.0}});      // 3
  const Trace b = trace_of({{1, 1.5}, {2, 1.0}});                                    // 2
  const Trace c = trace_of({{1, std::nullopt}, {2, std::nullopt}, {3, 3.0}, {4, 4.0}, {5, 1.0}});  // 5
  const Trace never = trace_of({{1, 5.0}, {2, 4.0}});
  NearOptimal three = near_optimal_evaluations(baseline, std::vector<Trace>{a, b, c});
  EXPECT_NEAR(three.target_objective, 1 / 0.95, 1e-15);
  EXPECT_DOUBLE_EQ(three.random_expected_evaluations, 11.0 / 3);
  ASSERT_TRUE(three.median_evaluations);
  EXPECT_DOUBLE_EQ(*three.median_evaluations, 3);
  EXPECT_DOUBLE_EQ(*three.fraction, 9.0 / 11);
  EXPECT_EQ(three.repeats_reached, 3u);
  NearOptimal four = near_optimal_evaluations(baseline, std::vector<Trace>{a, b, c, never});
  EXPECT_DOUBLE_EQ(*four.median_evaluations, 4);  // (3 + 5) / 2; `never` counts as infinite
  EXPECT_EQ(four.repeats_reached, 3u);
  NearOptimal mostly_never = near_optimal_evaluations(baseline, std::vector<Trace>{a, never, never});
  EXPECT_FALSE(mostly_never.median_evaluations);
  EXPECT_FALSE(mostly_never.fraction);
}

// ---- over spaces, JSON --------------------------------------------------------------------------

TEST(Aggregate, MeanOverTwoSpaces) {
  const SpaceStatistics first = one_to_nine().statistics("first");
  const SpaceStatistics second = realistic_space(300, 30, 9).statistics("second");
  std::vector<Trace> traces_first = {trace_of({{1, 1.0}}, "a"), trace_of({{1, 3.0}, {5, 2.0}}, "b")};
  std::vector<Trace> traces_second = {trace_of({{0.5, second.objectives[40]}}, "a")};
  for (Trace& t : traces_first) t.space = "first";
  for (Trace& t : traces_second) t.space = "second";
  const std::vector<SpaceResult> spaces = {evaluate_space(first, traces_first),
                                           evaluate_space(second, traces_second)};
  const std::vector<AggregateScore> scores = aggregate_scores(spaces);
  ASSERT_EQ(scores.size(), 2u);
  EXPECT_EQ(scores[0].strategy, "a");
  EXPECT_EQ(scores[0].spaces, 2u);
  const PerformanceCurve& a1 = spaces[0].strategies[0].curve;
  const PerformanceCurve& a2 = spaces[1].strategies[0].curve;
  EXPECT_NEAR(scores[0].score, (a1.score + a2.score) / 2, 1e-12);
  double squares = 0;
  for (std::size_t i = 0; i < a1.performance.size(); ++i) {
    const double d = (a1.performance[i] + a2.performance[i]) / 2 - scores[0].score;
    squares += d * d;
  }
  EXPECT_NEAR(scores[0].error, std::sqrt(squares / static_cast<double>(a1.performance.size())), 1e-12);
  EXPECT_EQ(scores[1].strategy, "b");
  EXPECT_EQ(scores[1].spaces, 1u);
  EXPECT_DOUBLE_EQ(scores[1].score, spaces[0].strategies[1].curve.score);
  const nlohmann::json json = to_json(std::span<const AggregateScore>(scores));
  EXPECT_EQ(json["b"]["spaces"], 1);
  // A trace of another space is refused.
  EXPECT_THROW(evaluate_space(first, traces_second), std::invalid_argument);
}

TEST(Json, SpaceResult) {
  const SpaceStatistics stats = one_to_nine().statistics();
  const SpaceResult result = evaluate_space(stats, std::vector<Trace>{trace_of({{1, 1.0}}, "a")});
  const nlohmann::json json = to_json(result, 50);
  EXPECT_EQ(json["space"], "s");
  EXPECT_DOUBLE_EQ(json["budget_seconds"].get<double>(), 8.8);
  EXPECT_EQ(json["averaging"], "rank");
  EXPECT_EQ(json["time_range"]["end_evaluations"], 4);
  const nlohmann::json& a = json["strategies"]["a"];
  EXPECT_DOUBLE_EQ(a["score"].get<double>(), 1.0);
  ASSERT_EQ(a["curve"].size(), 50u);
  EXPECT_DOUBLE_EQ(a["curve"][0][0].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(a["curve"][49][0].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(a["evaluations_to_near_optimal"]["median"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(a["evaluations_to_near_optimal"]["random_expected"].get<double>(), 10.0 / 2);
  EXPECT_EQ(to_json(result, 0)["strategies"]["a"]["curve"].size(), 1000u);
}

}  // namespace
}  // namespace ktune::simulate
