#pragma once
// Gaussian-process regression, the surrogate of the "bayes" strategy: an ARD Matern-5/2 kernel
// on points of [0,1]^dims, exact inference by Cholesky, hyperparameters by maximum marginal
// likelihood over a small grid. Dense O(n^3) algebra: the caller bounds n (the strategy caps the
// points it fits), which is what bounds the time per proposal.
//
// Targets are standardised (zero mean, unit variance) on construction, so the signal variance is
// fixed at 1 and the noise variance is relative to it; predictions are in standardised units.

#include <cstddef>
#include <vector>

namespace ktune::search {

struct GpHyperparameters {
  std::vector<double> length_scales;  // one per input dimension, in units of the [0,1] encoding
  double noise = 1e-2;                // noise variance, relative to the unit signal variance
};

struct GpPrediction {
  std::vector<double> mean;      // standardised units
  std::vector<double> variance;  // of the latent function (without noise), >= 0
};

// Matern-5/2 correlation of two points whose coordinates are already divided by the length
// scales: (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r). Twice differentiable, so it suits
// objectives that are smooth but not analytic, the usual choice for BO.
double matern52(const double* a, const double* b, std::size_t dims);

class GaussianProcess {
 public:
  // `x`: n points of `dims` coordinates, row-major; `y`: n targets (n >= 1).
  // Throws std::invalid_argument on inconsistent sizes.
  GaussianProcess(const std::vector<double>& x, const std::vector<double>& y, std::size_t dims,
                  const GpHyperparameters& hyper);

  std::size_t dims() const { return dims_; }
  // Log marginal likelihood of the standardised targets (the hyperparameter fit's score).
  double log_marginal_likelihood() const { return log_likelihood_; }
  double standardise(double y) const { return (y - y_mean_) / y_scale_; }

  // Conditions on a pending evaluation at `x` whose outcome is taken to be the posterior mean
  // ("kriging believer"): the mean stays as it is, the variance shrinks around `x`, so further
  // proposals made before the result arrives look elsewhere. O(n^2).
  void add_fantasy(const double* x);

  // Posterior at `m` points (row-major). O(n^2 m); the inner loops run over the m points so
  // that they vectorise without reassociating floating-point sums.
  GpPrediction predict(const std::vector<double>& x, std::size_t m) const;
  // Only the posterior mean, in the units of the targets (not standardised). O(n m).
  std::vector<double> predict_mean(const std::vector<double>& x, std::size_t m) const;

 private:
  void scale_into(const double* x, double* out) const;
  void factorise(std::size_t n);

  std::size_t dims_;
  std::size_t real_ = 0;              // points with observed targets; fantasies follow them
  std::vector<double> inv_length_;    // 1 / length scale per dimension
  double noise_;
  std::vector<double> points_;        // scaled coordinates, row-major, real then fantasies
  std::vector<double> chol_;          // lower Cholesky factor of K + noise I, row-major, capacity^2
  std::size_t capacity_ = 0;          // row stride of chol_
  std::vector<double> alpha_;         // K^-1 y over the real points
  double y_mean_ = 0, y_scale_ = 1;
  double log_likelihood_ = 0;
};

// Maximum marginal likelihood (with a weak log-normal prior on each length scale, so that a
// dozen points cannot drive a length scale to an extreme) over: a shared length scale times
// noise grid, then one coordinate pass that rescales (x0.3, x3) each parameter's dimensions.
// `group[d]` names the parameter of dimension d (a categorical parameter spans several).
// Cost: about (24 + 2 * parameters) factorisations of n points; the caller subsamples.
// The prior's centre: every length scale at its prior median, little noise. What the model uses
// while there are too few points for the marginal likelihood to say anything (a handful of
// points can be fitted perfectly by an extreme length scale, which then misleads EI).
GpHyperparameters prior_hyperparameters(std::size_t dims);

GpHyperparameters fit_hyperparameters(const std::vector<double>& x, const std::vector<double>& y, std::size_t dims,
                                      const std::vector<std::size_t>& group);

}  // namespace ktune::search
