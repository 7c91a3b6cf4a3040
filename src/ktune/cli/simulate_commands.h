#pragma once
// Commands over recorded spaces (simulate/): `ktune record export|import|show`, `ktune strategies
// list|score`, and `ktune tune SPEC --simulate RECORDING` (the tune command's simulation mode).

#include <optional>
#include <string>
#include <vector>

#include "ktune/cli/common.h"

namespace ktune::cli {

void add_record_command(CLI::App& app, GlobalOptions& global, Handler& handler);
void add_strategies_command(CLI::App& app, GlobalOptions& global, Handler& handler);

struct SimulatedTuneArgs {
  std::string spec;
  std::vector<std::string> sizes;
  std::string recording;
  std::string strategy;  // empty: the spec's
  std::string strategy_params;  // JSON text; empty: the spec's (for the spec's own strategy)
  std::optional<std::uint64_t> seed, max_evaluations;
  std::optional<double> max_seconds;  // on the simulated clock
};
int run_simulated_tune(const GlobalOptions& global, const SimulatedTuneArgs& args);

// --strategy-params text -> JSON object; throws CLI::ValidationError naming the option.
nlohmann::json parse_strategy_params(const std::string& text);

}  // namespace ktune::cli
