#include "ktune/families/generated/sm80_path.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace ktune::generated {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string str(std::int64_t v) { return std::to_string(v); }

// The kernel keeps each operand tile in its global orientation; this is the length of its
// contiguous shared rows, in elements.
int a_shared_row(const GeneratedKnobs& knobs, const ProblemTraits& problem) {
  return problem.a_k_contiguous ? knobs.tile_k : knobs.tile_m;
}
int b_shared_row(const GeneratedKnobs& knobs, const ProblemTraits& problem) {
  return problem.b_k_contiguous ? knobs.tile_k : knobs.tile_n;
}

// kt80_swizzle: 16-byte chunks XOR within a row; rows of 2 or 4 chunks share 128-byte lines,
// rows of 8k chunks XOR with row & 7. Other widths would need padding the kernel does not do.
bool swizzle_fits(int row_elements) { return row_elements == 16 || row_elements == 32 || row_elements % 64 == 0; }

std::optional<std::string> row_rejects(const char* operand, const char* order, const char* knob, int row_elements) {
  if (swizzle_fits(row_elements)) return std::nullopt;
  return std::string(knob) + " " + str(row_elements) + " cannot be the contiguous dimension of " + operand +
         "'s shared tile (" + operand + " is " + order + "): rows of " + str(2 * row_elements) +
         " bytes cannot be XOR-swizzled bank-conflict-free; use 16, 32 or a multiple of 64";
}

// 64K registers per SM shared by `blocks` CTAs of `threads`.
int registers_per_thread_cap(int threads, int blocks) {
  const int share = 65536 / (threads * blocks);
  return std::min(255, share / 8 * 8);  // ptxas allocates in units of 8 per thread
}

}  // namespace

int sm80_vector_bytes(const ProblemTraits& problem) {
  for (int bytes : {16, 8, 4})
    if (problem.ab_alignment_bytes >= bytes && problem.ab_alignment_bytes % bytes == 0) return bytes;
  return 2;
}

int sm80_dynamic_shared_bytes(const GeneratedKnobs& knobs) {
  const int ring = knobs.stages * (knobs.tile_m + knobs.tile_n) * knobs.tile_k * 2;
  const int warps = knobs.subgroup_m * knobs.subgroup_n;
  const int scratch = warps * 16 * (knobs.tile_n / std::max(1, knobs.subgroup_n) + 8) * 4;
  return std::max(ring, scratch);
}

int sm80_accumulators_per_thread(const GeneratedKnobs& knobs) {
  const int warp_m = knobs.tile_m / std::max(1, knobs.subgroup_m);
  const int warp_n = knobs.tile_n / std::max(1, knobs.subgroup_n);
  return warp_m * warp_n / 32;
}

int sm80_register_estimate(const GeneratedKnobs& knobs) {
  const int mmas_m = knobs.tile_m / std::max(1, knobs.subgroup_m) / 16;
  const int mmas_n = knobs.tile_n / std::max(1, knobs.subgroup_n) / 8;
  // The kernel double-buffers fragments for even K steps (and 16-byte copies); counted always,
  // as 2-byte copies take about as many registers as the second buffer.
  const int buffers = (knobs.tile_k / 16) % 2 == 0 ? 2 : 1;
  return sm80_accumulators_per_thread(knobs) + buffers * (4 * mmas_m + 2 * mmas_n) + 40;
}

