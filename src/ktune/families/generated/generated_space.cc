#include "ktune/families/generated/generated_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "ktune/families/generated/repack.h"
#include "ktune/families/generated/sm80_path.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::generated {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

const Value& config_value(const Config& config, const char* key) {
  auto it = config.find(key);
  if (it == config.end()) throw std::invalid_argument(std::string("generated gemm config is missing '") + key + "'");
  return it->second;
}
std::int64_t config_int(const Config& config, const char* key, std::int64_t lo, std::int64_t hi) {
  const Value& v = config_value(config, key);
  if (!v.is_int()) throw std::invalid_argument(std::string("generated gemm config '") + key + "' must be an integer");
  if (v.as_int() < lo || v.as_int() > hi)
    throw std::invalid_argument(std::string("generated gemm config '") + key + "' is out of range [" + std::to_string(lo) +
                                ", " + std::to_string(hi) + "]");
  return v.as_int();
}
std::string config_string(const Config& config, const char* key) {
  const Value& v = config_value(config, key);
  if (!v.is_string()) throw std::invalid_argument(std::string("generated gemm config '") + key + "' must be a string");
  return v.as_string();
}

// Fraction of the tensor cores' peak a tile sustains in steady state. Wider tiles reuse each
// shared-memory operand over more MMAs; wgmma's 64xN instructions read B once per N columns.
// These factors are the model's only tuned numbers (from published Hopper GEMM studies and our
// own runs): they rank, the measurement decides.
double tile_efficiency(const GeneratedKnobs& k, bool swapped_register_a) {
  const double m = k.tile_m, n = k.tile_n;
  const double intensity = m * n / (m + n);  // per unit K: MACs per element loaded
  if (k.path == KernelPath::Wgmma) {
    const double per_group_n = n / std::max(1, k.subgroup_n);
    double e = 0.88 * std::min(1.0, intensity / 85.0);
    if (per_group_n < 128) e *= 0.85;
    // A lone consumer warpgroup holding more than 64 rows issues its m64 wgmmas and stores its
    // rows one after the other, where two or three warpgroups overlap them. Fitted on the
    // tuned-on suite shapes only (H100, sessions 17-21): the same tiling split over warpgroups of
    // 64 rows ran faster in 12 of 12 pairs of 128-row tiles (median 1.11x) and 1 of 1 of 192
    // rows (1.18x); the holdout shapes' pairs, not used, agree in 7 of 8 (128 rows) and 3 of 3
    // (192). 7% is the all-pairs median, the smaller figure. With two or more consumers, taller
    // pieces cost nothing (median 0.98-0.99).
    if (!k.pingpong && k.subgroup_m * k.subgroup_n == 1 && m > 64) e *= 0.93;
    // Three stages leave room to stage the output tile in shared memory, so the next tile's
    // main loop overlaps the store (measured on H200: 128x256x64 0.92x cuBLAS with 3 stages,
    // 0.87x with 4, which then stored directly); deeper rings only paid off for small tiles.
    // A 4-stage ring with chunked staging (sm90_chunk_staging) keeps the overlap: not charged,
    // and not yet measured.
    if (k.stages < 3) e *= 0.8;
    // Not for swapped kernels that read A into registers (tf32 nn, whose swapped A is B, N-major):
    // their consumers load A's fragments from the ring themselves, and a deeper ring pays. 4096^3
    // tf32 nn, 128x256 in two 64x256 warpgroups (H200, session 38, do_bench): 4 stages 368.6 and
    // 382.1 us, 3 stages 398.5 and 397.6; ktune's recorded medians of sessions 30-38, 3 against 4
    // stages: 256x128 490-499 against 360-403, 192x160 500-511 against 397-413. Without the charge
    // the 4-stage 128x256 is among the H200's 20, and it won there (session 41: 338.5 us against
    // cuBLASLt's 340.0, the build before 377.4 against 356.6). Unswapped register-A kernels (tt,
    // tn) keep the charge: without it on five unseen tt/tn draws the 4-stage 128x256 to 256x192
    // tiles it let in ran 8-100% slower than the best and pushed out 128x208 on 3866x3214x3973
    // (the best there by 4%; session 41, call 2).
    if (!swapped_register_a && k.stages > 3 && m * n >= 128.0 * 256 && !sm90_chunk_staging(k, 2)) e *= 0.95;
    if (k.persistent) e *= 1.03;
    return std::min(e, 0.92);
  }
  // mma.sync on Hopper issues at about 60% of wgmma's rate at best.
  const int warps = k.subgroup_m * k.subgroup_n;
  const double warp_m = m / k.subgroup_m, warp_n = n / k.subgroup_n;
  double e = 0.62 * std::min(1.0, intensity / 64.0) * std::min(1.0, warp_m * warp_n / 2048.0 + 0.5);
  if (warps < 4) e *= 0.8;
  if (k.stages < 3) e *= 0.85;
  if (k.tile_k < 64) e *= 0.92;  // 64-deep K tiles measured 5-10% faster on H200
  return std::max(e, 0.02);
}

// Device rates. Dense f16/bf16 tensor throughput per SM per second, HBM and L2 bandwidth:
// Hopper SXM figures scaled by SM count for other parts (the model only ranks).
struct Rates {
  double tensor_per_sm = 989e12 / 132;
  double hbm = 3.35e12;
  double l2 = 10e12;
  double launch = 3e-6;
  // Split-K partial sums land one fp32 atomic add per element and slice; the L2 retires about
  // this many per second (H100, 512x5120x13824 f16: every split-3 kernel ran 290-340 us against
  // 117 us unsplit, 7.9 M atomic adds for the difference; issue 12, session 11).
  double split_atomics = 45e9;
  // D leaves through L2 while the operands stream in: short-K kernels ran at the sum of the two
  // times, not the larger (H100, 8192x8192x64 bf16, 40 generated kernels measured: the best
  // read 168 MB of operands and wrote 134 MB in 85 us; issue 12, session 11). A written byte
  // costs about 1 / (0.9 x HBM) at best: staged through shared memory by a persistent kernel.
  double store = 3.0e12;
};
Rates rates_for(const DeviceTraits& device) {
  Rates r;
  if (device.name.find("H200") != std::string::npos) r.hbm = 4.8e12;
  if (device.compute_capability < 90) {
    r.tensor_per_sm = 312e12 / 108;
    r.hbm = 2.0e12;
    r.l2 = 5e12;
  }
  r.store = 0.9 * r.hbm;
  return r;
}

// How much of that store rate a kernel's epilogue reaches. Measured on the same 40 kernels:
// without a staging tile (16-bit output, no room next to the stages) 64x256 ran 149 us against
// 88 us with one; without persistence (no store overlapping the next tile's loads) 111 against
// 85. mma.sync kernels store straight from registers.
double store_efficiency(const GeneratedKnobs& k, const ProblemTraits& t) {
  if (k.path != KernelPath::Wgmma) return 0.55;
  double e = 1.0;
  const int in_bytes = in_type_bytes(t.in_type);
  // Chunk-by-chunk staging (no staging tile fits): each chunk waits for the last one's store to
  // read the buffer. 0.9 is a guess, not yet measured.
  if (t.out_type != 2 && sm90_staging_buffers(k, in_bytes) == 0) e *= sm90_chunk_staging(k, in_bytes) ? 0.9 : 0.55;
  if (!k.persistent) e *= 0.77;
  // Swapped tiles store D transposed, one element per lane per store: 16 bytes of a row per
  // quarter warp. A guess, until measured.
  if (k.swap_ab) e *= 0.5;
  return e;
}

// mma.sync's copies are 16 bytes only where A's and B's rows allow it; narrower ones (8, 4, or
// 2-byte loads through registers for rows off 4 bytes) take issue slots from the MMAs in the same
// warps. Charged on the tensor rate as sqrt(bytes per copy / 16): uncharged, the model ranked
// mma.sync first on odd sizes where it ran 2-4x slower than wgmma on repacked operands
// (511x1000x4097: 94.6 us against 25.6; 4097x511x1000 53.9 against 22.3; 1023x2047x513 34.8
// against 16.1; H200, sessions 25-27). Over the 300 recorded shape runs of sessions 25-30 the
// regret of the model's first choice went from 1.135 to 1.070, and of none of them did the
// selection lose the fastest recorded kernel (ktune_model_replay). Charging the copies' bandwidth
// instead lost tall 23085x35x3513's winner, an mma.sync kernel on 2-byte loads (138 us, 1.29x
// cuBLAS): where they only stream, narrow copies keep up.
double narrow_copy_efficiency(const GeneratedKnobs& k, const ProblemTraits& t) {
  if (k.path != KernelPath::MmaSync) return 1.0;
  return std::sqrt(sm80_vector_bytes(t) / 16.0);
}

