#include "ktune/space/group_tree.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <vector>

namespace ktune::space {
namespace {

// A group over integer positions, with constraints as plain predicates on those positions.
struct Problem {
  std::vector<std::uint32_t> value_counts;
  std::vector<GroupTree::ConstraintScope> scopes;
  std::vector<std::function<bool(const std::vector<std::uint32_t>&)>> predicates;

  std::size_t add_param(std::uint32_t values) {
    value_counts.push_back(values);
    return value_counts.size() - 1;
  }
  void add_constraint(std::vector<std::size_t> params, std::function<bool(const std::vector<std::uint32_t>&)> pred) {
    scopes.push_back({predicates.size(), std::move(params)});
    predicates.push_back(std::move(pred));
  }
  bool satisfied(const std::vector<std::uint32_t>& x) const {
    for (const auto& p : predicates)
      if (!p(x)) return false;
    return true;
  }
  GroupTree solve() const {
    std::vector<std::size_t> params(value_counts.size());
    for (std::size_t i = 0; i < params.size(); ++i) params[i] = i;
    auto x = std::make_shared<std::vector<std::uint32_t>>(value_counts.size(), 0);
    auto accept = [this, x](std::size_t param, std::uint32_t position, std::span<const std::size_t> checks) {
      (*x)[param] = position;
      for (std::size_t c : checks)
        if (!predicates[c](*x)) return false;
      return true;
    };
    return GroupTree::solve(params, value_counts, scopes, accept);
  }
};

void check_rows(const Problem& problem, const GroupTree& tree, std::uint64_t step = 1) {
  std::set<std::vector<std::uint32_t>> seen;
  for (std::uint64_t row = 0; row < tree.size(); row += step) {
    std::vector<std::uint32_t> x(problem.value_counts.size(), 0);
    tree.decode(row, x);
    ASSERT_TRUE(problem.satisfied(x)) << "row " << row;
    ASSERT_EQ(tree.find(x), row);
    ASSERT_TRUE(seen.insert(x).second) << "row " << row << " repeats a tuple";
  }
}

TEST(GroupTree, StarOfSatellitesIsMultipliedNotEnumerated) {
  Problem problem;
  auto hub = problem.add_param(10);
  for (int i = 0; i < 4; ++i) {
    auto satellite = problem.add_param(10);
    problem.add_constraint({satellite, hub}, [=](const auto& x) { return x[satellite] <= x[hub]; });
  }
  GroupTree tree = problem.solve();
  std::uint64_t expected = 0;
  for (std::uint64_t h = 0; h < 10; ++h) expected += (h + 1) * (h + 1) * (h + 1) * (h + 1);
  EXPECT_EQ(tree.size(), expected);
  EXPECT_EQ(tree.binding_order().front(), hub);
  EXPECT_LE(tree.stored_values(), 10u + 10u * 4u * 10u);  // never one entry per tuple
  check_rows(problem, tree);
  std::vector<std::uint32_t> invalid = {2, 3, 0, 0, 0};  // satellite 3 > hub 2
  EXPECT_FALSE(tree.find(invalid).has_value());
}

TEST(GroupTree, ChainsShareSubtreesByContext) {
  Problem problem;
  const std::size_t n = 40;
  for (std::size_t i = 0; i < n; ++i) problem.add_param(3);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    problem.add_constraint({i, i + 1}, [=](const auto& x) { return x[i] != x[i + 1]; });
  }
  GroupTree tree = problem.solve();
  EXPECT_EQ(tree.size(), 3 * (std::uint64_t{1} << 39));
  EXPECT_LT(tree.or_nodes(), 10 * n);  // linear, not 3 * 2^39
  EXPECT_GT(tree.shared_subtrees(), 0u);
  check_rows(problem, tree, tree.size() / 997);
  check_rows(problem, tree, tree.size() / 3 - 1);
}

TEST(GroupTree, LaterEmptySiblingRollsBackEarlierOnes) {
  // Given hub h, child a needs a <= h and child b needs b == h + 1 (possible only for h < 3).
  Problem problem;
  auto h = problem.add_param(4);
  auto a = problem.add_param(4);
  auto b = problem.add_param(4);
  problem.add_constraint({a, h}, [=](const auto& x) { return x[a] <= x[h]; });
  problem.add_constraint({b, h}, [=](const auto& x) { return x[b] == x[h] + 1; });
  GroupTree tree = problem.solve();
  EXPECT_EQ(tree.size(), 1u + 2u + 3u);
  check_rows(problem, tree);
  EXPECT_FALSE(tree.find(std::vector<std::uint32_t>{3, 0, 3}).has_value());
}

TEST(GroupTree, EmptyGroup) {
  Problem problem;
  auto a = problem.add_param(3);
  auto b = problem.add_param(3);
  problem.add_constraint({a, b}, [](const auto&) { return false; });
  GroupTree tree = problem.solve();
  EXPECT_EQ(tree.size(), 0u);
  EXPECT_FALSE(tree.find(std::vector<std::uint32_t>{0, 0}).has_value());
  std::vector<std::uint32_t> x(2);
  EXPECT_THROW(tree.decode(0, x), std::out_of_range);
}

TEST(GroupTree, MoreThanTwoToTheSixtyThreeIsRefused) {
  Problem problem;
  for (std::size_t i = 0; i < 64; ++i) problem.add_param(2);
  for (std::size_t i = 0; i + 1 < 64; ++i) problem.add_constraint({i, i + 1}, [](const auto&) { return true; });
  EXPECT_THROW(problem.solve(), GroupTooLarge);
}

}  // namespace
}  // namespace ktune::space
