#pragma once
// The valid tuples of one constraint group, stored as an AND/OR search tree so that parameters
// that are independent once some others are fixed are multiplied, not enumerated.
//
// The group's parameters are arranged in a pseudo-tree (a DFS tree of the graph linking
// parameters that share a constraint): every constraint's parameters lie on one root-to-leaf
// path, so siblings are independent given their ancestors. In a GEMM space, once BM, BN, BK are
// fixed, `unroll` and `split_k` only depend on BK: each (BM, BN, BK) node keeps their valid
// values as two short lists instead of their product. A fully connected group degrades to
// plain depth-first enumeration with compact leaves.
//
// Each OR node (a parameter in the context of its ancestors' values) lists its valid value
// positions, ascending, with the number of complete tuples below each; a value's tuples are the
// mixed-radix product of its children's (first child most significant). Rows are numbered in
// that order, so decode() and find() are walks with one binary search per node.
//
// A subtree depends only on its context: the ancestors that share a constraint with it. Where
// that is fewer than all ancestors, OR nodes are cached by the context's values and shared (the
// tree becomes a DAG), so a chain a-b-c-d of pairwise constraints costs linear, not exponential,
// work and memory.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "ktune/space/packed_positions.h"

namespace ktune::space {

// Thrown when a group has more than 2^63 valid tuples.
class GroupTooLarge : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

class GroupTree {
 public:
  struct ConstraintScope {
    std::size_t id;                   // the caller's constraint index
    std::vector<std::size_t> params;  // parameter ids it reads, each once
  };
  // Called while solving, in depth-first order: `param` takes value `position` (all its
  // pseudo-tree ancestors hold their current values); return whether the constraints in
  // `checks` (those whose last parameter is `param`) all hold.
  using Accept = std::function<bool(std::size_t param, std::uint32_t position, std::span<const std::size_t> checks)>;

  GroupTree() = default;

  // `params`: the group's parameter ids (connected through `scopes`); value_counts[id]: number
  // of values of parameter id. Throws GroupTooLarge.
  static GroupTree solve(const std::vector<std::size_t>& params, const std::vector<std::uint32_t>& value_counts,
                         const std::vector<ConstraintScope>& scopes, const Accept& accept);

  std::uint64_t size() const { return size_; }
  // The parameters in the order they are bound (pseudo-tree preorder).
  const std::vector<std::size_t>& binding_order() const { return order_; }
  // Writes the positions of row `row` into positions[param] for the group's parameters.
  void decode(std::uint64_t row, std::span<std::uint32_t> positions) const;
  // Row of the group's tuple in positions[param], if valid.
  std::optional<std::uint64_t> find(std::span<const std::uint32_t> positions) const;
  // Nodes kept (OR nodes, values): a measure of how much the tree factorised.
  std::size_t or_nodes() const { return or_nodes_.size(); }
  std::size_t shared_subtrees() const { return shared_subtrees_; }  // cache hits while solving
  std::size_t stored_values() const { return leaf_positions_.size() + inner_positions_.size(); }

 private:
  struct PlanNode {
    std::size_t param = 0;
    std::vector<std::size_t> children;  // plan node indices
    std::vector<std::size_t> checks;    // constraint ids decided at this node
    std::vector<std::size_t> context;   // ancestor parameters the subtree depends on
    bool cached = false;                // context is a strict subset of the ancestors
  };
  struct OrNode {
    std::uint64_t first_entry = 0;  // into leaf_positions_ or inner_* (leaf iff plan node has no children)
    std::uint64_t total = 0;        // complete tuples below
    std::uint64_t first_child = 0;  // into child_ids_: entry i's children at first_child + i * children
    std::uint32_t plan = 0;
    std::uint32_t entries = 0;
  };
  struct Builder;

  void plan(const std::vector<std::size_t>& params, const std::vector<std::uint32_t>& value_counts,
            const std::vector<ConstraintScope>& scopes);
  void decode_node(std::uint64_t node, std::uint64_t row, std::span<std::uint32_t> positions) const;
  std::optional<std::uint64_t> find_node(std::uint64_t node, std::span<const std::uint32_t> positions) const;

  std::vector<PlanNode> plan_;  // plan_[0] is the root
  std::vector<std::size_t> order_;
  std::vector<OrNode> or_nodes_;
  PackedPositions leaf_positions_;
  std::vector<std::uint32_t> inner_positions_;
  std::vector<std::uint64_t> inner_offsets_;  // rows before this value within its OR node
  std::vector<std::uint64_t> child_ids_;
  std::optional<std::uint64_t> root_;  // nullopt: no valid tuple
  std::uint64_t size_ = 0;
  std::size_t shared_subtrees_ = 0;
};

}  // namespace ktune::space