int occupancy(const GeneratedKnobs& k, const LaunchShape& shape, const DeviceTraits& device) {
  const int per_sm_shared = device.max_shared_per_block + 1024;
  int by_shared = shape.dynamic_shared_bytes > 0 ? per_sm_shared / (shape.dynamic_shared_bytes + 1024) : 8;
  int by_threads = shape.threads > 0 ? 2048 / shape.threads : 1;
  int o = std::max(1, std::min({by_shared, by_threads, 4}));
  if (k.min_blocks_per_sm > 0) o = std::min(o, std::max(k.min_blocks_per_sm, 1));
  return o;
}

// A knob setting of the space: rasterisation groups of 8, no occupancy hint beyond one CTA per SM;
// split-K, panels, pingpong and the rest set by the caller.
GeneratedKnobs space_knobs(KernelPath path, int tile_m, int tile_n, int tile_k, int subgroup_m, int subgroup_n,
                           int stages, bool persistent) {
  GeneratedKnobs k;
  k.path = path;
  k.tile_m = tile_m;
  k.tile_n = tile_n;
  k.tile_k = tile_k;
  k.subgroup_m = subgroup_m;
  k.subgroup_n = subgroup_n;
  k.stages = stages;
  k.persistent = persistent;
  k.swizzle_group = 8;
  k.min_blocks_per_sm = 1;
  return k;
}

// A wgmma one: K tiles of one 128-byte swizzle row (64 f16/bf16, 128 fp8, 32 tf32 elements).
GeneratedKnobs wgmma_knobs(int tile_m, int tile_n, int subgroup_m, int subgroup_n, int stages, bool persistent,
                           int in_type) {
  return space_knobs(KernelPath::Wgmma, tile_m, tile_n, 128 / in_type_bytes(in_type), subgroup_m, subgroup_n, stages,
                     persistent);
}

// A B panel of more K tiles leaves too little shared memory for A's ring and the staging tile.
constexpr int kMaxPanelTiles = 4;
// The forced classes of select_candidates (hedge_class: the best of each path, split and
// unsplit, clusters, swapped, ...) hedge against the model's errors, and on small problems those
// are large: there the best of a class the model put 1.3-2.5x behind its best ran within 5% of
// the fastest measured (odd_777x3001x1999's mma_sync 2.49x, a batched 1196x206x188 2.17x).
// Where the model's best takes 100 us or more, its errors are small. `ktune_model_replay
// --hedges` over the recorded suite runs: of the hedges measured within 5% of their shape's
// fastest, the farthest class lay 1.175x behind the best on the 30 tuned-on shapes in sessions
// 30-42 (87 shape-runs, 880 hedges; the holdout and random draws with them: 1.195x, 147 runs),
// 1.279x in sessions 14-42 (230 runs); over every recorded run, 1.336x (a holdout shape's
// unclustered 128x128 in session 14, before the clusters of today, whose window this would have
// shut). There a hedge 1.5-1.7x behind only costs time: on 8192x8192x28672 the mma_sync best
// (1.48x; it ran 8.9 ms against 4.8) was measured and two 192x256 split-K kernels (1.70x)
// compiled 6 s each and were waited for, then left out.
constexpr double kHedgeWindow = 2.0;
constexpr double kHedgeWindowLarge = 1.3;
constexpr double kHedgeLargeSeconds = 100e-6;

// Thread-block cluster shapes (cluster_n, cluster_m) the space offers beside no cluster: pairs
// along N (sharing A) or along M (sharing B). Larger ones are refinement steps only: measured on
// six suite shapes (H100, session 18, docs/benchmarks.md) 2x2 won only on 3000^3 (256x160, 3%
// over pairs) and clusters of 4 or 8 never; the model cannot see what they cost (lockstep CTAs).
constexpr std::pair<int, int> kClusterShapes[] = {{2, 1}, {1, 2}};

bool co_resident(const GeneratedKnobs& k) { return k.min_blocks_per_sm > 1; }

// The rasterisation group for a kernel without a cluster. A plain launch fills one GPC with
// about 16 consecutive CTAs, and the L2 request coalescer merges the reads of CTAs of one GPC
// that load the same tile at about the same time: a GPC's block of CTAs should span few rows
// and columns of tiles. Groups of 8 rows do that where the kernel has 8 or more tile columns;
// with 3 to 7 (swapped mid-size M: the problem's M along the kernel's N) a group of 8 rows spans
// 2 of them, while walking the columns first (group 1) spans all of them over 16 / columns rows.
// 322x5120x8192 bf16 as swapped 128x112 tiles (3 columns; H200, session 39, Nsight Compute and
// do_bench): L2 sectors read per sector delivered 0.48-0.57 with groups 1-4, 0.60 with 8,
// 0.67-0.68 with 16 and 40; 50.2-50.7 us against 52.3 and 53.0-53.2. 4096x12288x4096 as 128x256
// (48 columns): 0.47 and 531.6 us with 8, 0.90 and 613 us with 1. Clusters are placed round-robin
// over the GPCs, and their order (cluster_order.h) gives the ~8 clusters of one GPC consecutive
// items (cluster rows and columns). What the coalescer merges is the operand a cluster does not
// multicast (session 40, Nsight Compute: each cluster's multicast loads are read once per
// cluster, however many clusters of the GPC load the same tile). So clusters along N (A
// multicast) keep tall groups of 8, where the GPC's clusters share B's columns; clusters along M
// only (B multicast) follow the rule above in items (322x5120x8192 swapped 128x112 in pairs
// along M: 0.52 read per delivered with group 1, 0.74 with 8; 44.5 against 51.1 us).
int raster_group(const GeneratedKnobs& k, const ProblemTraits& traits) {
  if (k.cluster_n > 1 || k.tile_m < 1 || k.tile_n < 1) return 8;  // (steps are checked after)
  const ProblemTraits t = kernel_traits(k, traits);
  const std::int64_t columns = ceil_div(t.n, k.tile_n);
  const std::int64_t rows = ceil_div(ceil_div(t.m, k.tile_m), std::max(1, k.cluster_m));
  return columns > 2 && columns < 8 && rows > 8 ? 1 : 8;
}

std::string tile_key(const GeneratedKnobs& k) {
  return path_name(k.path) + ":" + std::to_string(k.tile_m) + "x" + std::to_string(k.tile_n) + "/" +
         std::to_string(k.split_k);
}

}  // namespace

Config to_config(const GeneratedKnobs& k, const ProblemTraits& traits) {
  Config c{{"family", Value::string("generated")},
          {"path", Value::string(path_name(k.path))},
          {"workgroup", Value::string(std::to_string(k.tile_m) + "x" + std::to_string(k.tile_n))},
          {"reduction", Value::integer(k.tile_k)},
          {"subgroup_m_count", Value::integer(k.subgroup_m)},
          {"subgroup_n_count", Value::integer(k.subgroup_n)},
          {"mma_kind", Value::string(intrinsic_name(k, traits))},
          {"pipeline_stages", Value::integer(k.stages)},
          {"split_k", Value::integer(k.split_k)},
          {"reorder_workgroups", Value::integer(k.swizzle_group)},
          {"persistent", Value::boolean(k.persistent)},
          {"min_blocks_per_sm", Value::integer(k.min_blocks_per_sm)}};
  // Only where set: configurations recorded before the knob existed keep their identity.
  if (k.b_panel > 0) c["b_panel"] = Value::integer(k.b_panel);
  if (k.pingpong) c["pingpong"] = Value::boolean(true);
  if (k.cluster_n > 1) c["cluster_n"] = Value::integer(k.cluster_n);
  if (k.cluster_m > 1) c["cluster_m"] = Value::integer(k.cluster_m);
  if (k.swap_ab) c["swap_ab"] = Value::boolean(true);
  if (k.split_reduce) c["split_reduce"] = Value::boolean(true);
  if (k.split_cluster) c["split_cluster"] = Value::boolean(true);
  if (k.split_tail) c["split_tail"] = Value::boolean(true);
  if (k.promote > 0) c["promote"] = Value::integer(k.promote);
  if (k.evict_first_a || k.evict_first_b)
    c["l2_evict_first"] = Value::string(std::string(k.evict_first_a ? "a" : "") + (k.evict_first_b ? "b" : ""));
  return c;
}

