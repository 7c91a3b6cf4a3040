#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ktune/measure/clock.h"
#include "ktune/measure/measurement.h"
#include "ktune/measure/policy.h"
#include "ktune/measure/stats.h"
#include "ktune/measure/stopping.h"
#include "ktune/measure/throughput.h"

namespace ktune::measure {
namespace {

// Binary fractions keep sums of fake times exact, so counts can be asserted exactly.
constexpr double kMs = 1.0 / 1024;  // ~0.98 ms

// A synthetic kernel: sample i takes next(i) seconds, plus `overhead` of untimed wall time.
class ScriptedSource : public SampleSource {
 public:
  ScriptedSource(FakeClock& clock, std::function<Sample(int)> next, double warmup_time = kMs, double overhead = 0)
      : clock_(clock), next_(std::move(next)), warmup_time_(warmup_time), overhead_(overhead) {}
  Sample sample() override {
    Sample s = next_(calls_++);
    clock_.advance(s.seconds + overhead_);
    return s;
  }
  void warmup_run() override { clock_.advance(warmup_time_); }
  int calls() const { return calls_; }

 private:
  FakeClock& clock_;
  std::function<Sample(int)> next_;
  double warmup_time_;
  double overhead_;
  int calls_ = 0;
};

// Deterministic pseudo-random fraction in [0, 1) (no dependence on <random> distributions).
double hash_fraction(int i) {
  std::uint64_t x = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

Sample constant(int) { return {kMs}; }
Sample noisy(int i) { return {kMs * (1.0 + 0.5 * hash_fraction(i))}; }  // ~14% robust noise, no trend

Stats incumbent_with_median(double median) {
  std::vector<double> v{median};
  return summarize(v);
}

// ---- Stats -------------------------------------------------------------------------------------

TEST(Stats, OddCountHandComputed) {
  std::vector<double> v{10, 3, 1, 4, 2};
  Stats s = summarize(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(50.0 / 4));  // squared deviations 9+4+1+0+36
  EXPECT_DOUBLE_EQ(s.rel_stdev, std::sqrt(12.5) / 4);
}

TEST(Stats, EvenCountInterpolatesQuartiles) {
  std::vector<double> v{4, 1, 3, 2};
  Stats s = summarize(v);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);  // h = 0.75
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);  // h = 2.25
  EXPECT_DOUBLE_EQ(robust_noise(s), 1.5 / 1.349 / 2.5);
}

TEST(Stats, EmptyAndSingle) {
  EXPECT_EQ(summarize({}), Stats{});
  std::vector<double> one{7};
  Stats s = summarize(one);
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_DOUBLE_EQ(s.q1, 7);
  EXPECT_DOUBLE_EQ(s.q3, 7);
  EXPECT_DOUBLE_EQ(s.stdev, 0);
  EXPECT_DOUBLE_EQ(robust_noise(s), 0);
}

TEST(Stats, RejectsNonFinite) {
  std::vector<double> v{1, NAN, 2};
  EXPECT_THROW(summarize(v), std::invalid_argument);
}

TEST(Stats, SelectionQuartilesMatchSorting) {
  std::vector<double> scratch;
  for (int n : {1, 2, 3, 7, 64, 1001}) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(hash_fraction(i + 17 * n));
    Stats s = summarize(v);
    Quartiles q = quartiles(v, scratch);
    EXPECT_DOUBLE_EQ(q.q1, s.q1) << n;
    EXPECT_DOUBLE_EQ(q.median, s.median) << n;
    EXPECT_DOUBLE_EQ(q.q3, s.q3) << n;
  }
}

TEST(Stats, JsonRoundTrip) {
  std::vector<double> v{1e-3, 2e-3, 5e-3};
  Stats s = summarize(v);
  EXPECT_EQ(stats_from_json(stats_to_json(s)), s);
  auto j = stats_to_json(s);
  j.erase("q3");
  try {
    stats_from_json(j);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("q3"), std::string::npos);
  }
}

// ---- Policy ------------------------------------------------------------------------------------

