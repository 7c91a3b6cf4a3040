#include "ktune/tuner/confirmation_rounds.h"

#include <algorithm>

namespace ktune::tuner {

measure::Policy confirmation_round_policy(const measure::Policy& full, int rounds, bool first_of_phase) {
  measure::Policy p = full;
  if (rounds <= 1) return p;
  p.min_seconds = full.min_seconds / rounds;
  if (full.max_seconds > 0) p.max_seconds = full.max_seconds / rounds;
  p.min_samples = std::max(3, (full.min_samples + rounds - 1) / rounds);
  p.max_samples = std::max(p.min_samples, full.max_samples / rounds);
  if (!first_of_phase) p.warmup_seconds = full.warmup_seconds / rounds;
  p.racing = false;
  return p;
}

std::vector<std::size_t> confirmation_round_order(std::size_t members, int round) {
  std::vector<std::size_t> order(members);
  if (members == 0) return order;
  const std::size_t shift = static_cast<std::size_t>(std::max(round, 0)) % members;
  for (std::size_t j = 0; j < members; ++j) order[j] = (j + members - shift) % members;
  return order;
}

std::optional<std::size_t> median_round(const std::vector<std::optional<double>>& round_medians) {
  std::vector<std::size_t> measured;
  for (std::size_t i = 0; i < round_medians.size(); ++i)
    if (round_medians[i]) measured.push_back(i);
  if (measured.empty()) return std::nullopt;
  std::stable_sort(measured.begin(), measured.end(),
                   [&](std::size_t a, std::size_t b) { return *round_medians[a] < *round_medians[b]; });
  return measured[(measured.size() - 1) / 2];
}

}  // namespace ktune::tuner