GeneratedKnobs knobs_from_config(const Config& config) {
  if (config_string(config, "family") != "generated")
    throw std::invalid_argument("not a generated gemm config (family != generated)");
  GeneratedKnobs k;
  const std::string path = config_string(config, "path");
  const auto parsed = parse_path(path);
  if (!parsed) throw std::invalid_argument("generated gemm config 'path' must be wgmma or mma_sync, not '" + path + "'");
  k.path = *parsed;
  const std::string workgroup = config_string(config, "workgroup");
  int tm = 0, tn = 0;
  char x = 0, extra = 0;
  if (std::sscanf(workgroup.c_str(), "%d%c%d%c", &tm, &x, &tn, &extra) != 3 || x != 'x' || tm < 1 || tn < 1 ||
      tm > 1024 || tn > 1024)
    throw std::invalid_argument("generated gemm config 'workgroup' must look like 128x256, not '" + workgroup + "'");
  k.tile_m = tm;
  k.tile_n = tn;
  k.tile_k = static_cast<int>(config_int(config, "reduction", 1, 1024));
  k.subgroup_m = static_cast<int>(config_int(config, "subgroup_m_count", 1, 32));
  k.subgroup_n = static_cast<int>(config_int(config, "subgroup_n_count", 1, 32));
  k.stages = static_cast<int>(config_int(config, "pipeline_stages", 1, 16));
  k.split_k = static_cast<int>(config_int(config, "split_k", 1, 4096));
  k.swizzle_group = static_cast<int>(config_int(config, "reorder_workgroups", 1, 1 << 16));
  const Value& persistent = config_value(config, "persistent");
  if (!persistent.is_bool()) throw std::invalid_argument("generated gemm config 'persistent' must be true or false");
  k.persistent = persistent.as_bool();
  k.min_blocks_per_sm = static_cast<int>(config_int(config, "min_blocks_per_sm", 0, 32));
  if (config.count("b_panel")) k.b_panel = static_cast<int>(config_int(config, "b_panel", 0, 64));
  if (config.count("pingpong")) {
    const Value& v = config_value(config, "pingpong");
    if (!v.is_bool()) throw std::invalid_argument("generated gemm config 'pingpong' must be true or false");
    k.pingpong = v.as_bool();
  }
  if (config.count("cluster_n")) k.cluster_n = static_cast<int>(config_int(config, "cluster_n", 1, 4));
  if (config.count("cluster_m")) k.cluster_m = static_cast<int>(config_int(config, "cluster_m", 1, 4));
  if (config.count("swap_ab")) {
    const Value& v = config_value(config, "swap_ab");
    if (!v.is_bool()) throw std::invalid_argument("generated gemm config 'swap_ab' must be true or false");
    k.swap_ab = v.as_bool();
  }
  if (config.count("split_reduce")) {
    const Value& v = config_value(config, "split_reduce");
    if (!v.is_bool()) throw std::invalid_argument("generated gemm config 'split_reduce' must be true or false");
    k.split_reduce = v.as_bool();
  }
  if (config.count("split_cluster")) {
    const Value& v = config_value(config, "split_cluster");
    if (!v.is_bool()) throw std::invalid_argument("generated gemm config 'split_cluster' must be true or false");
    k.split_cluster = v.as_bool();
  }
  if (config.count("split_tail")) {
    const Value& v = config_value(config, "split_tail");
    if (!v.is_bool()) throw std::invalid_argument("generated gemm config 'split_tail' must be true or false");
    k.split_tail = v.as_bool();
  }
  if (config.count("promote")) k.promote = static_cast<int>(config_int(config, "promote", 0, 1 << 16));
  if (config.count("l2_evict_first")) {
    const std::string v = config_string(config, "l2_evict_first");
    if (v != "a" && v != "b" && v != "ab")
      throw std::invalid_argument("generated gemm config 'l2_evict_first' must be \"a\", \"b\" or \"ab\", not '" + v + "'");
    k.evict_first_a = v.find('a') != std::string::npos;
    k.evict_first_b = v.find('b') != std::string::npos;
  }
  return k;
}

nlohmann::json ModelEstimate::to_json() const {
  return {{"seconds", seconds},
          {"compute_seconds", compute_seconds},
          {"memory_seconds", memory_seconds},
          {"l2_seconds", l2_seconds},
          {"reduction_seconds", reduction_seconds},
          {"repack_seconds", repack_seconds},
          {"waves", waves},
          {"tile_utilisation", tile_utilisation},
          {"register_a_columns", register_a_columns},
          {"overlap_seconds", overlap_seconds},
          {"loaded_ring_seconds", loaded_ring_seconds}};
}

