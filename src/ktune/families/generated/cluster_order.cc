#include "ktune/families/generated/cluster_order.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace ktune::generated {

namespace {

int root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<int> gpc_of_sms(int sm_count, const std::vector<std::vector<int>>& clusters) {
  const int n = std::max(0, sm_count);
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const std::vector<int>& sms : clusters) {
    int first = -1;
    for (int sm : sms) {
      if (sm < 0 || sm >= n) continue;
      if (first < 0) {
        first = sm;
        continue;
      }
      // The smaller root wins, so a GPC's label is its smallest SM.
      const int a = root(parent, first), b = root(parent, sm);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  std::vector<int> gpc(n);
  for (int sm = 0; sm < n; ++sm) gpc[sm] = root(parent, sm);
  return gpc;
}

std::vector<std::uint16_t> cluster_order(const std::vector<int>& leader_sm, const std::vector<int>& gpc_of_sm,
                                         int units) {
  if (units <= 0 || units > std::numeric_limits<std::uint16_t>::max() ||
      leader_sm.size() < static_cast<std::size_t>(units))
    return {};
  // Each cluster's GPC key: the launch index of the first cluster seen on that GPC.
  std::vector<int> key(units);
  std::vector<int> first_of_gpc(gpc_of_sm.size(), -1);
  for (int c = 0; c < units; ++c) {
    const int sm = leader_sm[c];
    if (sm < 0 || static_cast<std::size_t>(sm) >= gpc_of_sm.size()) {
      key[c] = c;  // unknown: alone
      continue;
    }
    int& first = first_of_gpc[gpc_of_sm[sm]];
    if (first < 0) first = c;
    key[c] = first;
  }
  std::vector<int> by_slot(units);
  std::iota(by_slot.begin(), by_slot.end(), 0);
  std::stable_sort(by_slot.begin(), by_slot.end(), [&key](int x, int y) { return key[x] < key[y]; });
  std::vector<std::uint16_t> table(units);
  for (int slot = 0; slot < units; ++slot) table[by_slot[slot]] = static_cast<std::uint16_t>(slot);
  return table;
}

}  // namespace ktune::generated
