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

// Depth is capped at parse time, so this recursion is bounded. Visits the whole tree so that
// the error names the unknown name that comes first in the text, whatever the tree order.
void resolve(Node& n, const Scope& scope, const Node*& first_unknown) {
  if (n.op == Op::Name) {
    auto slot = scope.find(n.text);
    if (slot) {
      n.slot = *slot;
    } else if (first_unknown == nullptr || n.position < first_unknown->position) {
      first_unknown = &n;
    }
  }
  for (Node& k : n.kids) resolve(k, scope, first_unknown);
}

}  // namespace

BoundExpr Expr::bind(const Scope& scope) const {
  if (root_ == nullptr) throw ExprError(0, "empty expression");
  auto root = std::make_shared<Node>(*root_);
  const Node* first_unknown = nullptr;
  resolve(*root, scope, first_unknown);
  if (first_unknown != nullptr) {
    throw ExprError(first_unknown->position, "undefined name '" + first_unknown->text + "'");
  }
  fold_constants(*root);
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
