#pragma once
// Random helpers with results fixed by the seed alone: std::uniform_int_distribution and
// std::shuffle differ between standard libraries, and tuning sessions must replay exactly.

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace ktune::space {

// Uniform in [0, bound), unbiased (rejects the top partial block of 2^64). bound must be > 0.
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
  for (;;) {
    std::uint64_t x = rng();
    if (x >= threshold) return x % bound;
  }
}

// Uniform in [0, 1).
inline double uniform_unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

template <class T>
void shuffle_in_place(std::vector<T>& items, std::mt19937_64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::size_t j = static_cast<std::size_t>(uniform_below(rng, i));
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace ktune::space