ModelEstimate estimate(const GeneratedKnobs& k, const ProblemTraits& user_traits, const DeviceTraits& device) {
  const Rates r = rates_for(device);
  const Launch launch = plan_launch(k, user_traits, device);
  // Everything below is about the kernel's own problem (swapped for swap_ab).
  const ProblemTraits t = kernel_traits(k, user_traits);
  // A cluster runs whole: tiles past the edge of the last cluster row or column still occupy SMs
  // (a 2x2 cluster over bmm's single 128x128 tile ran 21 us against 10; H100, session 18).
  const int cm = std::max(1, k.cluster_m), cn = std::max(1, k.cluster_n);
  const std::int64_t tiles_m = ceil_div(ceil_div(t.m, k.tile_m), cm) * cm, tiles_n = ceil_div(ceil_div(t.n, k.tile_n), cn) * cn;
  const std::int64_t k_tiles = ceil_div(t.k, k.tile_k);
  const std::int64_t k_slice = ceil_div(k_tiles, k.split_k) * k.tile_k;
  const std::int64_t work = tiles_m * tiles_n * k.split_k * t.batch;
  const int occ = occupancy(k, launch.shape, device);
  // A cluster runs on SMs of one GPC: clusters of 4 or 8 leave the SMs of a GPC beyond a whole
  // number of clusters idle (the H100's GPCs hold 16 or 18 SMs: 128 of 132 take clusters of 8).
  const double cluster_fill = cluster_size(k) >= 4 ? 128.0 / 132.0 : 1.0;
  const double concurrent = static_cast<double>(device.sm_count) * occ * cluster_fill;

  ModelEstimate e;
  e.tile_utilisation = static_cast<double>(t.m * t.n) / static_cast<double>(tiles_m * k.tile_m * tiles_n * k.tile_n);
  e.waves = static_cast<double>(work) / concurrent;
  const double wave_count = std::ceil(e.waves);
  // One wave: each SM runs `occ` CTAs side by side, sharing its tensor cores.
  const double cta_flops = 2.0 * k.tile_m * k.tile_n * static_cast<double>(k_slice);
  const bool register_a = k.path == KernelPath::Wgmma && t.in_type == 3 && !sm90_read_traits(t).a_k_contiguous;
  const double eff = tile_efficiency(k, register_a && k.swap_ab) * narrow_copy_efficiency(k, t);
  // Dense tensor rate of the input type: fp8 twice f16/bf16's, tf32 half.
  const double tensor_per_sm = r.tensor_per_sm * (t.in_type == 2 ? 2.0 : (t.in_type == 3 ? 0.5 : 1.0));
  // A partly filled SM (fewer CTAs than occupancy in the last wave) still needs the time of
  // its CTAs; fewer CTAs than SMs leaves SMs idle, which wave_count already charges.
  const double per_wave = cta_flops * std::min<double>(occ, static_cast<double>(work) / device.sm_count + 1e-9) /
                          (tensor_per_sm * eff);
  e.compute_seconds = wave_count * std::max(per_wave, cta_flops / (tensor_per_sm * eff));
  // A split tail: full rounds of whole tiles, then one round of slices (k_slice above).
  const SplitTail tail = k.split_tail ? sm90_split_tail(k, t, device.sm_count) : SplitTail{};
  const double tail_ctas = static_cast<double>(tail.tiles) * cluster_size(k) * k.split_k;  // slices in the last round
  if (k.split_tail && tail.units > 0) {
    const double rounds = static_cast<double>(tail.from) / static_cast<double>(tail.units);
    const double whole_flops = 2.0 * k.tile_m * k.tile_n * static_cast<double>(k_tiles * k.tile_k);
    e.waves = rounds + static_cast<double>(tail.tiles * k.split_k) / static_cast<double>(tail.units);
    e.compute_seconds = rounds * whole_flops * occ / (tensor_per_sm * eff) +
                        cta_flops * std::max(1.0, std::min<double>(occ, tail_ctas / device.sm_count)) /
                            (tensor_per_sm * eff);
  }
  const double in_bytes = in_type_bytes(t.in_type);
  const double out_bytes = t.out_type == 2 ? 4.0 : 2.0;
  const double unique = (static_cast<double>(t.m) * t.k + static_cast<double>(t.k) * t.n) * in_bytes * t.batch +
                        static_cast<double>(t.m) * t.n * t.batch * out_bytes * (t.reads_c ? 2 : 1);
  e.memory_seconds = unique / r.hbm;
  // Each tile reads its A and B panels from L2; with a resident B panel (b_panel) a CTA reads B
  // once per column of tiles it enters: about once per CTA plus once per column.
  // A cluster reads a shared tile from L2 once, multicast to its CTAs: A once per cluster row
  // (cluster_n CTAs), B once per cluster column (cluster_m).
  const double a_traffic = static_cast<double>(t.m) * t.k * tiles_n * in_bytes * t.batch / std::max(1, k.cluster_n);
  const double b_traffic = k.b_panel > 0 ? static_cast<double>(t.k) * k.tile_n * in_bytes *
                                               (static_cast<double>(launch.grid[0]) + static_cast<double>(tiles_n * t.batch))
                                         : static_cast<double>(t.k) * t.n * tiles_m * in_bytes * t.batch /
                                               std::max(1, k.cluster_m);
  const double panel_traffic = a_traffic + b_traffic;
  const double stored = static_cast<double>(t.m) * t.n * t.batch * out_bytes * (t.reads_c ? 2 : 1);
  e.l2_seconds = panel_traffic / r.l2 + stored / (r.store * store_efficiency(k, t));  // reads and writes share L2
  // A CTA keeps (stages - 1) tiles of loads in flight, about 1 us each way to HBM: with few
  // CTAs (small M, no split) that, not the HBM peak, bounds how fast the panels stream in.
  const double stage_bytes = static_cast<double>(k.tile_m + (k.b_panel > 0 ? 0 : k.tile_n)) * k.tile_k * in_bytes;
  // Fewer than four warps issue too few copies to keep that many bytes moving.
  const int warps = k.path == KernelPath::Wgmma ? 4 : k.subgroup_m * k.subgroup_n;
  const double issue = warps >= 4 ? 1.0 : (warps == 2 ? 0.8 : 0.6);
  const double per_cta_bandwidth = issue * std::max(1, k.stages - 1) * stage_bytes / 1.0e-6;
  const double resident = std::min(static_cast<double>(work), concurrent);
  e.memory_seconds = std::max(e.memory_seconds, panel_traffic / (resident * per_cta_bandwidth));
  e.loaded_ring_seconds = 2.0 * panel_traffic / (resident * per_cta_bandwidth);
  if (k.split_k > 1 && k.split_cluster) {
    // Slices summed inside the cluster: nothing goes through global memory but D, but every
    // wave of CTAs, after its K loop, writes its f32 partial tile to shared memory, meets two
    // cluster barriers and reads a tile's worth back through distributed shared memory before
    // the next wave can start. Charged per wave: 2 us plus those bytes at 40 GB/s per SM (a
    // conservative guess for a new kernel; the measurements decide).
    const double per_cta = 2.0 * k.tile_m * k.tile_n * 4.0;
    e.reduction_seconds = std::ceil(e.waves) * (2.0e-6 + per_cta / 40e9);
  } else if (k.split_k > 1 && k.split_reduce) {
    // Every slice stores its fp32 partials apart; a second launch reads them all back and
    // writes D: no atomics, but the slices' bytes twice, a dependent launch and its ramp (about
    // 5 us in all on the H100: 64x64x65536 in 64 reduced slices ran 19.9 us where 32 atomic
    // ones ran 15.7; session 18).
    const double partial = static_cast<double>(t.m) * t.n * t.batch * 4.0;
    const double written = static_cast<double>(t.m) * t.n * t.batch * out_bytes;
    // Every kReduceChargedSlices slices past the first cost about 2 us (fitted to two long-K
    // shapes: 32 slices ran 1.1-3.3 us above this model without it where 16 ran 0.4-0.8 us above
    // it, 64 slices 4.4 us; H200, session 26, where the model had ranked 64x128 tiles in 32
    // slices first and 64x64 in 16, measured fastest on both GPUs, 31st).
    const double rounds = std::ceil(static_cast<double>(k.split_k) / kReduceChargedSlices);
    e.reduction_seconds = 2.0 * partial * k.split_k / r.hbm + written / r.hbm + r.launch + 2e-6 + (rounds - 1) * 2e-6;
  } else if (k.split_k > 1 && k.split_tail) {
    // Each slice of a tail tile stores its f32 partial tile, and the last one reads the others
    // back before it stores the sum: fitted to 3000^3 f16 in 128x256 tiles (H200, session 29,
    // do_bench): three whole rounds 124.4 us; two and a tail in 2, 3, 4 or 5 slices 116.1, 113.9,
    // 113.5, 114.0, so after its slice the tail spent 12.4, 17.1, 20.1 and 22.7 us (a 128 KB tile
    // read back at about 40 GB/s per SM, plus the store and the arrival).
    e.reduction_seconds = 4.0 * k.tile_m * k.tile_n * (k.split_k + 1.5) / 38e9 + 1e-6;
  } else if (k.split_k > 1) {
    // Every slice adds fp32 partials (read-modify-write in L2), the last reads them back.
    const double partial = static_cast<double>(t.m) * t.n * t.batch * 4.0;
    // ...and every slice's atomic adds land on the same addresses, which the L2 serialises
    // (64x64x65536 on H200: split 128 ran 21 us where the traffic alone predicts 5).
    e.reduction_seconds = partial * (2.0 * k.split_k + 2.0) / r.l2 + 2e-6 + k.split_k * 0.1e-6 +
                          static_cast<double>(t.m) * t.n * t.batch * k.split_k / r.split_atomics;
  }
  // Mostly-idle GPUs hide less latency: a kernel with few CTAs per SM runs its K loop
  // latency-bound, about 1.5 us per K tile of pipeline fill and drain, unless stages cover it.
  const double latency =
      static_cast<double>(k.split_tail ? k_tiles : ceil_div(k_slice, k.tile_k)) * 0.12e-6 + 2e-6;
  // One CTA per SM (the big tiles) has nothing to run while its own warpgroups store a tile: its
  // MMAs and its stores take turns, so their times add. No fitted number: the rule came from the
  // tuned-on 4096x16384x256 (H100, session 13: 128x256 ran 94 us, 39.5 MMA + 44.7 store by this
  // model; 64x256 with a B panel 110.6, 65.6 + 44.7). The holdout 16384x4096x128 (68-70 us with
  // a panel; 19.7 + 44.7) was a check, not an input. Two or more CTAs per SM overlap one's
  // stores with another's MMAs.
  const double store_seconds = stored / (r.store * store_efficiency(k, t));
  const double serial = occ == 1 && !k.pingpong ? e.compute_seconds + store_seconds : 0.0;
  // Operand copies before the GEMM: each element read and written once at HBM rate, plus a launch.
  e.repack_seconds = (launch.repacks.a.traffic_bytes() + launch.repacks.b.traffic_bytes()) / r.hbm +
                     (launch.repacks.a.active + launch.repacks.b.active) * r.launch;
  e.seconds = std::max({e.compute_seconds, e.memory_seconds, e.l2_seconds, latency, serial}) + e.reduction_seconds +
              e.repack_seconds + r.launch;
  // Calibration: over the 6615 generated kernels measured in the recorded suite runs of sessions
  // 25-30 (H200), split-K kernels with a separate reduction ran a median 1.32x their estimate,
  // whole-tile wgmma kernels 1.19x (atomic split-K 1.03-1.22x), so the model ranked them first
  // where they then lost (512x5120x13824: 2 slices estimated 102.6 us ran 144.3, the unsplit
  // kernel estimated 103.9 ran 99.1). Charging 10% more took the first-choice regret over 300 shape
  // runs from 1.070 to 1.063 without dropping any recorded best from the selection
  // (ktune_model_replay); 20% did drop some.
  if (k.split_reduce) e.seconds *= 1.1;
  if (register_a)
    e.register_a_columns = k.tile_n / std::max(1, k.subgroup_n);
  // Memory-bound problems tie at unique bytes / HBM for every kernel (see select_candidates).
  auto p4 = [](double x) { return x * x * x * x; };
  if (e.memory_seconds >= std::max({e.compute_seconds, e.l2_seconds, latency, serial}))
    e.overlap_seconds =
        std::pow(p4(e.compute_seconds) + p4(e.memory_seconds) + p4(e.l2_seconds) + p4(latency) + p4(serial), 0.25);
  return e;
}

nlohmann::json SpaceSummary::to_json() const {
  return {{"considered", considered}, {"valid", valid}, {"rejection_examples", rejection_examples}};
}

