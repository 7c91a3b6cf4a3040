#include "ktune/search/annealing.h"

#include <cmath>

#include "ktune/search/strategy_params.h"
#include "ktune/search/unvisited.h"
#include "ktune/space/uniform.h"

namespace ktune::search {

AnnealingSettings AnnealingSettings::from_json(const nlohmann::json& params) {
  StrategyParams p("annealing", params,
                   {"T0", "initial_temperature", "cooling", "T_min", "min_temperature", "restart_after",
                    "neighbourhood"});
  AnnealingSettings s;
  s.initial_temperature = p.number({"T0", "initial_temperature"}, s.initial_temperature, 0, 1e300);
  s.cooling = p.number({"cooling"}, s.cooling, 0, 1);
  s.min_temperature = p.number({"T_min", "min_temperature"}, s.min_temperature, 0, 1e300);
  s.restart_after = p.integer({"restart_after"}, s.restart_after, 1);
  s.neighbourhood = p.choice("neighbourhood", "adjacent", {"adjacent", "any"}) == "any"
                        ? space::SearchSpace::Neighbourhood::Any
                        : space::SearchSpace::Neighbourhood::Adjacent;
  return s;
}

SimulatedAnnealing::SimulatedAnnealing(const space::SearchSpace& space, std::uint64_t seed,
                                       AnnealingSettings settings)
    : space_(space), rng_(seed), settings_(settings), temperature_(settings.initial_temperature) {}

std::optional<std::uint64_t> SimulatedAnnealing::random_unvisited() {
  return search::random_unvisited(space_.size(), visited_, rng_);
}

std::optional<Config> SimulatedAnnealing::ask() {
  std::optional<std::uint64_t> index;
  Proposal kind = Proposal::Move;
  if (current_ && !restart_pending_) {
    std::vector<std::uint64_t> unvisited;
    for (std::uint64_t n : space_.neighbour_indices(*current_, settings_.neighbourhood)) {
      if (!visited_.count(n)) unvisited.push_back(n);
    }
    if (!unvisited.empty()) {
      index = unvisited[space::uniform_below(rng_, unvisited.size())];
    } else {
      restart_pending_ = true;  // the neighbourhood is exhausted: this state has nothing left to teach
    }
  }
  if (!index) {
    kind = Proposal::Start;
    index = random_unvisited();
    if (!index) return std::nullopt;
  }
  visited_.insert(*index);
  outstanding_.emplace(*index, kind);
  return space_.at(*index);
}

void SimulatedAnnealing::adopt(std::uint64_t index, std::optional<double> objective) {
  current_ = index;
  current_objective_ = objective;
}

bool SimulatedAnnealing::accepts(std::optional<double> candidate) {
  if (!candidate) return !current_objective_;  // failed: only a walk through failures continues
  if (!current_objective_) return true;
  const double current = *current_objective_;
  if (*candidate <= current) return true;
  const double increase = current > 0 ? (*candidate - current) / current : *candidate - current;
  return space::uniform_unit(rng_) < std::exp(-increase / temperature_);
}

void SimulatedAnnealing::tell(const Observation& obs) {
  auto index = space_.index_of(obs.config);
  if (!index) return;
  const std::optional<double> objective =
      obs.objective && std::isfinite(*obs.objective) ? obs.objective : std::nullopt;

  auto it = outstanding_.find(*index);
  if (it == outstanding_.end()) {
    // Told by the caller without being proposed (resumed results, a baseline): never propose it,
    // and let it seed the walk if there is none yet.
    visited_.insert(*index);
    if (!current_) {
      adopt(*index, objective);
      restart_pending_ = false;
    }
    return;
  }
  const Proposal kind = it->second;
  outstanding_.erase(it);

  if (kind == Proposal::Start && (restart_pending_ || !current_)) {
    if (current_) ++restarts_;
    adopt(*index, objective);
    restart_pending_ = false;
    temperature_ = settings_.initial_temperature;
    moves_without_progress_ = 0;
    return;
  }

  const bool improves = objective && (!current_objective_ || *objective < *current_objective_);
  if (accepts(objective)) adopt(*index, objective);
  moves_without_progress_ = improves ? 0 : moves_without_progress_ + 1;
  temperature_ *= settings_.cooling;
  if (temperature_ < settings_.min_temperature || moves_without_progress_ >= settings_.restart_after) {
    restart_pending_ = true;
  }
}

}  // namespace ktune::search
