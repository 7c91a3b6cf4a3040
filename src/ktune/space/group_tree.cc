#include "ktune/space/group_tree.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace ktune::space {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kLargestGroup = std::uint64_t{1} << 63;

// Saturating so that a subtree that is later dropped (an empty sibling) cannot fail the solve.
std::uint64_t multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}
std::uint64_t add(std::uint64_t a, std::uint64_t b) { return b > kSaturated - a ? kSaturated : a + b; }

}  // namespace

void GroupTree::plan(const std::vector<std::size_t>& params, const std::vector<std::uint32_t>& value_counts,
                     const std::vector<ConstraintScope>& scopes) {
  std::map<std::size_t, std::set<std::size_t>> linked;  // parameter -> parameters sharing a constraint
  std::map<std::size_t, std::vector<const ConstraintScope*>> scopes_of;
  for (std::size_t p : params) linked[p];
  for (const auto& scope : scopes) {
    for (std::size_t p : scope.params) {
      scopes_of[p].push_back(&scope);
      for (std::size_t q : scope.params)
        if (q != p) linked[p].insert(q);
    }
  }

  std::set<std::size_t> on_path, visited;
  using Score = std::tuple<std::size_t, std::size_t, std::size_t, std::int64_t, std::int64_t>;
  // Prefer the parameter that completes the most constraints given the current path (pruning
  // starts early), then the one most tied to the path, then the most constrained, then the one
  // with fewer values.
  auto score = [&](std::size_t p) {
    std::size_t completes = 0, touches = 0;
    for (const ConstraintScope* scope : scopes_of[p]) {
      std::size_t others_on_path = 0;
      for (std::size_t q : scope->params) others_on_path += (q != p && on_path.count(q)) ? 1 : 0;
      if (others_on_path + 1 == scope->params.size()) ++completes;
      if (others_on_path > 0) ++touches;
    }
    return Score{completes, touches, scopes_of[p].size(), -static_cast<std::int64_t>(value_counts[p]),
                 -static_cast<std::int64_t>(p)};
  };

  std::size_t root = params.front();
  for (std::size_t p : params)
    if (score(p) > score(root)) root = p;

  std::map<std::size_t, std::size_t> depth_of;
  auto visit = [&](auto& self, std::size_t p, std::size_t depth) -> std::size_t {
    const std::size_t index = plan_.size();
    plan_.push_back(PlanNode{p, {}, {}, {}, false});
    order_.push_back(p);
    visited.insert(p);
    on_path.insert(p);
    depth_of[p] = depth;
    for (;;) {
      std::optional<std::size_t> next;
      for (std::size_t q : linked[p]) {
        if (!visited.count(q) && (!next || score(q) > score(*next))) next = q;
      }
      if (!next) break;
      std::size_t child = self(self, *next, depth + 1);
      plan_[index].children.push_back(child);
    }
    on_path.erase(p);
    return index;
  };
  visit(visit, root, 0);

  // A DFS tree puts every constraint's parameters on one root-to-leaf path: decide the
  // constraint where its deepest parameter is bound.
  std::map<std::size_t, std::size_t> plan_of;
  for (std::size_t i = 0; i < plan_.size(); ++i) plan_of[plan_[i].param] = i;
  for (const auto& scope : scopes) {
    std::size_t deepest = scope.params.front();
    for (std::size_t p : scope.params)
      if (depth_of.at(p) > depth_of.at(deepest)) deepest = p;
    plan_[plan_of.at(deepest)].checks.push_back(scope.id);
  }
  for (auto& node : plan_) std::sort(node.checks.begin(), node.checks.end());

  // Context of a node: the ancestors named by a constraint that also names a parameter of the
  // node's subtree. Everything below the node is decided by the context's values alone.
  std::vector<std::vector<std::size_t>> subtree(plan_.size());
  for (std::size_t i = plan_.size(); i-- > 0;) {  // children come after their parent in preorder
    subtree[i].push_back(plan_[i].param);
    for (std::size_t child : plan_[i].children) {
      subtree[i].insert(subtree[i].end(), subtree[child].begin(), subtree[child].end());
    }
  }
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    std::set<std::size_t> inside(subtree[i].begin(), subtree[i].end());
    std::set<std::size_t> context;
    for (const auto& scope : scopes) {
      bool touches = std::any_of(scope.params.begin(), scope.params.end(), [&](auto p) { return inside.count(p); });
      if (!touches) continue;
      for (std::size_t p : scope.params)
        if (!inside.count(p)) context.insert(p);  // on the scope's path, hence an ancestor
    }
    plan_[i].context.assign(context.begin(), context.end());
    plan_[i].cached = context.size() < depth_of.at(plan_[i].param);
  }
}