// The model's order; where it ties, the kernel whose ring of stages binds less at a loaded
// HBM's latency first (a deeper ring, where the ring may bind at all; otherwise the enumeration
// order). On 128x8192x28672 bf16 64x128 tiles ran 251, 159, 149.8, 135.5 and 128.0 us with 3,
// 4, 5, 6 and 8 stages (H200, session 30), which the model, bound there by its compute and L2
// terms, had tied from 5 stages on; 64x224 on 32x28672x8192 ran 129 us with 3 and 125 with 4-6.
// Where no ring binds, the order stays: ranking every tie deeper first lost the measured
// winners of 1x12288x4096 (64x16 swapped, 6 stages) and strict f32 777x1001x513 (session 30).
namespace {
double tie_key(const RankedKnobs& r) { return std::max(r.estimate.seconds, r.estimate.loaded_ring_seconds); }

// Swapped kernels (D^T = B^T A^T) for mid-size M whose rows fill 128-row tiles badly: the
// problem's M then runs along the kernel's N, in steps of 16 instead of 64, as cuBLASLt's own
// kernels lay it out (322x5120x8192 bf16: its default is a 128x112 tile over N x M, 120 tiles in
// clusters of 4). Measured there (H200, sessions 30-31, do_bench): swapped 128x112 with 5 stages
// 51.2-52.4 us against 55.6-55.7 for the best unswapped kernel (128x128 over 384 rows, 16% of
// them padding) and 46 for cuBLAS. At equal tiles the swap costs a few percent (its stores go out
// transposed, element by element): 660x3072x11008 as 128x144 swapped, 720 rows, ran 77.8 us
// against 75.2 unswapped over 768 (session 25). So a width is offered only where it pads M at
// least 10% less than 128-row tiles do (322: 336 rows against 384; 660's 144 pads 720, 7% less,
// and is left out), and the class rule in select_candidates measures the best of them: the
// measurement decides. On 11 mid-M shapes of random seeds 8-26, drawn after this rule was set,
// the generated kernel went from 0.870 to 0.925 of cuBLASLt's default in geometric mean (a
// swapped kernel won 7 of them; none lost more than 3%; H200, session 31).
// Consumer warpgroups stacked along the kernel's M only (subgroup_n 1), as its column steps of
// 16 need; no split (long K stays whole here) and no cluster (pairs ran 3% slower; larger ones
// cannot split 112 rows into whole swizzle periods).
// Swapped kernels for skinny M (M <= 64, decode): the problem's N runs along 64- or 128-row wgmma
// tiles and its M along 16-64 columns, no wider than M needs, split-K at every `splits` count
// (and summed inside a cluster where `split_cluster`). Deep rings: these are bandwidth-bound,
// and a narrow tile keeps few bytes in flight per stage.
template <typename Consider>
void consider_decode_swaps(const ProblemTraits& traits, const std::vector<int>& splits, bool split_cluster,
                           Consider&& consider) {
  if (traits.m > 64) return;
  for (int tm : {64, 128})
    for (int tn : {16, 32, 64})
      for (int sm : {1, 2})
        for (int stages : {4, 6, 8, 12, 16})
          for (bool persistent : {false, true})
            for (int split : splits) {
              if (tn > 16 && tn / 2 >= traits.m) continue;
              if (sm == 2 && tm != 128) continue;
              GeneratedKnobs k = wgmma_knobs(tm, tn, sm, 1, stages, persistent, traits.in_type);
              k.split_k = split;
              k.swap_ab = true;
              consider(k);
              if (split_cluster && (split == 2 || split == 4 || split == 8) && !persistent) {
                k.split_cluster = true;
                consider(k);
              }
            }
}

template <typename Consider>
void consider_mid_m_swaps(const ProblemTraits& traits, Consider&& consider) {
  if (traits.m <= 64 || traits.m > 1024) return;
  const std::int64_t unswapped_rows = ceil_div(traits.m, 128) * 128;
  for (int tn = 64; tn <= 256; tn += 16) {
    if (static_cast<double>(unswapped_rows) < 1.1 * static_cast<double>(ceil_div(traits.m, tn) * tn)) continue;
    // The kernel's B is the problem's A: widths off 32 columns need it K-contiguous.
    if (tn % 32 != 0 && !traits.a_k_contiguous) continue;
    for (int tm : {64, 128, 192, 256})
      for (int stages : {4, 5, 6, 8})
        for (bool persistent : {false, true}) {
          GeneratedKnobs k = wgmma_knobs(tm, tn, tm == 192 ? 3 : (tm == 64 ? 1 : 2), 1, stages, persistent, traits.in_type);
          k.swap_ab = true;
          consider(k);
        }
  }
}
}  // namespace

// Still tied: A fragments loaded by the threads (register_a_columns) feeding wider wgmmas first.
// tf32 nn 4096^3 swapped, whose 128x256 (two warpgroups of 64x256), 128x256 (of 128x128) and
// 256x128 tiles all tie: 64x256 atoms with 4 stages ran 368.6 and 382.1 us against 397.1 and
// 400.6 for the 64x128 ones of the usual pick (cuBLASLt's tf32 kernel there is 128x256 in two
// warpgroups too, with half the shared-memory loads of that pick; H200, session 38, do_bench, one
// order and its reverse), and the wider one had not been among the measured.
// Kernels the space and the refinement leave out although rejects() allows them: with A read
// into registers, consumer warpgroups side by side along N each load the same A fragments, twice
// the loads per flop of warpgroups stacked along M. tf32 nn 4096^3 swapped, 128x256 tiles: two
// warpgroups of 128x128 ran 454.1 and 481.0 us (unpaired, paired), two of 64x256 384.6 (H200,
// session 37).
namespace {
bool left_out(const RankedKnobs& r) { return r.estimate.register_a_columns > 0 && r.knobs.subgroup_n > 1; }
}  // namespace

bool ranks_before(const RankedKnobs& a, const RankedKnobs& b) {
  if (a.estimate.seconds != b.estimate.seconds) return a.estimate.seconds < b.estimate.seconds;
  if (tie_key(a) != tie_key(b)) return tie_key(a) < tie_key(b);
  return a.estimate.register_a_columns > b.estimate.register_a_columns;
}

namespace {

// The knob combinations rank_space walks, each through rejects() and the model; what was cut
// and why is kept for the summary.
class SpaceWalk {
 public:
  SpaceWalk(const ProblemTraits& traits, const DeviceTraits& device, const SpaceOptions& options)
      : traits_(traits), device_(device), options_(options) {
    const std::int64_t k_tiles_32 = ceil_div(kernel_k(traits), 32);
    for (int s : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128})
      if (s <= k_tiles_32) splits_.push_back(s);
  }

  void wgmma_kernels();
  void mma_sync_kernels();
  std::vector<RankedKnobs> ranked(SpaceSummary* summary) {
    std::stable_sort(ranked_.begin(), ranked_.end(), ranks_before);
    if (summary) *summary = summary_;
    return std::move(ranked_);
  }

 private:
  void consider(GeneratedKnobs k);
  // A persistent split kernel again with only its last round's tiles split, where that round
  // is partial and its slices fit in one round.
  void consider_split_tail(GeneratedKnobs k);
  // The same wgmma kernel built for two CTAs per SM (SpaceOptions::co_resident): the launch bound
  // halves its registers and rejects() drops the tiles whose accumulators or ring no longer fit.
  // cuBLASLt's default on 2048x2048x96 f16 runs 128x128 tiles, 256 CTAs in pairs, 8.0 us, where
  // every one-CTA-per-SM generated kernel ran 8.8-9.1 (H200, session 36): a lone CTA's output
  // store and its next loads take turns, was the guess. Measured (H200, session 37, 14 shapes):
  // never faster; on 2048x2048x96 the best pair ran 9.2 us against 8.7 for 128x256 alone, and
  // Nsight Compute showed cuBLASLt's kernel there to be one 256x128 CTA per SM too (nvjet, 128
  // CTAs in 1x2 clusters), 8.0 us against the generated 10.0-10.5 at base clocks: the gap is in
  // the kernel's own instructions (1.5x as many for the same HGMMAs), not in its occupancy.
  void consider_co_resident(GeneratedKnobs k) {
    k.min_blocks_per_sm = 2;
    consider(k);
  }
  // One tiling of the wgmma loop and the variants built on it (split tail, swapped tf32, a
  // second-kernel reduction, slices in a cluster, multicast clusters, two CTAs per SM).
  void wgmma_tiling(int tm, int tn, int sm, int sn, int stages, bool persistent, int split, int panel);
  void wgmma_variants(GeneratedKnobs k, int stages, int split, int panel);

  const ProblemTraits& traits_;
  const DeviceTraits& device_;
  const SpaceOptions& options_;
  std::vector<int> splits_{1};
  bool swap_tf32_ = false;
  int whole_k_tiles_ = 0;
  SpaceSummary summary_;
  std::vector<RankedKnobs> ranked_;
  std::map<std::string, int> reason_counts_;
};

