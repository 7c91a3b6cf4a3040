#include "ktune/search/config_encoder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::search {

namespace {

std::vector<std::string> segments(const Value& v) {
  std::vector<std::string> out;
  const std::string& s = v.as_string();
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = s.find('/', start);
    out.push_back(s.substr(start, slash - start));
    if (slash == std::string::npos) return out;
    start = slash + 1;
  }
}

// Labels written as paths ("ktune/128x128x64/w2x2/s3", "NV_MMA_SYNC_F32_16x8x16_F16/sg4x8/wg2x2/r4/p2"):
// more than two string values, at least one with a '/'.
bool path_labels(const std::vector<Value>& values) {
  if (values.size() <= 2) return false;
  bool slash = false;
  for (const Value& v : values) {
    if (!v.is_string()) return false;
    slash = slash || v.as_string().find('/') != std::string::npos;
  }
  return slash;
}

}  // namespace

// A path label is encoded by its segments: per segment position, one-hot over the segments seen
// there. Two labels then lie closer the more segments they share, so one measurement of
// "ktune/..." says something about every other "ktune/..." label, where plain one-hot puts every
// pair of labels equally far apart and a model can learn nothing between them. Scaled so that
// labels differing in every position are at distance 1, as two one-hot values are.
ConfigEncoder::Encoding ConfigEncoder::path_encoding(const space::Parameter& p, Encoding e) {
  std::vector<std::vector<std::string>> split;
  std::size_t depth = 0;
  for (const Value& v : p.values) {
    split.push_back(segments(v));
    depth = std::max(depth, split.back().size());
  }
  // A label with fewer segments has "" at the positions it lacks ("default" shares nothing with
  // "ktune/128x128/s3").
  for (auto& parts : split) parts.resize(depth);
  std::vector<std::map<std::string, std::size_t>> column(depth);  // position -> segment -> dim
  for (std::size_t pos = 0; pos < depth; ++pos)
    for (const auto& parts : split) column[pos].emplace(parts[pos], 0);
  std::vector<std::size_t> first(depth, 0);
  for (std::size_t pos = 0; pos < depth; ++pos) {
    first[pos] = e.width;
    std::size_t i = 0;
    for (auto& [segment, dim] : column[pos]) dim = i++;
    e.width += column[pos].size();
  }
  // Two labels differing at every one of `depth` positions differ in 2 * depth coordinates.
  const double one = std::sqrt(0.5 / static_cast<double>(depth));
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    std::vector<double> x(e.width, 0.0);
    for (std::size_t pos = 0; pos < depth; ++pos) x[first[pos] + column[pos].at(split[i][pos])] = one;
    e.coordinates[p.values[i]] = std::move(x);
  }
  return e;
}

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
  if (path_labels(p.values)) return path_encoding(p, std::move(e));
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
