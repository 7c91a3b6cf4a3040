#pragma once
// A meta strategy: a multi-armed bandit (UCB1) splits the evaluations among sub-strategies.
//
// Each arm is a strategy built with make_strategy. ask() picks the arm with the highest
// mean reward + exploration * sqrt(ln(asks) / asks of the arm), counting outstanding asks so
// that several asks in flight spread over the arms, and returns that arm's proposal. Every
// observation is told to EVERY arm: they learn from each other's measurements and, as a strategy
// never proposes a config it was told about, none proposes a config another already measured.
// A config another arm proposed that is still outstanding can be proposed again; it is skipped
// (the arm learns its result when it is told) and the same arm is asked again. An arm that has
// nothing left is retired; the bandit is exhausted when all are, which by the arms' contract
// means every config was proposed once.
//
// Reward of a told proposal (credited to the arm that proposed it), in [0, 1]:
//   rank: the fraction of earlier successful results it beats (ties count half): a dense,
//         scale-free signal of which arm currently proposes good configs;
//   improvement: relative improvement of the best-so-far, (best - new) / best, clipped to [0, 1].
// A failed candidate earns 0. The arm's mean starts from one pseudo-reward of 0.5 so that an arm
// with asks in flight but no results yet is neither written off nor favoured.
//
// Params: arms (list of names or {"name", "params"} objects; default bayes, genetic, annealing,
// or annealing, genetic, random without bayes), warmup (30: asks the first arm gets alone before
// UCB1 starts, as UCB1 learns nothing from a handful of results and the scored windows are short),
// exploration (1.0), reward ("rank" or "improvement", "rank"), seeds ("derived" or "same",
// "derived").
//
// Why these defaults (evaluations until the optimum of bandit_test's 10^4-config smooth objective,
// median of 30 seeds, arms annealing + genetic + random): rank 136, improvement 206 (improving
// the best-so-far is rare, so that reward is mostly 0 and UCB1 degenerates into round robin);
// exploration 1.0 rather than 0.5 because arms are not stationary (annealing proposes poorly
// while hot, then well), and an arm written off early must get another chance: with arms random
// + annealing, random got most of the budget in 5 of 30 seeds with 0.5, in 2 with 1.0.

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ktune/search/strategy.h"

namespace ktune::search {

class BanditSearch : public Strategy {
 public:
  // Throws std::invalid_argument for bad params, unknown arms, or an arm that is itself a bandit.
  BanditSearch(const space::SearchSpace& space, std::uint64_t seed, const nlohmann::json& params);
  std::string name() const override { return "bandit"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

  // For tests and progress output.
  struct ArmStats {
    std::string name;
    std::size_t asks = 0;     // proposals returned to the caller
    std::size_t results = 0;  // of which told
    double reward = 0;        // sum over told proposals
    std::size_t skipped = 0;  // its proposals another arm had in flight (not returned)
    bool exhausted = false;
  };
  const std::vector<ArmStats>& arms() const { return stats_; }
  // The arms a bandit gets without an `arms` param: annealing, genetic, random, and bayes if
  // strategy_names() has it.
  static std::vector<std::string> default_arms();

 private:
  void add_arms(const nlohmann::json& arms);
  std::optional<std::size_t> choose_arm() const;
  std::optional<std::uint64_t> ask_arm(std::size_t arm);
  double reward(std::optional<double> objective) const;
  void record(std::optional<double> objective);

  const space::SearchSpace& space_;
  std::uint64_t seed_;
  double exploration_ = 1.0;
  std::size_t warmup_ = 30;
  bool improvement_reward_ = false;
  bool same_seeds_ = false;
  std::vector<std::unique_ptr<Strategy>> arms_;
  std::vector<ArmStats> stats_;
  std::size_t total_asks_ = 0;
  std::unordered_set<std::uint64_t> visited_;                    // proposed, or told by the caller
  std::unordered_map<std::uint64_t, std::size_t> outstanding_;   // proposed index -> arm
  std::vector<double> successes_;                                // every successful result, sorted
};

}  // namespace ktune::search
