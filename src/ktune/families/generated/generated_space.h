#pragma once
// The search space of ktune's generated GEMM kernels for one problem on one device: every knob
// combination the constraints allow, ranked by an analytical cost model (tile quantisation,
// wave quantisation, tensor-core efficiency of the tile, HBM and L2 traffic, split-K
// reduction traffic), of which the best few become candidates. The model decides what to
// compile and measure; the measurement decides the winner.

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/families/generated/generated_kernel.h"

namespace ktune::generated {

// The split-K reduction kernel's cost is charged about 2 us per this many slices past the first
// this many. Fitted when the kernel loaded 16 slices per round (H200, session 26); with 32 per
// round (kReduceSlicesPerRound) 64x128 tiles in 32 slices ran 14.3 us on 256x128x16384, faster
// than the 15.1 us of 16 per round, but still slower than 64x64 in 16 slices (13.25 us): charged
// per 32, the model ranked the 32-slice kernels first and the long-K shapes lost 7% (session 27).
inline constexpr int kReduceChargedSlices = 16;

// The Config stored in the tuning database (IREE lowering_config names): family "generated",
// path ("wgmma" | "mma_sync"), workgroup ("128x256"), reduction (64), subgroup_m_count,
// subgroup_n_count, mma_kind ("WGMMA_F32_64x256x16_BF16"), pipeline_stages, split_k,
// reorder_workgroups (rasterisation group), persistent, min_blocks_per_sm.
Config to_config(const GeneratedKnobs& knobs, const ProblemTraits& traits);
// Inverse of to_config (mma_kind is informational); throws std::invalid_argument naming the
// missing or malformed key.
GeneratedKnobs knobs_from_config(const Config& config);

struct ModelEstimate {
  double seconds = 0;
  double compute_seconds = 0, memory_seconds = 0, l2_seconds = 0, reduction_seconds = 0;
  double repack_seconds = 0;  // copying misaligned operands to 16-byte rows first (repack.h)
  double waves = 0;
  double tile_utilisation = 0;  // real output / padded output
  // Where HBM bounds the kernel: the 4-norm of the terms that overlap (compute, memory, L2,
  // latency), telling apart kernels whose `seconds` tie, as every kernel of a memory-bound
  // problem does (see select_candidates). 0 elsewhere.
  double overlap_seconds = 0;
  // The panels streamed at a loaded HBM's latency (2 us a round trip, where `memory_seconds`
  // assumes 1): where this exceeds `seconds` the ring of stages may bind after all, and a
  // deeper ring is ranked first among kernels whose `seconds` tie (see rank_space).
  double loaded_ring_seconds = 0;
  // A read into registers (tf32 with an M-contiguous kernel A, KT_A_REGS): the columns one A
  // fragment feeds, the warpgroup's width; 0 elsewhere. Among kernels whose estimates tie, the
  // wider ranks first (ranks_before): each fragment is loaded from shared memory by the threads
  // themselves, and half the loads per flop keep the tensor cores fed better.
  int register_a_columns = 0;
  nlohmann::json to_json() const;
};

ModelEstimate estimate(const GeneratedKnobs& knobs, const ProblemTraits& traits, const DeviceTraits& device);

struct RankedKnobs {
  GeneratedKnobs knobs;
  ModelEstimate estimate;
};

struct SpaceOptions {
  std::size_t max_candidates = 12;
  bool mma_sync = true;  // include the mma.sync path
  bool wgmma = true;     // include the wgmma path (when the device runs sm_90a)
  bool pingpong = false; // include pingpong-scheduled wgmma kernels (measured: rarely the fastest)
  // Include split-K kernels whose slices sum inside a thread-block cluster (split_cluster). Off by
  // default: on the H100 they never beat the global-memory reductions (session 23).
  bool split_cluster = false;
  // Include persistent kernels that split only their last, partial round's tiles (split_tail).
  // Off by default: on nine suite shapes (H200, session 29) none beat the best whole-tile kernel;
  // the slices' fixup cost 12-23 us on 128x256 tiles.
  bool split_tail = false;
  // Include wgmma kernels built for two CTAs per SM (min_blocks_per_sm 2: a ring of 2-4 stages,
  // registers for two), so that one CTA's epilogue overlaps the other's loads and MMAs where the
  // output write or the load latency, not the tensor cores, bounds a tile (short K, small
  // problems). Every other wgmma kernel of the space runs one CTA per SM. Off by default: on 14
  // short-K, small, batched and odd suite shapes (H200, session 37) the best of them tied the best
  // lone kernel on two (bmm 32x512x64x512, 64x128^3) and trailed it by 5-40% on the rest.
  bool co_resident = false;
  // Kernels load an operand that one CTA reads once with the L2 evict-first policy
  // (stream_read_once_operands). Off by default: not yet measured on a GPU.
  bool evict_first = false;
  // Include wgmma kernels in thread-block clusters that multicast A and B (cluster_n x
  // cluster_m, 2-8 CTAs). On the H100 (session 15) CTA pairs ran 1.10-1.36x faster than the same
  // kernel alone on 3000^3 (rows off 32-byte sectors) and 0.95-1.04x on 4096x16384x256.
  bool clusters = true;
  // Include swapped kernels (swap_ab: D^T = B^T A^T) for skinny M (M <= 64), where the
  // problem's M becomes the wgmma N of 16-64 columns (cuBLAS's fp8 decode kernel on
  // 16x8192x8192 runs this way: its generated kernel with 64-row tiles ran 0.81x of it), and
  // for tf32 with an N-contiguous B at every tiling (B^T, the swapped kernel's A, is read into
  // registers instead of copied transposed).
  bool swap_ab = true;
};

struct SpaceSummary {
  std::size_t considered = 0;  // knob combinations generated
  std::size_t valid = 0;       // passed the constraints
  std::vector<std::string> rejection_examples;  // a few reasons, for the record
  nlohmann::json to_json() const;
};

// The model's order: the smaller estimate first; where estimates tie, the kernel whose ring of
// stages binds less at a loaded HBM's latency (loaded_ring_seconds), then the wider A fragment
// (register_a_columns), else neither.
bool ranks_before(const RankedKnobs& a, const RankedKnobs& b);

// Every valid combination, best model estimate first.
std::vector<RankedKnobs> rank_space(const ProblemTraits& traits, const DeviceTraits& device, const SpaceOptions& options,
                                    SpaceSummary* summary = nullptr);

// The classes select_candidates forces the best of into its selection: path, split-K, B panel,
// pingpong, cluster, swapped, reduced split, in-cluster split, split tail, two CTAs per SM.
using HedgeClass = std::tuple<KernelPath, bool, bool, bool, bool, bool, bool, bool, bool, bool>;
HedgeClass hedge_class(const GeneratedKnobs& k);

// How far behind the model's best estimate (a factor) select_candidates still forces in the best
// of a path or class as a hedge: 2 on small problems, 1.3 where the best estimate is 100 us or
// more (generated_space.cc says what was measured).
double hedge_window(double best_estimate_seconds);

// The candidates to measure: the best estimates, with at most a quarter from one (path, tile,
// split-K) choice so that a model error cannot hide a whole region, and the best of each path
// and class kept within hedge_window of the best.
std::vector<RankedKnobs> select_candidates(const ProblemTraits& traits, const DeviceTraits& device,
                                           const SpaceOptions& options, SpaceSummary* summary = nullptr);
// The same selection from rank_space's output for these options (for callers that need the
// ranking too: model_replay ranks once).
std::vector<RankedKnobs> select_ranked(const std::vector<RankedKnobs>& ranked, const SpaceOptions& options);

// Local refinement around measured winners: every valid setting one knob step away from a
// seed (K tile x2 or /2, tile M or N x2 or /2, split-K to the neighbouring value, stages +-1,
// the other warp/warpgroup arrangement, persistent on/off, CTA pairs on/off unless `clusters` is
// false, a split tail on/off where `split_tail`, two CTAs per SM on/off (at most 4 stages) where
// `co_resident`), not in `seen`, ranked by the model; at most `max_candidates`, seeds'
// neighbours interleaved so each seed gets some.
std::vector<RankedKnobs> neighbours(const std::vector<GeneratedKnobs>& seeds, const std::vector<GeneratedKnobs>& seen,
                                    const ProblemTraits& traits, const DeviceTraits& device, std::size_t max_candidates,
                                    bool clusters = true, bool split_tail = false, bool co_resident = false);

}  // namespace ktune::generated
