#pragma once
// The sm_80+ path of the generated GEMM family (kernels/gemm_sm80.cuh: mma.sync m16n8k16,
// ldmatrix from XOR-swizzled shared memory, a `stages`-deep cp.async ring): which knob settings
// can run, the vector width of the global copies, the launch shape, the knob #defines and the
// grid. Everything here mirrors the kernel's own arithmetic; change both together.
//
// Launch: grid sm80_grid ({tiles, split_k, batch}), block sm80_launch_shape().threads, dynamic
// shared memory sm80_launch_shape().dynamic_shared_bytes (above 48 KB the launcher must raise
// cudaFuncAttributeMaxDynamicSharedMemorySize / CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).

#include <optional>
#include <string>

#include "ktune/families/generated/generated_knobs.h"

namespace ktune::generated {

inline constexpr int kSm80MaxDynamicSharedBytes = 232448;  // 227 KB per CTA (sm_90 opt-in maximum)
inline constexpr int kSm80StaticSharedBytes = 128;         // the split-K "last slice" flag, as ptxas places it
inline constexpr int kSm80MaxAccumulators = 128;           // Dynamic shared memory of the kernel: the larger of the cp.async ring (stages * (tile_m +
// tile_n) * tile_k * 2 bytes, unpadded: the XOR swizzle needs no padding) and the epilogue's
// staging area (16 rows of tile_n / subgroup_n + 8 floats per warp), which reuses the ring.
int sm80_dynamic_shared_bytes(const GeneratedKnobs& knobs);

// fp32 accumulators per thread (64 x 64 warp tile)

// The widest global copy A and B allow: 16, 8, 4 or 2 bytes (the largest of those dividing
// ab_alignment_bytes; 2 when it is smaller or not a power of two).
int sm80_vector_bytes(const ProblemTraits& problem);

// Dynamic shared memory of the kernel: the larger of the cp.async ring (stages * (tile_m +
// tile_n) * tile_k * 2 bytes, unpadded: the XOR swizzle needs no padding) and the epilogue's
// staging area (16 rows of tile_n / subgroup_n + 8 floats per warp), which reuses the ring.
int sm80_dynamic_shared_bytes(const GeneratedKnobs& knobs);

// fp32 accumulators per thread: (tile_m / subgroup_m) * (tile_n / subgroup_n) / 32.
int sm80_accumulators_per_thread(const GeneratedKnobs& knobs);
// A lower bound on registers per thread the main loop needs: accumulators, two K steps of A and B
// fragments, and ~40 for addresses, counters and predicates (what ptxas reports, within ~10%).
int sm80_register_estimate(const GeneratedKnobs& knobs);

// Why `knobs` cannot run `problem` on this path, or nullopt when it can.
std::optional<std::string> sm80_rejects(const GeneratedKnobs& knobs, const ProblemTraits& problem);

// threads = 32 * subgroup_m * subgroup_n; dynamic shared memory = sm80_dynamic_shared_bytes.
LaunchShape sm80_launch_shape(const GeneratedKnobs& knobs, const ProblemTraits& problem);

// "#define KT_TILE_M 128\n..." for the knob macros gemm_sm80.cuh reads: KT_TILE_M/N/K,
// KT_SUBGROUP_M/N, KT_STAGES, KT_MIN_BLOCKS, KT_THREADS, KT_VECTOR_BYTES. The problem macros
// (KT_IN_TYPE ... KT_SPLIT_K) are the emitter's.
std::string sm80_defines(const GeneratedKnobs& knobs, const ProblemTraits& problem);

// {tiles_m * tiles_n, split_k, batch}: x walks the tiles through kt_tile_coords, y is the K
// slice, z the batch entry.
void sm80_grid(const GeneratedKnobs& knobs, const ProblemTraits& problem, unsigned grid[3]);

}  // namespace ktune::generated
