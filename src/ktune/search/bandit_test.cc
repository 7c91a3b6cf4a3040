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
#include "ktune/search/bandit.h"
#include "ktune/search/strategy.h"
#include "ktune/search/search_test_support.h"

namespace ktune::search {
namespace {

using space::Constraint;
using space::Parameter;
using space::SearchSpace;

using namespace ktune::search::testing;  // range, where, drive, smooth, grid4 (search_test_support.h)

std::vector<std::string> arm_names(const BanditSearch& b) {
  std::vector<std::string> names;
  for (const auto& a : b.arms()) names.push_back(a.name);
  return names;
}

// Evaluations (two asks in flight) until the optimum is first proposed, or budget + 1 if never.
std::size_t evaluations_to_optimum(const std::string& strategy, const SearchSpace& space, std::uint64_t seed,
                                   std::size_t budget, const nlohmann::json& params = nlohmann::json::object()) {
  auto s = make_strategy(strategy, space, {seed, params});
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

TEST(Bandit, FindsTheOptimumFarMoreOftenThanRandom) {
  SearchSpace space = grid4();
  const int seeds = 30;
  const std::size_t budget = 400;
  std::size_t bandit = 0, random = 0;
  std::vector<std::size_t> needed;
  for (int seed = 1; seed <= seeds; ++seed) {
    const std::size_t b = evaluations_to_optimum("bandit", space, static_cast<std::uint64_t>(seed), budget);
    bandit += b <= budget;
    random += evaluations_to_optimum("random", space, static_cast<std::uint64_t>(seed), budget) <= budget;
    needed.push_back(b);
  }
  std::sort(needed.begin(), needed.end());
  std::printf("optimum found in %zu of %d bandit runs (median %zu evaluations), %zu of %d random runs (%zu each)\n",
              bandit, seeds, needed[needed.size() / 2], random, seeds, budget);
  EXPECT_GE(bandit, 24u) << "bandit " << bandit << "/" << seeds << ", random " << random;
  EXPECT_LE(random, 6u);
  EXPECT_GE(bandit, random + 16);
}

TEST(Bandit, WithoutBayesStillFindsTheOptimumFarMoreOftenThanRandom) {
  SearchSpace space = grid4();
  const nlohmann::json params = {{"arms", {"annealing", "genetic", "random"}}};
  std::size_t found = 0;
  std::vector<std::size_t> needed;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    needed.push_back(evaluations_to_optimum("bandit", space, seed, 400, params));
    found += needed.back() <= 400;
  }
  std::sort(needed.begin(), needed.end());
  std::printf("annealing + genetic + random: optimum found in %zu of 30 bandit runs (median %zu evaluations)\n",
              found, needed[15]);
  EXPECT_GE(found, 24u);
}

TEST(Bandit, DefaultArmsIncludeBayesOnlyIfItExists) {
  SearchSpace space = grid4();
  std::vector<std::string> expected = {"annealing", "genetic", "random"};
  const auto names = strategy_names();
  if (std::find(names.begin(), names.end(), "bayes") != names.end()) expected = {"bayes", "genetic", "annealing"};
  EXPECT_EQ(BanditSearch::default_arms(), expected);
  EXPECT_EQ(arm_names(BanditSearch(space, 1, nullptr)), expected);
}

TEST(Bandit, TheFirstArmAloneProposesDuringTheWarmUp) {
  SearchSpace space = grid4();
  BanditSearch b(space, 1, {{"arms", {"random", "genetic"}}, {"warmup", 15}});
  drive(b, smooth, 1, 15);
  EXPECT_EQ(b.arms()[0].asks, 15u);
  EXPECT_EQ(b.arms()[1].asks, 0u);
  drive(b, smooth, 1, 1);
  EXPECT_EQ(b.arms()[1].asks, 1u);  // then UCB1, which tries every arm once first
  BanditSearch none(space, 1, {{"arms", {"random", "genetic"}}, {"warmup", 0}});
  drive(none, smooth, 1, 2);
  EXPECT_EQ(none.arms()[1].asks, 1u);
}

TEST(Bandit, EveryArmIsToldEveryResult) {
  // Two exhaustive arms would propose the same index order. With one ask at a time nothing is
  // in flight when an arm is asked, so a skipped proposal would mean an arm was not told.
  SearchSpace space = grid4();
  BanditSearch b(space, 1, {{"arms", {"exhaustive", "exhaustive"}}});
  auto proposed = drive(b, smooth, 1, 500);
  for (std::uint64_t i = 0; i < proposed.size(); ++i) EXPECT_EQ(proposed[i], space.at(i));
  EXPECT_EQ(b.arms()[0].skipped + b.arms()[1].skipped, 0u);
  EXPECT_GT(b.arms()[0].asks, 0u);
  EXPECT_GT(b.arms()[1].asks, 0u);
  // With asks in flight, an arm may propose what another has outstanding: it is skipped, and
  // the space is still covered exactly once.
  SearchSpace small({range("x", 10), range("y", 10)}, {where("x + y < 15", 1)});
  BanditSearch same(small, 3, {{"arms", {"random", "random"}}, {"seeds", "same"}});
  auto all = drive(same, [](const Config& c) { return 1.0 + get(c, "x"); }, 4);
  std::set<std::string> keys;
  for (const auto& c : all) keys.insert(config_key(c));
  EXPECT_EQ(all.size(), small.size());
  EXPECT_EQ(keys.size(), small.size());
  EXPECT_GT(same.arms()[0].skipped + same.arms()[1].skipped, 0u);
}

TEST(Bandit, ShiftsTheBudgetToTheArmThatProposesBetterConfigs) {
  SearchSpace space = grid4();
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    BanditSearch b(space, seed, {{"arms", {"random", "genetic"}}});
    drive(b, smooth, 2, 300);
    const auto& random = b.arms()[0];
    const auto& genetic = b.arms()[1];
    std::printf("seed %llu: random %zu asks (mean reward %.2f), genetic %zu asks (mean reward %.2f)\n",
                static_cast<unsigned long long>(seed), random.asks, random.reward / static_cast<double>(random.results),
                genetic.asks, genetic.reward / static_cast<double>(genetic.results));
    EXPECT_GT(genetic.asks, 3 * random.asks) << "seed " << seed;
  }
}

TEST(Bandit, SameSeedAndObservationsGiveTheSameSequence) {
  SearchSpace space = grid4();
  auto a = drive(*make_strategy("bandit", space, {7, {}}), smooth, 3, 200);
  auto b = drive(*make_strategy("bandit", space, {7, {}}), smooth, 3, 200);
  auto c = drive(*make_strategy("bandit", space, {8, {}}), smooth, 3, 200);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  auto flipped = [](const Config& cfg) -> std::optional<double> { return 10.0 - *smooth(cfg); };
  auto d = drive(*make_strategy("bandit", space, {7, {}}), flipped, 3, 200);
  EXPECT_EQ(a.front(), d.front());
  EXPECT_NE(a, d);
}

TEST(Bandit, AvoidsAFailingRegion) {
  SearchSpace space = grid4();
  auto f = [](const Config& c) -> std::optional<double> {
    if (get(c, "a") < 5) return std::nullopt;
    return smooth(c);
  };
  for (std::uint64_t seed : {1, 2, 3}) {
    auto proposed = drive(*make_strategy("bandit", space, {seed, {}}), f, 3, 300);
    std::size_t failed_late = 0;
    for (std::size_t i = 100; i < proposed.size(); ++i) failed_late += !f(proposed[i]).has_value();
    // Random search would fail about 100 of these 200.
    EXPECT_LT(failed_late, 60u) << "seed " << seed << ": " << failed_late << " of 200 late proposals failed";
  }
}

TEST(Bandit, AskOverheadIsSmallOnATenMillionConfigSpace) {
  std::vector<Parameter> params;
  for (int i = 0; i < 7; ++i) params.push_back(range("p" + std::to_string(i), 10));
  params.push_back(range("q", 2));
  SearchSpace space(params, {where("(p0 + p1) % 7 != 3", 1), where("p2 * q <= 6", 2)});
  ASSERT_GT(space.size(), 10'000'000u);
  auto f = [](const Config& c) -> std::optional<double> {
    double sum = 1;
    for (const auto& [name, v] : c) sum += std::abs(static_cast<double>(v.as_int()) - 4);
    return sum;
  };
  // The default arms, bayes included if present: its model cost is part of the overhead.
  BanditSearch b(space, 3, nullptr);
  const auto start = std::chrono::steady_clock::now();
  auto proposed = drive(b, f, 4, 1000);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("bandit: %.3f ms per ask+tell on %llu configs\n", ms / static_cast<double>(proposed.size()),
              static_cast<unsigned long long>(space.size()));
  ASSERT_EQ(proposed.size(), 1000u);
  EXPECT_LT(ms / 1000, 10.0 * kSanitizerTimeFactor);
}

TEST(Bandit, ScalesToHugeSpaces) {
  std::vector<Parameter> params;
  for (int i = 0; i < 60; ++i) params.push_back(range("b" + std::to_string(i), 2));
  SearchSpace space(params, {});
  auto s = make_strategy("bandit", space, {11, {{"arms", {"annealing", "genetic", "random"}}}});
  auto proposed = drive(*s, [](const Config& c) { return 1.0 + get(c, "b3") + get(c, "b17"); }, 4, 2000);
  std::set<std::string> keys;
  for (const auto& c : proposed) keys.insert(config_key(c));
  EXPECT_EQ(keys.size(), 2000u);
}

TEST(Bandit, NamesParamsAndErrors) {
  SearchSpace space = grid4();
  EXPECT_EQ(make_strategy("meta", space, {})->name(), "bandit");
  EXPECT_EQ(make_strategy("Portfolio", space, {})->name(), "bandit");
  for (const nlohmann::json& bad :
       {nlohmann::json{{"arm", {"random"}}}, nlohmann::json{{"arms", nlohmann::json::array()}},
        nlohmann::json{{"arms", "random"}}, nlohmann::json{{"arms", {"random", "tabu"}}},
        nlohmann::json{{"arms", {"random", "meta"}}}, nlohmann::json{{"arms", {42}}},
        nlohmann::json{{"arms", {{{"name", "annealing"}, {"params", {{"cooling", 2.0}}}}}}},
        nlohmann::json{{"arms", {{{"name", "annealing"}, {"parms", nlohmann::json::object()}}}}},
        nlohmann::json{{"exploration", -1.0}}, nlohmann::json{{"reward", "best"}},
        nlohmann::json{{"seeds", "random"}}, nlohmann::json{{"warmup", -1}}, nlohmann::json::array()}) {
    EXPECT_THROW(make_strategy("bandit", space, {0, bad}), std::invalid_argument) << bad.dump();
  }
  BanditSearch b(space, 2,
                 {{"arms", {"random", {{"name", "anneal"}, {"params", {{"cooling", 0.8}}}}, "ga"}},
                  {"exploration", 0.0}, {"reward", "improvement"}, {"seeds", "same"}});
  EXPECT_EQ(arm_names(b), (std::vector<std::string>{"random", "annealing", "genetic"}));
  SearchSpace small({range("x", 6), range("y", 7)}, {where("x != y", 1)});
  BanditSearch c(small, 2, {{"arms", {"annealing", "genetic"}}, {"reward", "improvement"}});
  EXPECT_EQ(drive(c, [](const Config& cfg) { return 1.0 + get(cfg, "x"); }, 3).size(), small.size());
}

}  // namespace
}  // namespace ktune::search
