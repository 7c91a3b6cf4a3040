// ktune's generated GEMM for Hopper (sm_90a): one producer warpgroup streams A and B tiles
// with TMA into a KT_STAGES-deep ring of 128-byte-swizzled shared-memory tiles (full/empty
// mbarrier pairs per stage); KT_SUBGROUP_M x KT_SUBGROUP_N consumer warpgroups each compute a
// (KT_TILE_M / KT_SUBGROUP_M) x (KT_TILE_N / KT_SUBGROUP_N) piece with wgmma.mma_async
// m64nNk16, fp32 accumulators in registers, and run the epilogue straight from registers.
// Optionally persistent (KT_PERSISTENT): gridDim.x CTAs walk every (batch, split, tile) item,
// so the producer already loads the next tile while the consumers store this one.
//
// Shared memory (dynamic, rounded up to 1024 bytes because the 128B swizzle pattern repeats
// every 1024 bytes and wgmma descriptors assume that phase):
//   stage s: A tile, then B tile. An operand whose K is contiguous is kept as KT_TILE_K / 64
//   "K chunks" of rows x 128 bytes (TMA box {64, rows}); an operand whose M or N is contiguous
//   as (rows / KT_MN_CHUNK) "MN chunks" of KT_TILE_K x 128 bytes (TMA box {KT_MN_CHUNK, KT_TILE_K}).
//   then KT_STAGING (0-2) output staging tiles, then full[KT_STAGES], empty[KT_STAGES]
//   mbarriers, 16 bytes of split-K flags, and two mbarriers ordering the pingpong warpgroups.
// sm90_path.cc mirrors these sizes (sm90_launch_shape) and the TMA boxes (sm90_encode_tensor_maps).
//
// Needs gemm_params.h and gemm_common.cuh before it, and the knob macros KT_TILE_M, KT_TILE_N,
// KT_TILE_K, KT_SUBGROUP_M, KT_SUBGROUP_N, KT_STAGES, KT_PERSISTENT, KT_MIN_BLOCKS.
#ifndef KTUNE_GEMM_SM90_CUH
#define KTUNE_GEMM_SM90_CUH

// KT_PINGPONG (persistent only): two consumer warpgroups that each own a whole CTA tile and
// take alternate work items, so one stores its tile while the other multiplies (CUTLASS's
// "pingpong" schedule); KT_SUBGROUP_M = KT_SUBGROUP_N = 1 then.
#ifndef KT_PINGPONG
#define KT_PINGPONG 0
#endif
#if KT_PINGPONG
#define KT_CONSUMERS 2
#define KT_STAGE_READERS 1
#else
#define KT_CONSUMERS (KT_SUBGROUP_M * KT_SUBGROUP_N)
#define KT_STAGE_READERS KT_CONSUMERS
#endif
#define KT_THREADS (128 * (KT_CONSUMERS + 1))
// KT_B_PANEL (persistent, split_k 1): B's whole K extent for one column of tiles, KT_B_PANEL K
// tiles, stays in shared memory while the CTA walks down that column; only A streams through
// the ring. Each CTA takes one contiguous run of work items, M fastest, so it reloads B once
// per column it enters. With short K the operand reads, not the MMAs, are the traffic: a
// 64x256 tile of 16384x4096x128 read 80 KB of A and B from L2 per 32 KB it wrote, and the
// kernel ran at the L2's combined read+write rate (issue 12, session 12).
#ifndef KT_B_PANEL
#define KT_B_PANEL 0
#endif
// Input element size. Every type keeps a 128-byte swizzle row per K chunk (64 f16/bf16, 128 fp8
// or 32 tf32 elements) and advances 32 bytes of K per wgmma (k16, k32 or k8), so the
// descriptors and the shared-memory layout are the same for all of them; fp8 and tf32 wgmma read
// both operands K-major only (no transpose immediates in PTX for them).
#if KT_IN_TYPE == 2
#define KT_IN_BYTES 1
#define KT_WGMMA_AB "e4m3"
#elif KT_IN_TYPE == 3
#define KT_IN_BYTES 4
#define KT_WGMMA_AB "tf32"
#elif KT_IN_TYPE == 1
#define KT_IN_BYTES 2
#define KT_WGMMA_AB "bf16"
#else
#define KT_IN_BYTES 2
#define KT_WGMMA_AB "f16"
#endif
#define KT_K_CHUNK (128 / KT_IN_BYTES)
#define KT_K_STEP (32 / KT_IN_BYTES)
// An MN-contiguous operand is kept in "MN chunks" of one 128-byte swizzle row of M or N: 64
// f16/bf16 or 32 tf32 elements.
#define KT_MN_CHUNK (128 / KT_IN_BYTES)
// KT_A_REGS: a tf32 A whose M is contiguous. tf32 wgmma reads shared-memory operands K-major
// only, but its A may come from registers in any order: each consumer thread loads its fragment
// (ld.shared.b32, four per 64 x 8 step) from the M-contiguous tile and issues the register-A
// form. With swap_ab this is how an N-contiguous B (layout nn) runs without a transposed copy
// of B: the kernel's A is then B^T, M-contiguous (4096^3 tf32 nn: the copy alone took 51 us
// of 405; H100, session 20).
#if KT_IN_BYTES == 4 && !KT_A_K_CONTIGUOUS
#define KT_A_REGS 1
#else
#define KT_A_REGS 0
#endif
// KT_CLUSTER_N x KT_CLUSTER_M (1, 2 or 4 each, at most 8 CTAs): a thread-block cluster of tiles,
// KT_CLUSTER_N along N sharing their A tile and KT_CLUSTER_M along M sharing their B tile. Each
// CTA loads 1/KT_CLUSTER_N of A's rows and multicasts them to its cluster row, and 1/KT_CLUSTER_M
// of B's to its cluster column (TMA .multicast::cluster), cutting L2 reads, which bound short K,
// long K over few tiles and rows that start off a 32-byte sector (cuBLASLt runs 3000^3 as 192x192
// tiles in pairs, 1000^3 and 128x256x32768 in 4x2 clusters). Cluster rank r sits at column
// r % KT_CLUSTER_N, row r / KT_CLUSTER_N of its cluster. The cluster walks items in lockstep:
// p.tiles_m / p.tiles_n count cluster rows / columns, and a CTA's own tile adds its place (tiles
// past M or N compute zeros and store nothing). A stage is free again only once the consumers of
// every CTA writing into it are done: their warps arrive on the empty barriers of their whole
// cluster row and column.
#ifndef KT_CLUSTER_N
#define KT_CLUSTER_N 1
#endif
#ifndef KT_CLUSTER_M
#define KT_CLUSTER_M 1
#endif
// KT_SPLIT_REDUCE: split-K slices store partials apart, a second kernel sums them (see
// kt90_split_k_store); otherwise they add into one buffer atomically.
#ifndef KT_SPLIT_REDUCE
#define KT_SPLIT_REDUCE 0
#endif
// KT_K_CLUSTER: split-K inside a cluster. The KT_K_CLUSTER CTAs of one cluster hold the K slices
// of one tile (cluster rank = slice), multiply their slices, and sum the partial tiles through
// distributed shared memory (kt90_k_cluster_finish): no workspace in global memory, no atomics,
// no second kernel. Non-persistent, one tile per CTA, no multicast (KT_CLUSTER_N/M 1).
#ifndef KT_K_CLUSTER
#define KT_K_CLUSTER 1
#endif
// KT_SPLIT_TAIL (persistent, split-K summed atomically): the tiles of the full rounds of the
// persistent grid run whole; only the last, partial round's tiles (p.tail_from on) are split into
// p.split_k slices, so that round fills the SMs instead of leaving most of them idle (a hybrid
// of data-parallel tiles and split-K, after stream-K's aim, in whole slices).
#ifndef KT_SPLIT_TAIL
#define KT_SPLIT_TAIL 0
#endif
#define KT_MN_CLUSTER (KT_CLUSTER_N * KT_CLUSTER_M)
#define KT_CLUSTER (KT_MN_CLUSTER * KT_K_CLUSTER)
#define KT_WG_M (KT_TILE_M / KT_SUBGROUP_M)
#define KT_WG_N (KT_TILE_N / KT_SUBGROUP_N)
#define KT_M_ATOMS (KT_WG_M / 64)
#define KT_A_TILE_BYTES (KT_TILE_M * KT_TILE_K * KT_IN_BYTES)
#define KT_B_TILE_BYTES (KT_TILE_N * KT_TILE_K * KT_IN_BYTES)
#if KT_B_PANEL
#define KT_STAGE_BYTES KT_A_TILE_BYTES
#define KT_PANEL_BYTES (KT_B_PANEL * KT_B_TILE_BYTES)
#else
#define KT_STAGE_BYTES (KT_A_TILE_BYTES + KT_B_TILE_BYTES)
#define KT_PANEL_BYTES 0
#endif
// Output staging: when it fits next to the stages, finished 16-bit tiles go through shared
// memory (rows padded by 16 bytes against bank conflicts) and leave with one bulk copy per row
// (cp.async.bulk), so the consumers start the next tile while the store drains. Two staging
// buffers where they fit, used in turn: a CTA then has two tiles' stores in flight instead of
// one. With short K the output write is the whole cost, and one 32-64 KB tile in flight per SM
// is too little to keep HBM's write path busy (16384x4096x128 wrote at ~1.4 TB/s).
#define KT_STAGING_ROW_BYTES (KT_TILE_N * 2 + 16)
#define KT_STAGING_BYTES (KT_TILE_M * KT_STAGING_ROW_BYTES)
#define KT_SMEM_WITHOUT_STAGING (1024 + KT_STAGES * KT_STAGE_BYTES + KT_PANEL_BYTES + 16 * KT_STAGES + 32)
#define KT_STAGING_FITS(n)                                          \
  (KT_SMEM_WITHOUT_STAGING + (n) * KT_STAGING_BYTES <= 232448 && \
   (KT_MIN_BLOCKS > 0 ? KT_MIN_BLOCKS : 1) * (KT_SMEM_WITHOUT_STAGING + (n) * KT_STAGING_BYTES + 1024) <= 233472)
// A second buffer only where it costs no CTA per SM that one buffer leaves room for.
#define KT_CTAS_PER_SM_WITH_STAGING(n) (233472 / (KT_SMEM_WITHOUT_STAGING + (n) * KT_STAGING_BYTES + 1024))
// Pingpong: one buffer per consumer warpgroup (each stores its own tiles), or none.
// Swapped A and B (KT_SWAP_AB): the tile is D's transpose, stored from the registers
// (kt90_store_swapped_rows), not staged.
#if KT_SWAP_AB
#define KT_STAGING 0
#elif KT_PINGPONG && KT_STAGING_FITS(2)
#define KT_STAGING 2
#elif KT_PINGPONG
#define KT_STAGING 0
#elif KT_STAGING_FITS(2) && KT_CTAS_PER_SM_WITH_STAGING(2) == KT_CTAS_PER_SM_WITH_STAGING(1)
#define KT_STAGING 2
#elif KT_STAGING_FITS(1)
#define KT_STAGING 1
#else
#define KT_STAGING 0
#endif
#define KT_STAGED_STORES (KT_STAGING > 0 && KT_OUT_BYTES == 2)
#define KT_STORE_CHUNK (KT_WG_N % 64 == 0 ? 64 : 32)
#define KT_CHUNK_ROW_BYTES (KT_STORE_CHUNK * 2)
// Chunked staging: where no whole staging tile fits beside the ring (128x256 with 4 stages,
// 192x192 with 4), each consumer warpgroup gets one buffer of KT_WG_M rows x one column chunk
// and stores its piece chunk by chunk through it (TMA tensor stores, waiting for the previous
// chunk's store to finish reading the buffer). cuBLAS's 4-stage 256x128 and 192x192 kernels
// keep their stages this way; a whole staging tile costs a stage. Reserved by the layout rule
// alone (also for f32 outputs and in IREE's objects, which store directly and leave it unused).
#define KT_CHUNK_BYTES (KT_WG_M * KT_CHUNK_ROW_BYTES)
#define KT_CHUNK_STAGING_BYTES (KT_CONSUMERS * KT_CHUNK_BYTES)
#define KT_CHUNK_FITS                                                       \
  (KT_SMEM_WITHOUT_STAGING + KT_CHUNK_STAGING_BYTES <= 232448 &&         \
   (KT_MIN_BLOCKS > 0 ? KT_MIN_BLOCKS : 1) * (KT_SMEM_WITHOUT_STAGING + KT_CHUNK_STAGING_BYTES + 1024) <= 233472)
#if KT_STAGING == 0 && !KT_SWAP_AB && !KT_PINGPONG && (KT_WG_N % 32 == 0) && KT_CHUNK_FITS
#define KT_CHUNK_STAGING 1
#else
#define KT_CHUNK_STAGING 0
#endif
// Staged tiles leave by TMA tensor stores (one per column chunk per warpgroup) instead of one
// bulk copy per row: each lane's row address made ptxas issue the row copies one lane at a time
// (a uniform-register loop, 5M of 21M instructions on 4096x16384x256; session 15). The staging
// buffer then holds chunks of KT_STORE_CHUNK columns, rows of 128 bytes in the 128-byte swizzle
// (64 columns) or, for warpgroup pieces of 32 * odd columns (192x192 tiles: 96), rows of 64 bytes
// in the 64-byte swizzle: the TMA box layout of the map of D (sm90_encode_tensor_maps). Not in
// IREE's objects, whose maps are built on the device for A and B only.
#if KT_STAGED_STORES && (KT_WG_N % 32 == 0) && !defined(KT90_NO_DEFAULT_ENTRY)
#define KT_TMA_STORE 1
#else
#define KT_TMA_STORE 0
#endif
#if KT_CHUNK_STAGING && KT_OUT_BYTES == 2 && !defined(KT90_NO_DEFAULT_ENTRY)
#define KT_CHUNK_STORE 1
#else
#define KT_CHUNK_STORE 0
#endif
#define KT_BULK_STORES (KT_STAGED_STORES || KT_CHUNK_STORE)
// Consumers hand a stage back as soon as its wgmmas finish (wait 0) instead of one K tile later
// (wait 1, keeping two tiles of wgmma in flight): with three stages they otherwise hold two of
// them, leaving one load in flight. Only with two or more consumer warpgroups on one tile, whose
// queued wgmmas keep the tensor cores busy while one waits. H100, session 16, same configs in one
// process: 256x128 with 3 stages 1.11-1.13x faster (bmm 8x1024^3, 1024x10240x8192,
// 512x5120x13824; 1.01x on 3000^3), other 3-stage kernels 0.98-1.03x; one consumer warpgroup
// with 4-5 stages 0.82-1.01x (three of five slower), so they keep the late release.
#if KT_STAGES <= 3 && KT_CONSUMERS >= 2 && !KT_PINGPONG && !KT_A_REGS
#define KT_EARLY_RELEASE 1
#else
#define KT_EARLY_RELEASE 0
#endif
// Split-K's last slice takes the totals back in batches of this many 8-column blocks (4 values
// each), loaded together: small tiles (few accumulators, registers to spare, the tail a large
// share of their time) in batches of 16 values; the largest pair by pair (0; more spilled).
#if KT_M_ATOMS * KT_WG_N / 2 >= 128
#define KT_TAKE_BLOCKS 0
#elif KT_M_ATOMS * KT_WG_N / 2 >= 64 || (KT_WG_N / 8) % 4 != 0
#define KT_TAKE_BLOCKS 2
#else
#define KT_TAKE_BLOCKS 4
#endif
#if KT_MIN_BLOCKS > 0
#define KT_BLOCKS_HINT KT_MIN_BLOCKS
#else
#define KT_BLOCKS_HINT 1
#endif

