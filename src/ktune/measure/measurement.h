#pragma once
// The measurement loop: warmup by time, then samples until a stopping criterion fires.

#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/measure/clock.h"
#include "ktune/measure/policy.h"
#include "ktune/measure/sample_source.h"
#include "ktune/measure/stats.h"
#include "ktune/measure/stopping.h"

namespace ktune::measure {

struct Measurement {
  Stats stats;                  // of the valid samples
  std::vector<double> samples;  // valid samples in order (seconds)
  StopReason stop = StopReason::MaxSamples;
  double measured_seconds = 0;  // sum of valid samples
  double wall_seconds = 0;      // loop start to end, warmup and discarded samples included
  int warmup_runs = 0;
  int discarded_samples = 0;
  // No sample was valid, so `samples` and `stats` are the discarded ones (throttled clocks,
  // for instance: a long GEMM that holds the GPU at its power limit throttles every sample).
  // Real times under those conditions, never a zero for "no sample".
  bool from_discarded = false;

  bool operator==(const Measurement&) const = default;
};

nlohmann::json measurement_to_json(const Measurement& m, bool include_samples);
// "samples" is optional (empty when absent). Throws std::invalid_argument naming a missing or
// mistyped key; extra keys are ignored.
Measurement measurement_from_json(const nlohmann::json& j);

// The default loop. Warmup: warmup_run() until warmup_seconds of wall time have passed (at least
// once; a timeout during warmup ends the measurement with no samples). When every sample was
// discarded, the statistics are those of the discarded samples (from_discarded). Then sample() until, in
// this order of precedence on the same sample: NoiseCriterion (Converged, NoiseStable),
// RacingCriterion against `incumbent` (Raced), LimitsCriterion (MaxSamples, Timeout).
// Throws std::invalid_argument for an invalid policy or a sample time that is negative or not
// finite; exceptions from the source propagate.
Measurement run_measurement(SampleSource& source, const Policy& policy, const std::optional<Stats>& incumbent,
                            const Clock& clock = SteadyClock());

// The same loop with caller-chosen criteria, checked in the given order after every sample; a
// LimitsCriterion built from `policy` is always checked last, so the loop always ends.
Measurement run_measurement(SampleSource& source, const Policy& policy,
                            std::span<StoppingCriterion* const> criteria, const Clock& clock = SteadyClock());

}  // namespace ktune::measure
