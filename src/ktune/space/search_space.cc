#include "ktune/space/search_space.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "ktune/space/uniform.h"

namespace ktune::space {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean 'WM'?)" for a near miss among `known`, else "".
std::string suggestion(std::string_view name, const std::vector<std::string>& known) {
  const std::string* best = nullptr;
  std::size_t best_distance = std::max<std::size_t>(1, std::min<std::size_t>(2, name.size() / 2));
  for (const auto& candidate : known) {
    std::size_t d = edit_distance(name, candidate);
    if (d <= best_distance && (best == nullptr || d < best_distance)) {
      best = &candidate;
      best_distance = d;
    }
  }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

std::string quote(const std::string& text) { return "'" + text + "'"; }

// Multiplies, saturating at the largest double instead of overflowing to inf.
double times(double a, double b) {
  double product = a * b;
  return product > std::numeric_limits<double>::max() ? std::numeric_limits<double>::max() : product;
}

}  // namespace

SearchSpace::SearchSpace(std::vector<Parameter> params, std::vector<Constraint> constraints, Config constants)
    : params_(std::move(params)), constants_(std::move(constants)) {
  check_parameters();
  for (const auto& p : params_) scope_.add(p.name);  // slot == parameter index
  base_slots_.resize(params_.size());
  for (const auto& [name, value] : constants_) {
    scope_.add(name);
    base_slots_.push_back(value);
  }
  bind_constraints(constraints);
  form_groups();
  for (auto& group : groups_) solve_group(group);
  compute_size();
}

void SearchSpace::check_parameters() const {
  std::map<std::string, int, std::less<>> seen;
  for (const auto& p : params_) {
    if (p.name.empty()) throw SpaceError(p.line, "a parameter has an empty name");
    if (auto [it, inserted] = seen.emplace(p.name, p.line); !inserted) {
      std::string where = it->second > 0 ? " (first defined on line " + std::to_string(it->second) + ")" : "";
      throw SpaceError(p.line, "duplicate parameter " + quote(p.name) + where);
    }
    if (p.values.empty()) throw SpaceError(p.line, "parameter " + quote(p.name) + " has no values");
    if (p.values.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw SpaceError(p.line, "parameter " + quote(p.name) + " has too many values");
    }
    std::map<Value, std::size_t> positions;
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      if (auto [it, inserted] = positions.emplace(p.values[i], i); !inserted) {
        throw SpaceError(p.line, "parameter " + quote(p.name) + " lists value " + p.values[i].to_string() +
                                     " twice (positions " + std::to_string(it->second + 1) + " and " +
                                     std::to_string(i + 1) + ")");
      }
    }
    if (constants_.count(p.name) != 0) {
      throw SpaceError(p.line, quote(p.name) + " is both a tunable parameter and a constant (problem size)");
    }
  }
}

void SearchSpace::bind_constraints(const std::vector<Constraint>& constraints) {
  value_positions_.resize(params_.size());
  for (std::size_t p = 0; p < params_.size(); ++p) {
    for (std::size_t i = 0; i < params_[p].values.size(); ++i) {
      value_positions_[p].emplace(params_[p].values[i], static_cast<std::uint32_t>(i));
    }
  }
  for (const auto& constraint : constraints) {
    if (constraint.predicate) {
      constraints_.push_back(bind_predicate(constraint));
      ConstraintStats stats;
      stats.text = constraint.predicate->text;
      stats.line = constraint.line;
      constraint_stats_.push_back(std::move(stats));
      continue;
    }
    if (constraint.expr.empty()) throw SpaceError(constraint.line, "empty constraint");
    const std::string& text = constraint.expr.text();
    BoundConstraint bound;
    for (const auto& name : constraint.expr.names()) {
      auto slot = scope_.find(name);
      if (!slot) {
        throw SpaceError(constraint.line, "constraint " + quote(text) + " uses undefined name " + quote(name) +
                                              suggestion(name, scope_.names()));
      }
      if (*slot < params_.size()) bound.params.push_back(*slot);
    }
    try {
      bound.expr = constraint.expr.bind(scope_);
    } catch (const expr::ExprError& e) {
      throw SpaceError(constraint.line, "constraint " + quote(text) + ": " + e.what());
    }
    ConstraintStats stats;
    stats.text = text;
    stats.line = constraint.line;
    if (bound.params.empty()) {
      // Only constants: the answer is the same for every config, so decide it once.
      bool holds = false;
      try {
        holds = bound.expr.evaluate_bool(base_slots_);
      } catch (const std::exception& e) {
        stats.first_error = e.what();
      }
      if (!holds) {
        stats.rejected = 1;
        constant_constraint_failed_ = true;
      }
    }
    constraints_.push_back(std::move(bound));
    constraint_stats_.push_back(std::move(stats));
  }
}

