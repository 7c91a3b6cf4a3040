#pragma once
// How long and how often to measure one candidate. Defaults follow nvbench (see README.md).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ktune::measure {

// What the caches hold when a sample starts.
//   Flush:  each sample is preceded by writing a buffer of 2x the last-level cache / L2 (not timed).
//   Rotate: the backend keeps copies of the input arrays spanning >= 2x that cache and each sample
//           reads the next copy, so inputs arrive cold without a flush between samples.
//   Warm:   no flush, no rotation: back-to-back runs on the same data (cache-resident inputs).
enum class CacheMode { Flush, Rotate, Warm };
std::string_view to_string(CacheMode mode);
// "flush", "rotate", "warm"; throws std::invalid_argument otherwise.
CacheMode cache_mode_from_string(std::string_view text);

// What a flush (CacheMode::Flush) leaves in the cache.
//   Dirty: the buffer is written (nvbench's and triton's do_bench's flush): the cache is full of
//          modified lines, so the timed kernel also pays for writing them back as it evicts
//          them (on an H200, 6-7 us of a 30 us decode GEMM).
//   Clean: the buffer is then read: the cache holds clean lines of it only, and the kernel pays
//          for its own traffic (Nsight Compute's --cache-control all measures this state).
enum class L2Flush { Dirty, Clean };
std::string_view to_string(L2Flush flush);
// "dirty", "clean"; throws std::invalid_argument otherwise.
L2Flush l2_flush_from_string(std::string_view text);

struct Policy {
  double warmup_seconds = 0.02;    // run the kernel until this much wall time has passed (at least 1 run)
  int min_samples = 10;
  double max_noise = 0.005;        // robust relative noise (see robust_noise in stats.h) to stop as Converged
  double min_seconds = 0.5;        // minimum total measured time before stopping on noise
  double timeout_seconds = 15.0;   // hard stop on wall time (warmup and discarded samples included)
  int max_samples = 100000;        // valid samples kept
  // 0: no cap. Otherwise stop (as MaxTime) once this much time is measured and min_samples are
  // in, whatever the noise: a screening measurement of a millisecond kernel whose clocks wander
  // (power-limited GEMMs) needs a ranking, not 2% noise.
  double max_seconds = 0;
  bool racing = true;              // stop early once clearly slower than the incumbent
  double racing_margin = 0.10;     // "clearly": candidate's fastest sample > incumbent median * (1 + margin)
  int racing_min_samples = 3;
  double throttle_fraction = 0.75; // GPU backends: discard samples when clock < fraction * default clock
  CacheMode cache = CacheMode::Flush;  // JSON key "cache": "flush" | "rotate" | "warm"
  // JSON key "l2_flush": "dirty" | "clean" (written only when clean, so that the policies
  // recorded before it existed read back unchanged).
  L2Flush l2_flush = L2Flush::Dirty;

  bool operator==(const Policy&) const = default;
};

// Tuning in two stages when a spec leaves min_seconds and max_noise at their defaults: every
// candidate is screened with a short, 1%-noise measurement, then the finalists are measured
// again at the benchmark-grade confirmation policy and ranked by that (ktune tune --confirm).
bool uses_default_precision(const Policy& policy);
Policy screening_policy(Policy policy);     // min_seconds 0.01, max_noise 0.01
Policy confirmation_policy(Policy policy);  // min_seconds <= 0.1 (noise 0.5%), no racing

// Throws std::invalid_argument naming the first field that is out of range.
void validate(const Policy& policy);

// Keys are the field names; all optional (missing keys keep `base`'s value). Unknown keys, wrong
// types and out-of-range values throw std::invalid_argument naming the key.
Policy policy_from_json(const nlohmann::json& j, Policy base = {});
nlohmann::json policy_to_json(const Policy& policy);

}  // namespace ktune::measure