// Registers: with __launch_bounds__(KT_THREADS, KT_BLOCKS_HINT) and setmaxnreg in the code,
// ptxas gives every thread the launch-bound maximum at entry; the producer then hands most of
// its share back (setmaxnreg.dec to 40) and the consumers take it (setmaxnreg.inc), and ptxas
// allocates the consumer code within the raised share. Only with two or more consumer
// warpgroups: with one, the entry share is already ~255.
#define KT_ENTRY_REGS_RAW (65536 / (KT_THREADS * KT_BLOCKS_HINT))
#define KT_ENTRY_REGS ((KT_ENTRY_REGS_RAW > 255 ? 248 : KT_ENTRY_REGS_RAW) / 8 * 8)
#define KT_PRODUCER_REGS 40
#define KT_CONSUMER_REGS_RAW ((KT_ENTRY_REGS * KT_THREADS - KT_PRODUCER_REGS * 128) / (128 * KT_CONSUMERS) / 8 * 8)
#define KT_CONSUMER_REGS (KT_CONSUMER_REGS_RAW > 240 ? 240 : KT_CONSUMER_REGS_RAW)
#if KT_CONSUMERS >= 2 && KT_ENTRY_REGS > KT_PRODUCER_REGS && KT_CONSUMER_REGS > KT_ENTRY_REGS
#define KT_REBALANCE_REGISTERS 1
#else
#define KT_REBALANCE_REGISTERS 0
#endif

// wgmma's "transpose" immediates: 0 reads the operand K-major, 1 MN-major.
#if KT_A_K_CONTIGUOUS
#define KT_WGMMA_TRANS_A 0
#else
#define KT_WGMMA_TRANS_A 1
#endif
#if KT_B_K_CONTIGUOUS
#define KT_WGMMA_TRANS_B 0
#else
#define KT_WGMMA_TRANS_B 1
#endif

static_assert(KT_TILE_K % KT_K_CHUNK == 0 && KT_TILE_K * KT_IN_BYTES <= 512,
              "KT_TILE_K: whole 128-byte swizzle rows (64 f16/bf16, 128 fp8, 32 tf32 elements), at most 512 bytes");
static_assert(KT_IN_BYTES == 2 || (KT_B_K_CONTIGUOUS && (KT_A_K_CONTIGUOUS || KT_A_REGS)),
              "fp8 and tf32 wgmma read shared-memory operands K-major only (tf32's A may come from registers)");
static_assert(KT_TILE_M % KT_SUBGROUP_M == 0 && KT_WG_M % 64 == 0, "KT_TILE_M / KT_SUBGROUP_M: a multiple of 64");
static_assert(KT_TILE_N % KT_SUBGROUP_N == 0 && KT_WG_N % 16 == 0 && KT_WG_N <= 256,
              "KT_TILE_N / KT_SUBGROUP_N: a multiple of 16, at most 256");
static_assert(KT_B_K_CONTIGUOUS || KT_WG_N % 64 == 0, "N-contiguous B: KT_TILE_N / KT_SUBGROUP_N a multiple of 64");
static_assert(KT_TILE_M <= 256 && KT_TILE_N <= 256, "TMA boxes hold at most 256 rows");
static_assert(KT_STAGES >= 2, "KT_STAGES >= 2");
static_assert(KT_CLUSTER <= 8 && (KT_CLUSTER == 1 || (!KT_B_PANEL && !KT_PINGPONG)),
              "clusters: at most 8 CTAs, no panel, no pingpong");
static_assert(KT_A_K_CONTIGUOUS ? (KT_TILE_M / KT_CLUSTER_N) % 8 == 0 : (KT_TILE_M / KT_MN_CHUNK) % KT_CLUSTER_N == 0,
              "A's share per CTA of a cluster row: whole 8-row swizzle periods (K-contiguous) or 64-row chunks");
static_assert(KT_B_K_CONTIGUOUS ? (KT_TILE_N / KT_CLUSTER_M) % 8 == 0 : (KT_TILE_N / KT_MN_CHUNK) % KT_CLUSTER_M == 0,
              "B's share per CTA of a cluster column: whole 8-row swizzle periods (K-contiguous) or 64-column chunks");
static_assert(!KT_PINGPONG || (KT_PERSISTENT && KT_SUBGROUP_M == 1 && KT_SUBGROUP_N == 1),
              "KT_PINGPONG needs KT_PERSISTENT and one warpgroup per tile");
static_assert(!KT_B_PANEL || (KT_PERSISTENT && !KT_PINGPONG && !KT_SPLIT_K),
              "KT_B_PANEL needs KT_PERSISTENT, no pingpong and no split-K");
static_assert(KT_K_CLUSTER == 1 || (KT_SPLIT_K && !KT_SPLIT_REDUCE && !KT_PERSISTENT && KT_MN_CLUSTER == 1 &&
                                    KT_TILE_M % KT_K_CLUSTER == 0),
              "KT_K_CLUSTER: split-K, no separate reduction, not persistent, no multicast, tile rows split evenly");
static_assert(!KT_SPLIT_TAIL || (KT_PERSISTENT && KT_SPLIT_K && !KT_SPLIT_REDUCE && !KT_B_PANEL && !KT_PINGPONG &&
                                 KT_K_CLUSTER == 1),
              "KT_SPLIT_TAIL: persistent split-K summed atomically, no panel, no pingpong, no K cluster");

// ---- PTX wrappers -------------------------------------------------------------------------

