#pragma once
// Strategies compared on recorded spaces by the 2024 methodology (methodology.h): every strategy
// runs `repeats` times on every recording in simulation (simulator.h), each run given the space's
// budget (the time random search needs to get close to the optimum, plus a margin), and other
// tools' searches (Kernel Tuner's strategies in its simulation mode) are replayed against the
// same recordings and clock, so that all are scored alike.

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/simulate/methodology.h"
#include "ktune/simulate/recorded_space.h"
#include "ktune/simulate/simulator.h"

namespace ktune::simulate {

// Another tool's search: the configurations it evaluated, in order.
struct ExternalSearch {
  std::string space;
  std::string strategy;  // e.g. "kt:genetic_algorithm"
  std::uint64_t seed = 0;
  std::vector<Config> configs;
};

// {"format": "ktune-search-traces", "version": 1, "traces": [{"space", "strategy", "seed",
// "configs": [{...}, ...]}]} (bench/strategies/kt_simulate.py writes it). Throws RecordingError
// naming the file and the place.
std::vector<ExternalSearch> load_external_searches(const std::filesystem::path& path);

// Replays a search against a recording: each configuration charged its recorded cost, until the
// clock passes max_seconds. A configuration the recording lacks fails at the mean cost.
Trace replay(const ExternalSearch& search, const std::map<std::string, const RecordedResult*>& answers,
             double max_seconds);

struct ComparisonOptions {
  std::vector<std::string> strategies = {"random", "annealing", "genetic", "bayes", "bandit"};
  std::size_t repeats = 10;
  std::uint64_t first_seed = 1;  // repeat i runs with seed first_seed + i
  MethodologyOptions methodology;
  std::vector<ExternalSearch> external;
  // Run long enough for the near-optimal measure too (see run_budget in the .cc); false: only
  // the methodology's budget (quicker).
  bool near_optimal_runs = true;
  // Called after each simulated run (space, strategy, repeat) for progress; may be empty.
  std::function<void(const std::string&, const std::string&, std::size_t)> on_run;
};

struct StrategyOverhead {
  std::string strategy;
  double ms_per_evaluation = 0;  // mean over the runs of one space
  double ms_max = 0;             // the slowest single ask + tell
};

struct SpaceComparison {
  SpaceResult result;
  std::vector<StrategyOverhead> overhead;
  std::size_t unrecorded = 0;  // proposals the recording lacked, over all runs
  double run_budget_seconds = 0;  // what each run was given (simulated seconds)
};

struct Comparison {
  std::vector<SpaceComparison> spaces;
  std::vector<AggregateScore> aggregate;
};

Comparison compare_strategies(const std::vector<RecordedSpace>& recordings, const ComparisonOptions& options);

// {"spaces": [SpaceResult JSON + "overhead", "unrecorded"], "aggregate": [...], "options": {...}}
nlohmann::json to_json(const Comparison& comparison, const ComparisonOptions& options);

}  // namespace ktune::simulate