SearchSpace::BoundConstraint SearchSpace::bind_predicate(const Constraint& constraint) const {
  const Constraint::Predicate& p = *constraint.predicate;
  if (!p.holds || p.params.empty()) throw SpaceError(constraint.line, "constraint " + quote(p.text) + " reads no parameter");
  BoundConstraint bound;
  for (const auto& name : p.params) {
    auto slot = scope_.find(name);
    if (!slot || *slot >= params_.size()) {
      throw SpaceError(constraint.line, "constraint " + quote(p.text) + " reads " + quote(name) + ", not a parameter");
    }
    bound.params.push_back(*slot);
  }
  bound.predicate = p.holds;
  return bound;
}

bool SearchSpace::BoundConstraint::holds(const std::vector<Value>& slots) const {
  if (!predicate) return expr.evaluate_bool(slots);
  // The predicate sees its parameters' values in its own order; small vectors, read once per node.
  std::vector<Value> values;
  values.reserve(params.size());
  for (std::size_t p : params) values.push_back(slots[p]);
  return predicate(values);
}

void SearchSpace::form_groups() {
  std::vector<std::size_t> parent(params_.size());
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  auto root = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& c : constraints_) {
    for (std::size_t i = 1; i < c.params.size(); ++i) {
      std::size_t a = root(c.params[0]), b = root(c.params[i]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  // Numbering groups by their first declared parameter keeps the order stable and readable.
  std::map<std::size_t, std::size_t> group_of_root;
  group_of_param_.resize(params_.size());
  for (std::size_t p = 0; p < params_.size(); ++p) {
    auto [it, inserted] = group_of_root.emplace(root(p), groups_.size());
    if (inserted) groups_.emplace_back();
    group_of_param_[p] = it->second;
    groups_[it->second].params.push_back(p);
  }
  for (std::size_t c = 0; c < constraints_.size(); ++c) {
    if (constraints_[c].params.empty()) continue;
    std::size_t g = group_of_param_[constraints_[c].params[0]];
    groups_[g].constraints.push_back(c);
    constraint_stats_[c].group = g;
  }
}

void SearchSpace::solve_group(Group& group) {
  std::vector<std::uint32_t> value_counts(params_.size());
  for (std::size_t p = 0; p < params_.size(); ++p) value_counts[p] = static_cast<std::uint32_t>(params_[p].values.size());
  std::vector<GroupTree::ConstraintScope> scopes;
  for (std::size_t c : group.constraints) scopes.push_back({c, constraints_[c].params});

  std::vector<Value> slots = base_slots_;
  std::vector<std::uint64_t> rejected(constraints_.size(), 0);
  auto accept = [&](std::size_t param, std::uint32_t position, std::span<const std::size_t> checks) {
    slots[param] = params_[param].values[position];
    for (std::size_t c : checks) {
      bool holds = false;
      try {
        holds = constraints_[c].holds(slots);
      } catch (const std::exception& e) {
        auto& first_error = constraint_stats_[c].first_error;
        if (first_error.empty()) {
          std::string where;
          for (std::size_t q : constraints_[c].params) {
            where += (where.empty() ? "" : ", ") + params_[q].name + "=" + slots[q].to_string();
          }
          first_error = where + ": " + e.what();
        }
      }
      if (!holds) {
        ++rejected[c];
        return false;
      }
    }
    return true;
  };
  try {
    group.tree = GroupTree::solve(group.params, value_counts, scopes, accept);
  } catch (const GroupTooLarge&) {
    std::string names;
    for (std::size_t p : group.params) names += (names.empty() ? "" : ", ") + params_[p].name;
    throw SpaceError(0, "the parameters " + names + " alone have more than 2^63 valid combinations");
  }
  group.params = group.tree.binding_order();
  group.valid = group.tree.size();
  for (std::size_t c : group.constraints) constraint_stats_[c].rejected += rejected[c];
}

void SearchSpace::compute_size() {
  const std::uint64_t limit = std::uint64_t{1} << 63;
  bool any_empty = constant_constraint_failed_;
  for (const auto& g : groups_) any_empty = any_empty || g.valid == 0;
  if (any_empty) {
    size_ = 0;
    return;
  }
  std::uint64_t size = 1;
  for (auto g = groups_.rbegin(); g != groups_.rend(); ++g) {
    g->stride = size;
    if (size > limit / g->valid) {
      double estimate = 1;
      for (const auto& group : groups_) estimate = times(estimate, static_cast<double>(group.valid));
      throw SpaceError(0, "the search space has about " + Value::real(estimate).to_string() +
                              " valid configs, more than 2^63; add constraints or remove values");
    }
    size *= g->valid;
  }
  size_ = size;
}

double SearchSpace::cartesian_size() const {
  double product = 1;
  for (const auto& p : params_) product = times(product, static_cast<double>(p.values.size()));
  return product;
}

std::optional<std::uint32_t> SearchSpace::value_position(std::size_t param, const Value& v) const {
  const auto& positions = value_positions_[param];
  if (auto it = positions.find(v); it != positions.end()) return it->second;
  // 64 from the command line should find 64.0 in a list of floats, and the reverse.
  if (v.is_numeric()) {
    const double wanted = v.as_double();
    const auto& values = params_[param].values;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i].is_numeric() && values[i].as_double() == wanted) return static_cast<std::uint32_t>(i);
    }
  }
  return std::nullopt;
}