__device__ __forceinline__ kt_u32 kt_smem_addr(const void* p) {
  return static_cast<kt_u32>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void kt_mbar_init(kt_u32 bar, kt_u32 count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void kt_mbar_expect_tx(kt_u32 bar, kt_u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void kt_mbar_arrive(kt_u32 bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Waits until the phase with parity `parity` of the barrier has completed. A fresh barrier is
// in phase 0, so waiting for parity 1 returns at once (the producer's first lap over "empty").
__device__ __forceinline__ void kt_mbar_wait(kt_u32 bar, kt_u32 parity) {
  kt_u32 done;
  do {
    asm volatile(
        "{\n.reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
__device__ __forceinline__ void kt_tma_load_3d(kt_u32 dst, const void* tensor_map, kt_u32 bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
      "l"(reinterpret_cast<kt_u64>(tensor_map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}
// The same copy into this offset of every CTA in `mask` (cluster ranks), completing on each one's
// barrier at `bar`'s offset.
__device__ __forceinline__ void kt_tma_load_3d_multicast(kt_u32 dst, const void* tensor_map, kt_u32 bar, int c0, int c1,
                                                         int c2, unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, "
      "%4, %5}], [%2], %6;" ::"r"(dst),
      "l"(reinterpret_cast<kt_u64>(tensor_map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(mask)
      : "memory");
}
// The same two copies with an L2 cache policy (kt_evict_first_policy) on the global reads.
__device__ __forceinline__ void kt_tma_load_3d_hint(kt_u32 dst, const void* tensor_map, kt_u32 bar, int c0, int c1, int c2,
                                                    kt_u64 policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, "
      "%4, %5}], [%2], %6;" ::"r"(dst),
      "l"(reinterpret_cast<kt_u64>(tensor_map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void kt_tma_load_3d_multicast_hint(kt_u32 dst, const void* tensor_map, kt_u32 bar, int c0,
                                                              int c1, int c2, unsigned short mask, kt_u64 policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint "
      "[%0], [%1, {%3, %4, %5}], [%2], %6, %7;" ::"r"(dst),
      "l"(reinterpret_cast<kt_u64>(tensor_map)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(mask), "l"(policy)
      : "memory");
}
// One copy of kt_load_tile's: multicast to `mask` when the tile is shared, the evict-first
// policy when EVICT_FIRST.
template <int PARTS, bool EVICT_FIRST>
__device__ __forceinline__ void kt_tma_copy(kt_u32 dst, const void* map, kt_u32 bar, int c0, int c1, int c2,
                                            unsigned short mask) {
  if constexpr (PARTS > 1 && EVICT_FIRST)
    kt_tma_load_3d_multicast_hint(dst, map, bar, c0, c1, c2, mask, kt_evict_first_policy());
  else if constexpr (PARTS > 1)
    kt_tma_load_3d_multicast(dst, map, bar, c0, c1, c2, mask);
  else if constexpr (EVICT_FIRST)
    kt_tma_load_3d_hint(dst, map, bar, c0, c1, c2, kt_evict_first_policy());
  else
    kt_tma_load_3d(dst, map, bar, c0, c1, c2);
}
__device__ __forceinline__ int kt_cluster_rank() {
#if KT_CLUSTER > 1
  kt_u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return static_cast<int>(r);
#else
  return 0;
#endif
}
// Every thread of every CTA in the cluster (not .aligned: warps may arrive diverged), without
// ordering earlier memory operations: after the barriers' initialisation,
// which thread 0's fence.mbarrier_init.release.cluster already makes visible to the cluster
// (CUTLASS's cluster_arrive_relaxed after fence_barrier_init). The release form compiles to a
// GPU-scope MEMBAR and an ERRBAR on every warp; on 1000^3 in CTA pairs (a 12.5 us kernel) the
// warps spent about 0.8 us there before their first load (H100, session 21, Nsight Compute).
__device__ __forceinline__ void kt_cluster_sync_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;" ::: "memory");
}
// The same with release (arrive) and acquire (wait) at cluster scope: every thread's earlier
// shared-memory writes are visible to every thread of the cluster after it.
__device__ __forceinline__ void kt_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}
// A consumer warp is done with a stage: it arrives on the stage's empty barrier of every CTA
// whose producer writes into it (this one, and with a cluster the others of its cluster row,
// which multicast A, and of its cluster column, which multicast B).
// The remote arrive keeps mbarrier.arrive's default release.cta semantics, as CUTLASS's
// ClusterBarrier::arrive(cta_id) does: the stage's readers are wgmma (async proxy, already
// waited for), and a .release.cluster arrive orders all of the warp's earlier memory operations
// at cluster scope on every K tile (session 15: pairs with it ran 1.5-2.5x slower on the H100).
__device__ __forceinline__ void kt_arrive_remote(kt_u32 bar, int rank) {
  asm volatile(
      "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(bar),
      "r"(rank)
      : "memory");
}
__device__ __forceinline__ void kt_release_stage(kt_u32 bar) {
  kt_mbar_arrive(bar);
#if KT_CLUSTER > 1
  const int rank = kt_cluster_rank(), rn = rank % KT_CLUSTER_N, rm = rank / KT_CLUSTER_N;
#pragma unroll
  for (int j = 1; j < KT_CLUSTER_N; ++j) kt_arrive_remote(bar, rm * KT_CLUSTER_N + (rn + j) % KT_CLUSTER_N);
#pragma unroll
  for (int i = 1; i < KT_CLUSTER_M; ++i) kt_arrive_remote(bar, ((rm + i) % KT_CLUSTER_M) * KT_CLUSTER_N + rn);
#endif
}
// wgmma shared-memory matrix descriptor, 128-byte swizzle. K-major operands: LBO unused (16),
// SBO = 1024 (8 rows of 128 bytes). MN-major: LBO = distance between 64-element MN chunks,
// SBO = 1024 (8 K rows of 128 bytes).
// Built in two words: the low word holds the start address (bits 0-13, addr >> 4)
// and LBO; the high word SBO and the swizzle mode. Every shared address is below 256 KB, so
// adding (offset >> 4) to a low word never carries out of the address field: the main loop
// builds each wgmma's descriptors from one base per operand plus the stage's and the K step's
// offsets (one integer add each, constants folded), instead of masking and shifting a fresh
// address per wgmma (about ten ALU instructions each: on 3000^3 the kernel issued 19.5M
// instructions to cuBLAS's 7.8M, ALU pipe 29% busy to its 2.6%; H100, session 16).
__device__ __forceinline__ kt_u32 kt_desc_lo(kt_u32 addr, kt_u32 lbo_bytes) {
  return ((addr & 0x3FFFFu) >> 4) | ((lbo_bytes >> 4) << 16);
}
__device__ __forceinline__ kt_u64 kt_desc(kt_u32 lo, kt_u32 sbo_bytes) {
  kt_u64 d;
  asm("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(lo), "r"((sbo_bytes >> 4) | (1u << 30)));
  return d;
}
__device__ __forceinline__ void kt_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void kt_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void kt_wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
// Keeps the compiler from moving accumulator reads/writes across the asynchronous wgmma.
__device__ __forceinline__ void kt_fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// kt_wgmma(d, desc_a, desc_b, scale_d): d (KT_WG_N / 2 floats) += A(64 x 16) * B(16 x KT_WG_N),
// or = when scale_d is 0. One asm operand per accumulator register: the preprocessor cannot
// count them out, so the emitter (sm90_defines in sm90_path.cc) spells out KT_WGMMA_SHAPE,
// KT_WGMMA_D (the "%0, %1, ..." list), KT_WGMMA_D_OPERANDS ("+f"(d[0]), ...) and the numbers of
// the operands after them, for exactly this KT_WG_N.
#ifndef KT_WGMMA_D_OPERANDS
#error "KT_WGMMA_* are missing: kt_wgmma's operands come from the emitter (sm90_defines), for KT_WG_N a multiple of 16 up to 256"
#endif
#if KT_IN_BYTES == 2
#define KT_WGMMA_TRANSPOSE_TEXT ", " KT_WGMMA_TRANSPOSES
#else
#define KT_WGMMA_TRANSPOSE_TEXT ""  // the immediates stay unused operands
#endif
__device__ __forceinline__ void kt_wgmma(float* d, kt_u64 desc_a, kt_u64 desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, " KT_WGMMA_SCALE_D ", 0;\n"
      "wgmma.mma_async.sync.aligned." KT_WGMMA_SHAPE ".f32." KT_WGMMA_AB "." KT_WGMMA_AB " "
      "{" KT_WGMMA_D "}, " KT_WGMMA_DESCRIPTORS ", p, 1, 1" KT_WGMMA_TRANSPOSE_TEXT ";\n}\n"
      : KT_WGMMA_D_OPERANDS
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(KT_WGMMA_TRANS_A), "n"(KT_WGMMA_TRANS_B));
}

#if KT_A_REGS
// kt_wgmma_rs(d, a, desc_b, scale_d): the register-A form, d += A(64 x 8) * B(8 x KT_WG_N), A
// as this thread's four tf32 values of the 64 x 8 step (kt90_a_fragment_offsets). No transpose
// immediates: B stays K-major. The emitter numbers the operands after the accumulators
// (KT_WGMMA_RS_A, KT_WGMMA_RS_B, KT_WGMMA_RS_SCALE_D).
__device__ __forceinline__ void kt_wgmma_rs(float* d, const kt_u32 (&a)[4], kt_u64 desc_b, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\n"
      "setp.ne.b32 p, " KT_WGMMA_RS_SCALE_D ", 0;\n"
      "wgmma.mma_async.sync.aligned." KT_WGMMA_SHAPE ".f32." KT_WGMMA_AB "." KT_WGMMA_AB " "
      "{" KT_WGMMA_D "}, {" KT_WGMMA_RS_A "}, " KT_WGMMA_RS_B ", p, 1, 1;\n}\n"
      : KT_WGMMA_D_OPERANDS
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
}

// Where this thread's A fragment of one 64 x 8 step lies in its warpgroup's piece of a stage,
// for atom 0 and K step 0 (atom mi adds mi * 2 MN chunks, K step kk adds 8 rows of 128 bytes).
// The fragment (PTX's register layout for m64nNk8 tf32, as mma.m16n8k8's A): warp w holds rows
// 16w..16w+15; lane l holds rows g = 16w + l/4 and g + 8 at columns t = l%4 and t + 4. The tile
// is kept in MN chunks of 32 rows (tf32 elements along M), KT_TILE_K K rows of 128 bytes each,
// the 16-byte piece u of K row k at u ^ (k % 8) (128-byte swizzle). Row g sits in chunk g / 32,
// piece (g % 32) / 4, element g % 4; k % 8 is t or t + 4 here. offsets[q]: q = 0 (g, t),
// 1 (g + 8, t), 2 (g, t + 4), 3 (g + 8, t + 4), PTX's a0..a3.
__device__ __forceinline__ void kt90_a_fragment_offsets(int warp, int lane, kt_u32 (&offsets)[4]) {
  const int g = lane / 4, t = lane % 4;
  const int piece = (warp & 1) * 4 + g / 4;  // of row 16w + g within its 32-row chunk
  const kt_u32 chunk = (warp / 2) * (KT_TILE_K * 128);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int k = t + 4 * (q >> 1), u = piece + 2 * (q & 1);
    offsets[q] = chunk + k * 128 + ((u ^ k) << 4) + (g % 4) * 4;
  }
}
#endif

// ---- the kernel ---------------------------------------------------------------------------

// One K tile of an operand of ROWS rows (A: KT_TILE_M from m0, B: KT_TILE_N from n0; K from k0)
// into `dst` by TMA, completing on `bar`: K-contiguous operands as KT_TILE_K / 64 chunks of ROWS x
// 128 bytes, MN-contiguous ones as ROWS / KT_MN_CHUNK chunks of KT_TILE_K x 128 bytes (the layout the wgmma
// descriptors read). Shared in a cluster by PARTS CTAs, this one loads share `part` (a box of
// ROWS / PARTS rows per K chunk, whole 8-row swizzle periods; or its part of the 64-row chunks)
// and multicasts it to the CTAs in `mask`.
template <int ROWS, int PARTS, bool K_CONTIGUOUS, bool EVICT_FIRST>
__device__ __forceinline__ void kt_load_tile(kt_u32 dst, const void* map, kt_u32 bar, int k0, int mn0, int batch, int part,
                                             kt_u16 mask) {
  if constexpr (K_CONTIGUOUS) {
    constexpr int share = ROWS / PARTS;
#pragma unroll
    for (int c = 0; c < KT_TILE_K / KT_K_CHUNK; ++c)
      kt_tma_copy<PARTS, EVICT_FIRST>(dst + c * (ROWS * 128) + part * share * 128, map, bar, k0 + KT_K_CHUNK * c,
                                      mn0 + part * share, batch, mask);
  } else {
    constexpr int chunks = ROWS / KT_MN_CHUNK / PARTS;
#pragma unroll
    for (int h = 0; h < chunks; ++h) {
      const int c = part * chunks + h;
      kt_tma_copy<PARTS, EVICT_FIRST>(dst + c * (KT_TILE_K * 128), map, bar, mn0 + KT_MN_CHUNK * c, k0, batch, mask);
    }
  }
}
// A's tile: shared along the cluster row (the KT_CLUSTER_N CTAs of one tile row).
__device__ __forceinline__ void kt_load_a_tile(kt_u32 dst, const void* map_a, kt_u32 bar, int k0, int m0, int batch) {
#if KT_CLUSTER_N > 1
  const int rank = kt_cluster_rank(), rn = rank % KT_CLUSTER_N;
  const kt_u16 row_mask = static_cast<kt_u16>(((1u << KT_CLUSTER_N) - 1u) << (rank - rn));
  kt_load_tile<KT_TILE_M, KT_CLUSTER_N, (KT_A_K_CONTIGUOUS != 0), (KT_A_EVICT_FIRST != 0)>(dst, map_a, bar, k0, m0, batch,
                                                                                          rn, row_mask);
#else
  kt_load_tile<KT_TILE_M, 1, (KT_A_K_CONTIGUOUS != 0), (KT_A_EVICT_FIRST != 0)>(dst, map_a, bar, k0, m0, batch, 0, 0);
#endif
}
// B's tile: shared along the cluster column (the KT_CLUSTER_M CTAs of one tile column).
__device__ __forceinline__ void kt_load_b_tile(kt_u32 dst, const void* map_b, kt_u32 bar, int k0, int n0, int batch) {
#if KT_CLUSTER_M > 1
  const int rank = kt_cluster_rank(), rn = rank % KT_CLUSTER_N, rm = rank / KT_CLUSTER_N;
  kt_u16 column_mask = 0;
#pragma unroll
  for (int i = 0; i < KT_CLUSTER_M; ++i) column_mask |= static_cast<kt_u16>(1u << (i * KT_CLUSTER_N + rn));
  kt_load_tile<KT_TILE_N, KT_CLUSTER_M, (KT_B_K_CONTIGUOUS != 0), (KT_B_EVICT_FIRST != 0)>(dst, map_b, bar, k0, n0, batch,
                                                                                          rm, column_mask);
#else
  kt_load_tile<KT_TILE_N, 1, (KT_B_K_CONTIGUOUS != 0), (KT_B_EVICT_FIRST != 0)>(dst, map_b, bar, k0, n0, batch, 0, 0);
#endif
}

#if KT_CLUSTER > 1
// The unit (work slot) of cluster `cluster` of `clusters` along x: the host's placement table
// (cluster_order.h) maps every whole run of p.cluster_order_size clusters onto itself, so any
// table is a permutation and every item is still computed exactly once; only which SMs
// compute neighbouring tiles changes. The hardware puts clusters on the GPCs round-robin
// (session 39), and the L2 request coalescer merges only what the CTAs of one GPC request.
__device__ __forceinline__ long long kt_cluster_unit(const KtuneGemmParams& p, long long cluster, long long clusters) {
  const long long run = p.cluster_order_size;
  if (p.cluster_order == nullptr || run <= 0 || cluster >= clusters / run * run) return cluster;
  return cluster / run * run + p.cluster_order[cluster % run];
}
#endif

#if KT_MN_CLUSTER > 1
// A cluster's item names a cluster row and column (p.tiles_m, p.tiles_n count those); this CTA's
// own tile is its place in the cluster.
__device__ __forceinline__ void kt_cluster_place(int cta_rank, int& tile_m, int& tile_n) {
  tile_m = tile_m * KT_CLUSTER_M + cta_rank / KT_CLUSTER_N;
  tile_n = tile_n * KT_CLUSTER_N + cta_rank % KT_CLUSTER_N;
}
#endif

// Work item `w` (0 .. tiles * split_k * batch - 1): tile fastest, then split slice, then batch.
// KT_SPLIT_TAIL: items below p.tail_from are whole tiles (split -1, all of K), in order; the
// split_k slices of each later tile follow, slice by slice, so that one tile's slices land on
// different CTAs of the same (last) round.
__device__ __forceinline__ void kt_work_item(const KtuneGemmParams& p, long long w, int& tile, int& split, int& batch) {
  const long long tiles = static_cast<long long>(p.tiles_m) * p.tiles_n;
#if KT_SPLIT_TAIL
  long long flat = w;
  split = -1;
  if (w >= p.tail_from) {
    const long long tail = tiles * p.batch - p.tail_from, r = w - p.tail_from;
    flat = p.tail_from + r % tail;
    split = static_cast<int>(r / tail);
  }
  tile = static_cast<int>(flat % tiles);
  batch = static_cast<int>(flat / tiles);
  return;
#endif
  tile = static_cast<int>(w % tiles);
  const long long rest = w / tiles;
  split = static_cast<int>(rest % p.split_k);
  batch = static_cast<int>(rest / p.split_k);
#if KT_K_CLUSTER > 1
  split = kt_cluster_rank();  // the grid holds one item per cluster: its CTAs are the slices
#endif
}
// KT_B_PANEL's order: tile_m fastest, then tile_n, then batch (split_k is 1), so that a run of
// consecutive items shares B's column. `tile` is the row-major tile index, as above.
__device__ __forceinline__ void kt_panel_item(const KtuneGemmParams& p, long long w, int& tile, int& batch, int& tile_m,
                                              int& tile_n) {
  const long long tiles = static_cast<long long>(p.tiles_m) * p.tiles_n;
  batch = static_cast<int>(w / tiles);
  const long long in_batch = w - batch * tiles;
  tile_n = static_cast<int>(in_batch / p.tiles_m);
  tile_m = static_cast<int>(in_batch - static_cast<long long>(tile_n) * p.tiles_m);
  tile = tile_m * p.tiles_n + tile_n;
}
// The K tiles of slice `split`: [k_begin, k_begin + k_tiles * KT_TILE_K), the last one zero-filled past K.
// A whole item of a split tail (split -1) covers all of K.
__device__ __forceinline__ int kt_k_range(const KtuneGemmParams& p, int split, long long& k_begin) {
  const long long per_split = p.split_k > 1 && split >= 0 ? p.k_per_split : p.k;
  k_begin = split > 0 ? split * per_split : 0;
  long long k_end = k_begin + per_split;
  if (k_end > p.k) k_end = p.k;
  return k_end > k_begin ? static_cast<int>((k_end - k_begin + KT_TILE_K - 1) / KT_TILE_K) : 0;
}

// The kernel's body. `map_a` and `map_b` are A's and B's tensor maps: the parameter block's own
// (the default entry below) or maps built in global memory by kt90_build_tensor_maps (an IREE
// dispatch, whose only parameters are its buffers). TMA reads a map from either space.
#if KT_STAGED_STORES || KT_CHUNK_STORE
// The stmatrix.x4 operands of 8-column blocks j and j + 1 of atom mi: rows lane/4 and lane/4 + 8,
// finished (Plain: alpha 1, nothing else: the accumulators as they are) and packed to 16 bits.
// Guarded (an edge tile): elements outside M x N stay unfinished, since C and the bias must not
// be read there; nobody stores them.
template <bool Plain, bool Guarded = false>
__device__ __forceinline__ void kt90_pack_blocks(const KtuneGemmParams& p, int batch, long long row0, long long col0,
                                                 float (&acc)[KT_M_ATOMS][KT_WG_N / 2], int mi, int j,
                                                 kt_u32 (&packed)[4]) {
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int jb = j + (q >> 1), h = (q & 1) * 2;
    float v0 = acc[mi][4 * jb + h], v1 = acc[mi][4 * jb + h + 1];
    if (!Plain) {
      const long long i = row0 + mi * 64 + (h >> 1) * 8, jj = col0 + 8 * jb;
      const bool inside = !Guarded || i < p.m;
      if (inside && (!Guarded || jj < p.n)) v0 = kt_epilogue_value(p, batch, i, jj, v0);
      if (inside && (!Guarded || jj + 1 < p.n)) v1 = kt_epilogue_value(p, batch, i, jj + 1, v1);
    }
#if KT_OUT_TYPE == 1
    packed[q] = kt_pack_bf16x2(v0, v1);
#else
    packed[q] = kt_pack_f16x2(v0, v1);
#endif
  }
}
#endif

#if KT_STAGED_STORES

// The finished 16-bit tile of one consumer warp into the staging rows at `piece` (this lane's
// stmatrix row address), two 8-column blocks per stmatrix.x4: a quarter of the shared-memory
// stores of one st.shared per pair. Plain (alpha 1, nothing else): the accumulators as they are.
template <bool Plain, bool Guarded = false>
__device__ __forceinline__ void kt90_stage_tile(const KtuneGemmParams& p, int batch, long long row0, long long col0,
                                                float (&acc)[KT_M_ATOMS][KT_WG_N / 2], kt_u32 piece) {
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; j += 2) {
      kt_u32 packed[4];
      kt90_pack_blocks<Plain, Guarded>(p, batch, row0, col0, acc, mi, j, packed);
      const kt_u32 at = piece + mi * 64 * KT_STAGING_ROW_BYTES + 8 * j * 2;
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(packed[0]),
                   "r"(packed[1]), "r"(packed[2]), "r"(packed[3])
                   : "memory");
    }
}
#endif

#if KT_TMA_STORE || KT_CHUNK_STORE
// The same, into column chunks in the TMA box's swizzle: 64-column chunks of 128-byte rows, the
// 16-byte piece s of row r at s ^ (r % 8); 32-column chunks of 64-byte rows, s ^ ((r / 2) % 4).
// r % 8 is this lane's lane % 8 (rows start at multiples of 8). `chunk0` is this warpgroup's
// first chunk region, chunk c c * KT_TILE_M * KT_CHUNK_ROW_BYTES bytes on; with `only_chunk`,
// only that chunk, into the buffer at `chunk0` (chunked staging). Guarded (an edge tile): the
// elements outside M x N stay unfinished; the TMA store clips them.
template <bool Plain, bool Guarded = false>
__device__ __forceinline__ void kt90_stage_tile_swizzled(const KtuneGemmParams& p, int batch, long long row0,
                                                         long long col0, float (&acc)[KT_M_ATOMS][KT_WG_N / 2],
                                                         kt_u32 chunk0, int warp, int lane, int only_chunk = -1) {
  constexpr int kBlocks = KT_STORE_CHUNK / 8;
  const int quad = lane / 8;
  const int row = warp * 16 + (quad & 1) * 8 + lane % 8;
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; j += 2) {
      // One chunk only (chunked staging): the loops unroll, so this test is on constants.
      if (only_chunk >= 0 && j / kBlocks != only_chunk) continue;
      kt_u32 packed[4];
      kt90_pack_blocks<Plain, Guarded>(p, batch, row0, col0, acc, mi, j, packed);
      // This lane's 8-column block, 16 bytes in its chunk row, at the swizzled position: the
      // 128-byte swizzle XORs the block with row % 8, the 64-byte one with (row / 2) % 4.
      // With one chunk, chunk0 is that chunk's buffer.
      const int block = j + (quad >> 1);
      const int swizzle = KT_STORE_CHUNK == 64 ? lane % 8 : (lane % 8) >> 1;
      const kt_u32 at = chunk0 + (only_chunk >= 0 ? 0 : (block / kBlocks) * (KT_TILE_M * KT_CHUNK_ROW_BYTES)) +
                        (mi * 64 + row) * KT_CHUNK_ROW_BYTES + (((block % kBlocks) ^ swizzle) * 16);
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(packed[0]),
                   "r"(packed[1]), "r"(packed[2]), "r"(packed[3])
                   : "memory");
    }
}
__device__ __forceinline__ void kt_tma_store_3d(const void* tensor_map, kt_u32 src, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(
                   reinterpret_cast<kt_u64>(tensor_map)),
               "r"(src), "r"(c0), "r"(c1), "r"(c2)
               : "memory");
}
// This warpgroup's TMA stores of its staged piece: chunk `chunk` (or every chunk, chunk < 0),
// each a box of the warpgroup's KT_WG_M rows at `chunk0` + i * chunk_stride (the host's map of D
// has boxes of that many rows, sm90_encode_tensor_maps), as one bulk group, issued by one thread
// after the warpgroup's barrier. Chunks that start outside D are skipped; the rest are clipped by
// the TMA unit (edge tiles), which writes nothing outside the map's M x N. One box per warp (16
// rows, no warpgroup barrier) issued four times the stores and ran 1-6% slower on persistent
// kernels of several tiles per CTA (bmm 32x512x512x64, 65536x128x512; H200, session 38).
__device__ __forceinline__ void kt90_tma_stores(const KtuneGemmParams& p, int batch, kt_u32 chunk0, kt_u32 chunk_stride,
                                                long long grow0, long long gcol0, int chunk) {
  if (grow0 < p.m) {
#pragma unroll
    for (int i = 0; i < KT_WG_N / KT_STORE_CHUNK; ++i) {
      if (chunk >= 0 && i != chunk) continue;
      const long long col = gcol0 + KT_STORE_CHUNK * i;
      if (col < p.n)
        kt_tma_store_3d(p.tma_d, chunk0 + (chunk >= 0 ? 0 : i * chunk_stride), static_cast<int>(col),
                        static_cast<int>(grow0), batch);
    }
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
#endif

// Where the kernel's shared memory pieces are: the 1024-aligned ring, the staging buffers, the
// stage mbarriers, and (pingpong) the order mbarriers or (B panel) the panel and its mbarriers.
struct Kt90Smem {
  kt_u32 raw, base, staging, full_bars, empty_bars;
  kt_u32 order_bars, panel, panel_full, panel_empty;  // zero where the kernel has none
};
static __device__ __forceinline__ Kt90Smem kt90_smem() {
  extern __shared__ __align__(1024) unsigned char kt_smem[];
  Kt90Smem s{};
  s.raw = kt_smem_addr(kt_smem);
  s.base = (s.raw + 1023u) & ~1023u;
  s.staging = s.base + KT_STAGES * KT_STAGE_BYTES + KT_PANEL_BYTES;
  s.full_bars = s.staging + KT_STAGING * KT_STAGING_BYTES + KT_CHUNK_STAGING * KT_CHUNK_STAGING_BYTES;
  s.empty_bars = s.full_bars + 8 * KT_STAGES;
#if KT_PINGPONG
  // after 16 bytes of split-K flags: one "mainloop issued" mbarrier per consumer
  s.order_bars = s.empty_bars + 8 * KT_STAGES + 16;
#endif
#if KT_B_PANEL
  // The B panel sits after the ring; its full/empty mbarriers take the pingpong barriers' place.
  s.panel = s.base + KT_STAGES * KT_STAGE_BYTES;
  s.panel_full = s.empty_bars + 8 * KT_STAGES + 16;
  s.panel_empty = s.panel_full + 8;
#endif
  return s;
}

// Thread 0: the mbarriers, made visible to the async proxy and the cluster, and the tensor maps
// prefetched.
static __device__ __forceinline__ void kt90_init_barriers(const Kt90Smem& s, const void* map_a, const void* map_b) {
  for (int i = 0; i < KT_STAGES; ++i) {
    kt_mbar_init(s.full_bars + 8 * i, 1);
    // One arrival per reading warp of every CTA this one's producer writes into: its cluster row
    // (A) and column (B).
    kt_mbar_init(s.empty_bars + 8 * i, 4 * KT_STAGE_READERS * (KT_CLUSTER_N + KT_CLUSTER_M - 1));
  }
#if KT_PINGPONG
  kt_mbar_init(s.order_bars, 1);
  kt_mbar_init(s.order_bars + 8, 1);
#endif
#if KT_B_PANEL
  kt_mbar_init(s.panel_full, 1);
  kt_mbar_init(s.panel_empty, 4 * KT_CONSUMERS);  // every consumer warp is done with the panel
#endif
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<kt_u64>(map_a)) : "memory");
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<kt_u64>(map_b)) : "memory");
}

// The work items this CTA walks: first, first + step, ... below end. `unit` / `units`: this CTA
// (or CTA pair) and how many there are.
struct Kt90Work {
  long long first, end, step;
};
static __device__ __forceinline__ Kt90Work kt90_work(const KtuneGemmParams& p, long long unit, long long units) {
  const long long tiles = static_cast<long long>(p.tiles_m) * p.tiles_n;
#if KT_SPLIT_TAIL
  const long long work_total = p.tail_from + (tiles * p.batch - p.tail_from) * p.split_k;
#else
  const long long work_total = tiles * p.split_k * p.batch;
#endif
  Kt90Work w;
#if KT_B_PANEL
  // One contiguous run per CTA (sizes differ by at most one item).
  (void)unit;
  (void)units;
  w.first = work_total * blockIdx.x / gridDim.x;
  w.end = work_total * (blockIdx.x + 1) / gridDim.x;
  w.step = 1;
#elif KT_PERSISTENT
  (void)units;
  w.first = unit;
  w.end = work_total;
  w.step = units;
#else
  (void)units;
  w.first = unit + tiles * (blockIdx.y + static_cast<long long>(p.split_k) * blockIdx.z);
  w.end = work_total;
  w.step = work_total;
#endif
  return w;
}

// The producer (thread 0 of warpgroup 0): every work item's K tiles into the ring, each stage
// once the consumers released it; with a B panel, B's whole K extent once per column.
static __device__ __forceinline__ void kt90_produce(const KtuneGemmParams& p, const Kt90Smem& s, const void* map_a,
                                                    const void* map_b, const Kt90Work& work, int cta_rank) {
  (void)cta_rank;
  int stage = 0;
  kt_u32 phase = 0;
#if KT_B_PANEL
  long long panel_column = -1;  // batch * tiles_n + tile_n of the panel in shared memory
  kt_u32 panel_phase = 0;
#endif
  for (long long w = work.first; w < work.end; w += work.step) {
    int tile, split = 0, batch, tile_m, tile_n;
#if KT_B_PANEL
    kt_panel_item(p, w, tile, batch, tile_m, tile_n);
#else
    kt_work_item(p, w, tile, split, batch);
    kt_tile_coords(p, tile, tile_m, tile_n);
#if KT_MN_CLUSTER > 1
    kt_cluster_place(cta_rank, tile_m, tile_n);
#endif
#endif
    const int m0 = tile_m * KT_TILE_M, n0 = tile_n * KT_TILE_N;
    long long k_begin;
    const int k_tiles = kt_k_range(p, split, k_begin);
#if KT_B_PANEL
    if (k_tiles > KT_B_PANEL) __trap();  // the host never launches this (sm90_rejects)
    const long long column = static_cast<long long>(batch) * p.tiles_n + tile_n;
    if (column != panel_column) {
      // The consumers are done with the last column's panel once they start this one.
      kt_mbar_wait(s.panel_empty, panel_phase ^ 1u);
      kt_mbar_expect_tx(s.panel_full, k_tiles * KT_B_TILE_BYTES);
      for (int kt = 0; kt < k_tiles; ++kt)
        kt_load_b_tile(s.panel + kt * KT_B_TILE_BYTES, map_b, s.panel_full, static_cast<int>(k_begin) + kt * KT_TILE_K, n0,
                       batch);
      panel_phase ^= 1u;
      panel_column = column;
    }
#endif
    for (int kt = 0; kt < k_tiles; ++kt) {
      const kt_u32 full = s.full_bars + 8 * stage;
      kt_mbar_wait(s.empty_bars + 8 * stage, phase ^ 1u);
      kt_mbar_expect_tx(full, KT_STAGE_BYTES);
      const int k0 = static_cast<int>(k_begin) + kt * KT_TILE_K;
      const kt_u32 tile_a = s.base + stage * KT_STAGE_BYTES;
      kt_load_a_tile(tile_a, map_a, full, k0, m0, batch);
#if !KT_B_PANEL
      kt_load_b_tile(tile_a + KT_A_TILE_BYTES, map_b, full, k0, n0, batch);
#endif
      if (++stage == KT_STAGES) {
        stage = 0;
        phase ^= 1u;
      }
    }
  }
#if KT_CLUSTER > 1
  // The tail: every stage released once more, by this CTA's consumers and by those of the CTAs
  // it multicast into, whose last remote arrives then have landed. With the consumers' own waits
  // on every multicast they read, no CTA of the cluster touches this one's shared memory after
  // it exits, and no exit barrier is needed (CUTLASS's producer tail). The release-form cluster
  // barrier it replaces made every warp wait for its own stores at GPU scope before exiting.
  for (int i = 0; i < KT_STAGES; ++i) {
    kt_mbar_wait(s.empty_bars + 8 * stage, phase ^ 1u);
    if (++stage == KT_STAGES) {
      stage = 0;
      phase ^= 1u;
    }
  }
#endif
}

// Who a consumer thread is: its warpgroup (consumer), that warpgroup's piece of the tile (wg_m,
// wg_n), its thread in the warpgroup (t), warp and lane.
struct Kt90Consumer {
  int index, wg_m, wg_n, t, warp, lane;
};

// Promotion (KT_PROMOTE K tiles): the tensor cores' f32 accumulation loses accuracy with the
// length of the chain it sums (strict f32 as 3xTF32 on 2048^3: relative error 4.8e-6 in one
// chain of 6144, 1.2e-6 in chains of 512, cuBLAS's FFMA SGEMM 8.1e-7; H100, session 19), so every
// KT_PROMOTE K tiles the chain's sum is added into `total` with ordinary f32 adds and the next
// wgmma starts a new chain (scale-d 0). It costs a second set of accumulator registers.
#ifdef KT_PROMOTE
#define KT_CHAIN_STARTS(kt) ((kt) % KT_PROMOTE == 0)
#define KT_TOTAL_PARAM , float (&total)[KT_M_ATOMS][KT_WG_N / 2]
#define KT_TOTAL_ARG , total
#else
#define KT_CHAIN_STARTS(kt) ((kt) == 0)
#define KT_TOTAL_PARAM
#define KT_TOTAL_ARG
#endif

// One tile's K loop: waits for each stage, issues its wgmmas (descriptors from the stage-0 low
// words plus constant offsets) and hands stages back to the producer. Returns the last stage
// used, which the caller releases after its final wait unless KT_EARLY_RELEASE did already.
static __device__ __forceinline__ int kt90_mma_tile(float (&acc)[KT_M_ATOMS][KT_WG_N / 2], const Kt90Smem& s,
                                                    kt_u32 desc_lo_a, kt_u32 desc_lo_b, int k_tiles, int& stage,
                                                    kt_u32& phase, int lane KT_TOTAL_PARAM) {
  int previous_stage = 0;
#ifdef KT_PROMOTE
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int r = 0; r < KT_WG_N / 2; ++r) total[mi][r] = 0.0f;
#endif
  for (int kt = 0; kt < k_tiles; ++kt) {
    kt_mbar_wait(s.full_bars + 8 * stage, phase);
    // Offsets from the ring's start in 16-byte units (descriptor address units).
    const kt_u32 a_units = stage * (KT_STAGE_BYTES / 16);
#if KT_B_PANEL
    const kt_u32 b_units = (s.panel - s.base) / 16 + kt * (KT_B_TILE_BYTES / 16);
#else
    const kt_u32 b_units = a_units + KT_A_TILE_BYTES / 16;
#endif
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int r = 0; r < KT_WG_N / 2; ++r) kt_fence_operand(acc[mi][r]);
    kt_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < KT_TILE_K / KT_K_STEP; ++kk) {
#if KT_B_K_CONTIGUOUS
      const kt_u32 b_step = (kk / 4) * (KT_TILE_N * 128) + (kk % 4) * 32;
#else
      const kt_u32 b_step = kk * 2048;
#endif
      const kt_u64 desc_b = kt_desc(desc_lo_b + b_units + b_step / 16, 1024);
#pragma unroll
      for (int mi = 0; mi < KT_M_ATOMS; ++mi) {
#if KT_A_K_CONTIGUOUS
        const kt_u32 a_step = (kk / 4) * (KT_TILE_M * 128) + mi * 64 * 128 + (kk % 4) * 32;
#else
        const kt_u32 a_step = mi * (KT_TILE_K * 128) + kk * 2048;
#endif
        kt_wgmma(acc[mi], kt_desc(desc_lo_a + a_units + a_step / 16, 1024), desc_b, (!KT_CHAIN_STARTS(kt) || kk > 0) ? 1 : 0);
      }
    }
    kt_wgmma_commit();
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int r = 0; r < KT_WG_N / 2; ++r) kt_fence_operand(acc[mi][r]);
#if KT_EARLY_RELEASE
    // This K tile's wgmmas done, its stage goes back to the producer at once: the consumers
    // hold one stage, not two, so a 3-stage ring keeps two loads in flight instead of one.
    // The other consumer warpgroup's queued wgmmas keep the tensor cores busy meanwhile.
    kt_wgmma_wait<0>();
    if (lane == 0) kt_release_stage(s.empty_bars + 8 * stage);
