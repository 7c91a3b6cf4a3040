#pragma once
// Simulated annealing over the space's neighbourhood graph (configs one parameter apart).
//
// The walk keeps a current state. ask() proposes a random unvisited neighbour of it, so several
// outstanding asks spread over its neighbourhood; when every neighbour has been proposed, or the
// walk is stuck (temperature below T_min, or `restart_after` told moves in a row that did not
// improve the current state), it restarts from a random unvisited config, which becomes the new
// state unconditionally and resets the temperature. tell() accepts a better candidate always and
// a worse one with probability exp(-relative_increase / T); failed candidates are worse than any
// success and are never moved to from a success. T is multiplied by `cooling` on each told move.
// Nothing is ever proposed twice; the result is a function of the seed and the observations.
//
// Params: T0 (alias initial_temperature, default 1), cooling (0.95), T_min (alias
// min_temperature, 1e-3), restart_after (30), neighbourhood ("adjacent" or "any", "adjacent").

#include <map>
#include <optional>
#include <random>
#include <unordered_set>

#include "ktune/search/strategy.h"

namespace ktune::search {

struct AnnealingSettings {
  double initial_temperature = 1.0;
  double cooling = 0.95;
  double min_temperature = 1e-3;
  long long restart_after = 30;
  space::SearchSpace::Neighbourhood neighbourhood = space::SearchSpace::Neighbourhood::Adjacent;

  static AnnealingSettings from_json(const nlohmann::json& params);  // throws std::invalid_argument
};

class SimulatedAnnealing : public Strategy {
 public:
  SimulatedAnnealing(const space::SearchSpace& space, std::uint64_t seed, AnnealingSettings settings);
  std::string name() const override { return "annealing"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

  // For tests and progress output.
  double temperature() const { return temperature_; }
  std::size_t restarts() const { return restarts_; }

 private:
  enum class Proposal { Start, Move };
  std::optional<std::uint64_t> random_unvisited();
  void adopt(std::uint64_t index, std::optional<double> objective);
  bool accepts(std::optional<double> candidate);

  const space::SearchSpace& space_;
  std::mt19937_64 rng_;
  AnnealingSettings settings_;
  std::unordered_set<std::uint64_t> visited_;  // proposed, or told by the caller
  std::map<std::uint64_t, Proposal> outstanding_;
  std::optional<std::uint64_t> current_;
  std::optional<double> current_objective_;  // nullopt: the current state failed
  bool restart_pending_ = true;
  double temperature_;
  long long moves_without_progress_ = 0;
  std::size_t restarts_ = 0;
};

}  // namespace ktune::search