void SpaceWalk::consider(GeneratedKnobs k) {
  k.swizzle_group = raster_group(k, traits_);
  // Strict f32 promotes its tensor-core sums every kF32ChainK elements (accuracy, not speed).
  if (traits_.f32_split) k.promote = std::max(1, kF32ChainK / k.tile_k);
  if (options_.evict_first) stream_read_once_operands(k, traits_);
  ++summary_.considered;
  if (auto reason = rejects(k, traits_, device_)) {
    // Keep a few distinct reasons (by their first words) as a record of what the rules cut.
    const std::string head = reason->substr(0, std::min<std::size_t>(reason->size(), 40));
    if (reason_counts_[head]++ == 0 && summary_.rejection_examples.size() < 8)
      summary_.rejection_examples.push_back(*reason);
    return;
  }
  RankedKnobs ranked_knobs{k, estimate(k, traits_, device_)};
  if (left_out(ranked_knobs)) return;
  ++summary_.valid;
  ranked_.push_back(ranked_knobs);
}

void SpaceWalk::consider_split_tail(GeneratedKnobs k) {
  if (!options_.split_tail || !k.persistent || k.split_k < 2 || k.b_panel > 0 || k.split_reduce || k.split_cluster)
    return;
  k.split_tail = true;
  const SplitTail tail = sm90_split_tail(k, kernel_traits(k, traits_), device_.sm_count);
  if (tail.tiles > 0 && tail.tiles * k.split_k <= tail.units) consider(k);
}

void SpaceWalk::wgmma_kernels() {
  if (!options_.wgmma || path_unavailable_reason(KernelPath::Wgmma, device_)) return;
  // 192 rows as well as 192 columns: 192x192 tiles fill the SMs in whole waves where powers
  // of two leave a partial one (3000x3000: 256 tiles of 192x192 on 132 SMs, 1.94 waves,
  // against 192 tiles of 256x192, 1.45; cuBLASLt's pick there is 192x192).
  // Short K: B's whole K extent fits in shared memory, so persistent kernels may keep it there
  // while they walk down a column (b_panel) instead of reading it again for every tile.
  // Panels with a 192-row or 192-column tile never came within 1.4x of the best kernel on any
  // of the 44 suite shapes (H100, session 14, 40 kernels measured per shape; 128x192 with a
  // panel ran 2.1-2.8x): they only take measuring slots, and so would the 32-column steps.
  const int tile_k = wgmma_knobs(64, 64, 1, 1, 3, false, traits_.in_type).tile_k;
  // tf32 with an N-contiguous B: every tiling also swapped (D^T = B^T A^T), whose A is then
  // B^T, M-contiguous, read into registers (KT_A_REGS), where the unswapped kernel first
  // copies B transposed (4096^3 nn: 51 us of copy beside a 351 us GEMM; H100, session 20).
  swap_tf32_ = options_.swap_ab && traits_.in_type == 3 && !traits_.f32_split && !traits_.b_k_contiguous;
  whole_k_tiles_ = static_cast<int>(ceil_div(kernel_k(traits_), tile_k));
  // Small tiles also with deep rings (8-16 stages) and 32 columns: long K over small M and N
  // is latency-bound, and bytes in flight per SM decide (256x128x16384: 64x32 with 12 stages
  // and split-K 8 ran 16.9 us, 64x64 with 4-5 stages 19.5-21; cuBLAS runs 64x32 with 16
  // stages there; H100, session 15).
  // Columns in steps of 32 as well (96, 160, 224: any width whose warpgroup piece is a whole
  // number of 32-column TMA store chunks): the SMs fill in whole waves where powers of two
  // leave a partial one. cuBLASLt does the same with its N tile (its m): 1024x10240x8192 runs
  // as 256 tiles of 320x128 (1.94 waves on 132 SMs, against 2.42 for 128x256 tiles),
  // 512x5120x13824 as 124 tiles of 168x128 (one wave) (H100, session 17).
  // And, with K-contiguous B and one warpgroup across, in steps of 16 (80, 112, ... 240): the
  // stores then go through stmatrix and row copies, not TMA, but mid-size problems fill the
  // SMs in one wave (660x3072x11008: 128x144 gives 132 tiles, 128x192 96; cuBLASLt's tiles
  // there are 136 wide; H100, session 24).
  for (int tm : {64, 128, 192, 256})
    for (int tn : {32, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256})
      for (int sm : {1, 2, 3})
        for (int sn : {1, 2})
          for (int stages : {2, 3, 4, 5, 6, 8, 12, 16})
            for (bool persistent : {false, true})
              for (int split : splits_)
                for (int panel : {0, whole_k_tiles_}) wgmma_tiling(tm, tn, sm, sn, stages, persistent, split, panel);
  if (options_.swap_ab) {
    auto consider_one = [this](GeneratedKnobs k) { consider(k); };
    consider_decode_swaps(traits_, splits_, options_.split_cluster, consider_one);
    consider_mid_m_swaps(traits_, consider_one);
  }
  // Pingpong (opt-in: on the H100 it verified, and over the 38 suite shapes with 40 kernels
  // measured each it was fastest only on 4096x16384x256, by 3%; session 14): one warpgroup per
  // whole tile, two taking turns.
  if (options_.pingpong)
    for (int tm : {64, 128})
      for (int tn : {64, 128, 192, 256})
        for (int stages : {3, 4, 5}) {
          GeneratedKnobs k = wgmma_knobs(tm, tn, 1, 1, stages, true, traits_.in_type);
          k.pingpong = true;
          consider(k);
        }
}

void SpaceWalk::wgmma_tiling(int tm, int tn, int sm, int sn, int stages, bool persistent, int split, int panel) {
  if (panel > 0 && (!persistent || split > 1 || panel > kMaxPanelTiles || tm == 192 || tn % 64 != 0)) return;
  // Tiles past 64x64 ring at most 8 deep (more never fits) and also 6 deep, between the
  // 5 and 8 stages their shared memory holds (128x8192x28672: 64x128 with 5, 6 and 8
  // stages ran 149.8, 135.5 and 128.0 us; H200, session 30).
  if (stages > 8 && (tm > 64 || tn > 64)) return;
  if (stages == 6 && tm <= 64 && tn <= 64) return;
  if (tn == 32 && tm > 64) return;
  if (tn % 32 != 0 && (sn != 1 || !traits_.b_k_contiguous || panel > 0 || split > 1)) return;
  // Three consumer warpgroups of 64 rows only for 192-row tiles: each issues
  // m64nN wgmmas over the whole width, where two side by side (1x2) issue
  // half-width ones that read A from shared memory twice as often per flop.
  if (sm == 3 && (tm != 192 || sn != 1)) return;
  GeneratedKnobs k = wgmma_knobs(tm, tn, sm, sn, stages, persistent, traits_.in_type);
  k.split_k = split;
  k.b_panel = panel;
  if (options_.co_resident && panel == 0 && stages <= 4) consider_co_resident(k);
  // Two stages only for two CTAs per SM, whose other CTA keeps loads in flight.
  if (stages == 2) return;
  consider(k);
  consider_split_tail(k);
  wgmma_variants(k, stages, split, panel);
}

void SpaceWalk::wgmma_variants(GeneratedKnobs k, int stages, int split, int panel) {
  // Not in CTA pairs: cuBLASLt's default on 4096^3 nn runs 256x128 tiles in 1x2
  // clusters, but the best swapped pairs ran 384.6 and 400.6 us there against
  // 366.0-369.2 for the lone swapped 256x128 (H200, session 37, call 1).
  if (swap_tf32_ && panel == 0) {
    GeneratedKnobs swapped = k;
    swapped.swap_ab = true;
    consider(swapped);
  }
  // Split-K's slices summed by a second kernel instead of atomically, where the
  // atomic adds would queue for longer than the second kernel takes: from 64K
  // adds up. Session 18 set 512K, when the reduction waited on memory once per
  // four slices and launched after the GEMM had finished. With all its loads in
  // flight and launched as the GEMM's dependent (H100, session 20, same kernels
  // both ways): 64x64x65536 as 64x64 tiles in 32 slices (128K adds) 18.8 us
  // reduced against 20.9 atomic, 256x128x16384 in 8 (256K) 17.3 against 17.4,
  // 128x8192x28672 in 2 (2M) 193 against 290.
  if (split > 1 && static_cast<double>(traits_.batch) * traits_.m * traits_.n * split >= 64.0 * 1024) {
    GeneratedKnobs reduced = k;
    reduced.split_reduce = true;
    consider(reduced);
  }
  // The slices of a tile as one cluster, summed in distributed shared memory:
  // no workspace round trip and no second kernel (longk_256x128x16384 spent
  // 4.8 us in its reduction kernel against 9.7 in the GEMM; H100, session 23).
  // Opt-in (SpaceOptions::split_cluster): measured, never faster yet.
  if (options_.split_cluster && (split == 2 || split == 4 || split == 8) && !k.persistent && panel == 0) {
    GeneratedKnobs in_cluster = k;
    in_cluster.split_cluster = true;
    consider(in_cluster);
  }
  // The same kernel in thread-block clusters sharing A along N and B along M
  // (TMA multicast), where they apply; cuBLASLt's picks on the suite run
  // clusters of 1x2 to 4x2, with split-K too (H100, session 17).
  if (options_.clusters && panel == 0)
    for (const auto& [cn, cm] : kClusterShapes) {
      k.cluster_n = cn;
      k.cluster_m = cm;
      consider(k);
      consider_split_tail(k);
      if (options_.co_resident && stages <= 4) consider_co_resident(k);
    }
}