std::optional<SearchSpace::ValueIndices> SearchSpace::to_value_indices(const Config& c) const {
  if (c.size() != params_.size()) return std::nullopt;
  ValueIndices vi(params_.size());
  for (std::size_t p = 0; p < params_.size(); ++p) {
    auto it = c.find(params_[p].name);
    if (it == c.end()) return std::nullopt;
    auto position = value_position(p, it->second);
    if (!position) return std::nullopt;
    vi[p] = *position;
  }
  return vi;
}

SearchSpace::ValueIndices SearchSpace::to_value_indices_or_throw(const Config& c) const {
  ValueIndices vi(params_.size());
  for (std::size_t p = 0; p < params_.size(); ++p) {
    auto it = c.find(params_[p].name);
    if (it == c.end()) throw std::invalid_argument("config lacks parameter " + quote(params_[p].name));
    auto position = value_position(p, it->second);
    if (!position) {
      throw std::invalid_argument("value " + it->second.to_string() + " of parameter " + quote(params_[p].name) +
                                  " is not one of its values");
    }
    vi[p] = *position;
  }
  for (const auto& [name, value] : c) {
    if (!scope_.find(name) || constants_.count(name) != 0) {
      throw std::invalid_argument("config sets " + quote(name) + ", which is not a parameter of this space");
    }
  }
  return vi;
}

SearchSpace::ValueIndices SearchSpace::decode(std::uint64_t index) const {
  ValueIndices vi(params_.size());
  for (const auto& g : groups_) {
    g.tree.decode(index / g.stride, vi);
    index %= g.stride;
  }
  return vi;
}

std::optional<std::uint64_t> SearchSpace::group_row(const Group& g, const ValueIndices& vi) const {
  return g.tree.find(vi);
}

std::optional<std::uint64_t> SearchSpace::encode(const ValueIndices& vi) const {
  if (size_ == 0) return std::nullopt;
  std::uint64_t index = 0;
  for (const auto& g : groups_) {
    auto row = group_row(g, vi);
    if (!row) return std::nullopt;
    index += *row * g.stride;
  }
  return index;
}

Config SearchSpace::to_config(const ValueIndices& vi) const {
  Config config;
  for (std::size_t p = 0; p < params_.size(); ++p) config.emplace(params_[p].name, params_[p].values[vi[p]]);
  return config;
}

Config SearchSpace::at(std::uint64_t index) const {
  if (index >= size_) {
    throw std::out_of_range("config index " + std::to_string(index) + " is outside the search space of " +
                            std::to_string(size_) + " configs");
  }
  return to_config(decode(index));
}

std::optional<std::uint64_t> SearchSpace::index_of(const Config& c) const {
  auto vi = to_value_indices(c);
  if (!vi) return std::nullopt;
  return encode(*vi);
}

Config SearchSpace::sample(std::mt19937_64& rng) const {
  if (size_ == 0) throw SpaceError(0, "cannot sample from an empty search space (no config satisfies the constraints)");
  return at(uniform_below(rng, size_));
}

