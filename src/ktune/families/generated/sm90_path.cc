#include "ktune/families/generated/sm90_path.h"

#include <algorithm>
#include <stdexcept>

namespace ktune::generated {
namespace {

// cuda.h enum values (CUtensorMapDataType, ...Interleave, ...Swizzle, ...L2promotion,
// ...FloatOOBfill).
constexpr int kTensorMapUint8 = 0;  // fp8 e4m3 bytes: TMA copies them as they are
constexpr int kTensorMapFloat16 = 6;
constexpr int kTensorMapBfloat16 = 9;
constexpr int kTensorMapTfloat32 = 11;  // f32 in memory, rounded to tf32 by the copy
constexpr int kTensorMapInterleaveNone = 0;
constexpr int kTensorMapSwizzle64B = 2;
constexpr int kTensorMapSwizzle128B = 3;
constexpr int kTensorMapL2Promotion128B = 2;
constexpr int kTensorMapL2Promotion256B = 3;
constexpr int kTensorMapOobFillZero = 0;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: zeros
constexpr int kTensorMapL2PromotionNone = 0;

// Registers a consumer thread needs beyond its accumulators (addresses, loop state, epilogue
// temporaries); below this ptxas spills.
constexpr int kConsumerRegisterOverhead = 40;
// Registers one wgmma instruction needs beyond its accumulators (descriptors, addresses).
constexpr int kWgmmaOperandRegisters = 26;

constexpr std::int64_t kMaxTmaCoordinate = 2147483647;  // TMA coordinates are signed 32-bit

int consumers(const GeneratedKnobs& k) { return k.pingpong ? 2 : k.subgroup_m * k.subgroup_n; }
int threads(const GeneratedKnobs& k) { return 128 * (consumers(k) + 1); }
int blocks_hint(const GeneratedKnobs& k) { return k.min_blocks_per_sm > 0 ? k.min_blocks_per_sm : 1; }
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::string str(std::int64_t v) { return std::to_string(v); }

// The kernel's items with clusters: cluster rows and columns of tiles (the last ones padded).
std::int64_t cluster_rows(const GeneratedKnobs& k, const ProblemTraits& problem) {
  return ceil_div(ceil_div(problem.m, k.tile_m), std::max(1, k.cluster_m));
}
std::int64_t cluster_columns(const GeneratedKnobs& k, const ProblemTraits& problem) {
  return ceil_div(ceil_div(problem.n, k.tile_n), std::max(1, k.cluster_n));
}

// Split-K inside a cluster (gemm_sm90.cuh's KT_K_CLUSTER): the slices of a tile are the CTAs of
// one cluster, one tile each, and the partial tile (f32 rows padded by 8) reuses the ring.
std::optional<std::string> split_cluster_rejects(const GeneratedKnobs& k, int in_bytes) {
  if (!k.split_cluster) return std::nullopt;
  if (k.split_k < 2 || k.split_k > 8) return "split_cluster needs split_k 2-8 (one cluster of at most 8 CTAs per tile)";
  if (k.persistent) return "split_cluster needs a non-persistent kernel (one tile per CTA)";
  if (k.split_reduce || k.b_panel > 0 || k.pingpong || k.cluster_n > 1 || k.cluster_m > 1)
    return "split_cluster does not combine with split_reduce, b_panel, pingpong or multicast clusters";
  if (k.tile_m % k.split_k != 0) return "split_cluster: tile_m must split evenly over the split_k CTAs";
  const std::int64_t ring = static_cast<std::int64_t>(k.stages) * (k.tile_m + k.tile_n) * k.tile_k * in_bytes;
  if (static_cast<std::int64_t>(k.tile_m) * (k.tile_n + 8) * 4 > ring)
    return "split_cluster: the f32 partial tile does not fit in the ring (more stages)";
  return std::nullopt;
}

// Each CTA of a cluster row loads tile_m / cluster_n of A's rows, each of a cluster column
// tile_n / cluster_m of B's: whole 8-row swizzle periods of a K-contiguous operand, whole MN
// chunks (128 bytes: 64 f16/bf16 or 32 tf32 elements) of an MN-contiguous one.
std::optional<std::string> cluster_rejects(const GeneratedKnobs& k, const ProblemTraits& problem) {
  if (k.cluster_n == 1 && k.cluster_m == 1) return std::nullopt;
  const int mn_chunk = 128 / in_type_bytes(problem.in_type);
  for (int c : {k.cluster_n, k.cluster_m})
    if (c != 1 && c != 2 && c != 4) return "cluster_n and cluster_m must be 1, 2 or 4";
  if (cluster_size(k) > 8) return "a cluster holds at most 8 CTAs (the portable limit)";
  if (problem.a_k_contiguous ? (k.tile_m / k.cluster_n) % 8 != 0 : (k.tile_m / mn_chunk) % k.cluster_n != 0)
    return "cluster_n " + str(k.cluster_n) + " splits tile_m " + str(k.tile_m) +
           " into pieces that are not whole 8-row swizzle periods (K-contiguous A) or " + str(mn_chunk) +
           "-row chunks (M-contiguous A)";
  if (problem.b_k_contiguous ? (k.tile_n / k.cluster_m) % 8 != 0 : (k.tile_n / mn_chunk) % k.cluster_m != 0)
    return "cluster_m " + str(k.cluster_m) + " splits tile_n " + str(k.tile_n) +
           " into pieces that are not whole 8-row swizzle periods (K-contiguous B) or " + str(mn_chunk) +
           "-column chunks (N-contiguous B)";
  if (k.b_panel > 0 || k.pingpong) return "clusters do not combine with b_panel or pingpong";
  return std::nullopt;
}

// K tiles per split-K slice, as the kernel walks them.
std::int64_t k_tiles_per_split(const GeneratedKnobs& k, const ProblemTraits& problem) {
  const std::int64_t k_tiles = ceil_div(problem.k, k.tile_k);
  return ceil_div(k_tiles, std::max(1, k.split_k));
}

// Shared memory before any output staging tile, and one staging tile.
std::int64_t bytes_without_staging(const GeneratedKnobs& k, int in_bytes) {
  // A B panel (KT_B_PANEL) leaves only A in each stage and holds b_panel B tiles after the ring.
  const std::int64_t b_tile = static_cast<std::int64_t>(k.tile_n) * k.tile_k * in_bytes;
  const std::int64_t stage = static_cast<std::int64_t>(k.tile_m) * k.tile_k * in_bytes + (k.b_panel > 0 ? 0 : b_tile);
  const std::int64_t panel = k.b_panel > 0 ? k.b_panel * b_tile : 0;
  // alignment slack, stages, panel, full + empty mbarriers, split-K flags, two pingpong order
  // mbarriers (or the panel's full + empty)
  return 1024 + k.stages * stage + panel + 16 * static_cast<std::int64_t>(k.stages) + 16 + 16;
}
std::int64_t staging_tile_bytes(const GeneratedKnobs& k) { return static_cast<std::int64_t>(k.tile_m) * (k.tile_n * 2 + 16); }

// Two output staging tiles (16-bit rows padded by 16 bytes) where they still fit and cost no CTA
// per SM that one leaves room for, else one, else none; with pingpong one per warpgroup or none:
// gemm_sm90.cuh's KT_STAGING.
int staging_buffers(const GeneratedKnobs& k, int in_bytes) {
  const std::int64_t bytes = bytes_without_staging(k, in_bytes), staging = staging_tile_bytes(k);
  auto fits = [&](std::int64_t buffers) {
    const std::int64_t total = bytes + buffers * staging;
    return total <= kSm90MaxDynamicSharedBytes && blocks_hint(k) * (total + kSm90SharedReservedPerCta) <= kSm90SharedBytesPerSm;
  };
  auto ctas_per_sm = [&](std::int64_t buffers) { return kSm90SharedBytesPerSm / (bytes + buffers * staging + kSm90SharedReservedPerCta); };
  if (k.swap_ab) return 0;  // the tile is D's transpose: stored element by element
  if (k.pingpong) return fits(2) ? 2 : 0;
  if (fits(2) && ctas_per_sm(2) == ctas_per_sm(1)) return 2;
  return fits(1) ? 1 : 0;
}

// Chunked staging (gemm_sm90.cuh's KT_CHUNK_STAGING): where no staging tile fits, one buffer per
// consumer warpgroup of its rows x one column chunk (64 columns, or 32 for pieces of 32 * odd).
std::int64_t chunk_staging_bytes(const GeneratedKnobs& k) {
  const int wg_n = k.tile_n / std::max(1, k.subgroup_n), wg_m = k.tile_m / std::max(1, k.subgroup_m);
  return static_cast<std::int64_t>(consumers(k)) * wg_m * (wg_n % 64 == 0 ? 128 : 64);
}
bool chunk_staging(const GeneratedKnobs& k, int in_bytes) {
  const int wg_n = k.tile_n / std::max(1, k.subgroup_n);
  if (staging_buffers(k, in_bytes) > 0 || k.swap_ab || k.pingpong || wg_n % 32 != 0) return false;
  const std::int64_t total = bytes_without_staging(k, in_bytes) + chunk_staging_bytes(k);
  return total <= kSm90MaxDynamicSharedBytes &&
         blocks_hint(k) * (total + kSm90SharedReservedPerCta) <= kSm90SharedBytesPerSm;
}

int dynamic_shared_bytes(const GeneratedKnobs& k, int in_bytes) {
  return static_cast<int>(std::min<std::int64_t>(bytes_without_staging(k, in_bytes) +
                                                     staging_buffers(k, in_bytes) * staging_tile_bytes(k) +
                                                     (chunk_staging(k, in_bytes) ? chunk_staging_bytes(k) : 0),
                                                 1 << 30));
}

}  // namespace

int sm90_staging_buffers(const GeneratedKnobs& knobs, int in_bytes) { return staging_buffers(knobs, in_bytes); }
bool sm90_chunk_staging(const GeneratedKnobs& knobs, int in_bytes) { return chunk_staging(knobs, in_bytes); }

int sm90_entry_registers(const GeneratedKnobs& knobs) {
  const int raw = 65536 / (threads(knobs) * blocks_hint(knobs));
  return (raw > 255 ? 248 : raw) / 8 * 8;
}

int sm90_consumer_registers(const GeneratedKnobs& knobs) {
  const int entry = sm90_entry_registers(knobs);
  const int n = consumers(knobs);
  if (n < 2 || entry <= kSm90ProducerRegisters) return entry;
  const int raised = std::min(240, (entry * threads(knobs) - kSm90ProducerRegisters * 128) / (128 * n) / 8 * 8);
  return raised > entry ? raised : entry;
}

int sm90_accumulators_per_thread(const GeneratedKnobs& knobs) {
  if (knobs.subgroup_m < 1 || knobs.subgroup_n < 1) return 0;
  return (knobs.tile_m / knobs.subgroup_m / 64) * (knobs.tile_n / knobs.subgroup_n / 2);
}

std::optional<std::string> sm90_rejects(const GeneratedKnobs& k, const ProblemTraits& problem) {
  if (k.path != KernelPath::Wgmma) return "not a wgmma (sm_90a) knob setting";
  if (problem.in_type < 0 || problem.in_type > 3) return "input type must be f16, bf16, fp8 e4m3 or tf32";
  const int in_bytes = in_type_bytes(problem.in_type);
  // fp8 and tf32 wgmma have no transpose immediates: shared-memory operands must be K-major, so
  // K must be the contiguous dimension of B, and of A except for tf32, whose A the kernel can
  // read into registers (KT_A_REGS in gemm_sm90.cuh).
  if (in_bytes != 2 && !(problem.b_k_contiguous && (problem.a_k_contiguous || problem.in_type == 3)))
    return problem.in_type == 3 ? "tf32 wgmma reads B K-major only: K must be contiguous in B"
                                : "fp8 wgmma reads A and B K-major only: K must be contiguous in both (layout nt)";
  if (problem.out_type < 0 || problem.out_type > 2) return "output type must be f16, bf16 or f32";
  if (problem.m < 1 || problem.n < 1 || problem.k < 1 || problem.batch < 1) return "M, N, K and batch must be >= 1";
  if (problem.m > kMaxTmaCoordinate || problem.n > kMaxTmaCoordinate || problem.k > kMaxTmaCoordinate)
    return "M, N and K must be < 2^31 (TMA coordinates are 32-bit)";
  const int k_chunk = 128 / in_bytes;  // elements per 128-byte swizzle row
  if (k.tile_k < k_chunk || k.tile_k * in_bytes > 512 || k.tile_k % k_chunk != 0)
    return "tile_k " + str(k.tile_k) + " must be 1-4 whole 128-byte swizzle rows of " + str(k_chunk) + " elements";
  if (k.subgroup_m < 1 || k.subgroup_n < 1) return "subgroup_m and subgroup_n must be >= 1";
  if (k.tile_m < 64 || k.tile_m > 256) return "tile_m " + str(k.tile_m) + " must be 64..256 (TMA box rows)";
  if (k.tile_n < 16 || k.tile_n > 256) return "tile_n " + str(k.tile_n) + " must be 16..256 (TMA box rows)";
  if (k.tile_m % k.subgroup_m != 0 || (k.tile_m / k.subgroup_m) % 64 != 0)
    return "tile_m / subgroup_m (" + str(k.tile_m) + " / " + str(k.subgroup_m) +
           ") must be a multiple of 64 (wgmma M)";
  if (k.tile_n % k.subgroup_n != 0 || (k.tile_n / k.subgroup_n) % 16 != 0)
    return "tile_n / subgroup_n (" + str(k.tile_n) + " / " + str(k.subgroup_n) +
           ") must be a multiple of 16 (wgmma N)";
  if (!problem.b_k_contiguous && (k.tile_n / k.subgroup_n) % 64 != 0)
    return "with N-contiguous B, tile_n / subgroup_n (" + str(k.tile_n / k.subgroup_n) +
           ") must be a multiple of 64 (one 128-byte swizzle row of N)";
  if (consumers(k) > 7)
    return "subgroup_m * subgroup_n = " + str(consumers(k)) + " consumer warpgroups: at most 7 (1024 threads)";
  if (k.stages < 2) return "stages must be >= 2 (consumers release a stage one K tile late)";
  if (k.min_blocks_per_sm < 0) return "min_blocks_per_sm must be >= 0";
  if (threads(k) * blocks_hint(k) > 2048)
    return str(blocks_hint(k)) + " CTAs of " + str(threads(k)) + " threads exceed 2048 threads per SM";
  const int smem = dynamic_shared_bytes(k, in_bytes);
  if (smem > kSm90MaxDynamicSharedBytes)
    return "shared memory " + str(smem) + " bytes exceeds 227 KB (" + str(kSm90MaxDynamicSharedBytes) + ")";
  if (static_cast<std::int64_t>(blocks_hint(k)) * (smem + kSm90SharedReservedPerCta) > kSm90SharedBytesPerSm)
    return str(blocks_hint(k)) + " CTAs of " + str(smem) + " shared bytes do not fit in 228 KB per SM";
  const int entry = sm90_entry_registers(k);
  if (entry < 24) return "fewer than 24 registers per thread at " + str(blocks_hint(k)) + " CTAs per SM";
  // ptxas compiles the code after setmaxnreg.inc within the raised share (a 256x192 tile with
  // two consumers, 192 accumulators each, builds without spills under a 168-register launch bound).
  // Promotion keeps a second set of accumulators (the chain's sum beside the total).
  const int accumulators = sm90_accumulators_per_thread(k) * (k.promote > 0 ? 2 : 1);
  const int available = sm90_consumer_registers(k);
  if (accumulators + kConsumerRegisterOverhead > available)
    return str(accumulators) + " fp32 accumulators per consumer thread need about " +
           str(accumulators + kConsumerRegisterOverhead) + " registers, " + str(available) + " available";
  // One wgmma's accumulators and operands must fit the launch's entry share, whatever setmaxnreg
  // raises later: 192x208 in three consumer warpgroups (m64n208, 104 accumulators, 128 registers
  // at entry) failed in ptxas asking for 130 (H200, session 25); m64n192 builds there.
  if (k.tile_n / k.subgroup_n / 2 + kWgmmaOperandRegisters > entry)
    return "one m64n" + str(k.tile_n / k.subgroup_n) + " wgmma needs about " +
           str(k.tile_n / k.subgroup_n / 2 + kWgmmaOperandRegisters) + " registers, " + str(entry) +
           " at entry (" + str(threads(k)) + " threads)";
  // TMA needs every stride a multiple of 16 bytes: an operand whose rows or batch entries are
  // not is copied to 16-byte rows first (repack.h), so alignment rejects nothing here.
  if (k.split_k < 1) return "split_k must be >= 1";
  if (k.split_k > 1) {
    const std::int64_t k_tiles = ceil_div(problem.k, k.tile_k);
    if (k.split_k > k_tiles)
      return "split_k " + str(k.split_k) + " exceeds the " + str(k_tiles) + " K tiles of " + str(k.tile_k);
    const std::int64_t per_split = k_tiles_per_split(k, problem);
    if (ceil_div(k_tiles, per_split) < k.split_k)
      return "split_k " + str(k.split_k) + " leaves a slice empty (" + str(k_tiles) + " K tiles, " + str(per_split) +
             " per slice)";
  }
  if (k.swizzle_group < 1) return "swizzle_group must be >= 1";
  if (k.b_panel < 0) return "b_panel must be >= 0";
  if (k.pingpong) {
    if (!k.persistent) return "pingpong needs a persistent kernel (warpgroups take alternate work items)";
    if (k.subgroup_m != 1 || k.subgroup_n != 1) return "pingpong needs subgroup 1x1 (each warpgroup owns a whole tile)";
    if (k.b_panel > 0) return "pingpong does not combine with b_panel";
    if (in_bytes == 4 && !problem.a_k_contiguous) return "pingpong does not combine with tf32's register A (M-contiguous A)";
  }
  if (auto why = cluster_rejects(k, problem)) return why;
  if (auto why = split_cluster_rejects(k, in_bytes)) return why;
  if (k.split_tail) {
    if (!k.persistent) return "split_tail needs a persistent kernel (rounds of tiles)";
    if (k.split_k < 2) return "split_tail splits the last round's tiles: it needs split_k >= 2";
    if (k.split_reduce || k.split_cluster) return "split_tail sums its slices atomically (no split_reduce or split_cluster)";
    if (k.pingpong || k.b_panel > 0) return "split_tail does not combine with pingpong or b_panel";
  }
  if (k.b_panel > 0) {
    if (!k.persistent) return "b_panel needs a persistent kernel (a CTA walks down a column of tiles)";
    if (k.split_k > 1) return "b_panel needs split_k 1 (the panel holds all of K)";
    const std::int64_t k_tiles = ceil_div(problem.k, k.tile_k);
    if (k.b_panel < k_tiles)
      return "b_panel " + str(k.b_panel) + " holds fewer than the " + str(k_tiles) + " K tiles of " + str(k.tile_k);
  }
  const std::int64_t tiles = ceil_div(problem.m, k.tile_m) * ceil_div(problem.n, k.tile_n);
  if (tiles * k.split_k * problem.batch > kMaxTmaCoordinate) return "more than 2^31 work items";
  if (!k.persistent && (k.split_k > 65535 || problem.batch > 65535))
    return "split_k and batch must be <= 65535 (grid y and z)";
  return std::nullopt;
}

LaunchShape sm90_launch_shape(const GeneratedKnobs& knobs, int in_bytes) {
  LaunchShape shape;
  shape.threads = threads(knobs);
  shape.dynamic_shared_bytes = dynamic_shared_bytes(knobs, in_bytes);
  shape.cluster = cluster_size(knobs);
  return shape;
}

std::string sm90_defines(const GeneratedKnobs& k, int in_type) {
  std::string out;
  auto define = [&out](const char* name, int value) { out += "#define " + std::string(name) + " " + str(value) + "\n"; };
  define("KT_TILE_M", k.tile_m);
  define("KT_TILE_N", k.tile_n);
  define("KT_TILE_K", k.tile_k);
  define("KT_SUBGROUP_M", k.subgroup_m);
  define("KT_SUBGROUP_N", k.subgroup_n);
  define("KT_STAGES", k.stages);
  define("KT_PERSISTENT", k.persistent ? 1 : 0);
  define("KT_MIN_BLOCKS", k.min_blocks_per_sm);
  if (k.b_panel > 0) define("KT_B_PANEL", k.b_panel);
  if (k.pingpong) define("KT_PINGPONG", 1);
  if (k.cluster_n > 1) define("KT_CLUSTER_N", k.cluster_n);
  if (k.cluster_m > 1) define("KT_CLUSTER_M", k.cluster_m);
  if (k.swap_ab) define("KT_SWAP_AB", 1);
  if (k.split_reduce) define("KT_SPLIT_REDUCE", 1);
  if (k.split_cluster) define("KT_K_CLUSTER", k.split_k);
  if (k.split_tail) define("KT_SPLIT_TAIL", 1);
  if (k.promote > 0) define("KT_PROMOTE", k.promote);
  return out + sm90_wgmma_defines(k, in_type);
}

std::string sm90_wgmma_defines(const GeneratedKnobs& k, int in_type) {
  if (k.subgroup_n < 1 || k.tile_n % k.subgroup_n != 0) return {};
  const int n = k.tile_n / k.subgroup_n;
  if (n < 16 || n > 256 || n % 16 != 0) return {};
  const int accumulators = n / 2;  // fp32 registers per thread of the warpgroup
  auto operand = [](int i) { return "%" + str(i); };
  std::string list, operands;
  for (int i = 0; i < accumulators; ++i) {
    list += (i ? ", " : "") + operand(i);
    operands += std::string(i ? ", " : "") + "\"+f\"(d[" + str(i) + "])";
  }
  // After the accumulators: desc_a, desc_b, scale_d, then the two transpose immediates.
  // K per instruction: 32 bytes of each operand row (16 f16/bf16, 32 fp8, 8 tf32 elements).
  const int k_step = 32 / in_type_bytes(in_type);
  return "#define KT_WGMMA_SHAPE \"m64n" + str(n) + "k" + str(k_step) + "\"\n" +
         "#define KT_WGMMA_D \"" + list + "\"\n" +
         "#define KT_WGMMA_D_OPERANDS " + operands + "\n" +
         "#define KT_WGMMA_DESCRIPTORS \"" + operand(accumulators) + ", " + operand(accumulators + 1) + "\"\n" +
         "#define KT_WGMMA_SCALE_D \"" + operand(accumulators + 2) + "\"\n" +
         "#define KT_WGMMA_TRANSPOSES \"" + operand(accumulators + 3) + ", " + operand(accumulators + 4) + "\"\n" +
         // The register-A form (kt_wgmma_rs): four A registers, desc_b, scale_d.
         "#define KT_WGMMA_RS_A \"" + operand(accumulators) + ", " + operand(accumulators + 1) + ", " +
         operand(accumulators + 2) + ", " + operand(accumulators + 3) + "\"\n" +
         "#define KT_WGMMA_RS_B \"" + operand(accumulators + 4) + "\"\n" +
         "#define KT_WGMMA_RS_SCALE_D \"" + operand(accumulators + 5) + "\"\n";
}

bool sm90_tma_store(const GeneratedKnobs& k, const ProblemTraits& problem) {
  const int in_bytes = in_type_bytes(problem.in_type);
  return problem.out_type != 2 && (sm90_staging_buffers(k, in_bytes) > 0 || sm90_chunk_staging(k, in_bytes)) &&
         k.subgroup_n >= 1 && (k.tile_n / k.subgroup_n) % 32 == 0;
}

namespace {

// Units (CTAs, or whole clusters) of a persistent kernel that fit the GPU at once.
std::int64_t persistent_units(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count) {
  const int smem = dynamic_shared_bytes(knobs, in_type_bytes(problem.in_type)) + kSm90SharedReservedPerCta;
  int per_sm = std::min(kSm90SharedBytesPerSm / std::max(1, smem), 2048 / threads(knobs));
  if (knobs.min_blocks_per_sm > 0) per_sm = std::min(per_sm, knobs.min_blocks_per_sm);
  per_sm = std::max(1, per_sm);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::max(1, sm_count)) * per_sm / cluster_size(knobs));
}

}  // namespace