// mma.sync kernels exist for f16 and bf16 only.
void SpaceWalk::mma_sync_kernels() {
  if (!options_.mma_sync || traits_.in_type > 1 || path_unavailable_reason(KernelPath::MmaSync, device_)) return;
  const std::pair<int, int> warp_grids[] = {{1, 1}, {1, 2}, {1, 4}, {2, 1}, {2, 2}, {2, 4}, {4, 2}};
  for (int tm : {16, 32, 64, 128, 256})
    for (int tn : {32, 64, 128, 256})
      for (int tk : {32, 64, 128, 256})
        for (auto [sm, sn] : warp_grids)
          for (int stages : {3, 4})
            for (int split : splits_) {
              // Deep K tiles only pay where few rows leave the loads latency-bound.
              if (tk > 64 && tm > 32) continue;
              GeneratedKnobs k = space_knobs(KernelPath::MmaSync, tm, tn, tk, sm, sn, stages, false);
              k.split_k = split;
              consider(k);
            }
}

}  // namespace

std::vector<RankedKnobs> rank_space(const ProblemTraits& traits, const DeviceTraits& device, const SpaceOptions& options,
                                    SpaceSummary* summary) {
  SpaceWalk walk(traits, device, options);
  walk.wgmma_kernels();
  walk.mma_sync_kernels();
  return walk.ranked(summary);
}

HedgeClass hedge_class(const GeneratedKnobs& k) {
  return {k.path,         k.split_k > 1,  k.b_panel > 0,  k.pingpong,   cluster_size(k) > 1,
          k.swap_ab,      k.split_reduce, k.split_cluster, k.split_tail, co_resident(k)};
}

double hedge_window(double best_estimate_seconds) {
  return best_estimate_seconds >= kHedgeLargeSeconds ? kHedgeWindowLarge : kHedgeWindow;
}

std::vector<RankedKnobs> select_candidates(const ProblemTraits& traits, const DeviceTraits& device,
                                           const SpaceOptions& options, SpaceSummary* summary) {
  return select_ranked(rank_space(traits, device, options, summary), options);
}

std::vector<RankedKnobs> select_ranked(const std::vector<RankedKnobs>& ranked, const SpaceOptions& options) {
  std::vector<RankedKnobs> chosen;
  if (options.max_candidates == 0) return chosen;
  const std::size_t per_tile_cap = std::max<std::size_t>(2, options.max_candidates / 4);
  std::map<std::string, std::size_t> per_tile;
  std::map<KernelPath, bool> path_seen;
  std::map<HedgeClass, bool> class_seen;
  // The best of each path first: the model must not shut a path out on its own. Then the best
  // split and unsplit kernel of each path where the model puts it within 2x of the best, where
  // its split-K guess is least certain (on 512x5120x13824 it once ranked twelve split kernels
  // first, all 2.5x slower than the best unsplit one); further out a forced class only takes a
  // slot from a kernel the model likes (bmm 32 x 512x512x64 lost its best, 0.70 -> 0.61x).
  // The best kernel in a cluster too, when they are in the space, the best whose split-K slices
  // sum inside a cluster (split_cluster: a new kernel, its cost a guess), the best with a split
  // tail (split_tail: likewise), and the best
  // swapped one (swap_ab), which the model cannot tell from the unswapped kernels well.
  // Likewise with and without a B panel: on 4096x16384x256 the model ranked only panel kernels
  // and the best of them ran 110.6 us where a streaming one had run 94 (H100, session 13).
  const double best = ranked.empty() ? 0.0 : ranked.front().estimate.seconds;
  const double window = hedge_window(best);
  for (const RankedKnobs& r : ranked) {
    const HedgeClass cls = hedge_class(r.knobs);
    if (class_seen[cls]) continue;
    // A split tail is forced in only where the model puts it near the best: elsewhere (decode,
    // short K) it is the split-K kernel of a tile that fills no round.
    if (r.knobs.split_tail && r.estimate.seconds > 1.1 * best) continue;
    class_seen[cls] = true;
    // Large problems: no path is forced in either, outside the window (the window says why).
    if ((path_seen[r.knobs.path] || window < kHedgeWindow) && r.estimate.seconds > window * best) continue;
    path_seen[r.knobs.path] = true;
    chosen.push_back(r);
    ++per_tile[tile_key(r.knobs)];
  }
  // Memory-bound problems tie at unique bytes / HBM for every kernel, and the ties go to the
  // first tiles enumerated. The terms do not overlap perfectly, so one more: the tied kernel
  // whose compute, L2 and latency terms sit furthest below the bound (the smallest
  // overlap_seconds). l70b_up_decode_m32 (32x28672x8192, H200, session 26): all tied at 101 us;
  // 64x112 (ranked first, compute 87 us) ran 127 us, 64x224 (74th, compute 72) 123. Only one:
  // ordering every tie this way dropped measured winners of five other memory-bound shapes
  // (decode 1x12288x4096's 64x16 swapped kernel, tall 32768x64x4096's) from the first 20.
  // Outside clusters: the model credits multicast with less L2 traffic, which then decides the
  // 4-norm, but on that shape the pair ran 131.8 us against the lone 64x224's 123.1 (session 26,
  // runs 1-3), and refinement from the faster 64x112 seeds never stepped to the lone one.
  const RankedKnobs* slack = nullptr;
  for (const RankedKnobs& r : ranked) {
    if (r.estimate.seconds != best) break;
    if (r.estimate.overlap_seconds > 0 && cluster_size(r.knobs) == 1 &&
        (!slack || r.estimate.overlap_seconds < slack->estimate.overlap_seconds))
      slack = &r;
  }
  if (slack && std::none_of(chosen.begin(), chosen.end(), [&](const RankedKnobs& c) { return c.knobs == slack->knobs; })) {
    chosen.push_back(*slack);
    ++per_tile[tile_key(slack->knobs)];
  }
  // One cluster shape per kernel: the model tells cluster shapes apart by L2 traffic alone, so
  // the others would only crowd out other tiles; refinement steps through the shapes around
  // the measured best (neighbours).
  auto unclustered = [](GeneratedKnobs k) {
    k.cluster_n = k.cluster_m = 1;
    return k;
  };
  std::vector<GeneratedKnobs> clustered_bases;
  for (const RankedKnobs& c : chosen)
    if (cluster_size(c.knobs) > 1) clustered_bases.push_back(unclustered(c.knobs));
  // A quarter of the slots at most for split-K with a separate reduction: the model charges the
  // atomic scheme's queue by a rate, and where that is off (64x64x65536: it ranked 64 reduced
  // slices first, which ran 19.9 us against 15.7 for 32 atomic ones; H100, session 18) the
  // reducing kernels would take every slot.
  std::size_t reduced = static_cast<std::size_t>(
      std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& c) { return c.knobs.split_reduce; }));
  const std::size_t reduced_cap = std::max<std::size_t>(2, options.max_candidates / 4);
  // Split-K summed inside a cluster (opt-in): only the one kernel the class rule forced in. Its cost
  // is a guess the model gets wrong: 256x128x16384 as 64x32 in clusters of 8 slices, 16 stages,
  // model 11.4 us, measured 24.0. On three long-K and decode shapes the best such kernel ran
  // 0.3% and 0.8% behind the global-memory reductions and 9% behind on 128x256x32768, never
  // ahead (H100, session 23, run 5).
  std::size_t in_cluster = static_cast<std::size_t>(
      std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& c) { return c.knobs.split_cluster; }));
  // A quarter at most for split tails too: a new scheme whose fixup cost is a guess.
  std::size_t tails = static_cast<std::size_t>(
      std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& c) { return c.knobs.split_tail; }));
  // And for kernels of two CTAs per SM: the model credits them the overlap of every store with
  // MMAs (no serial term) but not the halved registers or ring; the measurements decide.
  std::size_t paired = static_cast<std::size_t>(
      std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& c) { return co_resident(c.knobs); }));
  for (const RankedKnobs& r : ranked) {
    if (chosen.size() >= options.max_candidates) break;
    if (std::find_if(chosen.begin(), chosen.end(), [&](const RankedKnobs& c) { return c.knobs == r.knobs; }) != chosen.end())
      continue;
    if (r.knobs.split_reduce && reduced >= reduced_cap) continue;
    if (r.knobs.split_cluster && in_cluster >= 1) continue;
    if (r.knobs.split_tail && tails >= reduced_cap) continue;
    if (co_resident(r.knobs) && paired >= reduced_cap) continue;
    if (cluster_size(r.knobs) > 1) {
      const GeneratedKnobs base = unclustered(r.knobs);
      if (std::find(clustered_bases.begin(), clustered_bases.end(), base) != clustered_bases.end()) continue;
      clustered_bases.push_back(base);
    }
    std::size_t& count = per_tile[tile_key(r.knobs)];
    if (count >= per_tile_cap) continue;
    // Reduced split-K kernels of one tile and split differ by stages and persistence, which the
    // model barely tells apart: two of them at most, so that the reduced quarter holds other
    // tiles and splits too (128x256x32768 on an H200 measured five 64x128 / 32-slice kernels,
    // 19.4-20.0 us, and no 64x64 / 16, the H100's best; session 25).
    if (r.knobs.split_reduce && count >= 2) continue;
    ++count;
    if (r.knobs.split_reduce) ++reduced;
    if (r.knobs.split_cluster) ++in_cluster;
    if (r.knobs.split_tail) ++tails;
    if (co_resident(r.knobs)) ++paired;
    chosen.push_back(r);
  }
  if (chosen.size() > options.max_candidates) chosen.resize(options.max_candidates);
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const RankedKnobs& a, const RankedKnobs& b) { return a.estimate.seconds < b.estimate.seconds; });
  return chosen;
}