TEST(Policy, JsonRoundTripAndPartialOverride) {
  Policy p;
  p.min_samples = 20;
  p.max_noise = 0.01;
  p.racing = false;
  p.timeout_seconds = 3;
  EXPECT_EQ(policy_from_json(policy_to_json(p)), p);

  Policy q = policy_from_json(nlohmann::json{{"max_samples", 500}}, p);
  EXPECT_EQ(q.max_samples, 500);
  EXPECT_EQ(q.min_samples, 20);  // kept from base
  EXPECT_FALSE(q.racing);
  EXPECT_EQ(policy_from_json(nlohmann::json::object()), Policy{});
}

void expect_policy_error(const nlohmann::json& j, const std::string& needle) {
  try {
    policy_from_json(j);
    FAIL() << "expected an error for " << j.dump();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Policy, ErrorsNameTheKey) {
  expect_policy_error({{"min_sample", 3}}, "'min_sample'");
  expect_policy_error({{"min_samples", "ten"}}, "'min_samples'");
  expect_policy_error({{"min_samples", 2.5}}, "'min_samples'");
  expect_policy_error({{"racing", 1}}, "'racing'");
  expect_policy_error({{"min_samples", 0}}, "'min_samples'");
  expect_policy_error({{"timeout_seconds", 0}}, "'timeout_seconds'");
  expect_policy_error({{"throttle_fraction", 1.5}}, "'throttle_fraction'");
  expect_policy_error({{"max_samples", 5}}, "'max_samples'");  // below min_samples = 10
  expect_policy_error(nlohmann::json::array(), "object");
  EXPECT_EQ(policy_from_json({{"min_samples", 4.0}}).min_samples, 4);  // integral float is fine
  expect_policy_error({{"cache", "cold"}}, "'cache'");
  expect_policy_error({{"cache", true}}, "'cache'");
}

TEST(Policy, CacheModeDefaultsToFlushAndRoundTrips) {
  EXPECT_EQ(Policy{}.cache, CacheMode::Flush);
  EXPECT_EQ(policy_to_json(Policy{}).at("cache"), "flush");
  for (CacheMode mode : {CacheMode::Flush, CacheMode::Rotate, CacheMode::Warm}) {
    Policy p;
    p.cache = mode;
    const nlohmann::json j = policy_to_json(p);
    EXPECT_EQ(j.at("cache"), std::string(to_string(mode)));
    EXPECT_EQ(policy_from_json(j), p);
    EXPECT_EQ(cache_mode_from_string(to_string(mode)), mode);
  }
  EXPECT_EQ(policy_from_json({{"cache", "rotate"}}).cache, CacheMode::Rotate);
  EXPECT_EQ(policy_from_json({{"cache", "warm"}}).cache, CacheMode::Warm);
  Policy rotating;
  rotating.cache = CacheMode::Rotate;
  EXPECT_EQ(policy_from_json({{"min_samples", 12}}, rotating).cache, CacheMode::Rotate);  // kept from base
  EXPECT_THROW(cache_mode_from_string("Flush"), std::invalid_argument);
}

TEST(Policy, L2FlushDefaultsToDirtyWhichTheJsonLeavesOut) {
  // Policies recorded before the key existed must read back equal to today's default.
  EXPECT_EQ(Policy{}.l2_flush, L2Flush::Dirty);
  EXPECT_FALSE(policy_to_json(Policy{}).contains("l2_flush"));
  Policy clean;
  clean.l2_flush = L2Flush::Clean;
  EXPECT_EQ(policy_to_json(clean).at("l2_flush"), "clean");
  EXPECT_EQ(policy_from_json(policy_to_json(clean)), clean);
  EXPECT_EQ(policy_from_json({{"l2_flush", "dirty"}}).l2_flush, L2Flush::Dirty);
  EXPECT_EQ(policy_from_json({{"min_samples", 12}}, clean).l2_flush, L2Flush::Clean);  // kept from base
  EXPECT_NE(clean, Policy{});
  EXPECT_THROW(policy_from_json({{"l2_flush", "Clean"}}), std::invalid_argument);
  EXPECT_THROW(policy_from_json({{"l2_flush", true}}), std::invalid_argument);
  EXPECT_EQ(l2_flush_from_string(to_string(L2Flush::Clean)), L2Flush::Clean);
}

TEST(StopReason, StringsRoundTrip) {
  for (auto r : {StopReason::Converged, StopReason::NoiseStable, StopReason::MaxSamples, StopReason::Timeout,
                 StopReason::Raced, StopReason::MaxTime})
    EXPECT_EQ(stop_reason_from_string(to_string(r)), r);
  EXPECT_EQ(to_string(StopReason::NoiseStable), "noise_stable");
  EXPECT_THROW(stop_reason_from_string("done"), std::invalid_argument);
}

// ---- The loop ----------------------------------------------------------------------------------

TEST(Loop, ConvergesOnQuietKernelAtMinSeconds) {
  FakeClock clock;
  ScriptedSource source(clock, constant);
  Measurement m = run_measurement(source, Policy{}, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Converged);
  EXPECT_EQ(m.samples.size(), 512u);  // 0.5 s of ~0.98 ms samples
  EXPECT_EQ(m.stats.count, 512u);
  EXPECT_DOUBLE_EQ(m.measured_seconds, 0.5);
  EXPECT_EQ(m.warmup_runs, 21);  // 0.02 s of warmup, rounded up to whole runs
  EXPECT_DOUBLE_EQ(m.wall_seconds, (21 + 512) * kMs);
  EXPECT_EQ(m.discarded_samples, 0);
  EXPECT_DOUBLE_EQ(m.stats.median, kMs);
}

TEST(Loop, ConvergesOnlyAfterMinSamples) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{0.25}; });
  Policy p;
  p.min_samples = 10;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Converged);
  EXPECT_EQ(m.samples.size(), 10u);  // min_seconds passed after 2 samples; min_samples rules
}

