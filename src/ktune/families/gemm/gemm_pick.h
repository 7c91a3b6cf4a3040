#pragma once
// The baseline rule: the pick is the fastest candidate that is faster than the baseline
// (candidate 0, the library's default) beyond noise (measure::compare_to); when none is, the
// baseline itself. A tuned GEMM is therefore never slower than what the user had.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/measure/stats.h"
#include "ktune/measure/throughput.h"

namespace ktune::gemm {

// The kernel name under which `ktune tune gemm` records each problem's pick (one row per problem
// and device, its config the winning candidate's); `ktune best`, the exports and the runtime
// read it back under this name.
inline constexpr std::string_view kGemmPickKernel = "gemm pick";

struct MeasuredCandidate {
  std::string label;                   // for the reason sentence, e.g. the config key
  std::optional<measure::Stats> stats; // absent: failed, unverified or not measured
  std::optional<double> sm_clock_mhz = std::nullopt;  // the median SM clock of the measurement, where known
};

struct GemmPick {
  std::optional<std::size_t> pick;     // index into the candidates; none when nothing ran correctly
  bool baseline_kept = false;          // the pick is the baseline because nothing beat it
  std::optional<std::size_t> fastest;  // fastest measured non-baseline candidate (by median)
  std::optional<measure::SpeedComparison> fastest_vs_baseline;
  std::optional<measure::SpeedComparison> pick_vs_baseline;  // when the pick is not the baseline
  double speedup = 1;                  // baseline median / pick median (1 when the baseline is kept)
  bool clock_adjusted = false;         // the pick's times were scaled to the baseline's clock
  std::string reason;                  // one sentence
  nlohmann::json to_json() const;
};

// `baseline` indexes `candidates`. When the baseline has no stats (it failed), the fastest
// measured candidate is picked and the reason says the rule could not be applied.
//
// A candidate measured at an SM clock more than `clock_tolerance` above the baseline's is judged
// as if it had run at the baseline's clock: its times scaled by the clock ratio, as a
// compute-bound kernel's would be (a memory-bound one would lose less, so the scaling never
// favours the candidate). Big GEMMs run at the power limit and their clocks wander by 10-20%
// between measurements: on an H200 a 256x144 kernel measured at 1965 MHz after a rest beat
// cuBLASLt's default, measured at 1500-1725 MHz, by 1.10x on 8192x8192x28672, where do_bench of
// both, run long, found them equal (session 34).
GemmPick choose_pick(const std::vector<MeasuredCandidate>& candidates, std::size_t baseline,
                     const measure::CompareOptions& options = {}, double clock_tolerance = 0.03);

// Of two measurements of the baseline (before and after the others), the faster one: the
// candidates must beat the best the baseline showed. Also the drift between them (relative
// difference of the medians).
struct BaselineRuns {
  measure::Stats best;
  double drift = 0;  // |median_a - median_b| / min(median_a, median_b)
};
BaselineRuns combine_baseline_runs(const measure::Stats& first, const std::optional<measure::Stats>& second);

}  // namespace ktune::gemm
