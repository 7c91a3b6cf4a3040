#include "ktune/search/gaussian_process.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ktune::search {
namespace {

constexpr double kSqrt5 = 2.23606797749978969640;
constexpr double kLog2Pi = 1.83787706640934548356;

// Packed lower-triangular storage: row i holds i + 1 entries starting at i (i + 1) / 2, so a
// fantasy is appended as one more row without moving the others.
inline std::size_t row_start(std::size_t i) { return i * (i + 1) / 2; }

// In-place Cholesky of a packed symmetric matrix; false if it is not numerically positive definite.
bool cholesky_packed(std::vector<double>& a, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    double* row_i = &a[row_start(i)];
    for (std::size_t j = 0; j <= i; ++j) {
      const double* row_j = &a[row_start(j)];
      double s = row_i[j];
      for (std::size_t k = 0; k < j; ++k) s -= row_i[k] * row_j[k];
      if (i == j) {
        if (!(s > 0)) return false;
        row_i[i] = std::sqrt(s);
      } else {
        row_i[j] = s / row_j[j];
      }
    }
  }
  return true;
}

// Solves L z = b in place (L packed lower, n rows).
void forward_solve(const std::vector<double>& l, std::size_t n, double* b) {
  for (std::size_t i = 0; i < n; ++i) {
    const double* row = &l[row_start(i)];
    double s = b[i];
    for (std::size_t k = 0; k < i; ++k) s -= row[k] * b[k];
    b[i] = s / row[i];
  }
}

// Solves L^T z = b in place.
void backward_solve(const std::vector<double>& l, std::size_t n, double* b) {
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= l[row_start(k) + i] * b[k];
    b[i] = s / l[row_start(i) + i];
  }
}

}  // namespace

double matern52(const double* a, const double* b, std::size_t dims) {
  double r2 = 0;
  for (std::size_t d = 0; d < dims; ++d) {
    const double diff = a[d] - b[d];
    r2 += diff * diff;
  }
  const double r = std::sqrt(r2);
  return (1 + kSqrt5 * r + (5.0 / 3.0) * r2) * std::exp(-kSqrt5 * r);
}

GaussianProcess::GaussianProcess(const std::vector<double>& x, const std::vector<double>& y, std::size_t dims,
                                 const GpHyperparameters& hyper)
    : dims_(dims), real_(y.size()), noise_(hyper.noise) {
  if (y.empty() || x.size() != y.size() * dims || hyper.length_scales.size() != dims) {
    throw std::invalid_argument("GaussianProcess: inconsistent sizes");
  }
  for (double l : hyper.length_scales) inv_length_.push_back(1.0 / l);
  points_.resize(x.size());
  for (std::size_t i = 0; i < real_; ++i) scale_into(&x[i * dims], &points_[i * dims]);

  double sum = 0, sum2 = 0;
  for (double v : y) sum += v;
  y_mean_ = sum / static_cast<double>(real_);
  for (double v : y) sum2 += (v - y_mean_) * (v - y_mean_);
  const double sd = std::sqrt(sum2 / static_cast<double>(real_));
  y_scale_ = sd > 1e-12 ? sd : 1.0;  // constant targets: any scale will do
  alpha_.resize(real_);
  for (std::size_t i = 0; i < real_; ++i) alpha_[i] = standardise(y[i]);
  factorise(real_);
}

void GaussianProcess::scale_into(const double* x, double* out) const {
  for (std::size_t d = 0; d < dims_; ++d) out[d] = x[d] * inv_length_[d];
}

void GaussianProcess::factorise(std::size_t n) {
  // Near-duplicate points make K singular; retry with a growing jitter, which only says the
  // observations are a little noisier than assumed.
  for (double jitter = 1e-8;; jitter *= 100) {
    chol_.assign(row_start(n), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j <= i; ++j) {
        chol_[row_start(i) + j] = matern52(&points_[i * dims_], &points_[j * dims_], dims_);
      }
      chol_[row_start(i) + i] += noise_ + jitter;
    }
    if (cholesky_packed(chol_, n) || jitter > 1) {
      noise_ += jitter;
      break;
    }
  }
  forward_solve(chol_, n, alpha_.data());
  double fit = 0, log_det = 0;
  for (std::size_t i = 0; i < n; ++i) {
    fit += alpha_[i] * alpha_[i];  // y^T K^-1 y = |L^-1 y|^2
    log_det += std::log(chol_[row_start(i) + i]);
  }
  backward_solve(chol_, n, alpha_.data());
  log_likelihood_ = -0.5 * fit - log_det - 0.5 * static_cast<double>(n) * kLog2Pi;
}