TEST(Loop, NoisyKernelStopsWhenNoiseStabilises) {
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  Measurement m = run_measurement(source, Policy{}, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::NoiseStable);
  EXPECT_GE(m.measured_seconds, 0.5);  // never before min_seconds
  EXPECT_LT(m.samples.size(), 1000u);  // ...and soon after it
  EXPECT_GT(robust_noise(m.stats), Policy{}.max_noise);
}

TEST(Loop, GrowingNoiseIsNotStable) {
  // The spread keeps widening, so the noise estimate keeps rising: neither criterion may fire.
  FakeClock clock;
  ScriptedSource source(clock, [](int i) { return Sample{kMs * (1.0 + 0.01 * i * hash_fraction(i))}; });
  Policy p;
  p.min_seconds = 0.01;
  p.max_samples = 3000;
  p.timeout_seconds = 1e9;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxSamples);
  EXPECT_EQ(m.samples.size(), 3000u);
}

TEST(Loop, MaxSamples) {
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  Policy p;
  p.max_samples = 50;
  p.min_seconds = 100;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxSamples);
  EXPECT_EQ(m.samples.size(), 50u);
  EXPECT_EQ(source.calls(), 50);
}

TEST(Loop, MaxSecondsCapsMeasuredTimeOnceMinSamplesAreIn) {
  // A noisy millisecond kernel that would run to min_seconds and beyond stops at max_seconds.
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  Policy p;
  p.min_samples = 5;
  p.max_seconds = 0.008;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxTime);
  EXPECT_GE(m.measured_seconds, 0.008);
  EXPECT_LT(m.measured_seconds, 0.008 + 2 * kMs * 1.5);
  // ...but never before min_samples: a 3 ms kernel still gets its 5 samples.
  FakeClock slow_clock;
  ScriptedSource slow(slow_clock, [](int) { return Sample{3 * kMs}; });
  p.max_noise = 0;  // never converged
  Measurement s = run_measurement(slow, p, std::nullopt, slow_clock);
  EXPECT_EQ(s.stop, StopReason::MaxTime);
  EXPECT_EQ(s.samples.size(), 5u);
}

TEST(Policy, MaxSecondsIsValidatedAndRoundTrips) {
  Policy p;
  p.max_seconds = 0.01;
  EXPECT_EQ(policy_from_json(policy_to_json(p)), p);
  EXPECT_THROW(policy_from_json({{"max_seconds", -1}}), std::invalid_argument);
  EXPECT_EQ(Policy{}.max_seconds, 0);  // no cap unless asked
}

