#pragma once
// Uniform random order without replacement, fixed by the seed.
//
// A lazy Fisher-Yates shuffle of 0..size-1: step i swaps position i with a uniform position in
// [i, size) and proposes what lands at i. Only displaced positions are stored (a hash map), so
// memory is O(proposals) for any size, no draw is ever rejected, and for small spaces it is
// exactly a shuffled permutation.

#include <random>
#include <unordered_map>
#include <unordered_set>

#include "ktune/search/strategy.h"

namespace ktune::search {

class RandomSearch : public Strategy {
 public:
  RandomSearch(const space::SearchSpace& space, std::uint64_t seed) : space_(space), rng_(seed) {}
  std::string name() const override { return "random"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

 private:
  std::uint64_t slot(std::uint64_t position) const;

  const space::SearchSpace& space_;
  std::mt19937_64 rng_;
  std::uint64_t next_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> displaced_;  // position -> index now there
  std::unordered_set<std::uint64_t> proposed_;
  std::unordered_set<std::uint64_t> told_ahead_;  // told before being proposed: skip them
};

}  // namespace ktune::search
