#pragma once
// A generational genetic algorithm over the lazy constrained space (never materialised).
//
// The first generation is `population` distinct random configs. After that, ask() breeds a child
// from the current population: two tournament-selected parents, crossover (uniform: each
// parameter from either parent; single_point: a prefix of one, the rest of the other) with
// probability `crossover_rate` (else a copy of the first parent), then with probability
// `mutation_rate` one parameter moves to another value (a valid neighbour, see `mutation`).
// A child that is invalid or already proposed is repaired: it becomes a random valid, unvisited
// neighbour of itself, else of a parent, else (after a few tries) a random unvisited config, so
// that the whole space is eventually proposed exactly once.
//
// Every told result (a child, or a config the caller evaluated elsewhere) joins the offspring of
// the next generation; when `population - elitism` have arrived, the next generation is the
// `elitism` best of the current one plus those offspring. Asks made while results are pending
// breed from the current generation, so any number of asks may be outstanding. Failed
// candidates rank below every success. The result is a function of the seed and the observations.
//
// Params: population (20), crossover_rate (0.9), mutation_rate (0.5), elitism (2),
// tournament_size (3), crossover ("uniform" or "single_point", "uniform"), mutation ("adjacent"
// or "any", "adjacent"); why these defaults: see GeneticSettings.

#include <optional>
#include <random>
#include <unordered_set>
#include <vector>

#include "ktune/search/strategy.h"

namespace ktune::search {

// Defaults, measured on the 10^4-config smooth objective of genetic_test (evaluations until the
// optimum, median of 30 seeds: 107 with these defaults):
// - population 20 (Kernel Tuner's default): enough diversity for the 5-15 parameters of a kernel,
//   yet a generation completes within a few dozen evaluations of a budget of hundreds. 10 was
//   faster there (63) but converges prematurely on rugged spaces; 40 took 182.
// - crossover_rate 0.9: the usual value; children mostly recombine, a few copy a good parent.
// - mutation_rate 0.5 per child (one parameter moves): in a discrete space mutation is the only
//   source of values the population has lost; 0.2 to 0.8 performed alike (108 to 112).
// - elitism 2 (10%): the best configs survive a generation of poor children; 0 took 124.
// - tournament_size 3: moderate pressure; 2 took 126, 5 took 90 but narrows the search sooner.
// - mutation "adjacent": parameter lists are ordered (tile sizes, unroll factors), so the next
//   value is a small step; "any" took 156.
struct GeneticSettings {
  long long population = 20;
  double crossover_rate = 0.9;
  double mutation_rate = 0.5;
  long long elitism = 2;
  long long tournament_size = 3;
  bool single_point = false;  // crossover = "single_point"; else uniform
  space::SearchSpace::Neighbourhood mutation = space::SearchSpace::Neighbourhood::Adjacent;

  static GeneticSettings from_json(const nlohmann::json& params);  // throws std::invalid_argument
};

class GeneticSearch : public Strategy {
 public:
  GeneticSearch(const space::SearchSpace& space, std::uint64_t seed, GeneticSettings settings);
  std::string name() const override { return "genetic"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

  // For tests and progress output.
  std::size_t generation() const { return generation_; }
  std::size_t population_size() const { return population_.size(); }

 private:
  struct Member {
    std::uint64_t index;
    std::optional<double> objective;  // nullopt: failed
  };
  static bool better(const Member& a, const Member& b);

  std::optional<std::uint64_t> next_initial();
  std::optional<std::uint64_t> breed();
  std::optional<std::uint64_t> try_child();
  const Member& tournament(const std::vector<Member>& pool);
  Config crossover(const Config& a, const Config& b);
  std::optional<std::uint64_t> random_unvisited_neighbour(const Config& c);
  std::optional<std::uint64_t> random_unvisited_neighbour(std::uint64_t index);
  std::optional<std::uint64_t> pick_unvisited(const std::vector<std::uint64_t>& candidates);
  std::optional<std::uint64_t> random_unvisited();
  void next_generation();

  const space::SearchSpace& space_;
  std::mt19937_64 rng_;
  GeneticSettings settings_;
  std::vector<std::uint64_t> initial_;  // the first generation, proposed in this order
  std::size_t next_initial_ = 0;
  std::unordered_set<std::uint64_t> visited_;      // proposed, or told by the caller
  std::unordered_set<std::uint64_t> outstanding_;  // proposed, not yet told
  std::vector<Member> population_;                 // the current generation, best first
  std::vector<Member> offspring_;                  // told since the generation began
  std::size_t generation_ = 0;
};

}  // namespace ktune::search