std::optional<std::string> sm80_rejects(const GeneratedKnobs& knobs, const ProblemTraits& problem) {
  if (knobs.path != KernelPath::MmaSync) return "the sm80 path compiles mma_sync knob settings only";
  if (knobs.persistent)
    return "persistent kernels are a wgmma-path knob; the mma.sync kernel launches one CTA per tile and K slice";
  if (knobs.b_panel > 0) return "b_panel is a wgmma-path knob (persistent kernels only)";
  if (knobs.pingpong) return "pingpong is a wgmma-path knob (persistent kernels only)";
  if (knobs.swap_ab) return "swap_ab is a wgmma-path knob";
  if (knobs.split_reduce) return "split_reduce is a wgmma-path knob (split-K slices summed by a second kernel)";
  if (knobs.promote != 0) return "promote is a wgmma-path knob (accumulator chains added in f32 registers)";
  if (knobs.cluster_n != 1 || knobs.cluster_m != 1)
    return "cluster_n and cluster_m are wgmma-path knobs (clusters sharing A and B by TMA multicast)";
  if (problem.in_type != 0 && problem.in_type != 1)
    return "input type " + str(problem.in_type) + " is not f16 (0) or bf16 (1)";
  if (problem.out_type < 0 || problem.out_type > 2)
    return "output type " + str(problem.out_type) + " is not f16 (0), bf16 (1) or f32 (2)";
  if (problem.activation < 0 || problem.activation > 2)
    return "activation " + str(problem.activation) + " is not none (0), relu (1) or gelu (2)";
  if (knobs.tile_m < 1 || knobs.tile_n < 1 || knobs.tile_k < 1)
    return "tile " + str(knobs.tile_m) + "x" + str(knobs.tile_n) + "x" + str(knobs.tile_k) + " has a non-positive side";
  if (knobs.subgroup_m < 1 || knobs.subgroup_n < 1)
    return "subgroup counts " + str(knobs.subgroup_m) + "x" + str(knobs.subgroup_n) + " must be at least 1";
  if (knobs.stages < 2 || knobs.stages > 8)
    return "stages " + str(knobs.stages) + " is outside 2..8 (the cp.async ring needs at least two stages)";
  if (knobs.split_k < 1) return "split_k " + str(knobs.split_k) + " must be at least 1";
  if (knobs.split_k > 65535) return "split_k " + str(knobs.split_k) + " exceeds the grid's y limit of 65535";
  if (knobs.swizzle_group < 1) return "swizzle_group " + str(knobs.swizzle_group) + " must be at least 1";
  if (knobs.min_blocks_per_sm < 0) return "min_blocks_per_sm " + str(knobs.min_blocks_per_sm) + " is negative";

  if (knobs.tile_m % (16 * knobs.subgroup_m) != 0)
    return "tile_m " + str(knobs.tile_m) + " is not a multiple of 16 * subgroup_m = " + str(16 * knobs.subgroup_m) +
           " (each warp covers whole 16-row mma tiles)";
  if (knobs.tile_n % (16 * knobs.subgroup_n) != 0)
    return "tile_n " + str(knobs.tile_n) + " is not a multiple of 16 * subgroup_n = " + str(16 * knobs.subgroup_n) +
           " (one ldmatrix.x4 loads B for two 8-column mmas, so warp tiles are multiples of 16 columns)";
  if (knobs.tile_k % 16 != 0)
    return "tile_k " + str(knobs.tile_k) + " is not a multiple of 16 (the K of one mma.sync m16n8k16)";
  const std::int64_t threads = 32LL * knobs.subgroup_m * knobs.subgroup_n;
  if (threads > 1024)
    return str(knobs.subgroup_m) + "x" + str(knobs.subgroup_n) + " warps make " + str(threads) +
           " threads; a CTA has at most 1024";
  if (auto why = row_rejects("A", problem.a_k_contiguous ? "K-contiguous" : "M-contiguous",
                             problem.a_k_contiguous ? "tile_k" : "tile_m", a_shared_row(knobs, problem)))
    return why;
  if (auto why = row_rejects("B", problem.b_k_contiguous ? "K-contiguous" : "N-contiguous",
                             problem.b_k_contiguous ? "tile_k" : "tile_n", b_shared_row(knobs, problem)))
    return why;

  const int accumulators = sm80_accumulators_per_thread(knobs);
  if (accumulators > kSm80MaxAccumulators)
    return "warp tile " + str(knobs.tile_m / knobs.subgroup_m) + "x" + str(knobs.tile_n / knobs.subgroup_n) +
           " needs " + str(accumulators) + " fp32 accumulators per thread; at most " + str(kSm80MaxAccumulators) +
           " fit in registers (warp tiles up to 64x64 elements)";
  if (knobs.min_blocks_per_sm > 0 && threads * knobs.min_blocks_per_sm > 2048)
    return "min_blocks_per_sm " + str(knobs.min_blocks_per_sm) + " x " + str(threads) +
           " threads exceeds the 2048 threads of an SM";
  const int blocks = std::max(1, knobs.min_blocks_per_sm);
  const int cap = registers_per_thread_cap(static_cast<int>(threads), blocks);
  const int needed = sm80_register_estimate(knobs);
  if (needed > cap)
    return str(threads) + " threads" + (blocks > 1 ? " x " + str(blocks) + " CTAs per SM (min_blocks_per_sm)" : "") +
           " leave " + str(cap) + " registers per thread; the " + str(knobs.tile_m / knobs.subgroup_m) + "x" +
           str(knobs.tile_n / knobs.subgroup_n) + " warp tile needs about " + str(needed) + " (it would spill)";

  const std::int64_t shared = sm80_dynamic_shared_bytes(knobs);
  if (shared + kSm80StaticSharedBytes > kSm80MaxDynamicSharedBytes)
    return str(knobs.stages) + " stages of " + str(knobs.tile_m) + "x" + str(knobs.tile_k) + " A and " +
           str(knobs.tile_k) + "x" + str(knobs.tile_n) + " B tiles need " + str(shared) +
           " bytes of shared memory; a CTA can have at most " +
           str(kSm80MaxDynamicSharedBytes - kSm80StaticSharedBytes);
  if (knobs.min_blocks_per_sm > 1 &&
      knobs.min_blocks_per_sm * (shared + kSm80StaticSharedBytes + 1024) > kSm80MaxDynamicSharedBytes + 1024)
    return "min_blocks_per_sm " + str(knobs.min_blocks_per_sm) + " needs " +
           str(knobs.min_blocks_per_sm * (shared + kSm80StaticSharedBytes + 1024)) +
           " bytes of shared memory per SM (with the driver's 1 KB per CTA); an SM has 233472";

  if (problem.ab_alignment_bytes < 2)
    return "A and B are only " + str(problem.ab_alignment_bytes) +
           "-byte aligned; 16-bit elements need at least 2-byte alignment";
  if (problem.m < 1 || problem.n < 1 || problem.k < 0)
    return "problem " + str(problem.m) + "x" + str(problem.n) + "x" + str(problem.k) + " has no output to compute";
  if (problem.batch < 1 || problem.batch > 65535)
    return "batch " + str(problem.batch) + " is outside 1..65535 (the grid's z dimension)";
  const std::int64_t k_tiles = ceil_div(std::max<std::int64_t>(problem.k, 1), knobs.tile_k);
  if (knobs.split_k > k_tiles)
    return "split_k " + str(knobs.split_k) + " exceeds the " + str(k_tiles) + " K tiles of " + str(knobs.tile_k) +
           " (K = " + str(problem.k) + ")";
  const std::int64_t tiles = ceil_div(problem.m, knobs.tile_m) * ceil_div(problem.n, knobs.tile_n);
  if (tiles > 0x7fffffffLL)
    return str(tiles) + " output tiles exceed the grid's x limit of 2^31 - 1";
  // A warp tile taller than 64 rows keeps 8+ A fragments per k-step next to its accumulators:
  // ptxas spilled 128x32 warp tiles (128x128 with 1x4 warps) on sm_80 and sm_90.
  if (knobs.tile_m / knobs.subgroup_m > 64)
    return "warp tiles taller than 64 rows spill (tile_m / subgroup_m = " + str(knobs.tile_m / knobs.subgroup_m) + ")";
  // Every thread issues its share of a stage's 16-byte copies from an unrolled loop; past 32
  // the addresses alone spill (seen: 32x32x256 with one warp, 64 copies per thread).
  const int copies = (knobs.tile_m + knobs.tile_n) * knobs.tile_k * 2 / 16 / (32 * knobs.subgroup_m * knobs.subgroup_n);
  if (copies > 32)
    return "each thread would issue " + str(copies) +
           " 16-byte copies per stage (more than 32 spill); use more warps or a shallower K tile";
  return std::nullopt;
}