#else
    // Keep one K tile of wgmma in flight; the one before it is done reading its stage.
    if (kt > 0) {
      kt_wgmma_wait<1>();
      if (lane == 0) kt_release_stage(s.empty_bars + 8 * previous_stage);
    }
#endif
#ifdef KT_PROMOTE
    if (KT_CHAIN_STARTS(kt + 1) && kt + 1 < k_tiles) {
      // The chain is complete once its wgmmas are; the fences keep the reads after the wait.
      kt_wgmma_wait<0>();
#pragma unroll
      for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
        for (int r = 0; r < KT_WG_N / 2; ++r) {
          kt_fence_operand(acc[mi][r]);
          total[mi][r] += acc[mi][r];
        }
    }
#endif
    previous_stage = stage;
    if (++stage == KT_STAGES) {
      stage = 0;
      phase ^= 1u;
    }
  }
  return previous_stage;
}

#if KT_A_REGS
#if defined(KT_PROMOTE) || KT_PINGPONG
#error "register A (KT_A_REGS): no promoted chains, no pingpong"
#endif
#define KT_KK (KT_TILE_K / KT_K_STEP)
// One K tile's A fragments into set P (kt90_a_fragment_offsets), from the stage at `a_stage`.
template <int P>
static __device__ __forceinline__ void kt90_load_a_fragments(kt_u32 (&frag)[2][KT_KK][KT_M_ATOMS][4], kt_u32 a_stage,
                                                             const kt_u32 (&a_frag)[4]) {
#pragma unroll
  for (int kk = 0; kk < KT_KK; ++kk)
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int q = 0; q < 4; ++q)
        asm volatile("ld.shared.b32 %0, [%1];"
                     : "=r"(frag[P][kk][mi][q])
                     : "r"(a_stage + a_frag[q] + mi * 2 * (KT_TILE_K * 128) + kk * 1024));
}
// One K tile's wgmmas from fragment set P, B from the stage at descriptor units `b_units`, fenced
// and committed as one group. The fence and the commit stay in the same branch as the wgmmas:
// after a branch merge ptxas closes the group with a dummy HGMMA of its own (and injects
// another warpgroup.arrive), a second group per tile, so "wait 1" waited for the real one
// (H100, session 21: 41% of the warps' stall samples at that wait).
template <int P>
static __device__ __forceinline__ void kt90_issue_a_fragments(float (&acc)[KT_M_ATOMS][KT_WG_N / 2],
                                                              const kt_u32 (&frag)[2][KT_KK][KT_M_ATOMS][4],
                                                              kt_u32 desc_lo_b, kt_u32 b_units, bool first) {
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int r = 0; r < KT_WG_N / 2; ++r) kt_fence_operand(acc[mi][r]);
  kt_wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < KT_KK; ++kk) {
    const kt_u64 desc_b = kt_desc(desc_lo_b + b_units + ((kk / 4) * (KT_TILE_N * 128) + (kk % 4) * 32) / 16, 1024);
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi) kt_wgmma_rs(acc[mi], frag[P][kk][mi], desc_b, (!first || kk > 0) ? 1 : 0);
  }
  kt_wgmma_commit();
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int r = 0; r < KT_WG_N / 2; ++r) kt_fence_operand(acc[mi][r]);
}
// kt90_mma_tile for register A, software-pipelined over two fragment sets: while tile kt's
// wgmmas run, tile kt + 1's fragments load into the other set. A wgmma's A registers must not
// change until it is done (PTX: undefined otherwise; reusing one set with a tile of wgmmas in
// flight computed garbage on the H100, session 21), so a set is refilled only after wait 1 has
// retired the tile that read it. The two sets need constant indices: the loop body is written
// once per parity.
static __device__ __forceinline__ int kt90_mma_tile_regs(float (&acc)[KT_M_ATOMS][KT_WG_N / 2], const Kt90Smem& s,
                                                         kt_u32 desc_lo_b, int k_tiles, int& stage, kt_u32& phase,
                                                         int lane, kt_u32 a_frag_base, const kt_u32 (&a_frag)[4]) {
  kt_u32 frag[2][KT_KK][KT_M_ATOMS][4];
  int previous_stage = 0;
  if (k_tiles == 0) return previous_stage;
  kt_mbar_wait(s.full_bars + 8 * stage, phase);
  kt90_load_a_fragments<0>(frag, a_frag_base + stage * KT_STAGE_BYTES, a_frag);
  for (int kt = 0; kt < k_tiles; ++kt) {
    const kt_u32 a_units = stage * (KT_STAGE_BYTES / 16);
#if KT_B_PANEL
    const kt_u32 b_units = (s.panel - s.base) / 16 + kt * (KT_B_TILE_BYTES / 16);
#else
    const kt_u32 b_units = a_units + KT_A_TILE_BYTES / 16;
#endif
    if (kt & 1)
      kt90_issue_a_fragments<1>(acc, frag, desc_lo_b, b_units, kt == 0);
    else
      kt90_issue_a_fragments<0>(acc, frag, desc_lo_b, b_units, kt == 0);
    // Tile kt - 1 done: its stage goes back, its fragment set is free.
    if (kt > 0) {
      kt_wgmma_wait<1>();
      if (lane == 0) kt_release_stage(s.empty_bars + 8 * previous_stage);
    }
    previous_stage = stage;
    if (++stage == KT_STAGES) {
      stage = 0;
      phase ^= 1u;
    }
    if (kt + 1 < k_tiles) {
      kt_mbar_wait(s.full_bars + 8 * stage, phase);
      if (kt & 1)
        kt90_load_a_fragments<0>(frag, a_frag_base + stage * KT_STAGE_BYTES, a_frag);
      else
        kt90_load_a_fragments<1>(frag, a_frag_base + stage * KT_STAGE_BYTES, a_frag);
    }
  }
  return previous_stage;
}
#endif

