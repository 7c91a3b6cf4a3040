#pragma once
// The knobs of ktune's generated GEMM kernels, named after IREE's lowering_config so SHARK
// Tuner users recognise them, and what a kernel path says about a knob setting before anything
// is compiled (launch shape, shared memory, why it cannot run).
//
//   IREE (lowering_config / translation_info)     here
//   workgroup tile [M, N]                          tile_m, tile_n
//   reduction tile [K]                             tile_k
//   subgroup_m_count, subgroup_n_count             subgroup_m, subgroup_n (warps for mma.sync,
//                                                  consumer warpgroups for wgmma)
//   mma_kind (e.g. MFMA_F32_16x16x16_BF16)         intrinsic ("MMA_F32_16x8x16_BF16",
//                                                  "WGMMA_F32_64x128x16_BF16")
//   prefetch_shared_memory / pipeline depth        stages
//   split-K (reduction splitting)                  split_k
//   workgroup reordering                           swizzle_group
//   (none: persistent kernels)                     persistent
//   (none: operand reuse across tiles)             b_panel (K tiles of B kept in shared memory)
//   (none: CUTLASS's "pingpong" schedule)          pingpong (two warpgroups take turns on tiles)
//   (none: thread-block clusters, TMA multicast)   cluster_n, cluster_m (CTAs along N share A,
//                                                  along M share B)
//   (none: cuBLAS's swap-AB kernels)               swap_ab (compute D^T = B^T A^T)
//   (none: cuBLASLt's reduction scheme)            split_reduce (slices summed by a 2nd kernel)
//   (none: split-K within a cluster)               split_cluster (slices summed in shared memory)
//   (none: stream-K's aim, in whole slices)        split_tail (only the last round's tiles split)
//   gpu_pipeline_options / waves_per_eu            min_blocks_per_sm (__launch_bounds__)

#include <cstdint>
#include <optional>
#include <string>

