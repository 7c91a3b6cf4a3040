#pragma once
// Bayesian optimisation: a Gaussian-process surrogate of log(objective) picks each proposal by
// expected improvement, weighted by an estimated probability that the candidate does not fail.
//
// The first `initial` proposals are a maximin space-filling design (the first nearest the centre
// of the encoding, each next the farthest of 64 random candidates from those before). After that, each ask() scores a
// candidate pool of valid, never-proposed configs: `pool` uniform samples of the space (Floyd
// sampling by index, so a 10^7-config space is never enumerated) plus every config one parameter
// away (SearchSpace::Neighbourhood::Any) from the `local` best configs observed, where the
// optimum usually is. Only valid configs are ever scored: the constraints are respected by
// construction rather than learnt. The model is refitted once per batch of tells, on at most
// `max_points` successes (the best half and the most recent), which bounds the time per ask.
// Proposals made but not yet told are fantasised at the posterior mean, so several outstanding
// asks spread out instead of piling onto one optimum of the acquisition.
// Failed candidates (objective nullopt) are never proposed again and stay out of the objective
// model; a second GP, on success labels, estimates each candidate's probability of success,
// which multiplies its EI, and candidates below 1/2 are scored only if no other is left.
// When the pool holds nothing new (the space is nearly exhausted) ask() falls back to a random unvisited config, so every
// config is eventually proposed exactly once. The result is a function of the seed and the
// observations.
//
// A third GP on log(cost_seconds) of told observations predicts each candidate's cost, and the
// acquisition is divided by cost^cost_exponent (EI per second, Snoek et al. 2012).
//
// Params: initial (alias initial_samples, default 5), first ("centre" or "random"), pool (alias
// candidates, 512), local (alias local_best, 5), max_points (128), exploration (alias xi, 0.01),
// cost_exponent (1), fit_after (8). README.md says why.

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <unordered_set>
#include <vector>

#include "ktune/search/config_encoder.h"
#include "ktune/search/gaussian_process.h"
#include "ktune/search/strategy.h"

namespace ktune::search {

struct BayesSettings {
  long long initial = 5;
  long long pool = 512;
  long long local = 5;
  long long max_points = 128;
  double exploration = 0.01;
  double cost_exponent = 1.0;  // acquisition = EI / predicted cost^cost_exponent; 0: cost-blind
  long long fit_after = 8;     // observations before length scales are fitted (prior until then)
  bool centre_first = true;    // first design point: the pool's config nearest the centre (else random)

  static BayesSettings from_json(const nlohmann::json& params);  // throws std::invalid_argument
};

class BayesianOptimisation : public Strategy {
 public:
  BayesianOptimisation(const space::SearchSpace& space, std::uint64_t seed, BayesSettings settings);
  std::string name() const override { return "bayes"; }
  std::optional<Config> ask() override;
  void tell(const Observation& obs) override;

  // For tests and progress output: proposals chosen by the model (not the random design or
  // the exhausted-pool fallback), and hyperparameter fits so far.
  std::size_t model_proposals() const { return model_proposals_; }
  std::size_t fits() const { return fits_; }

 private:
  struct Observed {
    std::uint64_t index;
    std::vector<double> x;             // encoded
    std::optional<double> objective;   // nullopt: failed
    double cost = 0;                   // seconds the evaluation took; 0: unknown
  };
  struct Model {
    GaussianProcess gp;                          // of the objective (log), over successes
    std::optional<GaussianProcess> feasibility;  // of success labels; nullopt: nothing failed yet
    std::optional<GaussianProcess> cost;         // of log(cost); nullopt: costs unknown or off
    double best;                                 // lowest standardised target
  };
  enum class Target { objective, success, cost };

  std::optional<std::uint64_t> random_unvisited();
  std::optional<std::uint64_t> design_choice();
  std::optional<std::uint64_t> model_choice();
  std::vector<std::uint64_t> candidate_pool();
  std::vector<std::size_t> best_successes(std::size_t count) const;
  std::vector<std::size_t> model_points(bool with_failures) const;
  std::vector<std::size_t> costed_points() const;
  GpHyperparameters fit(const std::vector<std::size_t>& points, Target target) const;
  void fit_if_due(const std::vector<std::size_t>& points, const std::vector<std::size_t>& labelled,
                  const std::vector<std::size_t>& costed);
  void build_model();
  void gather(const std::vector<std::size_t>& points, Target target, std::vector<double>& x,
              std::vector<double>& y) const;
  std::vector<double> success_probability(const std::vector<double>& x, std::size_t m) const;
  std::vector<double> cost_penalty(const std::vector<double>& x, std::size_t m) const;
  std::size_t pick(const GpPrediction& prediction, const std::vector<double>& feasible,
                   const std::vector<double>& penalty) const;
  Config propose(std::uint64_t index);

  const space::SearchSpace& space_;
  std::mt19937_64 rng_;
  BayesSettings settings_;
  ConfigEncoder encoder_;
  std::unordered_set<std::uint64_t> visited_;                 // proposed, or told by the caller
  std::map<std::uint64_t, std::vector<double>> pending_;      // proposed, not yet told: encoded
  std::vector<Observed> observed_;                            // in the order told
  std::unordered_set<std::uint64_t> observed_indices_;
  std::size_t successes_ = 0;
  bool log_scale_ = true;  // every success so far was > 0, so log(objective) is defined
  std::optional<Model> model_;                                // nullopt: stale
  std::optional<GpHyperparameters> hyper_;
  std::optional<GpHyperparameters> label_hyper_;
  std::optional<GpHyperparameters> cost_hyper_;
  std::size_t observed_at_fit_ = 0;
  std::size_t model_proposals_ = 0, fits_ = 0;
};

}  // namespace ktune::search
