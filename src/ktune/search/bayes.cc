#include "ktune/search/bayes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "ktune/search/strategy_params.h"
#include "ktune/search/unvisited.h"
#include "ktune/space/uniform.h"

namespace ktune::search {
namespace {

// Hyperparameters are fitted on at most this many points: ~40 factorisations of 64 points cost
// about as much as one ask's scoring, and the length scales barely move with more data.
constexpr std::size_t kFitPoints = 64;
// Refit them when the number of successes has grown by this factor since the last fit: often
// early, when each point changes the picture, rarely later.
constexpr double kRefitGrowth = 1.2;
constexpr double kMinSuccessProbability = 1e-3;
constexpr double kLikelySuccess = 0.5;  // "more likely to succeed than to fail"
// Uniform candidates per initial-design proposal, of which the one farthest from every config
// proposed so far is taken (maximin): a few dozen already spread the points far better than
// uniform draws, and the design stays cheap on any space.
constexpr std::size_t kDesignPool = 64;

long long bounded_integer(const StrategyParams& p, std::initializer_list<const char*> names, long long fallback,
                          long long low, long long high) {
  const long long v = p.integer(names, fallback, low);
  if (v > high) {
    throw std::invalid_argument("bayes parameter '" + std::string(*names.begin()) + "' must be an integer in [" +
                                std::to_string(low) + ", " + std::to_string(high) + "], got " + std::to_string(v));
  }
  return v;
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z * 0.70710678118654752440); }
double normal_pdf(double z) { return 0.39894228040143267794 * std::exp(-0.5 * z * z); }

// Expected improvement below `best` (minimisation), with the margin `xi` making it demand a
// real improvement rather than a hair's breadth under the incumbent.
double expected_improvement(double mean, double sigma, double best, double xi) {
  const double gain = best - mean - xi;
  if (sigma < 1e-12) return std::max(gain, 0.0);
  const double z = gain / sigma;
  return gain * normal_cdf(z) + sigma * normal_pdf(z);
}

}  // namespace