TEST(Loop, TimeoutCountsUntimedWallTime) {
  FakeClock clock;
  const double step = 1.0 / 128;  // timed; the same again of untimed overhead per sample
  ScriptedSource source(clock, [&](int i) { return Sample{step * (1 + 0.5 * hash_fraction(i))}; },
                        /*warmup_time=*/2 * step, /*overhead=*/step);
  Policy p;
  p.min_seconds = 100;
  p.timeout_seconds = 1.0;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Timeout);
  EXPECT_GE(m.wall_seconds, 1.0);
  EXPECT_LT(m.measured_seconds, 0.75);  // overhead made wall time run out first
  EXPECT_EQ(m.warmup_runs, 2);          // 2 x 15.6 ms >= 20 ms
}

TEST(Loop, TimeoutDuringWarmupGivesNoSamples) {
  FakeClock clock;
  ScriptedSource source(clock, constant, /*warmup_time=*/2.0);
  Policy p;
  p.timeout_seconds = 1.0;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Timeout);
  EXPECT_EQ(m.warmup_runs, 1);
  EXPECT_TRUE(m.samples.empty());
  EXPECT_EQ(m.stats.count, 0u);
  EXPECT_EQ(source.calls(), 0);
}

TEST(Loop, DiscardedSamplesAreNotStatsButCostWallTime) {
  FakeClock clock;
  // Every third sample throttled and 10x slower: it must not reach the statistics.
  ScriptedSource source(clock, [](int i) { return i % 3 == 2 ? Sample{10 * kMs, false} : Sample{kMs}; });
  Measurement m = run_measurement(source, Policy{}, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Converged);
  EXPECT_EQ(m.samples.size(), 512u);
  EXPECT_EQ(m.discarded_samples, 255);
  EXPECT_DOUBLE_EQ(m.stats.max, kMs);
  EXPECT_DOUBLE_EQ(m.measured_seconds, 0.5);
  EXPECT_DOUBLE_EQ(m.wall_seconds, (21 + 512 + 10 * 255) * kMs);
}

TEST(Loop, AllDiscardedEndsByTimeout) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{1.0 / 128, false}; });
  Policy p;
  p.timeout_seconds = 1.0;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::Timeout);
  EXPECT_EQ(m.discarded_samples, 126);  // (1 s - 2 warmups of 1/1024) / (1/128), rounded up
  // No valid sample: the statistics are the discarded samples' (a GEMM throttled on every
  // sample still has a time), flagged, and never a zero.
  EXPECT_TRUE(m.from_discarded);
  EXPECT_EQ(m.samples.size(), 126u);
  EXPECT_DOUBLE_EQ(m.stats.median, 1.0 / 128);
  EXPECT_TRUE(measurement_from_json(measurement_to_json(m, true)) == m);
}

// A GEMM held at the power limit: every sample discarded as throttled. With a time budget the
// loop stops once min_samples are in and the budget is spent, counting the discarded samples,
// instead of running to max_samples (200 samples of 5.5 ms per screened candidate before).
TEST(Loop, AllDiscardedStopsAtMaxTimeOnceMinSamplesAreIn) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{5.5 * kMs, false}; });
  Policy p;
  p.min_samples = 5;
  p.max_seconds = 0.01;
  p.max_samples = 200;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxTime);
  EXPECT_EQ(m.discarded_samples, 5);  // min_samples: 27.5 ms, past the 10 ms budget
  EXPECT_TRUE(m.from_discarded);
  EXPECT_DOUBLE_EQ(m.stats.median, 5.5 * kMs);
  // Short samples: the budget, not min_samples, ends it (binary fractions: exact sums).
  p.max_seconds = 10.0 / 1024;
  FakeClock clock2;
  ScriptedSource quick(clock2, [](int) { return Sample{1.0 / 1024, false}; });
  m = run_measurement(quick, p, std::nullopt, clock2);
  EXPECT_EQ(m.stop, StopReason::MaxTime);
  EXPECT_EQ(m.discarded_samples, 10);
  // Once min_samples are valid, only valid time counts, as before.
  FakeClock clock3;
  ScriptedSource mixed(clock3, [](int i) { return i % 2 ? Sample{1.0 / 1024, false} : Sample{1.0 / 1024}; });
  m = run_measurement(mixed, p, std::nullopt, clock3);
  EXPECT_EQ(m.stop, StopReason::MaxTime);
  EXPECT_FALSE(m.from_discarded);
  EXPECT_EQ(m.samples.size(), 10u);
}

