#pragma once
// Every valid config once, in the space's index order 0..size-1.

#include <unordered_set>

#include "ktune/search/strategy.h"

namespace ktune::search {

class ExhaustiveSearch : public Strategy {
 public:
  explicit ExhaustiveSearch(const space::SearchSpace& space) : space_(space) {}
  std::string name() const override { return "exhaustive"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

 private:
  const space::SearchSpace& space_;
  std::uint64_t next_ = 0;
  std::unordered_set<std::uint64_t> told_ahead_;  // told before being proposed: skip them
};

}  // namespace ktune::search
