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

// Whether a refinement round is worth its compiles and measurements: one knob step from the
// fastest generated kernel rarely gains more than `window` (relative), so when that kernel is
// slower than the incumbent (the fastest candidate of any family) by more, the round is
// skipped. On the H100 suite the generated family trailed by 17% and 38% on two of eight
// shapes; their rounds waited 1.3 s for NVRTC and could not change the pick.
bool refinement_can_win(double fastest_generated, double incumbent, double window);

}  // namespace ktune::gemm
