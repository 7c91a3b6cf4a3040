#pragma once
// The set of valid configurations of a tuning problem: tunable parameters, each with a list of
// values, filtered by constraints. The Cartesian product is never materialised: parameters
// are split into groups connected by constraints, each group is solved on its own, and the
// groups are combined lazily by mixed-radix indexing (as ATF and Kernel Tuner do).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/core/value.h"
#include "ktune/expr/expr.h"
#include "ktune/space/group_tree.h"

namespace ktune::space {

struct Parameter {
  std::string name;
  std::vector<Value> values;
  int line = 0;  // spec line, for messages; 0 if unknown
};

// An expression over parameters and constants that must evaluate to true.
struct Constraint {
  Constraint() = default;
  Constraint(expr::Expr e, int at_line) : expr(std::move(e)), line(at_line) {}

  expr::Expr expr;
  int line = 0;  // spec line, for messages; 0 if unknown
  // Instead of an expression: a C++ test over the named parameters' values (given in the order
  // of `params`), for spaces whose rules are not spec text, such as a recorded space whose
  // configurations are exactly those recorded. `text` names it in messages and statistics.
  struct Predicate {
    std::vector<std::string> params;
    std::function<bool(std::span<const Value>)> holds;
    std::string text;
  };
  std::optional<Predicate> predicate;
};

class SpaceError : public std::runtime_error {
 public:
  SpaceError(int line, const std::string& message)
      : std::runtime_error(line > 0 ? "line " + std::to_string(line) + ": " + message : message), line_(line) {}
  int line() const { return line_; }  // 0 if unknown

 private:
  int line_;
};

class SearchSpace {
 public:
  // Group index reported for constraints that use only constants (evaluated once, up front).
  static constexpr std::size_t kNoGroup = std::numeric_limits<std::size_t>::max();

  // `constants` are fixed names (problem sizes) usable in constraints. Throws SpaceError for
  // duplicate parameter names, empty or duplicate values, empty constraints, constraints using
  // undefined names, a name that is both parameter and constant, and spaces of more than 2^63
  // valid configs. A constraint that is false for every config is not an error: size() == 0.
  SearchSpace(std::vector<Parameter> params, std::vector<Constraint> constraints, Config constants = {});

  const std::vector<Parameter>& parameters() const { return params_; }
  const Config& constants() const { return constants_; }

  std::uint64_t size() const { return size_; }  // number of valid configs
  bool empty() const { return size_ == 0; }
  double cartesian_size() const;  // product of value-list sizes; may be astronomically large

  // The valid config at `index` in a fixed, deterministic order. Throws std::out_of_range.
  Config at(std::uint64_t index) const;
  // Position of `c`, or nullopt unless `c` assigns exactly this space's parameters, each a value
  // from its list, and satisfies every constraint. An int and a float of equal value match.
  std::optional<std::uint64_t> index_of(const Config& c) const;
  bool contains(const Config& c) const { return index_of(c).has_value(); }

  // Uniform over valid configs. Throws SpaceError if the space is empty.
  Config sample(std::mt19937_64& rng) const;
  // n uniform indices; with `distinct`, all different and at most size() of them (fewer when the
  // space is smaller than n), in random order.
  std::vector<std::uint64_t> sample_indices(std::size_t n, std::mt19937_64& rng, bool distinct) const;

  // Valid configs that differ from `c` in exactly one parameter. Adjacent: the previous or next
  // value in that parameter's list; Any: any other value of it. `c` itself need not be valid but
  // must assign every parameter, and nothing else, a value from its list (else
  // std::invalid_argument).
  // Ordered by parameter (declaration order), then by value position.
  enum class Neighbourhood { Adjacent, Any };
  std::vector<Config> neighbours(const Config& c, Neighbourhood kind) const;
  // The same by index, for strategies that walk the space. Throws std::out_of_range.
  std::vector<std::uint64_t> neighbour_indices(std::uint64_t index, Neighbourhood kind) const;

  // Why the space is the size it is.
  struct ConstraintStats {
    std::string text;
    int line = 0;
    std::uint64_t rejected = 0;  // partial/complete combinations this constraint was first to reject
    std::size_t group = kNoGroup;
    std::string first_error;  // first evaluation error (counted as a rejection), empty if none
  };
  struct GroupStats {
    std::vector<std::string> parameters;  // in the order they are bound while solving
    double cartesian = 0;
    std::uint64_t valid = 0;
  };
  std::vector<ConstraintStats> constraint_stats() const { return constraint_stats_; }
  std::vector<GroupStats> group_stats() const;

  // Evaluates every constraint on a full config (values need not come from the lists): the texts
  // of those it violates; an evaluation error counts as a violation and is appended in
  // parentheses. Throws std::invalid_argument if `c` lacks a parameter.
  std::vector<std::string> violated_constraints(const Config& c) const;

 private:
  using ValueIndices = std::vector<std::uint32_t>;  // one value position per parameter

  struct Group {
    std::vector<std::size_t> params;       // declaration order until solved, then binding order
    std::vector<std::size_t> constraints;  // indices into constraints_
    GroupTree tree;                        // the valid tuples
    std::uint64_t valid = 0;
    std::uint64_t stride = 0;  // index weight of this group's row: product of later groups' sizes
  };
  struct BoundConstraint {
    expr::BoundExpr expr;
    std::vector<std::size_t> params;  // parameter indices it reads
    std::function<bool(std::span<const Value>)> predicate;  // set instead of expr for a Predicate
    bool holds(const std::vector<Value>& slots) const;  // throws what the expression throws
  };
  BoundConstraint bind_predicate(const Constraint& constraint) const;

  void check_parameters() const;
  void bind_constraints(const std::vector<Constraint>& constraints);
  void form_groups();
  void solve_group(Group& group);
  void compute_size();

  std::optional<std::uint32_t> value_position(std::size_t param, const Value& v) const;
  std::optional<ValueIndices> to_value_indices(const Config& c) const;
  ValueIndices to_value_indices_or_throw(const Config& c) const;
  ValueIndices decode(std::uint64_t index) const;
  std::optional<std::uint64_t> group_row(const Group& g, const ValueIndices& vi) const;
  std::optional<std::uint64_t> encode(const ValueIndices& vi) const;
  Config to_config(const ValueIndices& vi) const;
  std::vector<std::uint64_t> neighbours_of(const ValueIndices& vi, Neighbourhood kind) const;

  std::vector<Parameter> params_;
  std::vector<std::map<Value, std::uint32_t>> value_positions_;
  Config constants_;
  expr::Scope scope_;  // parameters first (slot == parameter index), then constants
  std::vector<Value> base_slots_;  // constants filled in, parameters unset
  std::vector<BoundConstraint> constraints_;
  std::vector<ConstraintStats> constraint_stats_;
  std::vector<std::size_t> group_of_param_;
  std::vector<Group> groups_;  // ordered by their first declared parameter; group 0 most significant
  bool constant_constraint_failed_ = false;
  std::uint64_t size_ = 0;
};

}  // namespace ktune::space
