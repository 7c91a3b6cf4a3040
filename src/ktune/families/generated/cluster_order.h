#pragma once
// Which work slot each thread-block cluster of a generated kernel takes, from where the hardware
// puts the clusters (cluster_probe.h measures that on the device).
//
// The L2 request coalescer of a GPC merges the reads of its CTAs that load the same tile at
// about the same time. A plain launch fills the SMs GPC by GPC (about 16 consecutive CTAs on
// one), so consecutive tiles share a GPC; clusters of 2 go to the TPCs in SM order, which is
// round-robin over the GPCs, so consecutive clusters sit in different GPCs and their shared
// tiles are read once per GPC. On the H200 (session 39, Nsight Compute) the generated kernels'
// pairs read 0.75-0.79 of the L2 sectors they delivered where the same kernels without a
// cluster read 0.50. The order below gives the clusters of one GPC consecutive work slots.

#include <cstdint>
#include <vector>

namespace ktune::generated {

// The GPC (a label: the smallest SM in it) of every SM below sm_count: the SMs that ran the
// CTAs of one cluster share a GPC, so every probe's clusters join their SMs (union-find).
// `clusters`: the SMs of each cluster of every probe; entries outside [0, sm_count) are ignored.
// An SM that never shared a cluster is its own GPC.
std::vector<int> gpc_of_sms(int sm_count, const std::vector<std::vector<int>>& clusters);

// table[c] for the first `units` clusters of a launch: the slot cluster c takes. Clusters whose
// leader SMs share a GPC get consecutive slots, the GPCs in the order of their first cluster,
// each GPC's clusters in launch order. leader_sm[c] < 0 (placement unknown) counts as a GPC of
// its own. Always a permutation of 0 .. units - 1. Empty when units is 0 or exceeds 65535 or
// leader_sm has fewer than `units` entries.
std::vector<std::uint16_t> cluster_order(const std::vector<int>& leader_sm, const std::vector<int>& gpc_of_sm,
                                         int units);

}  // namespace ktune::generated