void GaussianProcess::add_fantasy(const double* x) {
  const std::size_t n = points_.size() / dims_;
  points_.resize(points_.size() + dims_);
  double* s = &points_[n * dims_];
  scale_into(x, s);
  std::vector<double> row(n + 1);
  for (std::size_t i = 0; i < n; ++i) row[i] = matern52(&points_[i * dims_], s, dims_);
  forward_solve(chol_, n, row.data());
  double rest = 1 + noise_;
  for (std::size_t i = 0; i < n; ++i) rest -= row[i] * row[i];
  row[n] = std::sqrt(std::max(rest, 1e-12));
  chol_.insert(chol_.end(), row.begin(), row.end());
}

GpPrediction GaussianProcess::predict(const std::vector<double>& x, std::size_t m) const {
  const std::size_t n = points_.size() / dims_;
  std::vector<double> scaled(m * dims_);
  for (std::size_t j = 0; j < m; ++j) scale_into(&x[j * dims_], &scaled[j * dims_]);
  // v[i * m + j] = k(point i, candidate j), then overwritten by L^-1 k column by column.
  std::vector<double> v(n * m);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < m; ++j) v[i * m + j] = matern52(&points_[i * dims_], &scaled[j * dims_], dims_);
  }
  GpPrediction out{std::vector<double>(m, 0.0), std::vector<double>(m, 1.0)};
  for (std::size_t i = 0; i < real_; ++i) {  // fantasies carry no weight in the mean
    for (std::size_t j = 0; j < m; ++j) out.mean[j] += alpha_[i] * v[i * m + j];
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double* l = &chol_[row_start(i)];
    double* vi = &v[i * m];
    for (std::size_t k = 0; k < i; ++k) {
      const double lik = l[k];
      const double* vk = &v[k * m];
      for (std::size_t j = 0; j < m; ++j) vi[j] -= lik * vk[j];
    }
    const double inv = 1.0 / l[i];
    for (std::size_t j = 0; j < m; ++j) {
      vi[j] *= inv;
      out.variance[j] -= vi[j] * vi[j];
    }
  }
  for (double& var : out.variance) var = std::max(var, 0.0);
  return out;
}

std::vector<double> GaussianProcess::predict_mean(const std::vector<double>& x, std::size_t m) const {
  std::vector<double> out(m), scaled(dims_);
  for (std::size_t j = 0; j < m; ++j) {
    scale_into(&x[j * dims_], scaled.data());
    double mean = 0;
    for (std::size_t i = 0; i < real_; ++i) mean += alpha_[i] * matern52(&points_[i * dims_], scaled.data(), dims_);
    out[j] = y_mean_ + y_scale_ * mean;
  }
  return out;
}

namespace {

constexpr double kPriorCentre = 0.5;  // length scale, in units of a parameter's normalised range
constexpr double kPriorWidth = 1.5;   // standard deviation of its logarithm
constexpr double kMinLength = 0.02, kMaxLength = 50;

double log_prior(const GpHyperparameters& h, const std::vector<std::size_t>& first_dim_of_group) {
  double p = 0;
  for (std::size_t d : first_dim_of_group) {
    const double z = std::log(h.length_scales[d] / kPriorCentre) / kPriorWidth;
    p -= 0.5 * z * z;
  }
  return p;
}

}  // namespace

GpHyperparameters prior_hyperparameters(std::size_t dims) {
  return {std::vector<double>(dims, kPriorCentre), 1e-2};
}

GpHyperparameters fit_hyperparameters(const std::vector<double>& x, const std::vector<double>& y, std::size_t dims,
                                      const std::vector<std::size_t>& group) {
  std::vector<std::size_t> first_dim;  // one dimension per parameter, for the prior
  for (std::size_t d = 0; d < dims; ++d) {
    if (d == 0 || group[d] != group[d - 1]) first_dim.push_back(d);
  }
  auto score = [&](const GpHyperparameters& h) {
    return GaussianProcess(x, y, dims, h).log_marginal_likelihood() + log_prior(h, first_dim);
  };
  GpHyperparameters best{std::vector<double>(dims, 1.0), 1e-2};
  double best_score = -HUGE_VAL;
  for (double length : {0.1, 0.2, 0.4, 0.8, 1.6, 3.2}) {
    for (double noise : {1e-4, 1e-3, 1e-2, 1e-1}) {
      GpHyperparameters h{std::vector<double>(dims, length), noise};
      if (double s = score(h); s > best_score) {
        best_score = s;
        best = h;
      }
    }
  }
  // One coordinate pass: a parameter that does not matter gets a long length scale (ARD), one
  // that matters a lot a short one. A parameter's one-hot dimensions move together.
  for (std::size_t d0 : first_dim) {
    GpHyperparameters base = best;
    for (double factor : {0.3, 3.0}) {
      GpHyperparameters h = base;
      for (std::size_t d = d0; d < dims && group[d] == group[d0]; ++d) {
        h.length_scales[d] = std::clamp(base.length_scales[d] * factor, kMinLength, kMaxLength);
      }
      if (double s = score(h); s > best_score) {
        best_score = s;
        best = h;
      }
    }
  }
  return best;
}

}  // namespace ktune::search
