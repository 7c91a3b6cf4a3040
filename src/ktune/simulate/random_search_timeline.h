#pragma once
// Random search over time on a recorded space, with each configuration's recorded cost: many
// random orders (without replacement) are walked once; the best-so-far of each is a step
// function of the simulated clock, kept as its improvements only. The methodology's baseline
// then averages those steps at any time, exactly as it averages a strategy's repeats (rank or
// objective; orders that found nothing yet left out; before any has, each order's first find).
// Deterministic: a fixed seed.

#include <cstdint>
#include <vector>

#include "ktune/simulate/trace.h"

namespace ktune::simulate {

class RandomSearchTimeline {
 public:
  // `sorted`: the successful objectives, ascending (ranks are indices into it).
  RandomSearchTimeline(const SpaceStatistics& space, const std::vector<double>& sorted, std::size_t orders,
                       std::uint64_t seed = 0x6b74756e65);
  bool empty() const { return orders_.empty(); }
  // Mean rank (index into sorted) and mean objective of the best found by `seconds`.
  double mean_rank(double seconds) const;
  double mean_objective(double seconds) const;
  // The simulated seconds by which every order has found the optimum.
  double horizon() const { return horizon_; }

 private:
  struct Step {
    double seconds;
    std::uint32_t rank;
  };
  template <class Value>
  double mean_at(double seconds, Value value) const;

  std::vector<std::vector<Step>> orders_;  // improvements of each order, in time
  const std::vector<double>* sorted_ = nullptr;
  double horizon_ = 0;
};

}  // namespace ktune::simulate
