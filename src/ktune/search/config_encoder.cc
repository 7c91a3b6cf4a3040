#include "ktune/search/config_encoder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ktune::search {

ConfigEncoder::Encoding ConfigEncoder::encoding_of(const space::Parameter& p) {
  Encoding e;
  e.name = p.name;
  const std::size_t k = p.values.size();
  if (k <= 1) {
    for (const Value& v : p.values) e.coordinates[v] = {};
    return e;
  }
  const bool numeric = std::all_of(p.values.begin(), p.values.end(), [](const Value& v) { return v.is_numeric(); });
  if (numeric) {
    const bool positive =
        std::all_of(p.values.begin(), p.values.end(), [](const Value& v) { return v.as_double() > 0; });
    std::vector<double> t;
    for (const Value& v : p.values) t.push_back(positive ? std::log(v.as_double()) : v.as_double());
    const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
    const double low = *lo, span = *hi - *lo;  // > 0: values are distinct
    e.width = 1;
    for (std::size_t i = 0; i < k; ++i) e.coordinates[p.values[i]] = {(t[i] - low) / span};
    return e;
  }
  if (k == 2) {
    e.width = 1;
    e.coordinates[p.values[0]] = {0.0};
    e.coordinates[p.values[1]] = {1.0};
    return e;
  }
  e.width = k;
  const double one = std::sqrt(0.5);
  for (std::size_t i = 0; i < k; ++i) {
    std::vector<double> hot(k, 0.0);
    hot[i] = one;
    e.coordinates[p.values[i]] = std::move(hot);
  }
  return e;
}

ConfigEncoder::ConfigEncoder(const space::SearchSpace& space) {
  for (std::size_t i = 0; i < space.parameters().size(); ++i) {
    Encoding e = encoding_of(space.parameters()[i]);
    e.first_dim = parameter_of_dim_.size();
    parameter_of_dim_.insert(parameter_of_dim_.end(), e.width, i);
    params_.push_back(std::move(e));
  }
}

void ConfigEncoder::encode(const Config& c, double* out) const {
  for (const Encoding& e : params_) {
    auto it = c.find(e.name);
    auto coords = it == c.end() ? e.coordinates.end() : e.coordinates.find(it->second);
    if (coords == e.coordinates.end()) {
      throw std::invalid_argument("cannot encode config " + config_key(c) + ": bad or missing " + e.name);
    }
    std::copy(coords->second.begin(), coords->second.end(), out + e.first_dim);
  }
}

std::vector<double> ConfigEncoder::encode(const Config& c) const {
  std::vector<double> out(dims());
  encode(c, out.data());
  return out;
}

}  // namespace ktune::search