SplitTail sm90_split_tail(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count) {
  SplitTail tail;
  tail.units = persistent_units(knobs, problem, sm_count);
  const std::int64_t items = cluster_rows(knobs, problem) * cluster_columns(knobs, problem) * problem.batch;
  const std::int64_t partial = items % tail.units;
  tail.from = items;
  if (items < tail.units || partial == 0) return tail;
  tail.from = items - partial;
  tail.tiles = partial;
  return tail;
}

int sm90_persistent_ctas(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count) {
  // A cluster walks items as one (cluster rows x columns of tiles), and runs as whole clusters.
  const int cluster = cluster_size(knobs);
  const std::int64_t tiles = cluster_rows(knobs, problem) * cluster_columns(knobs, problem) * problem.batch;
  const int split = std::max(1, knobs.split_k);
  std::int64_t work = tiles * split;
  if (knobs.split_tail) {
    const SplitTail tail = sm90_split_tail(knobs, problem, sm_count);
    work = tail.from + tail.tiles * split;
  }
  const std::int64_t units = std::min<std::int64_t>(work, persistent_units(knobs, problem, sm_count));
  return static_cast<int>(std::max<std::int64_t>(1, units) * cluster);
}

void sm90_grid(const GeneratedKnobs& knobs, const ProblemTraits& problem, int sm_count, unsigned grid[3]) {
  if (knobs.persistent) {
    grid[0] = static_cast<unsigned>(sm90_persistent_ctas(knobs, problem, sm_count));
    grid[1] = 1;
    grid[2] = 1;
    return;
  }
  grid[0] = static_cast<unsigned>(cluster_rows(knobs, problem) * cluster_columns(knobs, problem) * cluster_size(knobs));
  // Split inside clusters: a tile's slices are the CTAs of its cluster, along x.
  grid[1] = static_cast<unsigned>(knobs.split_cluster ? 1 : std::max(1, knobs.split_k));
  grid[2] = static_cast<unsigned>(problem.batch);
}

