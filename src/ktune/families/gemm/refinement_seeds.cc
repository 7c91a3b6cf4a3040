#include "ktune/families/gemm/refinement_seeds.h"

#include <algorithm>
#include <numeric>

namespace ktune::gemm {

std::vector<std::size_t> choose_refinement_seeds(const std::vector<SeedCandidate>& candidates, std::size_t count,
                                                 double tie) {
  std::vector<std::size_t> by_median(candidates.size());
  std::iota(by_median.begin(), by_median.end(), std::size_t{0});
  std::stable_sort(by_median.begin(), by_median.end(), [&](std::size_t a, std::size_t b) {
    return candidates[a].median < candidates[b].median;
  });
  std::vector<std::size_t> ordered;
  ordered.reserve(by_median.size());
  for (std::size_t start = 0; start < by_median.size();) {
    const double limit = candidates[by_median[start]].median * (1.0 + std::max(0.0, tie));
    std::size_t end = start + 1;
    while (end < by_median.size() && candidates[by_median[end]].median <= limit) ++end;
    std::vector<std::size_t> group(by_median.begin() + static_cast<std::ptrdiff_t>(start),
                                   by_median.begin() + static_cast<std::ptrdiff_t>(end));
    std::stable_sort(group.begin(), group.end(),
                     [&](std::size_t a, std::size_t b) { return candidates[a].rank < candidates[b].rank; });
    ordered.insert(ordered.end(), group.begin(), group.end());
    start = end;
  }
  if (ordered.size() > count) ordered.resize(count);
  return ordered;
}

bool refinement_can_win(double fastest_generated, double incumbent, double window) {
  if (!(fastest_generated > 0) || !(incumbent > 0)) return false;
  return fastest_generated <= incumbent * (1.0 + std::max(0.0, window));
}

}  // namespace ktune::gemm
