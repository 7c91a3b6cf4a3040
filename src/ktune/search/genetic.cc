#include "ktune/search/genetic.h"

#include <algorithm>
#include <cmath>

#include "ktune/search/strategy_params.h"
#include "ktune/search/unvisited.h"
#include "ktune/space/uniform.h"

namespace ktune::search {
namespace {

// Breeding attempts per ask before falling back to a random unvisited config: a converged
// population mostly breeds children that were already proposed, and each attempt also tries
// the neighbours of the child and of both parents, so a few attempts find a new config whenever
// the population's surroundings still have one, at a bounded cost per ask.
constexpr int kBreedAttempts = 4;

}  // namespace

GeneticSettings GeneticSettings::from_json(const nlohmann::json& params) {
  StrategyParams p("genetic", params,
                   {"population", "crossover_rate", "mutation_rate", "elitism", "tournament_size", "crossover",
                    "mutation"});
  GeneticSettings s;
  s.population = p.integer({"population"}, s.population, 2);
  s.crossover_rate = p.number({"crossover_rate"}, s.crossover_rate, 0, 1, /*inclusive=*/true);
  s.mutation_rate = p.number({"mutation_rate"}, s.mutation_rate, 0, 1, /*inclusive=*/true);
  s.elitism = p.integer({"elitism"}, s.elitism, 0);
  if (s.elitism >= s.population) {
    throw std::invalid_argument("genetic parameter 'elitism' must be less than 'population' (" +
                                std::to_string(s.population) + "), got " + std::to_string(s.elitism));
  }
  s.tournament_size = p.integer({"tournament_size"}, s.tournament_size, 1);
  s.single_point = p.choice("crossover", "uniform", {"uniform", "single_point"}) == "single_point";
  s.mutation = p.choice("mutation", "adjacent", {"adjacent", "any"}) == "any"
                   ? space::SearchSpace::Neighbourhood::Any
                   : space::SearchSpace::Neighbourhood::Adjacent;
  return s;
}

GeneticSearch::GeneticSearch(const space::SearchSpace& space, std::uint64_t seed, GeneticSettings settings)
    : space_(space), rng_(seed), settings_(settings) {
  initial_ = space_.sample_indices(static_cast<std::size_t>(settings_.population), rng_, /*distinct=*/true);
}

bool GeneticSearch::better(const Member& a, const Member& b) {
  if (a.objective.has_value() != b.objective.has_value()) return a.objective.has_value();
  if (a.objective && *a.objective != *b.objective) return *a.objective < *b.objective;
  return a.index < b.index;  // a total order, so that generations do not depend on sort stability
}

std::optional<std::uint64_t> GeneticSearch::random_unvisited() {
  return search::random_unvisited(space_.size(), visited_, rng_);
}

std::optional<std::uint64_t> GeneticSearch::next_initial() {
  while (next_initial_ < initial_.size()) {
    std::uint64_t index = initial_[next_initial_++];
    if (!visited_.count(index)) return index;  // told by the caller meanwhile: it is already known
  }
  return std::nullopt;
}

std::optional<std::uint64_t> GeneticSearch::pick_unvisited(const std::vector<std::uint64_t>& candidates) {
  std::vector<std::uint64_t> unvisited;
  for (std::uint64_t c : candidates) {
    if (!visited_.count(c)) unvisited.push_back(c);
  }
  if (unvisited.empty()) return std::nullopt;
  return unvisited[space::uniform_below(rng_, unvisited.size())];
}

std::optional<std::uint64_t> GeneticSearch::random_unvisited_neighbour(std::uint64_t index) {
  return pick_unvisited(space_.neighbour_indices(index, settings_.mutation));
}

std::optional<std::uint64_t> GeneticSearch::random_unvisited_neighbour(const Config& c) {
  // `c` may violate constraints (a crossover of two valid parents need not be valid); its valid
  // neighbours are then the configs one parameter away that repair it.
  std::vector<std::uint64_t> candidates;
  for (const Config& n : space_.neighbours(c, settings_.mutation)) {
    if (auto index = space_.index_of(n)) candidates.push_back(*index);
  }
  return pick_unvisited(candidates);
}

const GeneticSearch::Member& GeneticSearch::tournament(const std::vector<Member>& pool) {
  const Member* best = &pool[space::uniform_below(rng_, pool.size())];
  for (long long k = 1; k < settings_.tournament_size; ++k) {
    const Member& m = pool[space::uniform_below(rng_, pool.size())];
    if (better(m, *best)) best = &m;
  }
  return *best;
}

Config GeneticSearch::crossover(const Config& a, const Config& b) {
  Config child = a;
  const auto& params = space_.parameters();
  if (settings_.single_point) {
    if (params.size() < 2) return child;
    // Cut in declaration order: related parameters tend to be declared together.
    const std::size_t cut = 1 + space::uniform_below(rng_, params.size() - 1);
    for (std::size_t p = cut; p < params.size(); ++p) child[params[p].name] = b.at(params[p].name);
    return child;
  }
  for (const auto& p : params) {
    if (space::uniform_unit(rng_) < 0.5) child[p.name] = b.at(p.name);
  }
  return child;
}

std::optional<std::uint64_t> GeneticSearch::try_child() {
  const std::vector<Member>& pool = population_.empty() ? offspring_ : population_;
  const Member first = tournament(pool);
  const Member second = tournament(pool);
  const Config a = space_.at(first.index);
  const Config child = space::uniform_unit(rng_) < settings_.crossover_rate ? crossover(a, space_.at(second.index)) : a;
  const bool mutate = space::uniform_unit(rng_) < settings_.mutation_rate;
  const std::optional<std::uint64_t> index = space_.index_of(child);
  const bool fresh = index && !visited_.count(*index);
  if (fresh && !mutate) return index;
  // Mutate, or repair a child that is invalid or already proposed, by moving one parameter.
  auto moved = index ? random_unvisited_neighbour(*index) : random_unvisited_neighbour(child);
  if (moved) return moved;
  if (fresh) return index;  // every neighbour is taken, but the unmutated child is new
  if ((moved = random_unvisited_neighbour(first.index))) return moved;
  return random_unvisited_neighbour(second.index);
}

std::optional<std::uint64_t> GeneticSearch::breed() {
  if (population_.empty() && offspring_.empty()) return random_unvisited();  // nothing told yet
  for (int attempt = 0; attempt < kBreedAttempts; ++attempt) {
    if (auto child = try_child()) return child;
  }
  return random_unvisited();
}

std::optional<Config> GeneticSearch::ask() {
  std::optional<std::uint64_t> index = next_initial();
  if (!index) index = breed();
  if (!index) return std::nullopt;
  visited_.insert(*index);
  outstanding_.insert(*index);
  return space_.at(*index);
}

void GeneticSearch::next_generation() {
  const auto elite = std::min(static_cast<std::size_t>(settings_.elitism), population_.size());
  std::partial_sort(population_.begin(), population_.begin() + static_cast<std::ptrdiff_t>(elite),
                    population_.end(), better);
  population_.resize(elite);
  population_.insert(population_.end(), offspring_.begin(), offspring_.end());
  std::sort(population_.begin(), population_.end(), better);
  offspring_.clear();
  ++generation_;
}

void GeneticSearch::tell(const Observation& obs) {
  auto index = space_.index_of(obs.config);
  if (!index) return;
  if (outstanding_.erase(*index) == 0) {
    if (visited_.count(*index)) return;  // told twice: the first result stands
    visited_.insert(*index);             // told ahead (resumed, or another strategy's): never propose it
  }
  const std::optional<double> objective =
      obs.objective && std::isfinite(*obs.objective) ? obs.objective : std::nullopt;
  offspring_.push_back({*index, objective});
  // The first generation is the whole initial sample; later ones keep `elitism` of the last.
  const auto elite = std::min(static_cast<std::size_t>(settings_.elitism), population_.size());
  if (offspring_.size() + elite >= static_cast<std::size_t>(settings_.population)) next_generation();
}

}  // namespace ktune::search