// Throttled on most samples but not all: once min_samples are valid, valid and discarded time
// together end the loop at four budgets, where valid time alone needed eight times as long.
TEST(Loop, SparseValidSamplesStopAtFourBudgetsOfAllTime) {
  FakeClock clock;
  ScriptedSource source(clock, [](int i) { return i % 8 == 0 ? Sample{1.0 / 1024} : Sample{1.0 / 1024, false}; });
  Policy p;
  p.min_samples = 2;
  p.max_seconds = 10.0 / 1024;
  p.max_samples = 500;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxTime);
  EXPECT_EQ(m.samples.size() + m.discarded_samples, 40u);  // 40 / 1024 s: four budgets
  EXPECT_EQ(m.samples.size(), 5u);
  EXPECT_FALSE(m.from_discarded);
}

TEST(Loop, ValidSamplesAloneMakeTheStatisticsWhenThereAreAny) {
  FakeClock clock;
  ScriptedSource source(clock, [](int i) { return i == 0 ? Sample{kMs} : Sample{1.0 / 128, false}; });
  Policy p;
  p.timeout_seconds = 1.0;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_FALSE(m.from_discarded);
  EXPECT_EQ(m.samples.size(), 1u);
  EXPECT_DOUBLE_EQ(m.stats.median, kMs);
}

TEST(Loop, AllDiscardedWithFrozenClockEndsByDiscardCap) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{0, false}; }, /*warmup_time=*/0.0);
  Policy p;
  p.warmup_seconds = 0;
  p.max_samples = 100;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(m.stop, StopReason::MaxSamples);
  EXPECT_EQ(m.discarded_samples, 100);
  EXPECT_EQ(m.warmup_runs, 1);
}

TEST(Loop, RacedWhenClearlySlowerThanIncumbent) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{1.2 * kMs}; });
  Measurement m = run_measurement(source, Policy{}, incumbent_with_median(kMs), clock);
  EXPECT_EQ(m.stop, StopReason::Raced);
  EXPECT_EQ(m.samples.size(), 3u);  // racing_min_samples
  EXPECT_DOUBLE_EQ(m.stats.median, 1.2 * kMs);
}

TEST(Loop, RacingOffMeasuresFully) {
  FakeClock clock;
  ScriptedSource source(clock, [](int) { return Sample{1.2 * kMs}; });
  Policy p;
  p.racing = false;
  Measurement m = run_measurement(source, p, incumbent_with_median(kMs), clock);
  EXPECT_EQ(m.stop, StopReason::Converged);
  EXPECT_GE(m.measured_seconds, 0.5);
}

TEST(Loop, NotRacedWithinMarginOrWithoutIncumbent) {
  {
    FakeClock clock;
    // 0.5%: inside both the 10% margin and the quartile rule's 1%.
    ScriptedSource source(clock, [](int) { return Sample{1.005 * kMs}; });
    EXPECT_EQ(run_measurement(source, Policy{}, incumbent_with_median(kMs), clock).stop, StopReason::Converged);
  }
  {
    FakeClock clock;
    ScriptedSource source(clock, [](int) { return Sample{2 * kMs}; });
    EXPECT_EQ(run_measurement(source, Policy{}, std::nullopt, clock).stop, StopReason::Converged);
  }
  {
    // One fast sample keeps the minimum rule from racing; the quartile rule still ends the
    // candidate once 10 samples show its typical time is far slower.
    FakeClock clock;
    ScriptedSource source(clock, [](int i) { return Sample{i == 1 ? kMs : 1.5 * kMs}; });
    Measurement m = run_measurement(source, Policy{}, incumbent_with_median(kMs), clock);
    EXPECT_EQ(m.stop, StopReason::Raced);
    EXPECT_EQ(m.samples.size(), 10u);
  }
  {
    // Racing waits for racing_min_samples.
    FakeClock clock;
    ScriptedSource source(clock, [](int) { return Sample{3 * kMs}; });
    Policy p;
    p.racing_min_samples = 7;
    Measurement m = run_measurement(source, p, incumbent_with_median(kMs), clock);
    EXPECT_EQ(m.stop, StopReason::Raced);
    EXPECT_EQ(m.samples.size(), 7u);
  }
}

