#include "ktune/search/random_search.h"

#include "ktune/space/uniform.h"

namespace ktune::search {

std::uint64_t RandomSearch::slot(std::uint64_t position) const {
  auto it = displaced_.find(position);
  return it == displaced_.end() ? position : it->second;
}

std::optional<Config> RandomSearch::ask() {
  const std::uint64_t size = space_.size();
  while (next_ < size) {
    const std::uint64_t pick = next_ + space::uniform_below(rng_, size - next_);
    const std::uint64_t index = slot(pick);
    displaced_[pick] = slot(next_);
    displaced_.erase(next_);  // never read again
    ++next_;
    if (told_ahead_.erase(index) != 0) continue;
    proposed_.insert(index);
    return space_.at(index);
  }
  return std::nullopt;
}

void RandomSearch::tell(const Observation& obs) {
  if (auto index = space_.index_of(obs.config); index && !proposed_.count(*index)) told_ahead_.insert(*index);
}

}  // namespace ktune::search
