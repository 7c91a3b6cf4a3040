#pragma once
// A small, safe expression language for constraints, problem sizes and launch geometry.
// Text is parsed once into a tree; names are bound to slots once; evaluation is a walk over
// the tree with no allocation for numeric results. Nothing is ever handed to an interpreter.
//
// Grammar (lowest to highest precedence):
//   cond ? a : b            a if cond else b
//   or  ||                  and  &&                 not  !
//   == != < <= > >=         (chained comparisons are not allowed)
//   + -                     * / // %                unary - +            ** (right assoc.)
//   literals: 42  0x2a  1.5  1e-3  true  false  "text" 'text'
//   names:    [A-Za-z_][A-Za-z0-9_]*  (parameters, problem sizes)
//   calls:    min(a, b, ...) max(a, b, ...) ceil_div(a, b) floor_div(a, b) is_pow2(a)
//             abs(a) log2(a) sqrt(a) ceil(a) floor(a) round_up(a, m) int(a) float(a)
// Semantics: int op int stays int for + - * // % and **, with overflow an error; `/` is
// true division (float); int and float mix to float; `==` compares numbers by value and
// strings by text; and/or short-circuit and need bools; division by zero is an error.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/core/value.h"

namespace ktune::expr {

// An error in an expression: `position` is the 0-based byte offset into the text.
class ExprError : public std::runtime_error {
 public:
  ExprError(std::size_t position, const std::string& message)
      : std::runtime_error(message), position_(position) {}
  std::size_t position() const { return position_; }

 private:
  std::size_t position_;
};

// Names visible to an expression, each bound to a slot index.
class Scope {
 public:
  // Returns the slot of `name`, adding it if new.
  std::size_t add(std::string_view name);
  std::optional<std::size_t> find(std::string_view name) const;
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

struct Node;  // private to expr.cc

class BoundExpr;

class Expr {
 public:
  Expr() = default;  // an empty expression; evaluating it is an error
  // Throws ExprError with the position of the first problem.
  static Expr parse(std::string_view text);

  bool empty() const { return root_ == nullptr; }
  const std::string& text() const { return text_; }
  // Free names referenced, each once, in order of first appearance (not function names).
  const std::vector<std::string>& names() const { return names_; }

  // Resolves names to slots of `scope`; throws ExprError("undefined name 'x'") at the
  // position of the first unknown name.
  BoundExpr bind(const Scope& scope) const;

  // Convenience: evaluates with names looked up in `values` (slower; for one-off uses).
  Value evaluate(const Config& values) const;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
  std::vector<std::string> names_;
  friend class BoundExpr;
};

class BoundExpr {
 public:
  BoundExpr() = default;
  // `slots` indexed as the Scope given to bind(). Throws ExprError on run-time errors
  // (division by zero, type mismatch, overflow) with the position of the operator.
  Value evaluate(std::span<const Value> slots) const;
  // Same, requiring a bool result.
  bool evaluate_bool(std::span<const Value> slots) const;
  const std::string& text() const { return text_; }

 private:
  friend class Expr;
  std::string text_;
  std::shared_ptr<const Node> root_;  // names already resolved to slots
};

}  // namespace ktune::expr