BayesSettings BayesSettings::from_json(const nlohmann::json& params) {
  StrategyParams p("bayes", params,
                   {"initial", "initial_samples", "pool", "candidates", "local", "local_best", "max_points",
                    "exploration", "xi", "cost_exponent", "fit_after", "first"});
  BayesSettings s;
  s.initial = bounded_integer(p, {"initial", "initial_samples"}, s.initial, 1, 1'000'000);
  s.pool = bounded_integer(p, {"pool", "candidates"}, s.pool, 1, 1'000'000);
  s.local = bounded_integer(p, {"local", "local_best"}, s.local, 0, 10'000);
  // The surrogate costs O(max_points^3) per refit and O(max_points^2) per candidate.
  s.max_points = bounded_integer(p, {"max_points"}, s.max_points, 2, 4096);
  s.exploration = p.number({"exploration", "xi"}, s.exploration, 0, 10, true);
  s.cost_exponent = p.number({"cost_exponent"}, s.cost_exponent, 0, 4, true);
  s.fit_after = bounded_integer(p, {"fit_after"}, s.fit_after, 0, 1'000'000);
  s.centre_first = p.choice("first", "centre", {"centre", "random"}) == "centre";
  return s;
}

BayesianOptimisation::BayesianOptimisation(const space::SearchSpace& space, std::uint64_t seed, BayesSettings settings)
    : space_(space), rng_(seed), settings_(settings), encoder_(space) {}

std::optional<std::uint64_t> BayesianOptimisation::random_unvisited() {
  return search::random_unvisited(space_.size(), visited_, rng_);
}

std::optional<std::uint64_t> BayesianOptimisation::design_choice() {
  // A space-filling initial design (maximin: each point as far as possible from those before)
  // learns more per evaluation than uniform draws, which cluster: with 5 points the model sees
  // every region rather than three corners of one. Greedy farthest-point over a random pool
  // (Gonzalez 1985) is the standard cheap approximation and respects the constraints, since the
  // pool holds valid configs only. Distances are in the encoding, where any two values of a
  // categorical parameter are 1 apart and a numeric range is [0, 1].
  std::vector<std::uint64_t> pool;
  for (std::uint64_t index : space_.sample_indices(kDesignPool, rng_, true)) {
    if (!visited_.count(index)) pool.push_back(index);
  }
  if (pool.empty()) return std::nullopt;
  std::vector<const std::vector<double>*> placed;
  for (const Observed& o : observed_) placed.push_back(&o.x);
  for (const auto& [index, x] : pending_) placed.push_back(&x);
  // Nothing placed yet: the config nearest the centre of the encoded box (0.5 everywhere; all
  // values of a categorical are equally far from it) starts the design, as centre points do in
  // classical designs: it is the least extreme config, and extremes of tuning parameters
  // (smallest tiles, largest blocks) are where kernels are typically slow or fail.
  std::vector<double> centre(encoder_.dims(), 0.5);
  if (placed.empty() && !settings_.centre_first) return pool.front();
  if (placed.empty()) placed.push_back(&centre);
  const bool nearest = placed.front() == &centre;
  std::size_t best_j = 0;
  double best_d = nearest ? HUGE_VAL : -1;
  for (std::size_t j = 0; j < pool.size(); ++j) {
    const std::vector<double> x = encoder_.encode(space_.at(pool[j]));
    double d = HUGE_VAL;
    for (const std::vector<double>* p : placed) {
      double d2 = 0;
      for (std::size_t k = 0; k < x.size(); ++k) d2 += (x[k] - (*p)[k]) * (x[k] - (*p)[k]);
      d = std::min(d, d2);
    }
    if (nearest ? d < best_d : d > best_d) {
      best_d = d;
      best_j = j;
    }
  }
  return pool[best_j];
}

std::optional<Config> BayesianOptimisation::ask() {
  if (visited_.size() >= space_.size()) return std::nullopt;
  std::optional<std::uint64_t> index;
  // The model needs two distinct successes to have any shape; until then, and during the
  // initial design, spread the proposals out.
  if (visited_.size() >= static_cast<std::size_t>(settings_.initial) && successes_ >= 2) {
    index = model_choice();
  } else {
    index = design_choice();
  }
  if (!index) index = random_unvisited();
  if (!index) return std::nullopt;
  return propose(*index);
}

Config BayesianOptimisation::propose(std::uint64_t index) {
  visited_.insert(index);
  Config c = space_.at(index);
  std::vector<double> x = encoder_.encode(c);
  if (model_) model_->gp.add_fantasy(x.data());
  pending_.emplace(index, std::move(x));
  return c;
}

void BayesianOptimisation::tell(const Observation& obs) {
  auto index = space_.index_of(obs.config);
  if (!index) return;
  if (!observed_indices_.insert(*index).second) return;  // told twice: the first result stands
  visited_.insert(*index);
  const std::optional<double> objective =
      obs.objective && std::isfinite(*obs.objective) ? obs.objective : std::nullopt;
  std::vector<double> x;
  if (auto it = pending_.find(*index); it != pending_.end()) {
    x = std::move(it->second);
    pending_.erase(it);
  } else {
    x = encoder_.encode(space_.at(*index));  // canonical values (an int told as a float matches too)
  }
  if (objective) {
    ++successes_;
    if (*objective <= 0 && log_scale_) {  // not a time: model the raw objective from now on
      log_scale_ = false;
      hyper_.reset();
    }
  }
  const double cost = std::isfinite(obs.cost_seconds) && obs.cost_seconds > 0 ? obs.cost_seconds : 0.0;
  observed_.push_back({*index, std::move(x), objective, cost});
  model_.reset();
}

std::vector<std::size_t> BayesianOptimisation::best_successes(std::size_t count) const {
  std::vector<std::size_t> ok;
  for (std::size_t i = 0; i < observed_.size(); ++i) {
    if (observed_[i].objective) ok.push_back(i);
  }
  count = std::min(count, ok.size());
  // Ties broken by space index, so the order depends on the observations only.
  std::partial_sort(ok.begin(), ok.begin() + static_cast<std::ptrdiff_t>(count), ok.end(),
                    [this](std::size_t a, std::size_t b) {
                      const Observed &x = observed_[a], &y = observed_[b];
                      return *x.objective != *y.objective ? *x.objective < *y.objective : x.index < y.index;
                    });
  ok.resize(count);
  return ok;
}

std::vector<std::size_t> BayesianOptimisation::model_points(bool with_failures) const {
  // The best half of the cap keeps the model sharp where the optimum is; the most recent rest
  // keeps it honest about where the search is currently looking.
  const std::size_t cap = static_cast<std::size_t>(settings_.max_points);
  std::vector<std::size_t> points = best_successes((cap + 1) / 2);
  std::unordered_set<std::size_t> taken(points.begin(), points.end());
  for (std::size_t i = observed_.size(); i-- > 0 && points.size() < cap;) {
    if ((with_failures || observed_[i].objective) && !taken.count(i)) points.push_back(i);
  }
  return points;
}

std::vector<std::size_t> BayesianOptimisation::costed_points() const {
  // Every evaluation with a known cost, failures too (a compile error costs time as well); the
  // most recent max_points, which bounds the fit like the other models'.
  std::vector<std::size_t> points;
  const std::size_t cap = static_cast<std::size_t>(settings_.max_points);
  for (std::size_t i = observed_.size(); i-- > 0 && points.size() < cap;) {
    if (observed_[i].cost > 0) points.push_back(i);
  }
  return points;
}

void BayesianOptimisation::gather(const std::vector<std::size_t>& points, Target target, std::vector<double>& x,
                                  std::vector<double>& y) const {
  x.clear();
  y.clear();
  for (std::size_t i : points) {
    const Observed& o = observed_[i];
    x.insert(x.end(), o.x.begin(), o.x.end());
    if (target == Target::success) {
      y.push_back(o.objective ? 1.0 : 0.0);
    } else if (target == Target::cost) {
      y.push_back(std::log(o.cost));  // costs vary by factors: model them multiplicatively
    } else {
      // Kernel times are positive and heavy-tailed: in log space a 2x slowdown is the same step
      // everywhere and a few very slow configs do not flatten the rest of the landscape.
      y.push_back(log_scale_ ? std::log(*o.objective) : *o.objective);
    }
  }
}

GpHyperparameters BayesianOptimisation::fit(const std::vector<std::size_t>& points, Target target) const {
  // With a handful of points the marginal likelihood is flat or misleading (an extreme length
  // scale fits 4 points perfectly); the prior's centre is the better guess until there are more.
  if (points.size() < static_cast<std::size_t>(settings_.fit_after)) return prior_hyperparameters(encoder_.dims());
  // An even stride over the points (best first, then recent) keeps both kinds in the sample.
  const std::size_t stride = (points.size() + kFitPoints - 1) / kFitPoints;
  std::vector<std::size_t> sample;
  for (std::size_t i = 0; i < points.size(); i += stride) sample.push_back(points[i]);
  std::vector<double> x, y;
  gather(sample, target, x, y);
  return fit_hyperparameters(x, y, encoder_.dims(), encoder_.parameter_of_dim());
}

void BayesianOptimisation::fit_if_due(const std::vector<std::size_t>& points,
                                      const std::vector<std::size_t>& labelled,
                                      const std::vector<std::size_t>& costed) {
  const std::size_t observed = observed_.size();
  if (hyper_ && static_cast<double>(observed) < kRefitGrowth * static_cast<double>(observed_at_fit_)) return;
  hyper_ = fit(points, Target::objective);
  // The success boundary has its own length scales: a resource limit may hinge on one
  // parameter the objective barely depends on. So does the cost: compile time follows code
  // size (unrolling, tile counts), measurement time the kernel's.
  if (successes_ < observed) label_hyper_ = fit(labelled, Target::success);
  if (costed.size() >= 2) cost_hyper_ = fit(costed, Target::cost);
  observed_at_fit_ = observed;
  ++fits_;
}

void BayesianOptimisation::build_model() {
  const std::vector<std::size_t> points = model_points(false), labelled = model_points(true);
  const std::vector<std::size_t> costed = settings_.cost_exponent > 0 ? costed_points() : std::vector<std::size_t>{};
  fit_if_due(points, labelled, costed);
  std::vector<double> x, y;
  gather(points, Target::objective, x, y);
  GaussianProcess gp(x, y, encoder_.dims(), *hyper_);
  for (const auto& [index, px] : pending_) gp.add_fantasy(px.data());
  double best = HUGE_VAL;
  for (double v : y) best = std::min(best, gp.standardise(v));
  // Failures are left out of the objective model: imputing a bad value for them puts a cliff
  // next to every resource limit, and the optimum often sits right at one. A second GP on
  // success labels (1/0) estimates the probability of success instead; as an interpolant it
  // extrapolates a boundary between successes and failures rather than blurring it.
  std::optional<GaussianProcess> feasibility;
  if (successes_ < observed_.size()) {
    if (!label_hyper_) label_hyper_ = fit(labelled, Target::success);  // first failure after the last fit
    gather(labelled, Target::success, x, y);
    feasibility.emplace(x, y, encoder_.dims(), *label_hyper_);
  }
  // A third GP, on log(cost), predicts what each candidate will cost (Snoek et al. 2012).
  std::optional<GaussianProcess> cost;
  if (costed.size() >= 2) {
    if (!cost_hyper_) cost_hyper_ = fit(costed, Target::cost);
    gather(costed, Target::cost, x, y);
    cost.emplace(x, y, encoder_.dims(), *cost_hyper_);
  }
  model_.emplace(Model{std::move(gp), std::move(feasibility), std::move(cost), best});
}

std::vector<std::uint64_t> BayesianOptimisation::candidate_pool() {
  std::vector<std::uint64_t> pool;
  std::unordered_set<std::uint64_t> seen;
  auto consider = [&](std::uint64_t index) {
    if (!visited_.count(index) && seen.insert(index).second) pool.push_back(index);
  };
  // Neighbours of the best configs: where a good config is, a better one is usually one
  // parameter away. Uniform samples: the rest of the space, so the search is not only local.
  for (std::size_t i : best_successes(static_cast<std::size_t>(settings_.local))) {
    for (std::uint64_t n : space_.neighbour_indices(observed_[i].index, space::SearchSpace::Neighbourhood::Any)) {
      consider(n);
    }
  }
  for (std::uint64_t index : space_.sample_indices(static_cast<std::size_t>(settings_.pool), rng_, true)) {
    consider(index);
  }
  return pool;
}

std::vector<double> BayesianOptimisation::success_probability(const std::vector<double>& x, std::size_t m) const {
  if (!model_->feasibility) return std::vector<double>(m, 1.0);
  std::vector<double> p = model_->feasibility->predict_mean(x, m);
  // Floored rather than 0, so that among likely failures the model still prefers the better.
  for (double& v : p) v = std::clamp(v, kMinSuccessProbability, 1.0);
  return p;
}

std::vector<double> BayesianOptimisation::cost_penalty(const std::vector<double>& x, std::size_t m) const {
  // Expected improvement per second (Snoek, Larochelle & Adams 2012, "Practical Bayesian
  // optimization of machine learning algorithms"): a tuner is judged by the best config found
  // by a deadline, and evaluation costs differ by 10x between configs (compile time, slow
  // kernels measured as often as fast ones), so of two candidates promising the same
  // improvement the cheaper one gives it sooner and leaves time for the next. The divisor is
  // predicted cost^cost_exponent relative to the geometric mean cost, so it is 1 on average.
  if (!model_->cost) return std::vector<double>(m, 1.0);
  std::vector<double> log_cost = model_->cost->predict_mean(x, m);
  double mean = 0;
  for (double v : log_cost) mean += v / static_cast<double>(m);
  for (double& v : log_cost) v = std::exp(settings_.cost_exponent * (v - mean));
  return log_cost;
}

std::size_t BayesianOptimisation::pick(const GpPrediction& prediction, const std::vector<double>& feasible,
                                       const std::vector<double>& penalty) const {
  const std::size_t m = feasible.size();
  const double xi = settings_.exploration;
  std::size_t best_j = 0, bound_j = 0;
  double best_score = 0, best_bound = -HUGE_VAL;
  // Candidates that probably fail are considered only when nothing else is left. EI x P(success)
  // alone is not enough: once the feasible neighbourhood of the optimum is known, EI there is
  // ~0 while it stays large in an unexplored failing region, which would then be drained.
  const bool restrict = std::any_of(feasible.begin(), feasible.end(), [](double p) { return p >= kLikelySuccess; });
  for (std::size_t j = 0; j < m; ++j) {
    if (restrict && feasible[j] < kLikelySuccess) continue;
    const double sigma = std::sqrt(prediction.variance[j]);
    const double score = expected_improvement(prediction.mean[j], sigma, model_->best, xi) * feasible[j] / penalty[j];
    if (score > best_score) {
      best_score = score;
      best_j = j;
    }
    // If EI underflows everywhere (every candidate is confidently worse), use an optimistic
    // bound instead so that the choice is still informed (and, like EI, divided by the cost).
    const double bound =
        std::log(std::max(feasible[j], 1e-300)) - (prediction.mean[j] - 2 * sigma) - std::log(penalty[j]);
    if (bound > best_bound) {
      best_bound = bound;
      bound_j = j;
    }
  }
  return best_score > 0 ? best_j : bound_j;
}

std::optional<std::uint64_t> BayesianOptimisation::model_choice() {
  if (!model_) build_model();
  const std::vector<std::uint64_t> pool = candidate_pool();
  if (pool.empty()) return std::nullopt;
  const std::size_t m = pool.size(), dims = encoder_.dims();
  std::vector<double> x(m * dims);
  for (std::size_t j = 0; j < m; ++j) encoder_.encode(space_.at(pool[j]), &x[j * dims]);
  const GpPrediction prediction = model_->gp.predict(x, m);
  const std::vector<double> feasible = success_probability(x, m);
  const std::vector<double> penalty = cost_penalty(x, m);
  ++model_proposals_;
  return pool[pick(prediction, feasible, penalty)];
}

}  // namespace ktune::search