struct GroupTree::Builder {
  GroupTree& tree;
  const std::vector<std::uint32_t>& value_counts;
  const Accept& accept;
  std::vector<std::uint32_t> current;  // position of each parameter on the path being built
  // Per plan node: context positions -> OR node (nullopt: no valid value in that context).
  std::vector<std::map<std::vector<std::uint32_t>, std::optional<std::uint64_t>>> cache;
  struct Cached {
    std::size_t plan;
    std::vector<std::uint32_t> key;
    std::uint64_t id;
  };
  std::vector<Cached> cache_log;  // non-empty entries in creation order, for roll_back

  void roll_back(std::size_t or_nodes, std::size_t leaves, std::size_t inner, std::size_t children) {
    while (!cache_log.empty() && cache_log.back().id >= or_nodes) {
      cache[cache_log.back().plan].erase(cache_log.back().key);
      cache_log.pop_back();
    }
    tree.or_nodes_.resize(or_nodes);
    tree.leaf_positions_.truncate(leaves);
    tree.inner_positions_.resize(inner);
    tree.inner_offsets_.resize(inner);
    tree.child_ids_.resize(children);
  }

  std::optional<std::uint64_t> build(std::size_t plan_index) {
    const PlanNode& node = tree.plan_[plan_index];
    if (!node.cached) return build_uncached(plan_index);
    std::vector<std::uint32_t> key;
    key.reserve(node.context.size());
    for (std::size_t p : node.context) key.push_back(current[p]);
    if (auto hit = cache[plan_index].find(key); hit != cache[plan_index].end()) {
      ++tree.shared_subtrees_;
      return hit->second;
    }
    auto id = build_uncached(plan_index);
    cache[plan_index].emplace(key, id);
    if (id) cache_log.push_back(Cached{plan_index, std::move(key), *id});
    return id;
  }

  std::optional<std::uint64_t> build_uncached(std::size_t plan_index) {
    const PlanNode& node = tree.plan_[plan_index];
    const std::size_t param = node.param;
    const std::size_t fanout = node.children.size();
    std::vector<std::uint32_t> positions;
    std::vector<std::uint64_t> totals;
    std::vector<std::uint64_t> kids, value_kids;
    for (std::uint32_t position = 0; position < value_counts[param]; ++position) {
      current[param] = position;
      if (!accept(param, position, node.checks)) continue;
      if (fanout == 0) {
        positions.push_back(position);
        continue;
      }
      const std::size_t or_mark = tree.or_nodes_.size(), leaf_mark = tree.leaf_positions_.size(),
                        inner_mark = tree.inner_positions_.size(), child_mark = tree.child_ids_.size();
      std::uint64_t product = 1;
      value_kids.clear();
      for (std::size_t child : node.children) {
        auto id = build(child);
        if (!id) break;
        product = multiply(product, tree.or_nodes_[*id].total);
        value_kids.push_back(*id);
      }
      if (value_kids.size() != fanout) {  // some child has no valid value: neither has this one
        roll_back(or_mark, leaf_mark, inner_mark, child_mark);
        continue;
      }
      positions.push_back(position);
      totals.push_back(product);
      kids.insert(kids.end(), value_kids.begin(), value_kids.end());
    }
    if (positions.empty()) return std::nullopt;

    OrNode or_node;
    or_node.plan = static_cast<std::uint32_t>(plan_index);
    or_node.entries = static_cast<std::uint32_t>(positions.size());
    if (fanout == 0) {
      or_node.first_entry = tree.leaf_positions_.size();
      for (std::uint32_t p : positions) tree.leaf_positions_.push_back(p);
      or_node.total = positions.size();
    } else {
      or_node.first_entry = tree.inner_positions_.size();
      std::uint64_t running = 0;
      for (std::size_t i = 0; i < positions.size(); ++i) {
        tree.inner_positions_.push_back(positions[i]);
        tree.inner_offsets_.push_back(running);
        running = add(running, totals[i]);
      }
      or_node.total = running;
      or_node.first_child = tree.child_ids_.size();
      tree.child_ids_.insert(tree.child_ids_.end(), kids.begin(), kids.end());
    }
    tree.or_nodes_.push_back(or_node);
    return tree.or_nodes_.size() - 1;
  }
};