LaunchShape sm80_launch_shape(const GeneratedKnobs& knobs, const ProblemTraits& /*problem*/) {
  LaunchShape shape;
  shape.threads = 32 * knobs.subgroup_m * knobs.subgroup_n;
  shape.dynamic_shared_bytes = sm80_dynamic_shared_bytes(knobs);
  shape.cluster = 1;
  return shape;
}

std::string sm80_defines(const GeneratedKnobs& knobs, const ProblemTraits& problem) {
  std::ostringstream out;
  out << "#define KT_TILE_M " << knobs.tile_m << "\n"
      << "#define KT_TILE_N " << knobs.tile_n << "\n"
      << "#define KT_TILE_K " << knobs.tile_k << "\n"
      << "#define KT_SUBGROUP_M " << knobs.subgroup_m << "\n"
      << "#define KT_SUBGROUP_N " << knobs.subgroup_n << "\n"
      << "#define KT_STAGES " << knobs.stages << "\n"
      << "#define KT_MIN_BLOCKS " << std::max(0, knobs.min_blocks_per_sm) << "\n"
      << "#define KT_THREADS " << 32 * knobs.subgroup_m * knobs.subgroup_n << "\n"
      << "#define KT_VECTOR_BYTES " << sm80_vector_bytes(problem) << "\n";
  return out.str();
}

void sm80_grid(const GeneratedKnobs& knobs, const ProblemTraits& problem, unsigned grid[3]) {
  const std::int64_t tiles = ceil_div(problem.m, knobs.tile_m) * ceil_div(problem.n, knobs.tile_n);
  grid[0] = static_cast<unsigned>(std::max<std::int64_t>(1, tiles));
  grid[1] = static_cast<unsigned>(std::max(1, knobs.split_k));
  grid[2] = static_cast<unsigned>(std::max<std::int64_t>(1, problem.batch));
}

}  // namespace ktune::generated