void sm90_set_launch_params(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& problem,
                            int sm_count) {
  // With clusters the kernel's items are cluster rows and columns; each CTA adds its place.
  params.tiles_m = static_cast<int>(cluster_rows(knobs, problem));
  params.tiles_n = static_cast<int>(cluster_columns(knobs, problem));
  params.split_k = std::max(1, knobs.split_k);
  params.k_per_split = params.split_k > 1 ? k_tiles_per_split(knobs, problem) * knobs.tile_k : problem.k;
  params.swizzle_group = std::max(1, knobs.swizzle_group);
  params.grid_tiles = knobs.persistent ? sm90_persistent_ctas(knobs, problem, sm_count) : 0;
  params.tail_from = knobs.split_tail ? sm90_split_tail(knobs, problem, sm_count).from : 0;
}

void sm90_encode_tensor_maps(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& problem,
                             EncodeTiledFn encode) {
  if (encode == nullptr) throw std::runtime_error("sm90_encode_tensor_maps: no cuTensorMapEncodeTiled");
  if (params.a == nullptr || params.b == nullptr) throw std::runtime_error("sm90_encode_tensor_maps: A or B is null");
  const int data_type = problem.in_type == 3   ? kTensorMapTfloat32
                        : problem.in_type == 2 ? kTensorMapUint8
                        : problem.in_type == 1 ? kTensorMapBfloat16
                                               : kTensorMapFloat16;
  const long long bytes = in_type_bytes(problem.in_type);
  // The box's inner extent is one 128-byte swizzle row (K chunk or MN chunk: 16-bit, or tf32's A).
  const std::uint32_t box_inner = static_cast<std::uint32_t>(128 / bytes);
  const auto batch = static_cast<std::uint64_t>(std::max<long long>(1, params.batch));
  // One operand: `inner` elements contiguous, `outer` rows of `ld` elements, `batch` entries.
  // L2 promotion follows the row pitch (measured, session 21): rows off 32-byte sectors (3000 f16
  // per row: every other row starts 16 bytes into a sector) lose 11-13% to 256-byte promotion,
  // while aligned rows, the decode shapes above all, lose 3-5% with anything smaller.
  auto promotion = [&](long long ld) {
    return (ld * bytes) % 32 == 0 ? kTensorMapL2Promotion256B : kTensorMapL2Promotion128B;
  };
  auto encode_one = [&](unsigned char* map, const void* base, const char* name, long long inner, long long outer,
                        long long ld, long long batch_stride, int box_outer) {
    // A single batch entry has no meaningful batch stride; any valid one will do.
    const long long batch_elements = batch > 1 ? batch_stride : ld * outer;
    const std::uint64_t dims[3] = {static_cast<std::uint64_t>(inner), static_cast<std::uint64_t>(outer), batch};
    const std::uint64_t strides[2] = {static_cast<std::uint64_t>(ld * bytes), static_cast<std::uint64_t>(batch_elements * bytes)};
    const std::uint32_t box[3] = {box_inner, static_cast<std::uint32_t>(box_outer), 1};
    const std::uint32_t element_strides[3] = {1, 1, 1};
    const int result = encode(map, data_type, 3, const_cast<void*>(base), dims, strides, box, element_strides,
                              kTensorMapInterleaveNone, kTensorMapSwizzle128B, promotion(ld),
                              kTensorMapOobFillZero);
    if (result != 0)
      throw std::runtime_error(std::string("cuTensorMapEncodeTiled failed for ") + name + " with CUresult " +
                               str(result) + " (dims " + str(inner) + " x " + str(outer) + " x " +
                               str(static_cast<long long>(batch)) + ", strides " + str(ld * bytes) + ", " +
                               str(batch_elements * bytes) + " bytes, box " + str(box_inner) + " x " + str(box_outer) + ")");
  };
  if (sm90_tma_store(knobs, problem) && params.d != nullptr &&
      (((params.ldd | params.batch_stride_d) * 2) & 15) == 0 && (reinterpret_cast<std::uintptr_t>(params.d) & 15) == 0) {
    // D: boxes of one warpgroup's rows and 64 columns (128-byte swizzle), or 32 (64-byte swizzle)
    // where the warpgroup's piece is not whole 64-column chunks: the kernel's KT_STORE_CHUNK.
    const bool wide_chunks = (knobs.tile_n / std::max(1, knobs.subgroup_n)) % 64 == 0;
    const std::uint64_t dims[3] = {static_cast<std::uint64_t>(params.n), static_cast<std::uint64_t>(params.m), batch};
    const long long d_batch = batch > 1 ? params.batch_stride_d : params.ldd * params.m;
    const std::uint64_t strides[2] = {static_cast<std::uint64_t>(params.ldd * 2), static_cast<std::uint64_t>(d_batch * 2)};
    const std::uint32_t box[3] = {wide_chunks ? 64u : 32u,
                                  static_cast<std::uint32_t>(knobs.tile_m / std::max(1, knobs.subgroup_m)), 1};
    const std::uint32_t element_strides[3] = {1, 1, 1};
    const int result = encode(params.tma_d, problem.out_type == 1 ? kTensorMapBfloat16 : kTensorMapFloat16, 3, params.d,
                              dims, strides, box, element_strides, kTensorMapInterleaveNone,
                              wide_chunks ? kTensorMapSwizzle128B : kTensorMapSwizzle64B, kTensorMapL2PromotionNone,
                              kTensorMapOobFillZero);
    if (result != 0)
      throw std::runtime_error("cuTensorMapEncodeTiled failed for D with CUresult " + str(result) + " (dims " +
                               str(params.n) + " x " + str(params.m) + ", row stride " + str(params.ldd * 2) + " bytes)");
  }
  // In a cluster each CTA loads its share of A's rows (K-contiguous A: a box of tile_m / cluster_n
  // rows) and of B's (tile_n / cluster_m).
  if (problem.a_k_contiguous)
    encode_one(params.tma_a, params.a, "A", params.k, params.m, params.lda, params.batch_stride_a,
               knobs.tile_m / std::max(1, knobs.cluster_n));
  else
    encode_one(params.tma_a, params.a, "A", params.m, params.k, params.lda, params.batch_stride_a, knobs.tile_k);
  if (problem.b_k_contiguous)
    encode_one(params.tma_b, params.b, "B", params.k, params.n, params.ldb, params.batch_stride_b,
               knobs.tile_n / std::max(1, knobs.cluster_m));
  else
    encode_one(params.tma_b, params.b, "B", params.n, params.k, params.ldb, params.batch_stride_b, knobs.tile_k);
}

}  // namespace ktune::generated