namespace ktune::generated {

enum class KernelPath { MmaSync, Wgmma };  // sm_80+ mma.sync + cp.async; sm_90a wgmma + TMA

struct GeneratedKnobs {
  KernelPath path = KernelPath::MmaSync;
  int tile_m = 128, tile_n = 128, tile_k = 32;
  int subgroup_m = 2, subgroup_n = 2;
  int stages = 3;
  int split_k = 1;
  int swizzle_group = 8;
  bool persistent = false;     // wgmma only
  // wgmma, persistent, split_k 1 only: B's K tiles of one column of output tiles, held in shared
  // memory while a CTA walks down the column (0: B streams through the ring with A). Must be at
  // least ceil(K / tile_k).
  int b_panel = 0;
  // wgmma, persistent, subgroup 1x1, no b_panel: two consumer warpgroups each own a whole tile
  // and take alternate tiles, so one stores while the other multiplies (one staging tile each).
  bool pingpong = false;
  // wgmma, no b_panel or pingpong: a thread-block cluster of cluster_m x cluster_n tiles (1, 2 or
  // 4 each, at most 8). The cluster_n CTAs along N share their A tile, each loading a share and
  // multicasting it to the others (M-contiguous A: whole 64-row chunks each); the cluster_m
  // along M share B likewise.
  int cluster_n = 1;
  int cluster_m = 1;
  // wgmma only: the kernel computes D^T = B^T A^T, so the problem's N runs along the kernel's M
  // (wgmma's fixed 64 rows) and a skinny M (decode, 1-64 rows) along the kernel's N (16-64
  // columns) instead of filling 64-row wgmma tiles mostly with padding. The other knobs describe
  // that swapped kernel (tile_m tiles the problem's N). No output staging (D is written
  // transposed, element by element) and no repacked operands.
  bool swap_ab = false;
  // wgmma, split_k > 1: slices store their partials apart and a second kernel sums them and
  // finishes D (cuBLASLt's "compute" reduction), instead of adding them atomically into one
  // buffer whose last slice finishes the tile.
  bool split_reduce = false;
  // wgmma, split_k 2-8, not persistent: the split_k slices of a tile are the CTAs of one
  // thread-block cluster and sum their partial tiles through distributed shared memory (no
  // workspace, no atomics, no second kernel), instead of through global memory.
  bool split_cluster = false;
  // wgmma, persistent, split_k >= 2 summed atomically: only the tiles of the last, partial round
  // of the persistent grid are split into split_k slices; the full rounds run whole tiles
  // (3000x3000 in 128x256 tiles on 132 SMs: two full rounds, and 24 tiles in 5 slices each
  // instead of a third round that leaves 108 SMs idle).
  bool split_tail = false;
  // wgmma: every `promote` K tiles the tensor cores' running sum is added into a second set of
  // f32 registers with ordinary adds and a new chain starts (0: one chain per tile). Required
  // for strict f32 (at most kF32ChainK elements per chain): the tensor cores' accumulation
  // error grows with the chain's length.
  int promote = 0;
  // The problem's A / B (before any swap) loaded with an L2 evict-first policy (gemm_common.cuh's
  // KT_A_EVICT_FIRST / KT_B_EVICT_FIRST): for an operand every element of which one CTA reads
  // once, so that it streams through L2 without evicting older lines. Config "l2_evict_first":
  // "a", "b" or "ab".
  bool evict_first_a = false, evict_first_b = false;
  int min_blocks_per_sm = 1;   // 0: no occupancy hint
  bool operator==(const GeneratedKnobs&) const = default;
};

// What the problem fixes about a kernel (the emitter turns it into KT_* defines).
struct ProblemTraits {
  int in_type = 1;           // 0 f16, 1 bf16, 2 fp8 e4m3, 3 tf32 (f32 storage); 2 and 3 on wgmma only
  int out_type = 1;          // 0 f16, 1 bf16, 2 f32
  bool a_k_contiguous = true;
  bool b_k_contiguous = false;
  bool reads_c = false;
  // alpha is 1: the kernel is compiled without alpha (KT_ALPHA_ONE) and must be launched with 1.
  // False (the kernel reads params.alpha) is right for any alpha.
  bool alpha_one = false;
  bool bias = false;
  int activation = 0;        // 0 none, 1 relu, 2 gelu
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch = 1;
  // Largest power of two (<= 16) that divides the byte offset of every row and batch entry of A
  // and B: 16 allows 16-byte copies (cp.async.cg, TMA strides).
  int ab_alignment_bytes = 16;
  // The same for A and for B alone: the wgmma path copies an operand below 16 (repack.h).
  int a_alignment_bytes = 16, b_alignment_bytes = 16;
  // Strict f32 (in_type 3): the kernel is the tf32 one, fed by a repack that splits every
  // element into a TF32 "big" part and the TF32-rounded rest, laid out along K so that one tf32
  // GEMM over three segments sums small*big + big*small + big*big (repack.h). k stays the
  // problem's K; kernel_k() is the K the kernel runs over.
  bool f32_split = false;
};

// The longest K run strict f32 (f32_split) accumulates in the tensor cores before promoting
// (GeneratedKnobs::promote): 2048^3 as 3xTF32 on an H100 had relative errors of 4.8e-6 in one
// chain of 6144, 1.2e-6 in chains of 512, 6.4e-7 of 256 and 3.5e-7 of 128, against 8.1e-7 for
// cuBLAS's SGEMM; the time was the same within 1% (session 19).
inline constexpr int kF32ChainK = 128;

// One segment of a split f32 operand: K padded to whole 16-byte vectors of f32.
inline std::int64_t f32_split_segment(std::int64_t k) { return (k + 3) / 4 * 4; }
// The reduction length the kernel itself runs: three segments for a split f32 problem.
inline std::int64_t kernel_k(const ProblemTraits& t) { return t.f32_split ? 3 * f32_split_segment(t.k) : t.k; }

// Bytes per A/B element of an in_type (fp8 1, f16/bf16 2, tf32 4).
inline int in_type_bytes(int in_type) { return in_type == 2 ? 1 : (in_type == 3 ? 4 : 2); }

// CTAs per thread-block cluster.
inline int cluster_size(const GeneratedKnobs& k) {
  return (k.cluster_n > 1 ? k.cluster_n : 1) * (k.cluster_m > 1 ? k.cluster_m : 1) *
         (k.split_cluster && k.split_k > 1 ? k.split_k : 1);
}

struct LaunchShape {
  int threads = 0;             // per CTA
  int dynamic_shared_bytes = 0;
  int cluster = 1;             // CTAs per cluster along the grid's x
};

}  // namespace ktune::generated
