#include "ktune/search/bandit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ktune/search/strategy_params.h"

namespace ktune::search {
namespace {

// SplitMix64's finaliser: arms seeded seed, seed + 1, ... through it get unrelated streams.
// Without it every arm would start from the same mt19937_64 state, and e.g. random and annealing
// would both begin with the same uniform draw, i.e. propose the same first config.
std::uint64_t derive_seed(std::uint64_t seed, std::size_t arm) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (arm + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct ArmSpec {
  std::string name;
  nlohmann::json params = nlohmann::json::object();
};

ArmSpec parse_arm(const nlohmann::json& arm) {
  if (arm.is_string()) return {arm.get<std::string>()};
  if (arm.is_object() && arm.contains("name") && arm["name"].is_string()) {
    for (const auto& [key, value] : arm.items()) {
      if (key != "name" && key != "params") {
        throw std::invalid_argument("bandit arm " + arm.dump() + " has unknown key '" + key +
                                    "' (valid: name, params)");
      }
    }
    return {arm["name"].get<std::string>(), arm.value("params", nlohmann::json::object())};
  }
  throw std::invalid_argument("bandit arm must be a strategy name or {\"name\": ..., \"params\": {...}}, got " +
                              arm.dump());
}

}  // namespace

std::vector<std::string> BanditSearch::default_arms() {
  // Looked up by name so that the bandit does not depend on bayes being in the build.
  const auto names = strategy_names();
  if (std::find(names.begin(), names.end(), "bayes") == names.end()) return {"annealing", "genetic", "random"};
  // With bayes: it leads (the warm-up is its), then genetic and annealing. No random arm: bayes'
  // space-filling design already explores, every arm is told every result, and a random arm's
  // share of a budget of a few dozen evaluations is evaluations of random quality.
  return {"bayes", "genetic", "annealing"};
}

BanditSearch::BanditSearch(const space::SearchSpace& space, std::uint64_t seed, const nlohmann::json& params)
    : space_(space), seed_(seed) {
  StrategyParams p("bandit", params, {"arms", "exploration", "reward", "seeds", "warmup"});
  exploration_ = p.number({"exploration"}, exploration_, 0, 1e300, /*inclusive=*/true);
  warmup_ = static_cast<std::size_t>(p.integer({"warmup"}, static_cast<long long>(warmup_), 0));
  improvement_reward_ = p.choice("reward", "rank", {"rank", "improvement"}) == "improvement";
  same_seeds_ = p.choice("seeds", "derived", {"derived", "same"}) == "same";
  nlohmann::json arms = nlohmann::json::array();
  for (const auto& name : default_arms()) arms.push_back(name);
  if (params.is_object() && params.contains("arms")) arms = params["arms"];
  add_arms(arms);
}

void BanditSearch::add_arms(const nlohmann::json& arms) {
  if (!arms.is_array() || arms.empty()) {
    throw std::invalid_argument("bandit parameter 'arms' must be a non-empty list of strategies, got " + arms.dump());
  }
  for (const auto& arm : arms) {
    ArmSpec spec = parse_arm(arm);
    const std::uint64_t seed = same_seeds_ ? seed_ : derive_seed(seed_, arms_.size());
    std::unique_ptr<Strategy> s;
    try {
      s = make_strategy(spec.name, space_, {seed, spec.params});
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("bandit arm '" + spec.name + "': " + e.what());
    }
    if (s->name() == name()) throw std::invalid_argument("bandit arm '" + spec.name + "' cannot be a bandit");
    stats_.push_back({s->name()});
    arms_.push_back(std::move(s));
  }
}

std::optional<std::size_t> BanditSearch::choose_arm() const {
  // Warm-up: the first arm alone proposes the first `warmup` configs. UCB1 learns nothing from
  // a handful of results (rank rewards need a history to rank against), so splitting the first
  // evaluations round-robin only dilutes the lead arm while the budget is shortest, and it is
  // just then that a sample-efficient model-based arm beats the others.
  if (total_asks_ < warmup_ && !stats_.front().exhausted) return 0;
  std::optional<std::size_t> best;
  double best_score = 0;
  for (std::size_t a = 0; a < arms_.size(); ++a) {
    const ArmStats& s = stats_[a];
    if (s.exhausted) continue;
    if (s.asks == 0) return a;  // every arm is tried once, in the order given
    // One pseudo-reward of 0.5: an arm whose asks are all in flight is neither 0 nor 1.
    const double mean = (s.reward + 0.5) / static_cast<double>(s.results + 1);
    const double bonus = exploration_ * std::sqrt(std::log(static_cast<double>(total_asks_)) /
                                                  static_cast<double>(s.asks));
    if (!best || mean + bonus > best_score) {
      best = a;
      best_score = mean + bonus;
    }
  }
  return best;
}

std::optional<std::uint64_t> BanditSearch::ask_arm(std::size_t arm) {
  for (;;) {
    auto config = arms_[arm]->ask();
    if (!config) {
      stats_[arm].exhausted = true;
      return std::nullopt;
    }
    auto index = space_.index_of(*config);
    // Outstanding from another arm (it has not been told yet): skip it. At most as many skips
    // as there are asks in flight, as the arm never proposes the same config twice.
    if (index && !visited_.count(*index)) return index;
    ++stats_[arm].skipped;
  }
}

std::optional<Config> BanditSearch::ask() {
  while (auto arm = choose_arm()) {
    if (auto index = ask_arm(*arm)) {
      ++stats_[*arm].asks;
      ++total_asks_;
      visited_.insert(*index);
      outstanding_.emplace(*index, *arm);
      return space_.at(*index);
    }
  }
  return std::nullopt;  // every arm is exhausted: every config was proposed or told
}

double BanditSearch::reward(std::optional<double> objective) const {
  if (!objective) return 0;
  if (successes_.empty()) return 0.5;  // nothing to compare with
  const double v = *objective;
  if (improvement_reward_) {
    const double best = successes_.front();
    if (v >= best) return 0;
    return best > 0 ? std::min(1.0, (best - v) / best) : 1.0;
  }
  const auto lower = std::lower_bound(successes_.begin(), successes_.end(), v);
  const auto upper = std::upper_bound(lower, successes_.end(), v);
  const double worse = static_cast<double>(successes_.end() - upper);
  const double equal = static_cast<double>(upper - lower);
  return (worse + 0.5 * equal) / static_cast<double>(successes_.size());
}

void BanditSearch::record(std::optional<double> objective) {
  if (objective) successes_.insert(std::upper_bound(successes_.begin(), successes_.end(), *objective), *objective);
}

void BanditSearch::tell(const Observation& obs) {
  auto index = space_.index_of(obs.config);
  if (!index) return;
  const std::optional<double> objective =
      obs.objective && std::isfinite(*obs.objective) ? obs.objective : std::nullopt;
  if (auto it = outstanding_.find(*index); it != outstanding_.end()) {
    ArmStats& s = stats_[it->second];
    s.reward += reward(objective);
    ++s.results;
    outstanding_.erase(it);
  } else if (!visited_.insert(*index).second) {
    return;  // told twice: the first result stands
  }
  record(objective);
  for (auto& arm : arms_) arm->tell({obs.config, objective, obs.cost_seconds});
}

}  // namespace ktune::search
