#pragma once
// How long and how often to measure one candidate. Defaults follow nvbench (see README.md).

#include <nlohmann/json.hpp>

namespace ktune::measure {

struct Policy {
  double warmup_seconds = 0.02;    // run the kernel until this much wall time has passed (at least 1 run)
  int min_samples = 10;
  double max_noise = 0.005;        // robust relative noise (see robust_noise in stats.h) to stop as Converged
  double min_seconds = 0.5;        // minimum total measured time before stopping on noise
  double timeout_seconds = 15.0;   // hard stop on wall time (warmup and discarded samples included)
  int max_samples = 100000;        // valid samples kept
  bool racing = true;              // stop early once clearly slower than the incumbent
  double racing_margin = 0.10;     // "clearly": candidate's fastest sample > incumbent median * (1 + margin)
  int racing_min_samples = 3;
  double throttle_fraction = 0.75; // GPU backends: discard samples when clock < fraction * default clock

  bool operator==(const Policy&) const = default;
};

// Throws std::invalid_argument naming the first field that is out of range.
void validate(const Policy& policy);

// Keys are the field names; all optional (missing keys keep `base`'s value). Unknown keys, wrong
// types and out-of-range values throw std::invalid_argument naming the key.
Policy policy_from_json(const nlohmann::json& j, Policy base = {});
nlohmann::json policy_to_json(const Policy& policy);

}  // namespace ktune::measure