std::vector<std::uint64_t> SearchSpace::sample_indices(std::size_t n, std::mt19937_64& rng, bool distinct) const {
  std::vector<std::uint64_t> indices;
  if (!distinct) {
    if (n > 0 && size_ == 0) {
      throw SpaceError(0, "cannot sample from an empty search space (no config satisfies the constraints)");
    }
    indices.reserve(n);
    for (std::size_t i = 0; i < n; ++i) indices.push_back(uniform_below(rng, size_));
    return indices;
  }
  // Floyd's algorithm: a uniform k-subset in O(k) time and memory whatever the space's size;
  // the shuffle afterwards makes the order uniform too.
  const std::uint64_t k = std::min<std::uint64_t>(n, size_);
  indices.reserve(k);
  std::unordered_set<std::uint64_t> chosen;
  chosen.reserve(k);
  for (std::uint64_t j = size_ - k; j < size_; ++j) {
    std::uint64_t t = uniform_below(rng, j + 1);
    std::uint64_t pick = chosen.count(t) != 0 ? j : t;
    chosen.insert(pick);
    indices.push_back(pick);
  }
  shuffle_in_place(indices, rng);
  return indices;
}

std::vector<std::uint64_t> SearchSpace::neighbours_of(const ValueIndices& vi, Neighbourhood kind) const {
  std::vector<std::uint64_t> result;
  if (size_ == 0) return result;
  // A neighbour changes one group's row only, so every other group must already be valid.
  std::vector<std::optional<std::uint64_t>> rows(groups_.size());
  std::uint64_t index_of_valid_rows = 0;
  std::size_t invalid_groups = 0, invalid_group = 0;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    rows[g] = group_row(groups_[g], vi);
    if (rows[g]) {
      index_of_valid_rows += *rows[g] * groups_[g].stride;
    } else {
      ++invalid_groups;
      invalid_group = g;
    }
  }
  if (invalid_groups > 1) return result;

  ValueIndices changed = vi;
  for (std::size_t p = 0; p < params_.size(); ++p) {
    const std::size_t g = group_of_param_[p];
    if (invalid_groups == 1 && g != invalid_group) continue;
    const std::uint64_t rest = index_of_valid_rows - (rows[g] ? *rows[g] * groups_[g].stride : 0);
    const std::uint32_t here = vi[p];
    const auto count = static_cast<std::uint32_t>(params_[p].values.size());
    auto try_value = [&](std::uint32_t position) {
      changed[p] = position;
      if (auto row = group_row(groups_[g], changed)) result.push_back(rest + *row * groups_[g].stride);
    };
    if (kind == Neighbourhood::Adjacent) {
      if (here > 0) try_value(here - 1);
      if (here + 1 < count) try_value(here + 1);
    } else {
      for (std::uint32_t position = 0; position < count; ++position) {
        if (position != here) try_value(position);
      }
    }
    changed[p] = here;
  }
  return result;
}

std::vector<Config> SearchSpace::neighbours(const Config& c, Neighbourhood kind) const {
  std::vector<Config> result;
  for (std::uint64_t index : neighbours_of(to_value_indices_or_throw(c), kind)) result.push_back(at(index));
  return result;
}

std::vector<std::uint64_t> SearchSpace::neighbour_indices(std::uint64_t index, Neighbourhood kind) const {
  if (index >= size_) {
    throw std::out_of_range("config index " + std::to_string(index) + " is outside the search space of " +
                            std::to_string(size_) + " configs");
  }
  return neighbours_of(decode(index), kind);
}

std::vector<SearchSpace::GroupStats> SearchSpace::group_stats() const {
  std::vector<GroupStats> stats;
  for (const auto& g : groups_) {
    GroupStats s;
    s.cartesian = 1;
    for (std::size_t p : g.params) {
      s.parameters.push_back(params_[p].name);
      s.cartesian = times(s.cartesian, static_cast<double>(params_[p].values.size()));
    }
    s.valid = g.valid;
    stats.push_back(std::move(s));
  }
  return stats;
}

std::vector<std::string> SearchSpace::violated_constraints(const Config& c) const {
  std::vector<Value> slots = base_slots_;
  for (std::size_t p = 0; p < params_.size(); ++p) {
    auto it = c.find(params_[p].name);
    if (it == c.end()) throw std::invalid_argument("config lacks parameter " + quote(params_[p].name));
    slots[p] = it->second;
  }
  std::vector<std::string> violated;
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    try {
      if (!constraints_[i].holds(slots)) violated.push_back(constraint_stats_[i].text);
    } catch (const std::exception& e) {
      violated.push_back(constraint_stats_[i].text + " (error: " + e.what() + ")");
    }
  }
  return violated;
}

}  // namespace ktune::space