#if KT_SPLIT_K && KT_SPLIT_REDUCE
// Split-K with a separate reduction (cuBLASLt's "compute" reduction): this slice stores its
// partial tile plainly into a slice of the workspace of its own; ktune_splitk_reduce_sm90 sums
// the slices and runs the epilogue afterwards. Atomic adds into one shared buffer all land at the
// end of the K loop, when every CTA finishes at once, and the L2 serialises them on each address
// (~45e9 per second on the H100): 128x256x32768 in 16 slices spent ~6 us there.
// Slices lie kt_slice_floats apart: batch x M x N rounded up to 4 floats, so that a pair of
// columns starts 8-byte aligned in every slice when it does in the first (M x N may be odd).
static __device__ __forceinline__ long long kt_slice_floats(const KtuneGemmParams& p) {
  return (static_cast<long long>(p.batch) * p.m * p.n + 3) / 4 * 4;
}
static __device__ __forceinline__ void kt90_split_k_store(const KtuneGemmParams& p, const Kt90Consumer& c, int batch,
                                                          int split, long long row0, long long col0,
                                                          float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
  (void)c;
  float* slice = p.workspace + split * kt_slice_floats(p) + static_cast<long long>(batch) * p.m * p.n;
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; ++j)
#pragma unroll
      for (int h = 0; h < 4; h += 2) {
        const long long i = row0 + mi * 64 + (h >> 1) * 8, jj = col0 + 8 * j;
        if (i >= p.m || jj >= p.n) continue;
        float* at = slice + i * p.n + jj;
        if (jj + 1 < p.n && (reinterpret_cast<unsigned long long>(at) & 7) == 0) {
          asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(at), "f"(acc[mi][4 * j + h]), "f"(acc[mi][4 * j + h + 1])
                       : "memory");
        } else {
          at[0] = acc[mi][4 * j + h];
          if (jj + 1 < p.n) at[1] = acc[mi][4 * j + h + 1];
        }
      }
}

// The sum of the split-K slices of every element of D, finished by the epilogue. A CTA takes 64
// pairs of columns at a time; its four warp pairs each sum every fourth slice of them, eight
// slices' loads issued before any add, and the first sums the four parts through shared memory
// and runs the epilogue. A thread per pair looping over the slices had at most four loads in
// flight and waited on memory once per four slices: 2.8 us for 16 slices of 256x128, against
// cuBLASLt's 1.7 us for 8 (session 20, H100). Four loads per warp pair instead of eight: 64x128
// tiles in 32 slices ran 15.1 us on 256x128x16384 instead of 14.3 (H200, sessions 26-27). Launched after the GEMM as its programmatic dependent (see
// generated_launch.h): it starts while the GEMM's last tiles finish and waits for them here.
extern "C" __global__ void __launch_bounds__(256) ktune_splitk_reduce_sm90(const __grid_constant__ KtuneGemmParams p) {
  // kGroups * kInFlight is kReduceSlicesPerRound of generated_kernel.h.
  constexpr int kPairs = 64, kGroups = 4, kInFlight = 8;
  __shared__ float2 parts[kGroups - 1][kPairs];
  asm volatile("griddepcontrol.wait;" ::: "memory");
  const int q = threadIdx.x % kPairs, group = threadIdx.x / kPairs;
  const long long pairs_per_row = (p.n + 1) / 2, slice = kt_slice_floats(p);
  const long long total = static_cast<long long>(p.batch) * p.m * pairs_per_row;
  for (long long base = static_cast<long long>(blockIdx.x) * kPairs; base < total;
       base += static_cast<long long>(gridDim.x) * kPairs) {
    const long long t = base + q;
    const long long row = t / pairs_per_row, j = 2 * (t % pairs_per_row);
    const float* at = p.workspace + row * p.n + j;
    const bool inside = t < total, pair = j + 1 < p.n && (reinterpret_cast<unsigned long long>(at) & 7) == 0;
    float v0 = 0.0f, v1 = 0.0f;
    for (int sk0 = group; inside && sk0 < p.split_k; sk0 += kGroups * kInFlight) {
      float2 v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int sk = sk0 + u * kGroups;
        const float* s = at + sk * slice;
        v[u] = sk >= p.split_k ? make_float2(0.0f, 0.0f)
               : pair          ? __ldcs(reinterpret_cast<const float2*>(s))
                               : make_float2(__ldcs(s), j + 1 < p.n ? __ldcs(s + 1) : 0.0f);
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        v0 += v[u].x;
        v1 += v[u].y;
      }
    }
    if (group > 0) parts[group - 1][q] = make_float2(v0, v1);
    __syncthreads();
    if (group == 0 && inside) {
#pragma unroll
      for (int g = 0; g < kGroups - 1; ++g) {
        v0 += parts[g][q].x;
        v1 += parts[g][q].y;
      }
      kt_finish_pair(p, static_cast<int>(row / p.m), row % p.m, j, v0, v1);
    }
    __syncthreads();
  }
}
#elif KT_SPLIT_K
// Split-K: this slice's partials into the workspace; the slice that arrives last takes the
// totals back (KT_TAKE_BLOCKS 8-column blocks of 4 values at a time, all loaded before any is
// used; 0: pair by pair) and finishes the tile.
static __device__ __forceinline__ void kt90_split_k_finish(const KtuneGemmParams& p, const Kt90Smem& s,
                                                           const Kt90Consumer& c, int batch, int tile, long long row0,
                                                           long long col0, float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
  extern __shared__ __align__(1024) unsigned char kt_smem[];
#if KT_PINGPONG
  // Each warpgroup finishes its own tiles: its own barrier and flag.
  volatile int* splitk_flag =
      reinterpret_cast<volatile int*>(kt_smem + (s.empty_bars + 8 * KT_STAGES - s.raw)) + c.index;
  const int splitk_barrier = 1 + c.index, splitk_threads = 128;
  const bool splitk_leader = c.t == 0;
#else
  volatile int* splitk_flag = reinterpret_cast<volatile int*>(kt_smem + (s.empty_bars + 8 * KT_STAGES - s.raw));
  const int splitk_barrier = 1, splitk_threads = 128 * KT_CONSUMERS;
  const bool splitk_leader = c.t == 0 && c.index == 0;
#endif
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; ++j)
#pragma unroll
      for (int h = 0; h < 4; h += 2)
        kt_splitk_add2(p, batch, row0 + mi * 64 + (h >> 1) * 8, col0 + 8 * j, acc[mi][4 * j + h], acc[mi][4 * j + h + 1]);
  // With clusters `tile` is the counter of this CTA's own tile, batch included (see the caller).
  if (!kt_splitk_arrive(p, KT_CLUSTER > 1 ? 0 : batch, tile, splitk_barrier, splitk_threads, splitk_leader, splitk_flag))
    return;
#if KT_TAKE_BLOCKS == 0
  // Rolled: the totals come from the workspace, not from the accumulators, so no register array
  // needs constant indices here, and each take is an ordered load and store (volatile asm) that
  // unrolling could not overlap anyway. Unrolled, this loop was most of the code of the largest
  // split tiles: 128x128 in one warpgroup, split 2, took NVRTC 3.9 s against 2.1 rolled (cubin
  // 277 KB against 199 KB), and such kernels finish compiling last in a tuning session.
#pragma unroll 1
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll 1
    for (int j = 0; j < KT_WG_N / 8; ++j)
#pragma unroll
      for (int h = 0; h < 4; h += 2) {
        const long long i = row0 + mi * 64 + (h >> 1) * 8, jj = col0 + 8 * j;
        if (i < p.m && jj < p.n) {
          const float v0 = kt_splitk_take(p, batch, i, jj);
          const float v1 = jj + 1 < p.n ? kt_splitk_take(p, batch, i, jj + 1) : 0.0f;
          kt_finish_pair(p, batch, i, jj, v0, v1);
        }
      }
#else
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j0 = 0; j0 < KT_WG_N / 8; j0 += KT_TAKE_BLOCKS) {
      float v[KT_TAKE_BLOCKS][4];
#pragma unroll
      for (int dj = 0; dj < KT_TAKE_BLOCKS; ++dj)
#pragma unroll
        for (int h = 0; h < 4; ++h)
          v[dj][h] = kt_splitk_take(p, batch, row0 + mi * 64 + (h >> 1) * 8, col0 + 8 * (j0 + dj) + (h & 1));
#pragma unroll
      for (int dj = 0; dj < KT_TAKE_BLOCKS; ++dj)
#pragma unroll
        for (int h = 0; h < 4; h += 2) {
          const long long i = row0 + mi * 64 + (h >> 1) * 8, jj = col0 + 8 * (j0 + dj);
          if (i < p.m && jj < p.n) kt_finish_pair(p, batch, i, jj, v[dj][h], v[dj][h + 1]);
        }
    }
#endif
}
#endif
#if KT_SPLIT_K
// The arrival counter of a split CTA tile. A cluster's item names all of its tiles, so with
// clusters slices count per CTA tile (p.counters holds every tile of the padded cluster grid,
// batch included); otherwise per item tile, batch apart (kt_splitk_arrive adds it).
static __device__ __forceinline__ int kt90_split_counter(const KtuneGemmParams& p, int batch, int tile, int tile_m,
                                                         int tile_n) {
#if KT_CLUSTER > 1
  return (batch * p.tiles_m * KT_CLUSTER_M + tile_m) * (p.tiles_n * KT_CLUSTER_N) + tile_n;
#else
  (void)p, (void)batch, (void)tile_m, (void)tile_n;
  return tile;
#endif
}
// A cluster's CTA tile past M or N: nothing to add or store (only clusters hang past the edges).
static __device__ __forceinline__ bool kt90_outside(const KtuneGemmParams& p, int tile_m, int tile_n) {
  return KT_CLUSTER > 1 &&
         (static_cast<long long>(tile_m) * KT_TILE_M >= p.m || static_cast<long long>(tile_n) * KT_TILE_N >= p.n);
}
#endif

#if KT_SPLIT_TAIL
// A split tail's slice: its partial tile goes to a slot of its own in the workspace, in
// accumulator order (register r of consumer thread t at r * threads + t, four registers per
// 16-byte store: every access of a warp contiguous, and the thread that reads it back holds the
// same registers), then it counts itself in; the slice that arrives last adds the others' slots
// into its accumulators and returns true, to store the tile like an unsplit one. Nothing is
// left for the next launch to clear but the counter, which the last slice resets. `slot`: this
// CTA tile's place among the tail's tiles; each slot holds split_k partial tiles.
static __device__ __forceinline__ bool kt90_tail_fixup(const KtuneGemmParams& p, const Kt90Smem& s,
                                                       const Kt90Consumer& c, int counter_batch, int counter,
                                                       long long slot, int split,
                                                       float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
  extern __shared__ __align__(1024) unsigned char kt_smem[];
  constexpr int kThreads = 128 * KT_CONSUMERS;
  constexpr int kVectors = KT_M_ATOMS * (KT_WG_N / 8);  // float4s per thread
  const int tid = c.index * 128 + c.t;
  float4* slots = reinterpret_cast<float4*>(p.workspace) + slot * p.split_k * static_cast<long long>(kVectors) * kThreads;
  float4* mine = slots + static_cast<long long>(split) * kVectors * kThreads + tid;
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int q = 0; q < KT_WG_N / 8; ++q)
      __stcg(mine + (mi * (KT_WG_N / 8) + q) * kThreads,
             make_float4(acc[mi][4 * q], acc[mi][4 * q + 1], acc[mi][4 * q + 2], acc[mi][4 * q + 3]));
  volatile int* flag = reinterpret_cast<volatile int*>(kt_smem + (s.empty_bars + 8 * KT_STAGES - s.raw));
  if (!kt_splitk_arrive(p, counter_batch, counter, 1, kThreads, tid == 0, flag)) return false;
  for (int other = 0; other < p.split_k; ++other) {
    if (other == split) continue;
    const float4* theirs = slots + static_cast<long long>(other) * kVectors * kThreads + tid;
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int q = 0; q < KT_WG_N / 8; ++q) {
        const float4 v = __ldcg(theirs + (mi * (KT_WG_N / 8) + q) * kThreads);
        acc[mi][4 * q] += v.x;
        acc[mi][4 * q + 1] += v.y;
        acc[mi][4 * q + 2] += v.z;
        acc[mi][4 * q + 3] += v.w;
      }
  }
  return true;
}
#endif

#if KT_STAGED_STORES
// This warpgroup's named barrier, past split-K's: 2, and 3 for the second warpgroup (pingpong:
// 3 and 4).
static __device__ __forceinline__ int kt90_staging_barrier(const Kt90Consumer& c) {
  return (KT_PINGPONG ? 3 : 2) + c.index;
}
// The staging buffer this warpgroup's next tile goes through, once free: the bulk stores that
// last read it are done reading, and (the barrier) every thread of the warpgroup is done with
// its previous tile, whichever way that tile left.
static __device__ __forceinline__ kt_u32 kt90_staging_buffer(const Kt90Smem& s, const Kt90Consumer& c,
                                                             bool bulk_pending, int& staging_slot) {
#if KT_PINGPONG
  // This warpgroup's own buffer: its previous tile's stores must be done reading it (the
  // other warpgroup meanwhile multiplies, which is the point of the schedule).
  (void)staging_slot;
  if (bulk_pending) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  asm volatile("bar.sync %0, 128;" ::"r"(kt90_staging_barrier(c)) : "memory");
  return s.staging + c.index * KT_STAGING_BYTES;
#else
  // The stores that last read this buffer (KT_STAGING tiles ago) are done reading it; the
  // other buffer's may still drain.
  if (bulk_pending) asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(KT_STAGING - 1) : "memory");
  asm volatile("bar.sync %0, 128;" ::"r"(kt90_staging_barrier(c)) : "memory");
  const kt_u32 buffer = s.staging + staging_slot * KT_STAGING_BYTES;
  staging_slot = staging_slot + 1 == KT_STAGING ? 0 : staging_slot + 1;
  return buffer;
