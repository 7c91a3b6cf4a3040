#include "ktune/expr/expr.h"

#include <algorithm>

#include "ktune/expr/node.h"

namespace ktune::expr {

std::size_t Scope::add(std::string_view name) {
  if (auto slot = find(name)) return *slot;
  names_.emplace_back(name);
  return names_.size() - 1;
}

std::optional<std::size_t> Scope::find(std::string_view name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names_.begin());
}

namespace {

// Depth is capped at parse time, so this recursion is bounded.
void resolve(Node& n, const Scope& scope) {
  if (n.op == Op::Name) {
    auto slot = scope.find(n.text);
    if (!slot) throw ExprError(n.position, "undefined name '" + n.text + "'");
    n.slot = *slot;
  }
  for (Node& k : n.kids) resolve(k, scope);
}

}  // namespace

BoundExpr Expr::bind(const Scope& scope) const {
  if (root_ == nullptr) throw ExprError(0, "empty expression");
  auto root = std::make_shared<Node>(*root_);
  resolve(*root, scope);
  BoundExpr bound;
  bound.text_ = text_;
  bound.root_ = std::move(root);
  return bound;
}

Value Expr::evaluate(const Config& values) const {
  if (root_ == nullptr) throw ExprError(0, "empty expression");
  Scope scope;
  std::vector<Value> slots;
  slots.reserve(names_.size());
  for (const std::string& name : names_) {
    auto it = values.find(name);
    if (it == values.end()) continue;  // bind() reports it with its position
    scope.add(name);
    slots.push_back(it->second);
  }
  return bind(scope).evaluate(slots);
}

}  // namespace ktune::expr
