#pragma once
// Which measured generated kernels seed the refinement round of `tune gemm`.
//
// The fastest ones, but with measurement noise taken out of the choice: kernels whose medians
// lie within `tie` (relative) of the fastest kernel of their group are tied, and a tie goes to
// the better model rank. Two runs of the same problem then pick the same seeds, so they compile
// the same neighbours, and a warm compile cache serves the refinement round too instead of
// compiling whichever near-equal kernel happened to measure 0.3% faster this time.

#include <cstddef>
#include <vector>

namespace ktune::gemm {

struct SeedCandidate {
  std::size_t rank = 0;  // the model's order (0: best estimate)
  double median = 0;     // measured seconds
};

// Up to `count` seeds as positions in `candidates`, best first. Groups form in median order: a
// group starts at its fastest member and takes every following kernel within `tie` of it.
std::vector<std::size_t> choose_refinement_seeds(const std::vector<SeedCandidate>& candidates, std::size_t count,
                                                 double tie = 0.02);

}  // namespace ktune::gemm