#endif
}

// A tile of a D whose rows or batch entries are off 16 bytes (N odd, say), which neither TMA nor
// bulk copies can write. Straight from the accumulators, every store of a warp touches 8 rows,
// and with rows off 4 bytes each pair becomes two 2-byte stores: ~8 partial sectors per
// instruction (1108x10391x192 bf16 tt, H100: 65-71 us for every wgmma kernel, 48 us mma.sync,
// Triton 33 us). Staged in shared memory (padded rows, stmatrix), the tile leaves row by row
// instead: a warp per row, lanes on consecutive 4-byte pairs (the row's first element alone
// when the row starts 2 bytes off 4), 128 contiguous bytes per store. Edge tiles sticking out of
// D are bounds-checked here (C and the bias are read only inside). Edge tiles of a D with
// 16-byte rows keep the direct stores: staged this way, odd_1000x1000x1000 (one wave of 128x64
// tiles in pairs, a quarter of them on an edge) went from 12.0 to 13.9 us.
static __device__ __forceinline__ void kt90_store_staged_rows(const KtuneGemmParams& p, const Kt90Smem& s,
                                                              const Kt90Consumer& c, int batch, int tile_m, int tile_n,
                                                              long long row0, long long col0,
                                                              float (&acc)[KT_M_ATOMS][KT_WG_N / 2], bool bulk_pending,
                                                              int& staging_slot) {
  // No bulk group of its own: the staged path's count of groups in flight per buffer would be
  // off by this tile, so every earlier store first finishes reading its buffer (rare: an edge
  // tile among interior ones; with rows off 16 bytes no tile issues bulk stores at all).
  if (bulk_pending) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  const kt_u32 buffer = kt90_staging_buffer(s, c, false, staging_slot);
  const int quad = c.lane / 8;
  const kt_u32 piece = buffer + (c.wg_m * KT_WG_M + c.warp * 16 + (quad & 1) * 8 + c.lane % 8) * KT_STAGING_ROW_BYTES +
                       (c.wg_n * KT_WG_N + 8 * (quad >> 1)) * 2;
  if (KT_PLAIN_EPILOGUE || (p.alpha == 1.0f && !KT_READS_C && !KT_HAS_BIAS && KT_ACTIVATION == 0))
    kt90_stage_tile<true>(p, batch, row0, col0, acc, piece);
  else
    kt90_stage_tile<false, true>(p, batch, row0, col0, acc, piece);
  asm volatile("bar.sync %0, 128;" ::"r"(kt90_staging_barrier(c)) : "memory");
  const long long grow0 = static_cast<long long>(tile_m) * KT_TILE_M + c.wg_m * KT_WG_M;
  const long long gcol0 = static_cast<long long>(tile_n) * KT_TILE_N + c.wg_n * KT_WG_N;
  const int rows = static_cast<int>(min(static_cast<long long>(KT_WG_M), p.m - grow0));
  const int cols = static_cast<int>(min(static_cast<long long>(KT_WG_N), p.n - gcol0));
  for (int r = c.warp; r < rows; r += 4) {
    const kt_u32 src = buffer + (c.wg_m * KT_WG_M + r) * KT_STAGING_ROW_BYTES + c.wg_n * KT_WG_N * 2;
    kt_u16* dst = static_cast<kt_u16*>(p.d) + batch * p.batch_stride_d + (grow0 + r) * p.ldd + gcol0;
    const int head = static_cast<int>((reinterpret_cast<kt_u64>(dst) >> 1) & 1);
    for (int q = head + 2 * c.lane; q + 1 < cols; q += 64) {
      kt_u32 lo, hi;
      asm volatile("ld.shared.u16 %0, [%2];\n\tld.shared.u16 %1, [%3];"
                   : "=r"(lo), "=r"(hi)
                   : "r"(src + 2 * q), "r"(src + 2 * q + 2));
      *reinterpret_cast<kt_u32*>(dst + q) = lo | (hi << 16);
    }
    // The elements no pair covers: the first (row 2 bytes off 4) and the last (odd count left).
    const int last = ((cols - head) & 1) ? cols - 1 : -1;
    const int alone = c.lane == 0 ? (head && cols > 0 ? 0 : -1) : c.lane == 1 ? last : -1;
    if (alone >= 0) {
      kt_u32 v;
      asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v) : "r"(src + 2 * alone));
      dst[alone] = static_cast<kt_u16>(v);
    }
  }
}

#if KT_TMA_STORE
// A tile of D with 16-byte rows through a staging buffer in the TMA box's layout: this
// warpgroup's column chunks (global chunk wg_n * (KT_WG_N / KT_STORE_CHUNK) + i of the tile,
// rows wg_m * KT_WG_M on), stored by TMA. Edge tiles too (`interior` false): their elements
// outside M x N are left unfinished (C and the bias are not read there) and the TMA unit clips
// them, where the stores straight from the accumulators bounds-checked every pair
// (odd_1000x1000x1000 1.046x, odd_3000x3000x3000 1.026x as fast, same kernels; H200, session 38).
static __device__ __forceinline__ void kt90_store_staged(const KtuneGemmParams& p, const Kt90Smem& s,
                                                         const Kt90Consumer& c, int batch, int tile_m, int tile_n,
                                                         bool interior, long long row0, long long col0,
                                                         float (&acc)[KT_M_ATOMS][KT_WG_N / 2], bool& bulk_pending,
                                                         int& staging_slot) {
  const int named_barrier = kt90_staging_barrier(c);
  const kt_u32 buffer = kt90_staging_buffer(s, c, bulk_pending, staging_slot);
  const bool plain = KT_PLAIN_EPILOGUE || (p.alpha == 1.0f && !KT_READS_C && !KT_HAS_BIAS && KT_ACTIVATION == 0);
  const kt_u32 chunk0 = buffer + (c.wg_n * (KT_WG_N / KT_STORE_CHUNK) * KT_TILE_M + c.wg_m * KT_WG_M) * KT_CHUNK_ROW_BYTES;
  if (plain)
    kt90_stage_tile_swizzled<true>(p, batch, row0, col0, acc, chunk0, c.warp, c.lane);
  else if (interior)
    kt90_stage_tile_swizzled<false>(p, batch, row0, col0, acc, chunk0, c.warp, c.lane);
  else
    kt90_stage_tile_swizzled<false, true>(p, batch, row0, col0, acc, chunk0, c.warp, c.lane);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("bar.sync %0, 128;" ::"r"(named_barrier) : "memory");
  if (c.t == 0) {
    kt90_tma_stores(p, batch, chunk0, KT_TILE_M * KT_CHUNK_ROW_BYTES,
                    static_cast<long long>(tile_m) * KT_TILE_M + c.wg_m * KT_WG_M,
                    static_cast<long long>(tile_n) * KT_TILE_N + c.wg_n * KT_WG_N, -1);
    bulk_pending = true;
  }
}
#else
// A whole tile inside D with 16-byte rows, through a staging buffer: one bulk copy per row.
// `bulk_pending`: this thread has bulk stores in flight; `staging_slot`: the buffer the next tile
// uses (not pingpong).
static __device__ __forceinline__ void kt90_store_staged(const KtuneGemmParams& p, const Kt90Smem& s,
                                                         const Kt90Consumer& c, int batch, int tile_m, int tile_n,
                                                         bool interior, long long row0, long long col0,
                                                         float (&acc)[KT_M_ATOMS][KT_WG_N / 2], bool& bulk_pending,
                                                         int& staging_slot) {
  (void)interior;  // interior tiles only (the caller)
  const int named_barrier = kt90_staging_barrier(c);
  const kt_u32 buffer = kt90_staging_buffer(s, c, bulk_pending, staging_slot);
  const bool plain = KT_PLAIN_EPILOGUE || (p.alpha == 1.0f && !KT_READS_C && !KT_HAS_BIAS && KT_ACTIVATION == 0);
  // stmatrix: lane l gives the row address of row l % 8 of 8x8 matrix l / 8, the matrices
  // being (block j, rows 0-7), (j, 8-15), (j + 1, 0-7), (j + 1, 8-15) of this warp's 16 rows.
  const int quad = c.lane / 8;
  const kt_u32 piece = buffer + (c.wg_m * KT_WG_M + c.warp * 16 + (quad & 1) * 8 + c.lane % 8) * KT_STAGING_ROW_BYTES +
                       (c.wg_n * KT_WG_N + 8 * (quad >> 1)) * 2;
  if (plain)
    kt90_stage_tile<true>(p, batch, row0, col0, acc, piece);
  else
    kt90_stage_tile<false>(p, batch, row0, col0, acc, piece);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("bar.sync %0, 128;" ::"r"(named_barrier) : "memory");
  for (int r = c.t; r < KT_WG_M; r += 128) {
    const int row = c.wg_m * KT_WG_M + r;
    const kt_u32 src = buffer + row * KT_STAGING_ROW_BYTES + c.wg_n * KT_WG_N * 2;
    char* dst = static_cast<char*>(p.d) + (batch * p.batch_stride_d + (static_cast<long long>(tile_m) * KT_TILE_M + row) * p.ldd +
                                           static_cast<long long>(tile_n) * KT_TILE_N + c.wg_n * KT_WG_N) *
                                              KT_OUT_BYTES;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src),
                 "n"(KT_WG_N * KT_OUT_BYTES)
                 : "memory");
  }
  if (c.t < KT_WG_M) {
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    bulk_pending = true;
  }
}
#endif
#endif

#if KT_CHUNK_STORE
// A tile of D with 16-byte rows, chunk by chunk through this warpgroup's own chunk buffer
// (chunked staging): thread 0 (which issued the stores) waits until the last one has read the
// buffer, the barrier tells the others. Edge tiles too (`interior` false; the TMA unit clips
// them).
static __device__ __forceinline__ void kt90_store_chunked(const KtuneGemmParams& p, const Kt90Smem& s,
                                                          const Kt90Consumer& c, int batch, int tile_m, int tile_n,
                                                          bool interior, long long row0, long long col0,
                                                          float (&acc)[KT_M_ATOMS][KT_WG_N / 2], bool& bulk_pending) {
  const int named_barrier = 2 + c.index;
  const kt_u32 buffer = s.staging + c.index * KT_CHUNK_BYTES;
  const bool plain = KT_PLAIN_EPILOGUE || (p.alpha == 1.0f && !KT_READS_C && !KT_HAS_BIAS && KT_ACTIVATION == 0);
#pragma unroll
  for (int i = 0; i < KT_WG_N / KT_STORE_CHUNK; ++i) {
    if (bulk_pending) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("bar.sync %0, 128;" ::"r"(named_barrier) : "memory");
    if (plain)
      kt90_stage_tile_swizzled<true>(p, batch, row0, col0, acc, buffer, c.warp, c.lane, i);
    else if (interior)
      kt90_stage_tile_swizzled<false>(p, batch, row0, col0, acc, buffer, c.warp, c.lane, i);
    else
      kt90_stage_tile_swizzled<false, true>(p, batch, row0, col0, acc, buffer, c.warp, c.lane, i);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("bar.sync %0, 128;" ::"r"(named_barrier) : "memory");
    if (c.t == 0) {
      kt90_tma_stores(p, batch, buffer, 0, static_cast<long long>(tile_m) * KT_TILE_M + c.wg_m * KT_WG_M,
                      static_cast<long long>(tile_n) * KT_TILE_N + c.wg_n * KT_WG_N, i);
      bulk_pending = true;
    }
  }
}
#endif

#if KT_SWAP_AB && KT_OUT_BYTES == 2
// Swapped, a warp's 16 kernel rows are 16 consecutive elements of a D row, but each lane holds
// two kernel rows (lane / 4 and lane / 4 + 8) of two kernel columns (2 (lane % 4) and + 1), so
// element stores wrote every 32-byte sector in 16-byte halves (Nsight Compute, 322x5120x8192
// swapped: 308 K sectors written against 185 K unswapped; session 31). Regrouped by shuffles,
// lane l holds elements 4 (l % 4) .. + 3 of D row l / 4 of the 8-column block and stores them
// with one 8-byte store: each store instruction writes 8 whole sectors. Interior tiles with
// 4-element row and batch strides and an 8-byte-aligned D only; the others store as before.
static __device__ __forceinline__ void kt90_store_swapped_rows(const KtuneGemmParams& p, int batch, long long row0,
                                                               long long col0,
                                                               float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
  const int lane = threadIdx.x & 31;
  const int n_rel = lane >> 2, m_base = 4 * (lane & 3);
  const bool upper = m_base >= 8, odd = (n_rel & 1) != 0;
  const long long warp_row = row0 - (lane >> 2), block_col = col0 - 2 * (lane & 3);
  kt_u16* d = static_cast<kt_u16*>(p.d) + batch * p.batch_stride_d;
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; ++j) {
      const long long i = row0 + mi * 64, jj = col0 + 8 * j;
      float v[4];
#pragma unroll
      for (int h = 0; h < 4; ++h) v[h] = kt_epilogue_value(p, batch, i + (h >> 1) * 8, jj + (h & 1), acc[mi][4 * j + h]);
#if KT_OUT_TYPE == 1
      const kt_u32 top = kt_pack_bf16x2(v[0], v[1]), bottom = kt_pack_bf16x2(v[2], v[3]);
#else
      const kt_u32 top = kt_pack_f16x2(v[0], v[1]), bottom = kt_pack_f16x2(v[2], v[3]);
#endif
      kt_u32 got[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        // Kernel row m_base + k of column n_rel lives in lane ((m_base + k) % 8) * 4 + n_rel / 2:
        // in its top word below row 8, its bottom word from row 8; the high half for odd columns.
        const int src = (((m_base + k) & 7) << 2) | (n_rel >> 1);
        const kt_u32 t = __shfl_sync(0xffffffffu, top, src), b = __shfl_sync(0xffffffffu, bottom, src);
        const kt_u32 w = upper ? b : t;
        got[k] = odd ? (w >> 16) : (w & 0xffffu);
      }
      kt_u16* at = d + (block_col + 8 * j + n_rel) * p.ldd + warp_row + mi * 64 + m_base;
      asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(at), "r"(got[0] | (got[1] << 16)), "r"(got[2] | (got[3] << 16))
                   : "memory");
    }
}
#endif

