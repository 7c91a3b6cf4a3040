#include "ktune/families/generated/cluster_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace ktune::generated {
namespace {

// An H200-like chip: 132 SMs in TPCs of two, TPC t of the first 32 in GPC t % 8, the next 28 in
// GPC (t - 32) % 7, the last 6 TPCs (SMs 120-131) one each in GPCs 0-5 (session 39's placement).
std::vector<std::vector<int>> h200_like_gpcs() {
  std::vector<std::vector<int>> gpcs(8);
  for (int t = 0; t < 66; ++t) {
    const int g = t < 32 ? t % 8 : (t < 60 ? (t - 32) % 7 : t - 60);
    gpcs[g].push_back(2 * t);
    gpcs[g].push_back(2 * t + 1);
  }
  return gpcs;
}

TEST(ClusterOrder, SmsThatSharedAClusterShareAGpc) {
  // Probes see parts of a GPC at a time: {0,1,16,17} and {16,17,32,33} join all six.
  const std::vector<int> gpc = gpc_of_sms(40, {{16, 17, 32, 33}, {0, 1, 16, 17}, {2, 3}, {-1, 39, 99}});
  for (int sm : {0, 1, 16, 17, 32, 33}) EXPECT_EQ(gpc[sm], 0) << sm;
  EXPECT_EQ(gpc[2], 2);
  EXPECT_EQ(gpc[3], 2);
  EXPECT_EQ(gpc[39], 39);  // out-of-range entries are ignored
  EXPECT_EQ(gpc[4], 4);    // never in a cluster: alone
  EXPECT_EQ(gpc_of_sms(0, {{0, 1}}).size(), 0u);
}

TEST(ClusterOrder, TheClustersOfOneGpcTakeConsecutiveSlots) {
  const std::vector<int> gpc = gpc_of_sms(132, h200_like_gpcs());
  // Clusters of 2 go to TPCs in SM order: cluster c on SMs 2c, 2c + 1.
  std::vector<int> leaders(66);
  for (int c = 0; c < 66; ++c) leaders[c] = 2 * c;
  const std::vector<std::uint16_t> table = cluster_order(leaders, gpc, 66);
  ASSERT_EQ(table.size(), 66u);
  // Slot -> cluster; each GPC's clusters fill one run of slots, in launch order.
  std::vector<int> cluster_of_slot(66, -1);
  for (int c = 0; c < 66; ++c) cluster_of_slot[table[c]] = c;
  std::set<int> finished;
  for (int slot = 0; slot < 66; ++slot) {
    const int g = gpc[leaders[cluster_of_slot[slot]]];
    if (slot > 0) {
      const int before = gpc[leaders[cluster_of_slot[slot - 1]]];
      if (before != g) {
        EXPECT_FALSE(finished.count(g)) << "GPC " << g << " comes back at slot " << slot;
        finished.insert(before);
      } else {
        EXPECT_LT(cluster_of_slot[slot - 1], cluster_of_slot[slot]);
      }
    }
  }
  // GPC 0 (cluster 0's) first: clusters 0, 8, 16, 24 (TPCs 0-31), then 32+ by stride 7, then 60.
  EXPECT_EQ(cluster_of_slot[0], 0);
  EXPECT_EQ(cluster_of_slot[1], 8);
  EXPECT_EQ(cluster_of_slot[4], 32);
}

TEST(ClusterOrder, EveryTableIsAPermutation) {
  std::mt19937 random(12);
  for (int trial = 0; trial < 200; ++trial) {
    const int sms = 1 + static_cast<int>(random() % 150);
    std::vector<std::vector<int>> clusters(random() % 40);
    for (auto& c : clusters)
      for (int i = 0, n = 1 + static_cast<int>(random() % 16); i < n; ++i) c.push_back(static_cast<int>(random() % (sms + 4)) - 2);
    const std::vector<int> gpc = gpc_of_sms(sms, clusters);
    const int units = 1 + static_cast<int>(random() % 100);
    std::vector<int> leaders(units + random() % 3);
    for (int& l : leaders) l = static_cast<int>(random() % (sms + 8)) - 4;  // some unknown or off the chip
    const std::vector<std::uint16_t> table = cluster_order(leaders, gpc, units);
    ASSERT_EQ(table.size(), static_cast<std::size_t>(units));
    std::vector<std::uint16_t> sorted = table;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < units; ++i) ASSERT_EQ(sorted[i], i) << "trial " << trial;
    // The kernel's mapping (gemm_sm90.cuh kt_cluster_unit) over whole runs plus a tail.
    const int grid = units * 3 + static_cast<int>(random() % units);
    std::vector<int> seen(grid, 0);
    for (int c = 0; c < grid; ++c) {
      const int unit = c >= grid / units * units ? c : c / units * units + table[c % units];
      ++seen[unit];
    }
    for (int u = 0; u < grid; ++u) ASSERT_EQ(seen[u], 1) << "trial " << trial << " unit " << u;
  }
}

TEST(ClusterOrder, NoTableWithoutEnoughPlacements) {
  EXPECT_TRUE(cluster_order({0, 2}, {0, 0, 0}, 3).empty());
  EXPECT_TRUE(cluster_order({}, {}, 0).empty());
  const std::vector<std::uint16_t> unknown = cluster_order({-1, -1, 5}, {0, 0}, 3);
  EXPECT_EQ(unknown, (std::vector<std::uint16_t>{0, 1, 2}));
}

}  // namespace
}  // namespace ktune::generated