GroupTree GroupTree::solve(const std::vector<std::size_t>& params, const std::vector<std::uint32_t>& value_counts,
                           const std::vector<ConstraintScope>& scopes, const Accept& accept) {
  GroupTree tree;
  if (params.empty()) throw std::invalid_argument("GroupTree::solve: a group needs at least one parameter");
  tree.plan(params, value_counts, scopes);
  std::uint32_t widest = 1;
  for (std::size_t p : params) widest = std::max(widest, value_counts[p]);
  tree.leaf_positions_ = PackedPositions(widest);
  Builder builder{tree, value_counts, accept, std::vector<std::uint32_t>(value_counts.size(), 0),
                  decltype(Builder::cache)(tree.plan_.size()), {}};
  tree.root_ = builder.build(0);
  tree.size_ = tree.root_ ? tree.or_nodes_[*tree.root_].total : 0;
  if (tree.size_ > kLargestGroup) throw GroupTooLarge("a constraint group has more than 2^63 valid tuples");
  tree.leaf_positions_.shrink_to_fit();
  tree.inner_positions_.shrink_to_fit();
  tree.inner_offsets_.shrink_to_fit();
  tree.child_ids_.shrink_to_fit();
  tree.or_nodes_.shrink_to_fit();
  return tree;
}

void GroupTree::decode(std::uint64_t row, std::span<std::uint32_t> positions) const {
  if (!root_ || row >= size_) throw std::out_of_range("GroupTree::decode: row out of range");
  decode_node(*root_, row, positions);
}

void GroupTree::decode_node(std::uint64_t node, std::uint64_t row, std::span<std::uint32_t> positions) const {
  const OrNode& o = or_nodes_[node];
  const PlanNode& plan = plan_[o.plan];
  if (plan.children.empty()) {
    positions[plan.param] = leaf_positions_[o.first_entry + row];
    return;
  }
  auto begin = inner_offsets_.begin() + static_cast<std::ptrdiff_t>(o.first_entry);
  auto end = begin + o.entries;
  auto entry = std::upper_bound(begin, end, row) - 1;  // last value whose rows start at or before `row`
  const auto i = static_cast<std::uint64_t>(entry - begin);
  positions[plan.param] = inner_positions_[o.first_entry + i];
  std::uint64_t rest = row - *entry;
  const std::size_t fanout = plan.children.size();
  for (std::size_t j = fanout; j-- > 0;) {
    const std::uint64_t child = child_ids_[o.first_child + i * fanout + j];
    const std::uint64_t total = or_nodes_[child].total;
    decode_node(child, rest % total, positions);
    rest /= total;
  }
}

std::optional<std::uint64_t> GroupTree::find(std::span<const std::uint32_t> positions) const {
  if (!root_) return std::nullopt;
  return find_node(*root_, positions);
}

std::optional<std::uint64_t> GroupTree::find_node(std::uint64_t node, std::span<const std::uint32_t> positions) const {
  const OrNode& o = or_nodes_[node];
  const PlanNode& plan = plan_[o.plan];
  const std::uint32_t wanted = positions[plan.param];
  if (plan.children.empty()) {
    std::size_t at = leaf_positions_.find(o.first_entry, o.first_entry + o.entries, wanted);
    if (at == PackedPositions::npos) return std::nullopt;
    return at - o.first_entry;
  }
  auto begin = inner_positions_.begin() + static_cast<std::ptrdiff_t>(o.first_entry);
  auto end = begin + o.entries;
  auto entry = std::lower_bound(begin, end, wanted);
  if (entry == end || *entry != wanted) return std::nullopt;
  const auto i = static_cast<std::uint64_t>(entry - begin);
  const std::size_t fanout = plan.children.size();
  std::uint64_t within = 0;
  for (std::size_t j = 0; j < fanout; ++j) {
    const std::uint64_t child = child_ids_[o.first_child + i * fanout + j];
    auto row = find_node(child, positions);
    if (!row) return std::nullopt;
    within = within * or_nodes_[child].total + *row;
  }
  return inner_offsets_[o.first_entry + i] + within;
}

}  // namespace ktune::space
