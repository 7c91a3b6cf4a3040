#pragma once
// Simulation mode: a search strategy run against a recorded space instead of a GPU. Each
// evaluation is answered from the recording (its time, or its failure) and charged the
// recorded compile and measurement seconds on a simulated clock, so that strategies can be
// compared on a CPU in seconds, deterministically (Kernel Tuner's simulation mode does the
// same from its cache files). The strategy's own computing time is measured but not charged:
// the clock must not depend on the machine that simulates.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/search/strategy.h"
#include "ktune/simulate/recorded_space.h"
#include "ktune/simulate/trace.h"

namespace ktune::simulate {

struct SimulationOptions {
  std::string strategy = "random";
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t seed = 0;
  std::optional<std::uint64_t> max_evaluations;
  std::optional<double> max_seconds;  // on the simulated clock
  // Asks in flight before the first tell, as the tuner keeps its compile pool busy (1: strictly
  // sequential, as the methodology and Kernel Tuner's simulation mode assume).
  std::size_t outstanding = 1;
};

struct SimulationResult {
  Trace trace;
  std::vector<Config> configs;  // in evaluation order
  std::optional<Config> best_config;
  std::optional<double> best_time_s;
  std::map<std::string, std::uint64_t> by_status;
  std::uint64_t unrecorded = 0;  // proposed configs the recording lacks (answered as failed)
  std::string stop_reason;       // "space exhausted", "max evaluations", "time budget"
  double simulated_seconds = 0;
  double strategy_seconds = 0;       // wall time inside ask() and tell()
  double max_strategy_seconds = 0;   // the slowest single ask() + tell()
};

// One search over a recording. `space` is the space the strategy walks (build_space of the
// recording, or a spec's own space) and `answers` the recording's results by config key
// (index_results). Throws std::invalid_argument for an unknown strategy or bad params.
SimulationResult simulate(const space::SearchSpace& space, const std::map<std::string, const RecordedResult*>& answers,
                          const SimulationOptions& options, const std::string& space_name = "");

nlohmann::json to_json(const SimulationResult& result);

}  // namespace ktune::simulate
