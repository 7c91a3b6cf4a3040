#pragma once
// A uniformly drawn config index no one has proposed or told yet, shared by the strategies that
// fall back to random proposals (annealing's restarts, genetic's repairs, bayes's exhausted
// pools). Rejection is cheap while most of the space is unvisited; near the end a scan from a
// random point finds the last configs in bounded time.

#include <cstdint>
#include <optional>
#include <random>
#include <unordered_set>

#include "ktune/space/uniform.h"

namespace ktune::search {

inline std::optional<std::uint64_t> random_unvisited(std::uint64_t size, const std::unordered_set<std::uint64_t>& visited,
                                                     std::mt19937_64& rng) {
  if (visited.size() >= size) return std::nullopt;
  if (visited.size() < size / 2) {
    for (int attempt = 0; attempt < 64; ++attempt) {
      std::uint64_t index = space::uniform_below(rng, size);
      if (!visited.count(index)) return index;
    }
  }
  const std::uint64_t start = space::uniform_below(rng, size);
  for (std::uint64_t k = 0; k < size; ++k) {
    std::uint64_t index = (start + k) % size;
    if (!visited.count(index)) return index;
  }
  return std::nullopt;
}

}  // namespace ktune::search