std::vector<RankedKnobs> neighbours(const std::vector<GeneratedKnobs>& seeds, const std::vector<GeneratedKnobs>& seen,
                                    const ProblemTraits& traits, const DeviceTraits& device, std::size_t max_candidates,
                                    bool clusters, bool split_tail, bool co_resident) {
  const std::vector<int> splits{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
  std::vector<GeneratedKnobs> taken = seen;
  auto fresh = [&](const GeneratedKnobs& k) {
    return std::find(taken.begin(), taken.end(), k) == taken.end();
  };
  std::vector<std::vector<RankedKnobs>> per_seed;
  for (const GeneratedKnobs& seed : seeds) {
    std::vector<GeneratedKnobs> steps;
    // A step keeps the seed's rasterisation if the seed had its own (the swizzle step below, or a
    // configuration from elsewhere); otherwise the neighbour's tiles choose theirs.
    const bool own_raster = seed.swizzle_group != raster_group(seed, traits);
    auto step = [&](auto change) {
      GeneratedKnobs k = seed;
      change(k);
      if (!own_raster && k.swizzle_group == seed.swizzle_group) k.swizzle_group = raster_group(k, traits);
      // A seed that streams its read-once operands evict-first (--generated-evict-first) passes
      // the policy on, decided again for the neighbour's own tiles.
      if (seed.evict_first_a || seed.evict_first_b) stream_read_once_operands(k, traits);
      steps.push_back(k);
    };
    step([](GeneratedKnobs& k) { k.tile_k *= 2; });
    step([](GeneratedKnobs& k) { k.tile_k /= 2; });
    step([](GeneratedKnobs& k) { k.tile_m *= 2; });
    step([](GeneratedKnobs& k) { k.tile_m /= 2; });
    step([](GeneratedKnobs& k) { k.tile_n *= 2; });
    step([](GeneratedKnobs& k) { k.tile_n /= 2; });
    step([](GeneratedKnobs& k) { k.tile_n = k.tile_n * 3 / 4; });
    step([](GeneratedKnobs& k) { k.tile_n = k.tile_n * 3 / 2; });
    step([](GeneratedKnobs& k) { k.tile_n += 32; });
    step([](GeneratedKnobs& k) { k.tile_n -= 32; });
    step([](GeneratedKnobs& k) { k.tile_n += 16; });
    step([](GeneratedKnobs& k) { k.tile_n -= 16; });
    step([](GeneratedKnobs& k) { k.stages += 1; });
    step([](GeneratedKnobs& k) { k.stages -= 1; });
    step([](GeneratedKnobs& k) { std::swap(k.subgroup_m, k.subgroup_n); });
    step([](GeneratedKnobs& k) { k.subgroup_m *= 2; });
    step([](GeneratedKnobs& k) { k.subgroup_n *= 2; });
    step([](GeneratedKnobs& k) { k.subgroup_m = std::max(1, k.subgroup_m / 2); });
    step([](GeneratedKnobs& k) { k.subgroup_n = std::max(1, k.subgroup_n / 2); });
    step([](GeneratedKnobs& k) { k.persistent = !k.persistent; });
    step([&](GeneratedKnobs& k) { k.b_panel = k.b_panel > 0 ? 0 : static_cast<int>(ceil_div(kernel_k(traits), k.tile_k)); });
    step([](GeneratedKnobs& k) { k.swizzle_group = k.swizzle_group == 8 ? 1 : 8; });  // the one step that sets it
    if (seed.split_k > 1) step([](GeneratedKnobs& k) { k.split_reduce = !k.split_reduce; });
    // A persistent seed with its last round split (as many slices as that round has room for),
    // or a split tail without it.
    if (seed.persistent && (split_tail || seed.split_tail))
      step([&](GeneratedKnobs& k) {
        k.split_tail = !k.split_tail;
        if (!k.split_tail) return;
        k.split_reduce = false;
        const SplitTail tail = sm90_split_tail(k, kernel_traits(k, traits), device.sm_count);
        const std::int64_t k_tiles = ceil_div(kernel_k(traits), k.tile_k);
        for (int s : splits)
          if (s >= 2 && tail.tiles > 0 && tail.tiles * s <= tail.units && s <= k_tiles) k.split_k = s;
      });
    // The seed with a partner CTA on its SM (a ring of at most 4 stages), or alone again.
    if (co_resident || seed.min_blocks_per_sm > 1)
      step([](GeneratedKnobs& k) {
        if (k.path != KernelPath::Wgmma) return;
        k.min_blocks_per_sm = k.min_blocks_per_sm > 1 ? 1 : 2;
        if (k.min_blocks_per_sm > 1) k.stages = std::min(k.stages, 4);
        else k.stages = std::max(k.stages, 3);
      });
    if (clusters) {
      step([](GeneratedKnobs& k) { k.cluster_n = k.cluster_n == 1 ? 2 : 1; });
      step([](GeneratedKnobs& k) { k.cluster_m = k.cluster_m == 1 ? 2 : 1; });
    }
    const auto at = std::find(splits.begin(), splits.end(), seed.split_k);
    if (at != splits.end() && at != splits.begin()) step([&](GeneratedKnobs& k) { k.split_k = *(at - 1); });
    if (at != splits.end() && at + 1 != splits.end()) step([&](GeneratedKnobs& k) { k.split_k = *(at + 1); });
    std::vector<RankedKnobs> ranked;
    for (const GeneratedKnobs& k : steps) {
      if (k.tile_m < 16 || k.tile_n < 16 || k.tile_k < 16 || k.stages < 2 || !fresh(k)) continue;
      if (rejects(k, traits, device)) continue;
      if (std::find_if(ranked.begin(), ranked.end(), [&](const RankedKnobs& r) { return r.knobs == k; }) != ranked.end())
        continue;
      RankedKnobs step_knobs{k, estimate(k, traits, device)};
      if (!left_out(step_knobs)) ranked.push_back(step_knobs);
    }
    std::stable_sort(ranked.begin(), ranked.end(), ranks_before);
    per_seed.push_back(std::move(ranked));
  }
  std::vector<RankedKnobs> out;
  for (std::size_t round = 0; out.size() < max_candidates; ++round) {
    bool any = false;
    for (const std::vector<RankedKnobs>& list : per_seed) {
      if (round >= list.size() || out.size() >= max_candidates) continue;
      any = true;
      if (!fresh(list[round].knobs)) continue;
      taken.push_back(list[round].knobs);
      out.push_back(list[round]);
    }
    if (!any) break;
  }
  return out;
}

}  // namespace ktune::generated
