#include "ktune/search/strategy.h"

#include <cctype>
#include <stdexcept>

#include "ktune/search/annealing.h"
#include "ktune/search/bandit.h"
#include "ktune/search/bayes.h"
#include "ktune/search/exhaustive.h"
#include "ktune/search/genetic.h"
#include "ktune/search/random_search.h"
#include "ktune/search/strategy_params.h"

namespace ktune::search {
namespace {

std::string normalise(std::string_view name) {
  std::string out;
  for (char c : name) out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::vector<std::string> strategy_names() {
  return {"exhaustive", "random", "annealing", "genetic", "bandit", "bayes"};
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const space::SearchSpace& space,
                                        StrategyOptions opts) {
  const std::string key = normalise(name);
  if (key == "exhaustive") {
    StrategyParams("exhaustive", opts.params, {});
    return std::make_unique<ExhaustiveSearch>(space);
  }
  if (key == "random") {
    StrategyParams("random", opts.params, {});
    return std::make_unique<RandomSearch>(space, opts.seed);
  }
  if (key == "annealing" || key == "anneal" || key == "simulated_annealing") {
    return std::make_unique<SimulatedAnnealing>(space, opts.seed, AnnealingSettings::from_json(opts.params));
  }
  if (key == "genetic" || key == "ga" || key == "genetic_algorithm") {
    return std::make_unique<GeneticSearch>(space, opts.seed, GeneticSettings::from_json(opts.params));
  }
  if (key == "bandit" || key == "meta" || key == "portfolio") {
    return std::make_unique<BanditSearch>(space, opts.seed, opts.params);
  }
  if (key == "bayes" || key == "bayesian" || key == "bo") {
    return std::make_unique<BayesianOptimisation>(space, opts.seed, BayesSettings::from_json(opts.params));
  }
  std::string valid;
  for (const auto& n : strategy_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown search strategy '" + std::string(name) + "'; valid strategies: " + valid +
                              " (aliases: anneal, simulated_annealing, ga, genetic_algorithm, meta, portfolio,"
                              " bayesian, bo)");
}

}  // namespace ktune::search
