#pragma once
// The Hopper (sm_90a) path of the generated GEMM family (kernels/gemm_sm90.cuh): which knob
// settings can run, the launch shape, the knob #defines, the grid, and the two TMA tensor maps.
// Everything here mirrors the kernel's own arithmetic; change both together. Every ProblemTraits
// here is the kernel's own problem: with swap_ab, the swapped one (kernel_traits in
// generated_kernel.h), which the family's functions there pass in.
//
// Host order for one launch:
//   1. fill KtuneGemmParams' pointers, sizes, leading dimensions, batch strides, alpha/beta;
//   2. sm90_set_launch_params (tile counts, split-K slice length, rasterisation, persistent CTAs);
//   3. sm90_encode_tensor_maps (needs 1: pointers, sizes and strides go into the maps);
//   4. launch ktune_gemm_sm90 with sm90_grid and sm90_launch_shape.

#include <cstdint>
#include <optional>
#include <string>

#include "ktune/families/generated/generated_knobs.h"
#include "ktune/families/generated/kernels/gemm_params.h"

namespace ktune::generated {

inline constexpr int kSm90MaxDynamicSharedBytes = 232448;  // 227 KB per CTA (opt-in maximum)
inline constexpr int kSm90SharedBytesPerSm = 233472;       // 228 KB per SM
inline constexpr int kSm90SharedReservedPerCta = 1024;     // the driver's per-CTA reservation
inline constexpr int kSm90ProducerRegisters = 40;

// Registers per thread the kernel starts with (the __launch_bounds__ share, as ptxas assigns it
// when the code uses setmaxnreg), and what each consumer thread holds after setmaxnreg.inc
// (equal to the entry share when the kernel does not rebalance: one consumer warpgroup).
int sm90_entry_registers(const GeneratedKnobs& knobs);
int sm90_consumer_registers(const GeneratedKnobs& knobs);
// fp32 accumulators each consumer thread keeps in registers.
int sm90_accumulators_per_thread(const GeneratedKnobs& knobs);

// Why `knobs` cannot run `problem` on sm_90a, or nullopt when it can.
std::optional<std::string> sm90_rejects(const GeneratedKnobs& knobs, const ProblemTraits& problem);

// Threads per CTA (one producer warpgroup + subgroup_m * subgroup_n consumer warpgroups) and
// dynamic shared memory: 1024 bytes of slack for aligning the swizzled tiles, the stages of A
// and B tiles, output staging tiles (tile_m rows of tile_n * 2 + 16 bytes each: two where both
// fit the 227 KB limit and min_blocks_per_sm CTAs per SM and the second costs no CTA per SM,
// else one where it fits, else none), mbarriers and split-K flags.
// `in_bytes`: bytes per A/B element (in_type_bytes); no default, so that no caller sizes an fp8
// or tf32 kernel's shared memory as 16-bit.
LaunchShape sm90_launch_shape(const GeneratedKnobs& knobs, int in_bytes);
// Output staging tiles of that layout (0-2; the kernel stages only 16-bit outputs through them).
int sm90_staging_buffers(const GeneratedKnobs& knobs, int in_bytes);
// Whether the kernel stages through one column-chunk buffer per consumer warpgroup instead (no
// staging tile fits; gemm_sm90.cuh's KT_CHUNK_STAGING): 16-bit outputs then leave chunk by chunk
// by TMA tensor stores.
bool sm90_chunk_staging(const GeneratedKnobs& knobs, int in_bytes);

// "#define KT_TILE_M 128\n..." for the knob macros gemm_sm90.cuh reads (KT_TILE_M/N/K,
// KT_SUBGROUP_M/N, KT_STAGES, KT_PERSISTENT, KT_MIN_BLOCKS, and KT_WGMMA_* below).
std::string sm90_defines(const GeneratedKnobs& knobs, int in_type);
// The KT_WGMMA_* macros kt_wgmma is written with (included in sm90_defines): the m64nNkK shape
// (K = 16 for f16/bf16, 32 for fp8, 8 for tf32: 32 bytes of K either way)
// and its N / 2 accumulator operands for N = tile_n / subgroup_n; empty when N is not a wgmma
// width (a multiple of 16 up to 256), so the kernel stops at its #error.
std::string sm90_wgmma_defines(const GeneratedKnobs& knobs, int in_type);

// CTAs of one persistent launch: sm_count times the CTAs per SM that fit (at least one, at
// most min_blocks_per_sm when set), never more than there are work items.
int sm90_persistent_ctas(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count);

// A split tail (GeneratedKnobs::split_tail): the persistent grid's units (CTAs, or clusters)
// take rounds of whole tiles; the tiles past the last full round (`tiles` of them, from
// `from` on, counting every batch entry's tiles in order) are split into split_k slices.
// `units`: how many units run side by side. No full round or no partial one: tiles 0 and `from`
// the number of items, so that a launch that gets such a plan anyway splits nothing.
struct SplitTail {
  std::int64_t from = 0, tiles = 0, units = 0;
};
SplitTail sm90_split_tail(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count);

// Non-persistent: {tiles_m * tiles_n, split_k, batch}; persistent: {sm90_persistent_ctas, 1, 1}.
void sm90_grid(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count, unsigned grid[3]);

// Sets tiles_m, tiles_n, split_k, k_per_split, swizzle_group and grid_tiles of `params`.
void sm90_set_launch_params(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& problem,
                            int sm_count);

// cuTensorMapEncodeTiled with its enums as int (same ABI).
using EncodeTiledFn = int (*)(void* tensor_map, int data_type, unsigned rank, void* global_address,
                              const std::uint64_t* global_dim, const std::uint64_t* global_strides,
                              const std::uint32_t* box_dim, const std::uint32_t* element_strides, int interleave,
                              int swizzle, int l2_promotion, int oob_fill);

// Whether staged 16-bit tiles leave by TMA tensor stores (gemm_sm90.cuh's KT_TMA_STORE): a
// 16-bit output, a staging buffer, and warpgroup tiles of whole 64-column chunks.
bool sm90_tma_store(const GeneratedKnobs& knobs, const ProblemTraits& problem);

// Encodes params.tma_a and params.tma_b (3-D: the batch is the outer dimension) from params.a,
// params.b, m, n, k, lda, ldb, batch and the batch strides, and params.tma_d when the kernel
// stores by TMA and D's rows, batch entries and address are 16-byte aligned (the kernel checks
// the same before it uses the map). Throws std::runtime_error naming the operand and the
// CUresult when the driver refuses.
void sm90_encode_tensor_maps(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& problem,
                             EncodeTiledFn encode);

}  // namespace ktune::generated
