#include "ktune/simulate/random_search_timeline.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "ktune/space/uniform.h"

namespace ktune::simulate {
namespace {

// Rank of each outcome in `sorted` (successful ones), or UINT32_MAX for a failure.
std::vector<std::uint32_t> ranks_of(const SpaceStatistics& space, const std::vector<double>& sorted) {
  std::vector<std::uint32_t> ranks;
  ranks.reserve(space.outcomes.size());
  for (const auto& o : space.outcomes) {
    if (!o.objective) {
      ranks.push_back(UINT32_MAX);
      continue;
    }
    auto it = std::lower_bound(sorted.begin(), sorted.end(), *o.objective);
    ranks.push_back(static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(it - sorted.begin(), sorted.size() - 1)));
  }
  return ranks;
}

}  // namespace

RandomSearchTimeline::RandomSearchTimeline(const SpaceStatistics& space, const std::vector<double>& sorted,
                                           std::size_t orders, std::uint64_t seed)
    : sorted_(&sorted) {
  if (space.outcomes.empty() || sorted.empty()) return;
  const std::vector<std::uint32_t> ranks = ranks_of(space, sorted);
  std::vector<std::uint32_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  for (std::size_t r = 0; r < orders; ++r) {
    space::shuffle_in_place(order, rng);
    std::vector<Step> steps;
    double clock = 0;
    std::uint32_t best = UINT32_MAX;
    for (std::uint32_t i : order) {  // until the optimum: nothing improves after it
      clock += space.outcomes[i].seconds;
      if (ranks[i] < best) {
        best = ranks[i];
        steps.push_back({clock, best});
        if (best == 0) break;
      }
    }
    horizon_ = std::max(horizon_, clock);
    orders_.push_back(std::move(steps));
  }
}

template <class Value>
double RandomSearchTimeline::mean_at(double seconds, Value value) const {
  double found = 0, first = 0;
  std::size_t n_found = 0;
  for (const auto& steps : orders_) {
    auto it = std::upper_bound(steps.begin(), steps.end(), seconds,
                               [](double t, const Step& s) { return t < s.seconds; });
    if (it == steps.begin()) {
      first += value(steps.front().rank);
    } else {
      found += value(std::prev(it)->rank);
      ++n_found;
    }
  }
  return n_found ? found / static_cast<double>(n_found) : first / static_cast<double>(orders_.size());
}

double RandomSearchTimeline::mean_rank(double seconds) const {
  return mean_at(seconds, [](std::uint32_t rank) { return static_cast<double>(rank); });
}

double RandomSearchTimeline::mean_objective(double seconds) const {
  return mean_at(seconds, [this](std::uint32_t rank) { return (*sorted_)[rank]; });
}

}  // namespace ktune::simulate
