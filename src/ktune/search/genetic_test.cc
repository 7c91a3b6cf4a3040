#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ktune/core/sanitized_build.h"
#include "ktune/search/genetic.h"
#include "ktune/search/strategy.h"
#include "ktune/search/search_test_support.h"

namespace ktune::search {
namespace {

using space::Constraint;
using space::Parameter;
using space::SearchSpace;

using namespace ktune::search::testing;  // range, where, drive, smooth, grid4 (search_test_support.h)

// Evaluations (two asks in flight) until the optimum is first proposed, or budget + 1 if never.
std::size_t evaluations_to_optimum(const std::string& strategy, const SearchSpace& space, std::uint64_t seed,
                                   std::size_t budget) {
  auto s = make_strategy(strategy, space, {seed, {}});
  std::size_t evaluations = 0;
  while (evaluations < budget) {
    std::vector<Config> batch;
    for (int k = 0; k < 2; ++k) {
      if (auto c = s->ask()) batch.push_back(*c);
    }
    if (batch.empty()) break;
    for (const auto& c : batch) {
      if (*smooth(c) == 1.0) return evaluations + 1;
      ++evaluations;
      s->tell({c, smooth(c)});
    }
  }
  return budget + 1;
}

TEST(Genetic, FindsTheOptimumFarMoreOftenThanRandom) {
  SearchSpace space = grid4();
  ASSERT_EQ(space.size(), 10000u);
  const int seeds = 30;
  const std::size_t budget = 400;
  std::size_t genetic = 0, random = 0;
  std::vector<std::size_t> needed;
  for (int seed = 1; seed <= seeds; ++seed) {
    const std::size_t g = evaluations_to_optimum("genetic", space, static_cast<std::uint64_t>(seed), budget);
    genetic += g <= budget;
    random += evaluations_to_optimum("random", space, static_cast<std::uint64_t>(seed), budget) <= budget;
    needed.push_back(g);
  }
  std::sort(needed.begin(), needed.end());
  std::printf("optimum found in %zu of %d genetic runs (median %zu evaluations), %zu of %d random runs (%zu each)\n",
              genetic, seeds, needed[needed.size() / 2], random, seeds, budget);
  // Random finds it with probability 4% per run.
  EXPECT_GE(genetic, 24u) << "genetic " << genetic << "/" << seeds << ", random " << random;
  EXPECT_LE(random, 6u);
  EXPECT_GE(genetic, random + 16);
}

TEST(Genetic, FirstGenerationIsDistinctRandomConfigsThenBreedsWhileResultsArePending) {
  SearchSpace space = grid4();
  GeneticSettings settings;
  GeneticSearch s(space, 9, settings);
  std::set<std::string> seen;
  std::vector<Config> first;
  for (long long i = 0; i < settings.population; ++i) {
    auto c = s.ask();
    ASSERT_TRUE(c);
    EXPECT_TRUE(seen.insert(config_key(*c)).second);
    first.push_back(*c);
  }
  // Nothing told yet: more asks still give new configs (random ones), keeping a pipeline full.
  for (int i = 0; i < 5; ++i) {
    auto c = s.ask();
    ASSERT_TRUE(c);
    EXPECT_TRUE(seen.insert(config_key(*c)).second);
  }
  for (const auto& c : first) s.tell({c, smooth(c)});
  EXPECT_EQ(s.generation(), 1u);
  EXPECT_EQ(s.population_size(), static_cast<std::size_t>(settings.population));
  // The other 5 are still pending; the next 40 children come from generation 1, all new.
  for (int i = 0; i < 40; ++i) {
    auto c = s.ask();
    ASSERT_TRUE(c);
    EXPECT_TRUE(seen.insert(config_key(*c)).second) << config_key(*c);
    EXPECT_TRUE(space.contains(*c));
  }
}

TEST(Genetic, ElitesSurviveAndGenerationsTurnOverEveryPopulationMinusElitism) {
  SearchSpace space = grid4();
  GeneticSettings settings;
  settings.population = 10;
  settings.elitism = 3;
  GeneticSearch s(space, 4, settings);
  drive(s, smooth, 1, 10);
  EXPECT_EQ(s.generation(), 1u);
  drive(s, smooth, 1, 7);  // population - elitism more results
  EXPECT_EQ(s.generation(), 2u);
  EXPECT_EQ(s.population_size(), 10u);
}

TEST(Genetic, SameSeedAndObservationsGiveTheSameSequence) {
  SearchSpace space = grid4();
  auto a = drive(*make_strategy("genetic", space, {7, {}}), smooth, 3, 200);
  auto b = drive(*make_strategy("genetic", space, {7, {}}), smooth, 3, 200);
  auto c = drive(*make_strategy("genetic", space, {8, {}}), smooth, 3, 200);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  auto flipped = [](const Config& cfg) -> std::optional<double> { return 10.0 - *smooth(cfg); };
  auto d = drive(*make_strategy("genetic", space, {7, {}}), flipped, 3, 200);
  EXPECT_EQ(std::vector<Config>(a.begin(), a.begin() + 20), std::vector<Config>(d.begin(), d.begin() + 20));
  EXPECT_NE(a, d);  // different results breed different children
}

TEST(Genetic, AvoidsAFailingRegion) {
  // Half of the space fails (a < 5); failed candidates rank below every success, so after the
  // first generation the children should mostly land in the working half.
  SearchSpace space = grid4();
  auto f = [](const Config& c) -> std::optional<double> {
    if (get(c, "a") < 5) return std::nullopt;
    return smooth(c);
  };
  for (std::uint64_t seed : {1, 2, 3}) {
    auto proposed = drive(*make_strategy("genetic", space, {seed, {}}), f, 3, 300);
    std::size_t failed_late = 0;
    for (std::size_t i = 100; i < proposed.size(); ++i) failed_late += !f(proposed[i]).has_value();
    EXPECT_LT(failed_late, 40u) << "seed " << seed << ": " << failed_late << " of 200 late proposals failed";
  }
}

TEST(Genetic, RepairsChildrenThatViolateConstraints) {
  // Only configs with a + b == 15 are valid: uniform crossover of two valid parents is almost
  // always invalid, and must be repaired into a valid, new config.
  SearchSpace space({range("a", 16), range("b", 16), range("c", 40)}, {where("a + b == 15", 1)});
  ASSERT_EQ(space.size(), 640u);
  for (std::size_t batch : {1, 5}) {
    auto s = make_strategy("genetic", space, {5, {{"population", 8}, {"mutation_rate", 0.0}}});
    auto proposed = drive(*s, [](const Config& c) { return 1.0 + std::abs(get(c, "a") - 3) + get(c, "c"); }, batch);
    std::set<std::string> keys;
    for (const auto& c : proposed) {
      EXPECT_TRUE(space.contains(c)) << config_key(c);
      keys.insert(config_key(c));
    }
    EXPECT_EQ(proposed.size(), space.size());
    EXPECT_EQ(keys.size(), space.size());
  }
}

SearchSpace ten_million() {
  std::vector<Parameter> params;
  for (int i = 0; i < 7; ++i) params.push_back(range("p" + std::to_string(i), 10));
  params.push_back(range("q", 2));
  return SearchSpace(params, {where("(p0 + p1) % 7 != 3", 1), where("p2 * q <= 6", 2)});
}

TEST(Genetic, AskOverheadIsSmallOnATenMillionConfigSpace) {
  SearchSpace space = ten_million();
  ASSERT_GT(space.size(), 10'000'000u);
  auto f = [](const Config& c) -> std::optional<double> {
    double sum = 1;
    for (const auto& [name, v] : c) sum += std::abs(static_cast<double>(v.as_int()) - 4);
    return sum;
  };
  auto s = make_strategy("genetic", space, {3, {}});
  const auto start = std::chrono::steady_clock::now();
  auto proposed = drive(*s, f, 4, 3000);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("genetic: %.3f ms per ask+tell on %llu configs\n", ms / static_cast<double>(proposed.size()),
              static_cast<unsigned long long>(space.size()));
  ASSERT_EQ(proposed.size(), 3000u);
  EXPECT_LT(ms / 3000, 2.0 * kSanitizerTimeFactor);
}

TEST(Genetic, ScalesToHugeSpaces) {
  std::vector<Parameter> params;
  for (int i = 0; i < 60; ++i) params.push_back(range("b" + std::to_string(i), 2));
  SearchSpace space(params, {});
  auto s = make_strategy("genetic", space, {11, {}});
  auto proposed = drive(*s, [](const Config& c) { return 1.0 + get(c, "b3") + get(c, "b17"); }, 4, 2000);
  std::set<std::string> keys;
  for (const auto& c : proposed) keys.insert(config_key(c));
  EXPECT_EQ(keys.size(), 2000u);
}

TEST(Genetic, NamesParamsAndErrors) {
  SearchSpace space = grid4();
  EXPECT_EQ(make_strategy("ga", space, {})->name(), "genetic");
  EXPECT_EQ(make_strategy("Genetic-Algorithm", space, {})->name(), "genetic");
  for (const nlohmann::json& bad :
       {nlohmann::json{{"populaton", 10}}, nlohmann::json{{"population", 1}}, nlohmann::json{{"population", 2.5}},
        nlohmann::json{{"elitism", 20}}, nlohmann::json{{"elitism", -1}}, nlohmann::json{{"mutation_rate", 1.5}},
        nlohmann::json{{"crossover_rate", -0.1}}, nlohmann::json{{"tournament_size", 0}},
        nlohmann::json{{"crossover", "two_point"}}, nlohmann::json{{"mutation", "far"}}, nlohmann::json::array()}) {
    EXPECT_THROW(make_strategy("genetic", space, {0, bad}), std::invalid_argument) << bad.dump();
  }
  auto s = GeneticSettings::from_json({{"population", 30}, {"crossover_rate", 1.0}, {"mutation_rate", 0.0},
                                       {"elitism", 0}, {"tournament_size", 5}, {"crossover", "single_point"},
                                       {"mutation", "any"}});
  EXPECT_EQ(s.population, 30);
  EXPECT_TRUE(s.single_point);
  EXPECT_EQ(s.mutation, SearchSpace::Neighbourhood::Any);
  auto d = GeneticSettings::from_json(nullptr);
  EXPECT_EQ(d.population, 20);
  EXPECT_FALSE(d.single_point);
  EXPECT_EQ(d.mutation, SearchSpace::Neighbourhood::Adjacent);
  SearchSpace small({range("x", 6), range("y", 7)}, {where("x != y", 1)});
  auto other = make_strategy("genetic", small, {1, {{"crossover", "single_point"}, {"mutation", "any"}, {"elitism", 0}}});
  EXPECT_EQ(drive(*other, [](const Config& c) { return 1.0 + get(c, "x"); }, 3).size(), small.size());
}

}  // namespace
}  // namespace ktune::search