#if !KT_TMA_STORE
// A tile straight from the accumulators. Inside D with even row and batch strides: no bounds
// checks, and one 4- or 8-byte store per pair from a pointer the compiler can step with
// immediates; otherwise pair by pair with bounds checks (and, swapped, transposed).
static __device__ __forceinline__ void kt90_store_direct(const KtuneGemmParams& p, int batch, bool interior,
                                                         long long row0, long long col0,
                                                         float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
#if KT_SWAP_AB && KT_OUT_BYTES == 2
  if (interior && ((p.ldd | p.batch_stride_d) & 3) == 0 && (reinterpret_cast<kt_u64>(p.d) & 7) == 0) {
    kt90_store_swapped_rows(p, batch, row0, col0, acc);
    return;
  }
#endif
  if (!KT_SWAP_AB && interior && ((p.ldd | p.batch_stride_d) & 1) == 0 &&
      (reinterpret_cast<kt_u64>(p.d) & (2 * KT_OUT_BYTES - 1)) == 0) {
#if KT_OUT_TYPE == 2
    typedef float2 kt_pair_t;
#else
    typedef kt_u32 kt_pair_t;
#endif
    const long long ldd = p.ldd;
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi) {
      const long long i = row0 + mi * 64;
      char* row_top = static_cast<char*>(p.d) + (batch * p.batch_stride_d + i * ldd + col0) * KT_OUT_BYTES;
      char* row_bottom = row_top + 8 * ldd * KT_OUT_BYTES;
#pragma unroll
      for (int j = 0; j < KT_WG_N / 8; ++j) {
        const long long jj = col0 + 8 * j;
        float v[4];
#pragma unroll
        for (int h = 0; h < 4; ++h) v[h] = kt_epilogue_value(p, batch, i + (h >> 1) * 8, jj + (h & 1), acc[mi][4 * j + h]);
#if KT_OUT_TYPE == 2
        kt_pair_t top, bottom;
        top.x = v[0];
        top.y = v[1];
        bottom.x = v[2];
        bottom.y = v[3];
#elif KT_OUT_TYPE == 1
        const kt_pair_t top = kt_pack_bf16x2(v[0], v[1]), bottom = kt_pack_bf16x2(v[2], v[3]);
#else
        const kt_pair_t top = kt_pack_f16x2(v[0], v[1]), bottom = kt_pack_f16x2(v[2], v[3]);
#endif
        *reinterpret_cast<kt_pair_t*>(row_top + 8 * j * KT_OUT_BYTES) = top;
        *reinterpret_cast<kt_pair_t*>(row_bottom + 8 * j * KT_OUT_BYTES) = bottom;
      }
    }
    return;
  }
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; ++j) {
      kt_finish_pair(p, batch, row0 + mi * 64, col0 + 8 * j, acc[mi][4 * j], acc[mi][4 * j + 1]);
      kt_finish_pair(p, batch, row0 + mi * 64 + 8, col0 + 8 * j, acc[mi][4 * j + 2], acc[mi][4 * j + 3]);
    }
}
#endif

#if KT_K_CLUSTER > 1
// Split-K inside a cluster (KT_K_CLUSTER): this CTA's partial tile (its K slice) goes into its
// own ring, which its one tile no longer needs once every consumer warpgroup's wgmmas are done;
// after a cluster barrier each CTA sums its share of the tile's rows (KT_TILE_M / KT_K_CLUSTER)
// over the cluster's partials, read through distributed shared memory, and finishes them (the
// epilogue, D). A second cluster barrier keeps every CTA's partials in place until all have read
// them. The producer warpgroup meets both barriers (kt90_gemm_body). Against split-K through
// global memory this saves the workspace round trip and the second kernel or the atomics
// (longk_256x128x16384 spent 4.8 us in its reduction kernel; Nsight Compute, H100), but it did
// not run faster on the H100 (session 23: 15.0 against 14.3 us there), so it is opt-in.
// Rows of the partial tile are padded by 8 floats: a warp's 8 rows of 32 bytes then fall on
// different banks.
#define KT_PART_PITCH (KT_TILE_N + 8)
static_assert(KT_K_CLUSTER == 1 || KT_TILE_M * KT_PART_PITCH * 4 <= KT_STAGES * KT_STAGE_BYTES,
              "KT_K_CLUSTER: the partial tile must fit in the ring");
static __device__ __forceinline__ void kt90_k_cluster_finish(const KtuneGemmParams& p, const Kt90Smem& s,
                                                             const Kt90Consumer& c, int batch, int tile_m, int tile_n,
                                                             float (&acc)[KT_M_ATOMS][KT_WG_N / 2]) {
  // Every consumer warpgroup of this CTA is past its last wgmma (kt_wgmma_wait<0>): the ring is free.
  asm volatile("bar.sync 1, %0;" ::"n"(KT_CONSUMERS * 128) : "memory");
  const int r0 = c.wg_m * KT_WG_M + c.warp * 16 + c.lane / 4, c0 = c.wg_n * KT_WG_N + 2 * (c.lane % 4);
#pragma unroll
  for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
    for (int j = 0; j < KT_WG_N / 8; ++j)
#pragma unroll
      for (int h = 0; h < 4; h += 2) {
        const kt_u32 at = s.base + ((r0 + mi * 64 + (h >> 1) * 8) * KT_PART_PITCH + c0 + 8 * j) * 4;
        asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(acc[mi][4 * j + h]), "f"(acc[mi][4 * j + h + 1])
                     : "memory");
      }
  kt_cluster_sync();  // every slice's partials are written
  constexpr int kRows = KT_TILE_M / KT_K_CLUSTER, kPairs = KT_TILE_N / 2;
  const int rank = kt_cluster_rank();
  for (int q = c.index * 128 + c.t; q < kRows * kPairs; q += KT_CONSUMERS * 128) {
    const int row = rank * kRows + q / kPairs, col = 2 * (q % kPairs);
    const kt_u32 at = s.base + (row * KT_PART_PITCH + col) * 4;
    float v[KT_K_CLUSTER][2];
#pragma unroll
    for (int r = 0; r < KT_K_CLUSTER; ++r)
      asm volatile(
          "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %2, %3;\n"
          "ld.shared::cluster.v2.f32 {%0, %1}, [remote];\n}"
          : "=f"(v[r][0]), "=f"(v[r][1])
          : "r"(at), "r"(r)
          : "memory");
    float v0 = 0.0f, v1 = 0.0f;
#pragma unroll
    for (int r = 0; r < KT_K_CLUSTER; ++r) {
      v0 += v[r][0];
      v1 += v[r][1];
    }
    kt_finish_pair(p, batch, static_cast<long long>(tile_m) * KT_TILE_M + row,
                   static_cast<long long>(tile_n) * KT_TILE_N + col, v0, v1);
  }
  kt_cluster_sync();  // every CTA is done reading the others' partials
}
#endif

// A consumer warpgroup: for each of its work items, the K loop into fp32 accumulators, then
// split-K's reduction or the tile's store.
static __device__ __forceinline__ void kt90_consume(const KtuneGemmParams& p, const Kt90Smem& s, const Kt90Work& work,
                                                    int warpgroup, int cta_rank) {
  (void)cta_rank;
  Kt90Consumer c;
  c.index = warpgroup - 1;
#if KT_PINGPONG
  c.wg_m = 0;
  c.wg_n = 0;
#else
  c.wg_m = c.index / KT_SUBGROUP_N;
  c.wg_n = c.index % KT_SUBGROUP_N;
#endif
  c.t = static_cast<int>(threadIdx.x) % 128;
  c.warp = c.t / 32;
  c.lane = c.t % 32;

  // Descriptor addresses of this warpgroup's operand pieces inside a stage, and how they move
  // per 16-wide K step.
#if KT_A_K_CONTIGUOUS
  const kt_u32 a_offset = (c.wg_m * KT_WG_M) * 128;
  const kt_u32 a_lbo = 16;
#else
  const kt_u32 a_offset = (c.wg_m * KT_WG_M / KT_MN_CHUNK) * (KT_TILE_K * 128);
  const kt_u32 a_lbo = KT_TILE_K * 128;
#endif
#if KT_B_K_CONTIGUOUS
  const kt_u32 b_offset = (c.wg_n * KT_WG_N) * 128;
  const kt_u32 b_lbo = 16;
#else
  const kt_u32 b_offset = (c.wg_n * KT_WG_N / 64) * (KT_TILE_K * 128);
  const kt_u32 b_lbo = KT_TILE_K * 128;
#endif
  // Descriptor low words of this warpgroup's pieces in stage 0 (kt_desc_lo); B's counted from
  // the start of the ring too (a stage's B tile follows its A tile; a panel follows the ring).
  const kt_u32 desc_lo_a = kt_desc_lo(s.base + a_offset, a_lbo);
  const kt_u32 desc_lo_b = kt_desc_lo(s.base + b_offset, b_lbo);
#if KT_A_REGS
  kt_u32 a_frag[4];
  kt90_a_fragment_offsets(c.warp, c.lane, a_frag);
  (void)desc_lo_a;  // A is read by ld.shared, not by descriptor
#endif

  float acc[KT_M_ATOMS][KT_WG_N / 2];
#ifdef KT_PROMOTE
  float total[KT_M_ATOMS][KT_WG_N / 2];
#endif
  bool bulk_pending = false;  // this thread has bulk stores reading the staging rows
  int staging_slot = 0;       // the staging buffer of the next staged tile
  (void)bulk_pending;
  (void)staging_slot;
  int stage = 0;
  kt_u32 phase = 0;
  int local_item = 0;
#if KT_B_PANEL
  long long panel_column = -1;
  kt_u32 panel_phase = 0;
#endif
  for (long long w = work.first; w < work.end; w += work.step, ++local_item) {
    int tile, split = 0, batch, tile_m, tile_n;
#if KT_B_PANEL
    kt_panel_item(p, w, tile, batch, tile_m, tile_n);
#else
    kt_work_item(p, w, tile, split, batch);
#endif
    long long k_begin;
    const int k_tiles = kt_k_range(p, split, k_begin);
#if KT_B_PANEL
    const long long column = static_cast<long long>(batch) * p.tiles_n + tile_n;
    if (column != panel_column) {
      kt_mbar_wait(s.panel_full, panel_phase);
      panel_phase ^= 1u;
      panel_column = column;
    }
#endif
#if KT_PINGPONG
    if ((local_item & 1) != c.index) {
      // The other warpgroup's item: its K tiles pass through the ring before our next one.
      const int advanced = stage + k_tiles;
      phase ^= static_cast<kt_u32>((advanced / KT_STAGES) & 1);
      stage = advanced % KT_STAGES;
      continue;
    }
#endif
#if !KT_B_PANEL
    kt_tile_coords(p, tile, tile_m, tile_n);
#if KT_MN_CLUSTER > 1
    kt_cluster_place(cta_rank, tile_m, tile_n);
#endif
#endif

    // The first wgmma of each atom overwrites its accumulators (scale-d 0): no zeroing pass,
    // which cost a move per accumulator register per tile (session 15's short-K profile: the
    // consumers issued 2.5x cuBLAS's instructions). An empty asm redefines them instead, so the
    // last tile's values are dead here (reading them into the first wgmma spilled).
    if (k_tiles > 0) {
#pragma unroll
      for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
        for (int r = 0; r < KT_WG_N / 2; ++r) asm volatile("" : "=f"(acc[mi][r]));
    } else {
#pragma unroll
      for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
        for (int r = 0; r < KT_WG_N / 2; ++r) acc[mi][r] = 0.0f;
    }

#if KT_PINGPONG
    // Start waiting on our stages only once the other warpgroup has passed all of its own (its
    // previous item): a stage's "full" parity would otherwise alias across laps of the ring.
    if (local_item > 0) kt_mbar_wait(s.order_bars + 8 * (c.index ^ 1), static_cast<kt_u32>(((local_item - 1) >> 1) & 1));
#endif
#if KT_A_REGS
    const int previous_stage =
        kt90_mma_tile_regs(acc, s, desc_lo_b, k_tiles, stage, phase, c.lane, s.base + a_offset, a_frag);
#else
    const int previous_stage = kt90_mma_tile(acc, s, desc_lo_a, desc_lo_b, k_tiles, stage, phase, c.lane KT_TOTAL_ARG);
#endif
#if KT_PINGPONG
    if (c.t == 0) kt_mbar_arrive(s.order_bars + 8 * c.index);
#endif
    kt_wgmma_wait<0>();
    if (!KT_EARLY_RELEASE && k_tiles > 0 && c.lane == 0) kt_release_stage(s.empty_bars + 8 * previous_stage);
#if KT_B_PANEL
    // The last item of this column in our run: its MMAs are done with the panel, so the producer
    // may load the next column's while this tile's epilogue runs (not after it).
    if (w + 1 < work.end && c.lane == 0) {
      int next_tile, next_batch, next_m, next_n;
      kt_panel_item(p, w + 1, next_tile, next_batch, next_m, next_n);
      if (static_cast<long long>(next_batch) * p.tiles_n + next_n != column) kt_mbar_arrive(s.panel_empty);
    }
#endif
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int r = 0; r < KT_WG_N / 2; ++r) kt_fence_operand(acc[mi][r]);
#ifdef KT_PROMOTE
#pragma unroll
    for (int mi = 0; mi < KT_M_ATOMS; ++mi)
#pragma unroll
      for (int r = 0; r < KT_WG_N / 2; ++r) acc[mi][r] += total[mi][r];
#endif

    // ---- epilogue: accumulator (mi, 4j + h) sits at row warp*16 + lane/4 (+8 for h >= 2),
    // column 8j + 2*(lane%4) (+1 for odd h) of this warpgroup's piece.
    const long long row0 = static_cast<long long>(tile_m) * KT_TILE_M + c.wg_m * KT_WG_M + c.warp * 16 + c.lane / 4;
    const long long col0 = static_cast<long long>(tile_n) * KT_TILE_N + c.wg_n * KT_WG_N + 2 * (c.lane % 4);
#if KT_K_CLUSTER > 1
    (void)split;
    kt90_k_cluster_finish(p, s, c, batch, tile_m, tile_n, acc);
    continue;
#endif
#if KT_SPLIT_TAIL
    // A tail tile's slices meet in the workspace and the last stores the sum as below; whole
    // tiles (split -1) just store.
    if (split >= 0) {
      if (kt90_outside(p, tile_m, tile_n)) continue;
      const long long slot =
          (static_cast<long long>(batch) * p.tiles_m * p.tiles_n + tile - p.tail_from) * KT_MN_CLUSTER + cta_rank;
      if (!kt90_tail_fixup(p, s, c, KT_CLUSTER > 1 ? 0 : batch, kt90_split_counter(p, batch, tile, tile_m, tile_n), slot,
                           split, acc))
        continue;
    }
#elif KT_SPLIT_K && KT_SPLIT_REDUCE
    if (p.split_k > 1) {
      kt90_split_k_store(p, c, batch, split, row0, col0, acc);
      continue;
    }
#elif KT_SPLIT_K
    if (p.split_k > 1) {
      if (kt90_outside(p, tile_m, tile_n)) continue;
      kt90_split_k_finish(p, s, c, batch, kt90_split_counter(p, batch, tile, tile_m, tile_n), row0, col0, acc);
      continue;
    }
#endif
    const bool interior =
        (tile_m + 1) * static_cast<long long>(KT_TILE_M) <= p.m && (tile_n + 1) * static_cast<long long>(KT_TILE_N) <= p.n;
    // D's rows and batch entries on 16 bytes: what TMA and bulk copies can write.
    const bool rows_16b =
        (((p.ldd | p.batch_stride_d) * KT_OUT_BYTES) & 15) == 0 && (reinterpret_cast<kt_u64>(p.d) & 15) == 0;
    (void)rows_16b;
#if KT_CHUNK_STORE
    if (rows_16b) {
      kt90_store_chunked(p, s, c, batch, tile_m, tile_n, interior, row0, col0, acc, bulk_pending);
      continue;
    }
#endif
#if KT_STAGED_STORES
    // TMA stores clip edge tiles; the bulk row copies take whole tiles only.
    if (rows_16b && (KT_TMA_STORE || interior)) {
      kt90_store_staged(p, s, c, batch, tile_m, tile_n, interior, row0, col0, acc, bulk_pending, staging_slot);
      continue;
    }
    if (!rows_16b) {
      kt90_store_staged_rows(p, s, c, batch, tile_m, tile_n, row0, col0, acc, bulk_pending, staging_slot);
      continue;
    }
#endif
#if !KT_TMA_STORE
    // Staged TMA kernels never get here (both cases above): their code holds no direct stores.
    kt90_store_direct(p, batch, interior, row0, col0, acc);
#endif
  }