// A candidate 5% slower than the best (inside the 10% margin), noisy enough that its fastest
// sample overlaps the best: raced by quartiles after 10 samples instead of measuring to the end.
TEST(Loop, MidFieldCandidatesAreRacedByQuartiles) {
  FakeClock clock;
  ScriptedSource source(clock, [](int i) { return Sample{(i % 4 == 0 ? 0.99 : 1.05 + 0.002 * (i % 3)) * kMs}; });
  std::vector<double> best{0.995 * kMs, kMs, kMs, 1.002 * kMs, 1.004 * kMs};
  Measurement m = run_measurement(source, Policy{}, summarize(best), clock);
  EXPECT_EQ(m.stop, StopReason::Raced);
  EXPECT_LE(m.samples.size(), 15u);  // judged at 10 and 15 samples
  // Within 1% of the incumbent's third quartile: measured to convergence.
  FakeClock clock2;
  ScriptedSource close(clock2, [](int i) { return Sample{(1.006 + 0.001 * (i % 2)) * kMs}; });
  EXPECT_NE(run_measurement(close, Policy{}, summarize(best), clock2).stop, StopReason::Raced);
}

TEST(Loop, CustomCriteriaComeBeforeLimits) {
  struct StopAtSeven : StoppingCriterion {
    std::optional<StopReason> check(const LoopState& s) override {
      return s.samples.size() == 7 ? std::optional(StopReason::Raced) : std::nullopt;
    }
  } seven;
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  StoppingCriterion* criteria[] = {&seven};
  EXPECT_EQ(run_measurement(source, Policy{}, criteria, clock).samples.size(), 7u);

  FakeClock clock2;
  ScriptedSource source2(clock2, noisy);
  Policy p;
  p.max_samples = 40;
  Measurement m = run_measurement(source2, p, std::span<StoppingCriterion* const>{}, clock2);
  EXPECT_EQ(m.stop, StopReason::MaxSamples);  // limits always apply
  EXPECT_EQ(m.samples.size(), 40u);
}

TEST(Loop, NoiseEstimatesAreGeometricallySpaced) {
  // 100k samples must not re-estimate the noise after every sample (that would be O(n^2)).
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  Policy p;
  p.min_seconds = 1e9;
  p.timeout_seconds = 1e9;
  NoiseCriterion noise(p);
  StoppingCriterion* criteria[] = {&noise};
  Measurement m = run_measurement(source, p, criteria, clock);
  EXPECT_EQ(m.samples.size(), 100000u);
  // 252 dense estimates (5..256), then ~64 ln(100000 / 256) = 382 more.
  EXPECT_GT(noise.evaluations(), 600u);
  EXPECT_LT(noise.evaluations(), 700u);
  ASSERT_TRUE(noise.current_noise());
  EXPECT_NEAR(*noise.current_noise(), robust_noise(m.stats), 0.01);
}

TEST(Loop, RejectsBadSamplesAndPolicies) {
  FakeClock clock;
  ScriptedSource negative(clock, [](int) { return Sample{-1}; });
  EXPECT_THROW(run_measurement(negative, Policy{}, std::nullopt, clock), std::invalid_argument);
  ScriptedSource ok(clock, constant);
  Policy bad;
  bad.min_samples = 0;
  EXPECT_THROW(run_measurement(ok, bad, std::nullopt, clock), std::invalid_argument);
}

TEST(Loop, RealClockSmoke) {
  struct Spin : SampleSource {
    SteadyClock clock;
    Sample sample() override {
      double t0 = clock.now();
      volatile double x = 0;
      for (int i = 0; i < 1000; ++i) x = x + i;
      return {clock.now() - t0};
    }
  } spin;
  Policy p;
  p.warmup_seconds = 0.001;
  p.min_seconds = 0.001;
  p.timeout_seconds = 2;
  Measurement m = run_measurement(spin, p, std::nullopt);
  EXPECT_GE(m.samples.size(), 10u);
  EXPECT_LT(m.wall_seconds, 3.0);
  EXPECT_GT(m.stats.median, 0);
}

TEST(Clock, FakeClockRejectsGoingBack) {
  FakeClock clock(5);
  clock.advance(1);
  EXPECT_DOUBLE_EQ(clock.now(), 6);
  EXPECT_THROW(clock.advance(-1), std::invalid_argument);
  SteadyClock steady;
  double a = steady.now();
  EXPECT_LE(a, steady.now());
}

