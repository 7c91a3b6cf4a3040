#include "ktune/search/exhaustive.h"

namespace ktune::search {

std::optional<Config> ExhaustiveSearch::ask() {
  while (next_ < space_.size()) {
    std::uint64_t index = next_++;
    if (told_ahead_.erase(index) == 0) return space_.at(index);
  }
  return std::nullopt;
}

void ExhaustiveSearch::tell(const Observation& obs) {
  if (auto index = space_.index_of(obs.config); index && *index >= next_) told_ahead_.insert(*index);
}

}  // namespace ktune::search