#if KT_BULK_STORES
  // Only until the stores have read the staging buffer, which must outlive them (CUTLASS's store
  // tail, tma_store_wait<0>): their writes complete with the grid, and waiting for them here
  // kept every CTA resident until its last tile had reached memory.
  if (bulk_pending) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}

static __device__ __forceinline__ void kt90_gemm_body(const KtuneGemmParams& p, const void* map_a, const void* map_b) {
  const Kt90Smem s = kt90_smem();
  // Broadcast from lane 0 (CUTLASS's canonical_warp_group_idx): the same value, but one the
  // compiler knows to be warp-uniform, so that what derives from it (each consumer's operand
  // offsets, hence its wgmma descriptors) can live in uniform registers; from threadIdx.x
  // directly every descriptor was built in vector registers and moved over (R2UR) before each
  // HGMMA.
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x) / 128, 0);
  if (threadIdx.x == 0) kt90_init_barriers(s, map_a, map_b);
#if KT_CLUSTER > 1
  kt_cluster_sync_relaxed();  // every CTA's barriers exist before any multicasts or arrives remotely
  const int cta_rank = kt_cluster_rank();
  const long long units = gridDim.x / KT_CLUSTER, unit = kt_cluster_unit(p, blockIdx.x / KT_CLUSTER, units);
#else
  __syncthreads();
  const int cta_rank = 0;
  const long long unit = blockIdx.x, units = gridDim.x;
#endif
  const Kt90Work work = kt90_work(p, unit, units);
  // Launched as the programmatic dependent of an operand repack (generated_launch.h), the setup
  // above overlapped the repack's last CTAs; nothing of the repack's is read before this wait
  // (a no-op for an ordinary launch). The split-K reduction after this kernel may launch now:
  // its CTAs wait for this grid to finish.
  asm volatile("griddepcontrol.wait;" ::: "memory");
#if KT_SPLIT_K && KT_SPLIT_REDUCE
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif

  if (warpgroup == 0) {
    // ---- producer ----
#if KT_REBALANCE_REGISTERS
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(KT_PRODUCER_REGS));
#endif
    if (threadIdx.x != 0) {
#if KT_CLUSTER > 1
      // Lanes 1-31 of the producing warp wait for lane 0 at the warp barrier after its loop, not
      // diverged from it inside the cluster barrier before exit (a guess at why CTA pairs ran
      // 1.3-2.2x slower on the H100, session 14; not yet measured).
      if (threadIdx.x < 32) __syncwarp();
#endif
#if KT_K_CLUSTER > 1
      kt_cluster_sync();  // the consumers' two barriers of kt90_k_cluster_finish
      kt_cluster_sync();
#endif
      return;
    }
    kt90_produce(p, s, map_a, map_b, work, cta_rank);
#if KT_CLUSTER > 1
    __syncwarp();
#endif
#if KT_K_CLUSTER > 1
    kt_cluster_sync();
    kt_cluster_sync();
#endif
    return;
  }

  // ---- consumers ----
#if KT_REBALANCE_REGISTERS
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(KT_CONSUMER_REGS));
#endif
  kt90_consume(p, s, work, warpgroup, cta_rank);
}


// The kernel's body. No CTA of a cluster may exit while another can still multicast into its
// shared memory or arrive on its barriers: the producer's tail (kt90_produce) sees to that.
static __device__ __forceinline__ void kt90_gemm(const KtuneGemmParams& p, const void* map_a, const void* map_b) {
  kt90_gemm_body(p, map_a, map_b);
}

// The executable object of an IREE dispatch (iree/generated_object.cc) defines
// KT90_NO_DEFAULT_ENTRY and has an entry of its own over the dispatch's bindings.
#ifndef KT90_NO_DEFAULT_ENTRY
#if KT_CLUSTER > 1
#define KT_CLUSTER_DIMS __cluster_dims__(KT_CLUSTER, 1, 1)
#else
#define KT_CLUSTER_DIMS
#endif
extern "C" __global__ void __launch_bounds__(KT_THREADS, KT_BLOCKS_HINT) KT_CLUSTER_DIMS
    ktune_gemm_sm90(const __grid_constant__ KtuneGemmParams p) {
  kt90_gemm(p, &p.tma_a, &p.tma_b);
}

// Copies an operand whose rows start off 16-byte boundaries (which TMA cannot address) into
// rows of whole 16-byte vectors, before the GEMM (repack.h). One warp per row: each lane reads
// the elements of one 16-byte vector (narrow loads at the source's alignment; the warp's loads
// cover 512 contiguous bytes, served from L1 after the first) and writes it with one store.
#if KT_IN_BYTES == 1
typedef unsigned char kt_repack_t;
#elif KT_IN_BYTES == 4
typedef unsigned int kt_repack_t;
#else
typedef unsigned short kt_repack_t;
#endif
// Strict f32 on the tf32 kernel (repack.h): x splits into big = tf32(x) and small = tf32(x - big),
// both rounded to nearest (ties away), written to three K segments of a destination row:
// split 1 (the kernel's A) [small | big | big], split 2 (its B) [big | small | big].
#if KT_IN_TYPE == 3
static __device__ __forceinline__ float kt_tf32_rna(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}
static __device__ __forceinline__ void kt_split3(unsigned x, int split, unsigned out[3]) {
  // Near FLT_MAX rounding overflows (big + small would be inf - inf): truncate there. An infinite
  // x splits into x and 0 (split_tf32 in repack.cc does the same on the host).
  const float v = __uint_as_float(x);
  float big = kt_tf32_rna(v);
  if (isinf(big) && !isinf(v)) big = __uint_as_float(x & 0xffffe000u);
  const float small = isfinite(big) ? kt_tf32_rna(v - big) : 0.0f;
  out[0] = __float_as_uint(split == 1 ? small : big);
  out[1] = __float_as_uint(split == 1 ? big : small);
  out[2] = __float_as_uint(big);
}
#endif
// Element x of the copy at `column` of destination row `row`: once, or in three split parts.
static __device__ __forceinline__ void kt_repack_put(kt_repack_t* row, long long column, kt_repack_t x,
                                                     const KtuneRepackParams& p) {
#if KT_IN_TYPE == 3
  if (p.split) {
    unsigned parts[3];
    kt_split3(x, p.split, parts);
    for (int s = 0; s < 3; ++s) row[column + s * p.segment] = parts[s];
    return;
  }
#endif
  row[column] = x;
}

// The transposed copy of an fp8/tf32 operand that is not K-contiguous (wgmma reads these
// K-major only): 64x64 tiles through shared memory, so reads and writes both run along rows.
// Source row r (0..outer) becomes column r of the copy; columns from outer to ld_dst (to the
// segment's end when splitting) are zeroed. Each thread has its 16 loads of a tile in flight at
// once; 32x32 tiles (4 loads each, 128-byte row pieces) copied 4096^2 f32 at 1.9 TB/s (69 us,
// session 20, H100).
static __device__ __forceinline__ void kt_repack_transposed(const KtuneRepackParams& p, long long block, long long blocks) {
  constexpr int kTile = 64, kRowsPerPass = 256 / kTile;
  __shared__ kt_repack_t tile[kTile][kTile + 1];
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;  // 64 x 4 threads
  const long long columns = p.split ? p.segment : p.ld_dst;
  const long long tiles_in = (p.inner + kTile - 1) / kTile, tiles_out = (columns + kTile - 1) / kTile;
  const long long tiles = p.batch * tiles_in * tiles_out;
  for (long long t = block; t < tiles; t += blocks) {
    const long long batch = t / (tiles_in * tiles_out), rest = t % (tiles_in * tiles_out);
    const long long i0 = (rest % tiles_in) * kTile, o0 = (rest / tiles_in) * kTile;  // inner, outer origins
    const kt_repack_t* src = static_cast<const kt_repack_t*>(p.src) + batch * p.stride_src;
    kt_repack_t* dst = static_cast<kt_repack_t*>(p.dst) + batch * p.stride_dst;
    kt_repack_t v[kTile / kRowsPerPass];
#pragma unroll
    for (int u = 0; u < kTile / kRowsPerPass; ++u) {
      const long long o = o0 + ty + u * kRowsPerPass, i = i0 + tx;
      v[u] = o < p.outer && i < p.inner ? __ldg(src + o * p.ld_src + i) : kt_repack_t(0);
    }
#pragma unroll
    for (int u = 0; u < kTile / kRowsPerPass; ++u) tile[ty + u * kRowsPerPass][tx] = v[u];
    __syncthreads();
#pragma unroll
    for (int u = 0; u < kTile / kRowsPerPass; ++u) {
      const int r = ty + u * kRowsPerPass;
      const long long i = i0 + r, o = o0 + tx;
      if (i < p.inner && o < columns) kt_repack_put(dst + i * p.ld_dst, o, tile[tx][r], p);
    }
    __syncthreads();
  }
}

// One 16-byte vector of the copy per thread, grid-stride over all rows' vectors: every thread's
// loads are independent, so a small copy waits for memory once, not once per vector of a row
// (a warp per row of 513 f32 took ~7 us, session 19).
static __device__ __forceinline__ void kt_repack_rows(const KtuneRepackParams& p, long long block, long long blocks) {
  constexpr int per_vector = 16 / KT_IN_BYTES;
  const long long vectors_per_row = (p.split ? p.segment : p.ld_dst) / per_vector;
  const long long total = p.outer * p.batch * vectors_per_row;
  for (long long t = block * blockDim.x + threadIdx.x; t < total; t += blocks * blockDim.x) {
    const long long row = t / vectors_per_row, v = t % vectors_per_row;
    const long long batch = row / p.outer, r = row % p.outer;
    const kt_repack_t* src = static_cast<const kt_repack_t*>(p.src) + batch * p.stride_src + r * p.ld_src;
    kt_repack_t* dst = static_cast<kt_repack_t*>(p.dst) + batch * p.stride_dst + r * p.ld_dst;
    union {
      uint4 vector;
      kt_repack_t element[per_vector];
    } out;
#pragma unroll
    for (int i = 0; i < per_vector; ++i) {
      const long long column = v * per_vector + i;
      out.element[i] = column < p.inner ? __ldg(src + column) : kt_repack_t(0);
    }
#if KT_IN_TYPE == 3
    if (p.split) {
      // The segment is a whole number of vectors, so each part's vector stays 16-byte aligned.
      uint4 parts[3];
      unsigned* words = reinterpret_cast<unsigned*>(parts);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        unsigned three[3];
        kt_split3(out.element[i], p.split, three);
        for (int s = 0; s < 3; ++s) words[4 * s + i] = three[s];
      }
      for (int s = 0; s < 3; ++s) *reinterpret_cast<uint4*>(dst + s * p.segment + v * per_vector) = parts[s];
      continue;
    }
#endif
    *reinterpret_cast<uint4*>(dst + v * per_vector) = out.vector;
  }
}

extern "C" __global__ void __launch_bounds__(256) ktune_repack_sm90(const __grid_constant__ KtuneRepackLaunch p) {
  // The GEMM after the copies may launch now; it waits for them (griddepcontrol.wait) before
  // it reads them.
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  const int which = blockIdx.x >= p.ctas[0] ? 1 : 0;
  const KtuneRepackParams& op = p.op[which];
  const long long block = blockIdx.x - (which ? p.ctas[0] : 0), blocks = p.ctas[which];
  if (op.transpose)
    kt_repack_transposed(op, block, blocks);
  else
    kt_repack_rows(op, block, blocks);
}
#endif

// ---- tensor maps built on the device ------------------------------------------------------
// A kernel whose caller cannot encode tensor maps on the host (an IREE dispatch gets only its
// buffers) builds them itself: one warp zeroes 128 bytes of shared memory per map, lane 0
// writes every field with tensormap.replace (the same 3-D map sm90_encode_tensor_maps asks
// cuTensorMapEncodeTiled for, except the L2 promotion, which no instruction sets), and the warp
// copies both maps to this CTA's own 256 bytes of global memory with the tensormap proxy
// release; the acquire fence then makes them visible to this warp's TMA (thread 0 produces).
// Field values are PTX's: the rank is stored minus one, strides in bytes, bf16 is 10.
#if KT_IN_TYPE == 3
#define KT_TENSORMAP_ELEMTYPE "11"  // tf32 (PTX: ... 7 f32, 8 f32.ftz, 9 f64, 10 bf16, 11 tf32)
#elif KT_IN_TYPE == 2
#define KT_TENSORMAP_ELEMTYPE "0"  // u8
#elif KT_IN_TYPE == 1
#define KT_TENSORMAP_ELEMTYPE "10"
#else
#define KT_TENSORMAP_ELEMTYPE "6"
#endif
__device__ __forceinline__ void kt_tensormap_write(kt_u32 map, const void* base, long long inner, long long outer,
                                                   long long ld, long long batch_stride, int batch, int box_outer) {
  // A single batch entry has no meaningful batch stride; any valid one will do (as on the host).
  const long long batch_elements = batch > 1 ? batch_stride : ld * outer;
  asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(map), "l"(base) : "memory");
  asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 2;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(map), "n"(KT_K_CHUNK) : "memory");
  asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(map), "r"(box_outer) : "memory");
  asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 2, 1;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;" ::"r"(map), "r"(static_cast<kt_u32>(inner))
               : "memory");
  asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(map), "r"(static_cast<kt_u32>(outer))
               : "memory");
  asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 2, %1;" ::"r"(map), "r"(static_cast<kt_u32>(batch))
               : "memory");
  asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(map), "l"(ld * KT_IN_BYTES) : "memory");
  asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 1, %1;" ::"r"(map), "l"(batch_elements * KT_IN_BYTES)
               : "memory");
  asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, 1;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 1;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 2, 1;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], " KT_TENSORMAP_ELEMTYPE ";" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(map) : "memory");
  asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(map) : "memory");
}

// Called by all 32 threads of warp 0. `staging`: 256 bytes of shared memory, 128-byte aligned;
// `maps`: 256 bytes of global memory, 128-byte aligned, this CTA's alone (A's map, then B's).
__device__ __forceinline__ void kt90_build_tensor_maps(const KtuneGemmParams& p, unsigned char* staging, unsigned char* maps) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  reinterpret_cast<kt_u32*>(staging)[lane] = 0u;
  reinterpret_cast<kt_u32*>(staging)[lane + 32] = 0u;
  __syncwarp();
  const kt_u32 map_a = kt_smem_addr(staging), map_b = map_a + 128;
  if (lane == 0) {
#if KT_A_K_CONTIGUOUS
    kt_tensormap_write(map_a, p.a, p.k, p.m, p.lda, p.batch_stride_a, p.batch, KT_TILE_M / KT_CLUSTER_N);
#else
    kt_tensormap_write(map_a, p.a, p.m, p.k, p.lda, p.batch_stride_a, p.batch, KT_TILE_K);
#endif
#if KT_B_K_CONTIGUOUS
    kt_tensormap_write(map_b, p.b, p.k, p.n, p.ldb, p.batch_stride_b, p.batch, KT_TILE_N / KT_CLUSTER_M);
#else
    kt_tensormap_write(map_b, p.b, p.n, p.k, p.ldb, p.batch_stride_b, p.batch, KT_TILE_K);
#endif
  }
  __syncwarp();
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(
                   maps),
               "r"(map_a)
               : "memory");
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(
                   maps + 128),
               "r"(map_b)
               : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(maps) : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(maps + 128) : "memory");
}

#endif  // KTUNE_GEMM_SM90_CUH
