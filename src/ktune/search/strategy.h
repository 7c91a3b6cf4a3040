#pragma once
// Search strategies behind one ask/tell interface. A strategy proposes configs of a SearchSpace
// (ask) and learns their objective (tell); the caller owns budgets (evaluations, wall time),
// compiles and measures, and may ask several times before telling to keep a pipeline full.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/space/search_space.h"

namespace ktune::search {

struct Observation {
  Observation() = default;
  Observation(Config c, std::optional<double> o, double cost = 0)
      : config(std::move(c)), objective(o), cost_seconds(cost) {}

  Config config;
  std::optional<double> objective;  // lower is better (seconds); nullopt: failed or invalid candidate
  // What evaluating it took (compile + verify + measure), for strategies that weigh how much a
  // proposal will cost against what it may gain; 0: unknown.
  double cost_seconds = 0;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // Next config to evaluate, or nullopt when nothing is left to propose. Never proposes the same
  // config twice, nor one the caller told about before it was proposed.
  virtual std::optional<Config> ask() = 0;
  // Observations of configs outside the space are ignored (e.g. a baseline evaluated separately).
  virtual void tell(const Observation& obs) = 0;
};

struct StrategyOptions {
  std::uint64_t seed = 0;
  nlohmann::json params = nlohmann::json::object();  // strategy-specific; unknown keys are errors
};

// "exhaustive", "random", "annealing" (also "anneal", "simulated_annealing"); case and '-' vs '_'
// do not matter. Throws std::invalid_argument for an unknown name (listing the valid ones) or
// bad params. `space` must outlive the strategy.
std::unique_ptr<Strategy> make_strategy(std::string_view name, const space::SearchSpace& space,
                                        StrategyOptions opts);
std::vector<std::string> strategy_names();

}  // namespace ktune::search