TEST(Measurement, JsonRoundTrip) {
  FakeClock clock;
  ScriptedSource source(clock, noisy);
  Policy p;
  p.max_samples = 30;
  p.min_seconds = 10;
  Measurement m = run_measurement(source, p, std::nullopt, clock);
  EXPECT_EQ(measurement_from_json(measurement_to_json(m, true)), m);
  auto without = measurement_from_json(measurement_to_json(m, false));
  EXPECT_TRUE(without.samples.empty());
  EXPECT_EQ(without.stats, m.stats);
  EXPECT_EQ(measurement_to_json(m, false)["stop"], "max_samples");

  auto j = measurement_to_json(m, false);
  j["stop"] = "finished";
  EXPECT_THROW(measurement_from_json(j), std::invalid_argument);
  j = measurement_to_json(m, false);
  j.erase("wall_seconds");
  try {
    measurement_from_json(j);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("wall_seconds"), std::string::npos);
  }
}

// ---- Throughput and comparison -----------------------------------------------------------------

TEST(Throughput, Rates) {
  Throughput t = throughput(2e9, 4e6, 1e-3);
  ASSERT_TRUE(t.gflops_per_second && t.gbytes_per_second);
  EXPECT_DOUBLE_EQ(*t.gflops_per_second, 2000);
  EXPECT_DOUBLE_EQ(*t.gbytes_per_second, 4);
  EXPECT_FALSE(throughput(std::nullopt, 4e6, 1e-3).gflops_per_second);
  EXPECT_FALSE(throughput(2e9, 4e6, 0).gbytes_per_second);
  EXPECT_EQ(throughput_to_json(throughput(std::nullopt, 1e9, 1)), (nlohmann::json{{"gbytes_per_second", 1.0}}));
}

Stats spread(double median, double iqr, std::size_t count) {
  Stats s;
  s.count = count;
  s.median = s.mean = median;
  s.q1 = median - iqr / 2;
  s.q3 = median + iqr / 2;
  s.min = s.q1;
  s.max = s.q3;
  return s;
}

TEST(Compare, FasterBeyondNoise) {
  Stats fast = spread(1.00e-3, 0.01e-3, 100);
  Stats slow = spread(1.10e-3, 0.01e-3, 100);
  SpeedComparison c = compare_to(fast, slow);
  EXPECT_EQ(c.verdict, Verdict::Faster);
  EXPECT_NEAR(c.speedup, 1.1, 1e-12);
  EXPECT_EQ(compare_to(slow, fast).verdict, Verdict::Slower);
  EXPECT_EQ(to_string(Verdict::Faster), "faster");
}

TEST(Compare, ThresholdIsTheLargerOfNoiseAndRelativeFloor) {
  // Tight samples: the 1% floor decides. 0.5% apart is a tie, 2% apart is not.
  EXPECT_EQ(compare_to(spread(1.000e-3, 1e-9, 100), spread(1.005e-3, 1e-9, 100)).verdict, Verdict::Indistinguishable);
  EXPECT_EQ(compare_to(spread(1.000e-3, 1e-9, 100), spread(1.020e-3, 1e-9, 100)).verdict, Verdict::Faster);
  // Wide samples, few of them: 5% apart is within noise.
  // se = 1.2533 * (0.2e-3 / 1.349) / sqrt(10) = 5.876e-5 each; threshold = 3 * sqrt(2) * se = 2.49e-4.
  SpeedComparison c = compare_to(spread(1.00e-3, 0.2e-3, 10), spread(1.05e-3, 0.2e-3, 10));
  EXPECT_EQ(c.verdict, Verdict::Indistinguishable);
  EXPECT_NEAR(c.threshold_seconds, 3 * std::sqrt(2.0) * 1.2533 * (0.2e-3 / 1.349) / std::sqrt(10.0), 1e-12);
  // The same spread with 1000 samples each separates them.
  EXPECT_EQ(compare_to(spread(1.00e-3, 0.2e-3, 1000), spread(1.05e-3, 0.2e-3, 1000)).verdict, Verdict::Faster);
  // Too few samples: no verdict.
  EXPECT_EQ(compare_to(spread(1e-3, 0, 1), spread(2e-3, 0, 1)).verdict, Verdict::Indistinguishable);
}

}  // namespace
}  // namespace ktune::measure
