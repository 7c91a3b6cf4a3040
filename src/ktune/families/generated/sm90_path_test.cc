// The sm_90a path's host side (constraints, launch shape, defines, grid, launch parameters,
// tensor maps) and that the kernel it describes compiles with NVRTC for sm_90a as the emitter
// assembles it: every layout, a sample of knob settings and epilogues, no spills for the default
// tiles. (Running it needs a Hopper GPU: bench/generated/sm90_harness.cu.)

#include "ktune/families/generated/sm90_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_space.h"

namespace ktune::generated {
namespace {

ProblemTraits problem(std::int64_t m, std::int64_t n, std::int64_t k, const char* layout = "nn") {
  ProblemTraits t;
  t.m = m;
  t.n = n;
  t.k = k;
  t.a_k_contiguous = layout[0] == 'n';
  t.b_k_contiguous = layout[1] == 't';
  return t;
}

GeneratedKnobs knobs(int tm, int tn, int tk, int sgm, int sgn, int stages, bool persistent = false, int split = 1,
                     int b_panel = 0) {
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = tm;
  k.tile_n = tn;
  k.tile_k = tk;
  k.subgroup_m = sgm;
  k.subgroup_n = sgn;
  k.stages = stages;
  k.persistent = persistent;
  k.split_k = split;
  k.b_panel = b_panel;
  return k;
}

GeneratedKnobs pingpong(GeneratedKnobs k) {
  k.pingpong = true;
  return k;
}
GeneratedKnobs swapped(GeneratedKnobs k) {
  k.swap_ab = true;
  return k;
}

// The reason, or "" when accepted.
std::string why(const GeneratedKnobs& k, const ProblemTraits& p) { return sm90_rejects(k, p).value_or(""); }
bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const GeneratedKnobs kRecipe = knobs(128, 256, 64, 2, 1, 4);  // 2 consumers of 64x256, 4 stages

TEST(Sm90Path, AcceptsTheUsualTiles) {
  const ProblemTraits p = problem(4096, 4096, 4096);
  EXPECT_EQ(why(kRecipe, p), "");
  EXPECT_EQ(why(knobs(128, 256, 64, 2, 1, 4, true), p), "");
  EXPECT_EQ(why(knobs(256, 128, 64, 2, 1, 4), p), "");
  EXPECT_EQ(why(knobs(256, 192, 64, 2, 1, 4), p), "");  // 192 accumulators under setmaxnreg 232
  EXPECT_EQ(why(knobs(128, 128, 128, 1, 1, 3), p), "");
  EXPECT_EQ(why(knobs(192, 128, 64, 3, 1, 4), p), "");
  EXPECT_EQ(why(knobs(64, 64, 64, 1, 1, 2), problem(1, 8, 8)), "");
  EXPECT_EQ(why(knobs(128, 96, 64, 1, 1, 4), problem(4096, 4096, 4096, "nt")), "");
}

TEST(Sm90Path, RejectsWithPreciseReasons) {
  const ProblemTraits p = problem(4096, 4096, 4096);
  GeneratedKnobs mma_sync = kRecipe;
  mma_sync.path = KernelPath::MmaSync;
  EXPECT_TRUE(mentions(why(mma_sync, p), "wgmma"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 32, 2, 1, 4), p), "tile_k 32"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 96, 2, 1, 4), p), "tile_k 96"));
  EXPECT_TRUE(mentions(why(knobs(96, 128, 64, 1, 1, 4), p), "multiple of 64 (wgmma M)"));
  EXPECT_TRUE(mentions(why(knobs(128, 128, 64, 4, 1, 4), p), "multiple of 64 (wgmma M)"));
  EXPECT_TRUE(mentions(why(knobs(128, 512, 64, 2, 2, 2), p), "tile_n 512"));
  EXPECT_TRUE(mentions(why(knobs(128, 40, 64, 1, 1, 4), problem(4096, 4096, 4096, "nt")), "multiple of 16"));
  // N-contiguous B reads whole 64-column swizzle rows per warpgroup; K-contiguous B does not.
  EXPECT_TRUE(mentions(why(knobs(128, 96, 64, 1, 1, 4), p), "N-contiguous B"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 64, 2, 1, 1), p), "stages"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 64, 2, 1, 5), p), "exceeds 227 KB"));
  GeneratedKnobs two_per_sm = kRecipe;
  two_per_sm.min_blocks_per_sm = 2;
  EXPECT_TRUE(mentions(why(two_per_sm, p), "228 KB per SM"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 64, 1, 1, 3), p), "accumulators"));  // 256 per thread
  EXPECT_TRUE(mentions(why(knobs(192, 256, 64, 3, 1, 3), p), "152 available"));
  EXPECT_TRUE(mentions(why(knobs(256, 128, 64, 4, 2, 2), p), "at most 7"));
}

// Strides TMA cannot use (rows off 16 bytes) reject nothing: such an operand is copied first
// (repack.h, tested in repack_test.cc).
TEST(Sm90Path, AcceptsStridesTmaCannotUseByRepacking) {
  const GeneratedKnobs k = knobs(128, 128, 64, 2, 1, 4);
  ProblemTraits misaligned = problem(127, 255, 520, "nn");
  misaligned.b_alignment_bytes = misaligned.ab_alignment_bytes = 2;
  EXPECT_EQ(why(k, misaligned), "");
}

ProblemTraits typed(ProblemTraits t, int in_type) {
  t.in_type = in_type;
  t.out_type = in_type == 3 ? 2 : 1;  // tf32 -> f32, fp8 -> bf16
  return t;
}

// fp8 and tf32: 128-byte K chunks of 128 and 32 elements, K-major operands only, and 16-byte
// strides counted in their own element size.
TEST(Sm90Path, Fp8AndTf32KeepWholeSwizzleRowsAndKMajorOperands) {
  const ProblemTraits fp8 = typed(problem(4096, 4096, 4096, "nt"), 2), tf32 = typed(problem(4096, 4096, 4096, "nt"), 3);
  EXPECT_EQ(why(knobs(128, 256, 128, 2, 1, 4), fp8), "");
  EXPECT_EQ(why(knobs(128, 256, 32, 2, 1, 4), tf32), "");
  EXPECT_EQ(why(knobs(128, 128, 64, 2, 1, 3), tf32), "");  // two swizzle rows of tf32
  EXPECT_TRUE(mentions(why(knobs(128, 256, 64, 2, 1, 4), fp8), "128 elements"));
  EXPECT_TRUE(mentions(why(knobs(128, 256, 16, 2, 1, 4), tf32), "32 elements"));
  EXPECT_EQ(why(knobs(64, 128, 256, 1, 1, 3), fp8), "");                      // two 128-byte rows
  EXPECT_TRUE(mentions(why(knobs(64, 128, 640, 1, 1, 2), fp8), "tile_k 640"));  // five: deeper than 512 bytes
  for (const char* layout : {"nn", "tn", "tt"})
    EXPECT_TRUE(mentions(why(knobs(128, 256, 128, 2, 1, 4), typed(problem(4096, 4096, 4096, layout), 2)), "K-major"))
        << layout;
  // tf32's A may be M-contiguous (read into registers); its B must be K-contiguous.
  for (const char* layout : {"nn", "tn"})
    EXPECT_TRUE(mentions(why(knobs(128, 256, 32, 2, 1, 4), typed(problem(4096, 4096, 4096, layout), 3)),
                         "B K-major only"))
        << layout;
  EXPECT_EQ(why(knobs(128, 256, 32, 2, 1, 4), typed(problem(4096, 4096, 4096, "tt"), 3)), "");
  // ...in whole 32-element MN chunks per CTA of a cluster row.
  GeneratedKnobs pair = knobs(128, 256, 32, 2, 1, 4);
  pair.cluster_n = 4;
  EXPECT_EQ(why(pair, typed(problem(4096, 4096, 4096, "tt"), 3)), "");
  pair.tile_m = 64;
  pair.subgroup_m = 1;
  EXPECT_TRUE(mentions(why(pair, typed(problem(4096, 4096, 4096, "tt"), 3)), "32-row chunks")) << why(pair, typed(problem(4096, 4096, 4096, "tt"), 3));
  // K off 16-byte rows (1000 fp8, 1002 tf32) is repacked, not rejected.
  EXPECT_EQ(why(knobs(128, 128, 128, 2, 1, 4), typed(problem(512, 512, 1000, "nt"), 2)), "");
  EXPECT_EQ(why(knobs(128, 128, 32, 2, 1, 4), typed(problem(512, 512, 1002, "nt"), 3)), "");
  // Shared memory counts bytes: a 128x256 fp8 stage of 128-deep K is a 64-deep f16 stage's size.
  EXPECT_EQ(sm90_launch_shape(knobs(128, 256, 128, 2, 1, 4), 1).dynamic_shared_bytes,
            sm90_launch_shape(knobs(128, 256, 64, 2, 1, 4), 2).dynamic_shared_bytes);
  EXPECT_EQ(sm90_launch_shape(knobs(128, 256, 32, 2, 1, 4), 4).dynamic_shared_bytes,
            sm90_launch_shape(knobs(128, 256, 64, 2, 1, 4), 2).dynamic_shared_bytes);
  // The instruction's K: 32 bytes of each operand row.
  EXPECT_TRUE(mentions(sm90_wgmma_defines(knobs(128, 256, 128, 2, 1, 4), 2), "\"m64n256k32\""));
  EXPECT_TRUE(mentions(sm90_wgmma_defines(knobs(128, 256, 32, 2, 1, 4), 3), "\"m64n256k8\""));
  EXPECT_TRUE(mentions(sm90_wgmma_defines(knobs(128, 256, 64, 2, 1, 4), 1), "\"m64n256k16\""));
}

// CTA pairs along N sharing A (cluster_n 2): whole 128-row halves of an M-contiguous A, no panel
// or pingpong; the grid counts pair columns and whole pairs; A's box is half the tile's rows.
TEST(Sm90Path, ClustersPairCtasAlongNAndHalveA) {
  const ProblemTraits p = problem(3000, 3000, 3000, "nt");
  GeneratedKnobs k = knobs(192, 192, 64, 1, 2, 3);
  k.cluster_n = 2;
  EXPECT_EQ(why(k, p), "");  // K-contiguous A: 96-row halves
  EXPECT_TRUE(mentions(why(k, problem(3000, 3000, 3000, "tt")), "64-row chunks"));
  k = knobs(128, 256, 64, 2, 1, 3, true);
  k.cluster_n = 2;
  EXPECT_EQ(why(k, p), "");
  EXPECT_TRUE(mentions(sm90_defines(k, 0), "#define KT_CLUSTER_N 2"));
  EXPECT_EQ(sm90_launch_shape(k, 2).cluster, 2);
  GeneratedKnobs split = k;
  split.split_k = 2;
  EXPECT_EQ(why(split, p), "");  // each CTA of the pair counts its own tile's slices
  GeneratedKnobs panel = k;
  panel.b_panel = 1;
  EXPECT_TRUE(mentions(why(panel, problem(3000, 3000, 64, "nt")), "do not combine"));
  GeneratedKnobs three = k;
  three.cluster_n = 3;
  EXPECT_TRUE(mentions(why(three, p), "1, 2 or 4"));
  // 24 row tiles x 12 columns = 6 pair columns; persistent: 66 pairs of CTAs on 132 SMs.
  unsigned grid[3];
  sm90_grid(k, p, 132, grid);
  EXPECT_EQ(grid[0], 132u);
  KtuneGemmParams params{};
  sm90_set_launch_params(params, k, p, 132);
  EXPECT_EQ(params.tiles_n, 6);
  EXPECT_EQ(params.grid_tiles, 132);
  // Not persistent, an odd number of columns: 13 columns of 256 -> 7 pairs, the last CTA idle.
  GeneratedKnobs plain = k;
  plain.persistent = false;
  sm90_grid(plain, problem(1024, 3300, 512, "nt"), 132, grid);
  EXPECT_EQ(grid[0], 8u * 7u * 2u);
  // Few items: never more pairs than items.
  sm90_grid(k, problem(256, 512, 512, "nt"), 132, grid);
  EXPECT_EQ(grid[0], 4u);  // 2 row tiles x 1 pair column, two CTAs each
}

// 2-D clusters: cluster_n CTAs along N share A, cluster_m along M share B, at most 8 in all; each
// CTA's share is whole 8-row swizzle periods (K-contiguous) or 64-row chunks (MN-contiguous). The
// grid counts cluster rows and columns (padded).
TEST(Sm90Path, TwoDimensionalClustersShareAAndB) {
  const ProblemTraits nt = problem(256, 128, 16384, "nt");
  GeneratedKnobs k = knobs(64, 32, 64, 1, 1, 4, false, 8);
  k.cluster_n = 2;
  k.cluster_m = 4;
  EXPECT_EQ(why(k, nt), "");  // A: 32-row shares; B: 8-row shares
  EXPECT_TRUE(mentions(sm90_defines(k, 1), "#define KT_CLUSTER_M 4"));
  EXPECT_EQ(sm90_launch_shape(k, 2).cluster, 8);
  GeneratedKnobs nine = k;
  nine.cluster_n = 4;
  EXPECT_TRUE(mentions(why(nine, nt), "at most 8"));
  // N-contiguous B: 64-column chunks per CTA, so tile_n 64 cannot be shared by two.
  GeneratedKnobs nn = knobs(64, 64, 64, 1, 1, 4, false, 8);
  nn.cluster_m = 2;
  EXPECT_TRUE(mentions(why(nn, problem(256, 128, 16384, "nn")), "64-column chunks"));
  nn.tile_n = 128;
  EXPECT_EQ(why(nn, problem(256, 128, 16384, "nn")), "");
  // 4 x 4 tiles of 64x32 as clusters of 4 rows x 2 columns: 1 x 2 clusters, 8 slices each.
  unsigned grid[3];
  sm90_grid(k, nt, 132, grid);
  EXPECT_EQ(grid[0], 16u);
  EXPECT_EQ(grid[1], 8u);
  KtuneGemmParams params{};
  sm90_set_launch_params(params, k, nt, 132);
  EXPECT_EQ(params.tiles_m, 1);
  EXPECT_EQ(params.tiles_n, 2);
}

TEST(Sm90Path, SplitKMustLeaveEverySliceWork) {
  EXPECT_EQ(why(knobs(128, 128, 64, 2, 1, 4, false, 4), problem(1024, 1024, 4096)), "");
  EXPECT_TRUE(mentions(why(knobs(128, 128, 64, 2, 1, 4, false, 8), problem(1024, 1024, 256)), "exceeds the 4 K tiles"));
  // 5 K tiles in 4 slices: 2 per slice, so the fourth would be empty.
  EXPECT_TRUE(mentions(why(knobs(128, 128, 64, 2, 1, 4, false, 4), problem(1024, 1024, 320)), "empty"));
  ProblemTraits batched = problem(1024, 1024, 4096);
  batched.batch = 70000;
  EXPECT_TRUE(mentions(why(kRecipe, batched), "65535"));
  EXPECT_EQ(why(knobs(128, 256, 64, 2, 1, 4, true), batched), "");  // persistent: no grid z
}

// A split tail: the persistent grid's full rounds run whole tiles; only the partial last
// round's tiles are split, each slice one more item after the whole ones.
TEST(Sm90Path, SplitTailSplitsOnlyTheLastRoundsTiles) {
  GeneratedKnobs k = knobs(128, 256, 64, 2, 1, 3, true, 4);
  k.split_tail = true;
  const ProblemTraits p = problem(3000, 3000, 3000, "nt");  // 24 x 12 = 288 tiles
  EXPECT_EQ(why(k, p), "");
  const SplitTail tail = sm90_split_tail(k, p, 132);
  EXPECT_EQ(tail.units, 132);
  EXPECT_EQ(tail.from, 264);  // two full rounds
  EXPECT_EQ(tail.tiles, 24);
  // 264 whole tiles and 24 x 4 slices: 360 items over the 132 CTAs.
  EXPECT_EQ(sm90_persistent_ctas(k, p, 132), 132);
  KtuneGemmParams params{};
  sm90_set_launch_params(params, k, p, 132);
  EXPECT_EQ(params.tail_from, 264);
  EXPECT_EQ(params.split_k, 4);
  EXPECT_EQ(params.k_per_split, 12 * 64);  // 47 K tiles in slices of 12
  EXPECT_TRUE(mentions(sm90_defines(k, 1), "#define KT_SPLIT_TAIL 1"));
  // Pairs count cluster items: 288 tiles are 144 pair items on 66 pair units, 12 left over.
  GeneratedKnobs pair = k;
  pair.cluster_n = 2;
  const SplitTail pairs = sm90_split_tail(pair, p, 132);
  EXPECT_EQ(pairs.units, 66);
  EXPECT_EQ(pairs.from, 132);
  EXPECT_EQ(pairs.tiles, 12);
  // Whole rounds, or less than one: nothing to split.
  EXPECT_EQ(sm90_split_tail(k, problem(4224, 2048, 1024), 132).tiles, 0);  // 33 x 8 = 264 tiles
  EXPECT_EQ(sm90_split_tail(k, problem(1024, 1024, 1024), 132).tiles, 0);  // 32 tiles
  // ...and a launch planned for them anyway (a pick replayed on a GPU of another SM count, were
  // nothing to refuse it) runs every item whole: tail_from is past the last item.
  EXPECT_EQ(sm90_split_tail(k, problem(4224, 2048, 1024), 132).from, 264);
  KtuneGemmParams whole{};
  sm90_set_launch_params(whole, k, problem(1024, 1024, 1024), 132);
  EXPECT_EQ(whole.tail_from, 32);
  // Without the knob the launch keeps tail_from 0 and no define.
  KtuneGemmParams plain{};
  sm90_set_launch_params(plain, knobs(128, 256, 64, 2, 1, 3, true, 4), p, 132);
  EXPECT_EQ(plain.tail_from, 0);
  EXPECT_FALSE(mentions(sm90_defines(knobs(128, 256, 64, 2, 1, 3, true, 4), 1), "KT_SPLIT_TAIL"));
  // What it needs: a persistent kernel, split_k >= 2, slices added atomically, no panel or pingpong.
  GeneratedKnobs bad = k;
  bad.persistent = false;
  EXPECT_TRUE(mentions(why(bad, p), "persistent"));
  bad = k;
  bad.split_k = 1;
  EXPECT_TRUE(mentions(why(bad, p), "split_k >= 2"));
  bad = k;
  bad.split_reduce = true;
  EXPECT_TRUE(mentions(why(bad, p), "atomically"));
  bad = pingpong(knobs(128, 128, 64, 1, 1, 3, true, 2));
  bad.split_tail = true;
  EXPECT_TRUE(mentions(why(bad, p), "pingpong"));
}

// Split-K inside a cluster: the split_k slices of a tile are one cluster's CTAs along x (grid y
// 1), not persistent, no multicast, tile rows split evenly, the f32 partial tile inside the ring;
// no workspace or counters in global memory.
TEST(Sm90Path, SplitClusterSumsASlicesTileInsideOneCluster) {
  const ProblemTraits p = problem(256, 128, 16384, "nt");
  GeneratedKnobs k = knobs(64, 32, 64, 1, 1, 16, false, 8);
  k.split_cluster = true;
  EXPECT_EQ(why(k, p), "");
  EXPECT_TRUE(mentions(sm90_defines(k, 1), "#define KT_K_CLUSTER 8"));
  EXPECT_EQ(sm90_launch_shape(k, 2).cluster, 8);
  unsigned grid[3];
  sm90_grid(k, p, 132, grid);
  EXPECT_EQ(grid[0], 4u * 4u * 8u);  // 16 tiles, 8 slices each
  EXPECT_EQ(grid[1], 1u);
  EXPECT_EQ(grid[2], 1u);
  DeviceTraits device;
  const Launch launch = plan_launch(k, p, device);
  EXPECT_FALSE(launch.needs_split_k_buffers);
  EXPECT_EQ(launch.split_k_workspace_floats, 0);
  EXPECT_EQ(launch.reduce_grid, 0u);
  GeneratedKnobs persistent = k;
  persistent.persistent = true;
  EXPECT_TRUE(mentions(why(persistent, p), "non-persistent"));
  GeneratedKnobs sixteen = k;
  sixteen.split_k = 16;
  EXPECT_TRUE(mentions(why(sixteen, p), "split_k 2-8"));
  GeneratedKnobs reduced = k;
  reduced.split_reduce = true;
  EXPECT_TRUE(mentions(why(reduced, p), "does not combine"));
  GeneratedKnobs paired = k;
  paired.cluster_n = 2;
  EXPECT_FALSE(why(paired, p).empty());
  GeneratedKnobs shallow = knobs(128, 128, 64, 2, 1, 2, false, 8);
  shallow.split_cluster = true;  // 2 x 32 KB of ring against a 128 x 136 x 4 B partial tile
  EXPECT_TRUE(mentions(why(shallow, p), "does not fit in the ring"));
  // The configuration round trip keeps the knob.
  EXPECT_TRUE(knobs_from_config(to_config(k, p)).split_cluster);
  EXPECT_FALSE(to_config(knobs(64, 32, 64, 1, 1, 16, false, 8), p).count("split_cluster"));
}

TEST(Sm90Path, ABPanelHoldsAllOfKInAPersistentUnsplitKernel) {
  const ProblemTraits short_k = problem(16384, 4096, 128);
  EXPECT_EQ(why(knobs(64, 256, 64, 1, 1, 4, true, 1, 2), short_k), "");
  EXPECT_EQ(why(knobs(64, 256, 64, 1, 1, 4, true, 1, 3), short_k), "");  // room to spare is allowed
  EXPECT_TRUE(mentions(why(knobs(64, 256, 64, 1, 1, 4, true, 1, 1), short_k), "fewer than the 2 K tiles"));
  EXPECT_TRUE(mentions(why(knobs(64, 256, 64, 1, 1, 4, false, 1, 2), short_k), "persistent"));
  EXPECT_TRUE(mentions(why(knobs(64, 256, 64, 1, 1, 4, true, 2, 2), short_k), "split_k 1"));
  // 4096 deep: 64 K tiles of 256 x 64 never fit.
  EXPECT_TRUE(mentions(why(knobs(64, 256, 64, 1, 1, 4, true, 1, 64), problem(4096, 4096, 4096)), "exceeds 227 KB"));
  // The ring then carries A alone; the panel follows it, then the staging tiles.
  const GeneratedKnobs k = knobs(64, 256, 64, 1, 1, 4, true, 1, 2);
  EXPECT_EQ(sm90_launch_shape(k, 2).dynamic_shared_bytes,
            1024 + 4 * 64 * 64 * 2 + 2 * 256 * 64 * 2 + 4 * 16 + 16 + 16 + 2 * 64 * (256 * 2 + 16));
  EXPECT_EQ(sm90_staging_buffers(k, 2), 2);
  EXPECT_TRUE(mentions(sm90_defines(k, 0), "#define KT_B_PANEL 2\n"));
  EXPECT_FALSE(mentions(sm90_defines(knobs(64, 256, 64, 1, 1, 4, true), 0), "KT_B_PANEL"));
}

TEST(Sm90Path, PingpongGivesEachWarpgroupAWholeTileAndAStagingTile) {
  const ProblemTraits p = problem(8192, 8192, 64);
  GeneratedKnobs k = knobs(64, 256, 64, 1, 1, 3, true);
  k.pingpong = true;
  EXPECT_EQ(why(k, p), "");
  EXPECT_EQ(sm90_launch_shape(k, 2).threads, 384);  // producer + two consumers
  EXPECT_EQ(sm90_accumulators_per_thread(k), 128);
  EXPECT_GT(sm90_consumer_registers(k), sm90_entry_registers(k));  // rebalanced
  // One staging tile per warpgroup: 3 stages of (64 + 256) x 64 and two 64-row staging tiles.
  EXPECT_EQ(sm90_staging_buffers(k, 2), 2);
  EXPECT_EQ(sm90_launch_shape(k, 2).dynamic_shared_bytes,
            1024 + 3 * (64 + 256) * 64 * 2 + 3 * 16 + 16 + 16 + 2 * 64 * (256 * 2 + 16));
  EXPECT_TRUE(mentions(sm90_defines(k, 0), "#define KT_PINGPONG 1\n"));
  // Where two do not fit (4 stages), none: a warpgroup never shares one.
  GeneratedKnobs deep = k;
  deep.stages = 4;
  EXPECT_EQ(sm90_staging_buffers(deep, 2), 0);
  EXPECT_EQ(why(deep, p), "");
  GeneratedKnobs bad = k;
  bad.persistent = false;
  EXPECT_TRUE(mentions(why(bad, p), "persistent"));
  bad = knobs(128, 256, 64, 2, 1, 4, true);
  bad.pingpong = true;
  EXPECT_TRUE(mentions(why(bad, p), "subgroup 1x1"));
  bad = k;
  bad.b_panel = 1;
  EXPECT_TRUE(mentions(why(bad, p), "b_panel"));
  // tf32 with an M-contiguous A reads A into registers, which the pingpong loop does not do
  // (the kernel would stop at an #error): refused here with the reason instead. K-major tf32
  // pingpong stays valid.
  GeneratedKnobs tf32 = k;
  tf32.tile_k = 32;
  const ProblemTraits tf32_tt = typed(problem(8192, 8192, 64, "tt"), 3);
  EXPECT_TRUE(mentions(why(tf32, tf32_tt), "register A")) << why(tf32, tf32_tt);
  EXPECT_EQ(why(tf32, typed(problem(8192, 8192, 64, "nt"), 3)), "");
}

TEST(Sm90Path, LaunchShapeCountsStagesBarriersAndAlignment) {
  const LaunchShape shape = sm90_launch_shape(kRecipe, 2);
  EXPECT_EQ(shape.threads, 384);
  // 1024 alignment slack + 4 stages of (128 + 256) x 64 bf16 + 8 mbarriers + split-K flags +
  // 2 order mbarriers, and no staging tile but a 64x64 chunk buffer per consumer warpgroup.
  EXPECT_EQ(shape.dynamic_shared_bytes, 1024 + 4 * (128 + 256) * 64 * 2 + 4 * 16 + 16 + 16 + 2 * 64 * 128);
  EXPECT_EQ(shape.cluster, 1);
  // With 3 stages the output staging tile (128 rows of 256 x 2 + 16 bytes) fits as well.
  EXPECT_EQ(sm90_launch_shape(knobs(128, 256, 64, 2, 1, 3), 2).dynamic_shared_bytes,
            1024 + 3 * (128 + 256) * 64 * 2 + 3 * 16 + 16 + 16 + 128 * (256 * 2 + 16));
  // Two of them where both fit (here even with two CTAs per SM) ...
  GeneratedKnobs two = knobs(64, 128, 64, 1, 1, 3);
  two.min_blocks_per_sm = 2;
  EXPECT_EQ(sm90_launch_shape(two, 2).dynamic_shared_bytes, 1024 + 3 * (64 + 128) * 64 * 2 + 3 * 16 + 16 + 16 + 2 * 64 * 272);
  // ...but none where it would cost the second CTA per SM that min_blocks_per_sm asks for (a
  // chunk buffer instead).
  two.stages = 4;
  EXPECT_EQ(sm90_launch_shape(two, 2).dynamic_shared_bytes,
            1024 + 4 * (64 + 128) * 64 * 2 + 4 * 16 + 16 + 16 + 64 * 128);
  // One where a second would cost a CTA per SM: 64x64 with 4 stages fits three CTAs with one
  // buffer (3 x 75872 bytes + reserve) but two with two (85088)...
  EXPECT_EQ(sm90_launch_shape(knobs(64, 64, 64, 1, 1, 4), 2).dynamic_shared_bytes,
            1024 + 4 * (64 + 64) * 64 * 2 + 4 * 16 + 16 + 16 + 64 * 144);
  // ...or where a second does not fit: 64x256 with 4 stages of K 64 (the short-K shapes' tile).
  EXPECT_EQ(sm90_launch_shape(knobs(64, 256, 64, 1, 1, 4), 2).dynamic_shared_bytes,
            1024 + 4 * (64 + 256) * 64 * 2 + 4 * 16 + 16 + 16 + 64 * (256 * 2 + 16));
  EXPECT_EQ(sm90_launch_shape(knobs(64, 256, 64, 1, 1, 3), 2).dynamic_shared_bytes,
            1024 + 3 * (64 + 256) * 64 * 2 + 3 * 16 + 16 + 16 + 2 * 64 * (256 * 2 + 16));
  EXPECT_EQ(why(two, problem(4096, 4096, 4096)), "");
  EXPECT_EQ(sm90_launch_shape(knobs(128, 128, 128, 1, 1, 3), 2).threads, 256);
  EXPECT_EQ(sm90_launch_shape(knobs(192, 128, 64, 3, 1, 4), 2).threads, 512);
}

TEST(Sm90Path, RegisterShares) {
  EXPECT_EQ(sm90_entry_registers(kRecipe), 168);
  EXPECT_EQ(sm90_consumer_registers(kRecipe), 232);  // (168 * 384 - 40 * 128) / 256
  EXPECT_EQ(sm90_accumulators_per_thread(kRecipe), 128);
  EXPECT_EQ(sm90_entry_registers(knobs(128, 128, 64, 1, 1, 4)), 248);
  EXPECT_EQ(sm90_consumer_registers(knobs(128, 128, 64, 1, 1, 4)), 248);  // one consumer: no rebalancing
  EXPECT_EQ(sm90_accumulators_per_thread(knobs(256, 192, 64, 2, 1, 4)), 192);
  // Three consumers enter with 128 registers: one m64n208 wgmma needs about 130 (ptxas refused
  // it), m64n176 fits.
  EXPECT_NE(why(knobs(192, 208, 64, 3, 1, 3), problem(1000, 2000, 264, "nt")).find("wgmma needs"), std::string::npos);
  EXPECT_EQ(why(knobs(192, 176, 64, 3, 1, 3), problem(1000, 2000, 264, "nt")), "");
}

TEST(Sm90Path, ChunkedStagingWhereNoStagingTileFits) {
  // 128x256 with 4 stages: 4 x 48 KB of ring leave no room for a 66 KB tile, but for a 64-row x
  // 64-column chunk per warpgroup (2 x 8 KB).
  const GeneratedKnobs four = knobs(128, 256, 64, 2, 1, 4, true);
  EXPECT_EQ(sm90_staging_buffers(four, 2), 0);
  EXPECT_TRUE(sm90_chunk_staging(four, 2));
  EXPECT_EQ(sm90_launch_shape(four, 2).dynamic_shared_bytes, 1024 + 4 * 49152 + 16 * 4 + 32 + 2 * 64 * 128);
  EXPECT_TRUE(sm90_tma_store(four, problem(4096, 4096, 4096, "nt")));
  // 192x192 in two warpgroups of 96 columns: 32-column chunks of 192 rows.
  const GeneratedKnobs square = knobs(192, 192, 64, 1, 2, 4, true);
  EXPECT_TRUE(sm90_chunk_staging(square, 2));
  EXPECT_EQ(sm90_launch_shape(square, 2).dynamic_shared_bytes, 1024 + 4 * 49152 + 16 * 4 + 32 + 2 * 192 * 64);
  // A staging tile where one fits; none of either for swapped kernels, pingpong or 5 stages of
  // 128x256 (no room even for the chunks).
  EXPECT_FALSE(sm90_chunk_staging(knobs(128, 256, 64, 2, 1, 3, true), 2));
  EXPECT_FALSE(sm90_chunk_staging(swapped(four), 2));
  EXPECT_FALSE(sm90_chunk_staging(pingpong(knobs(64, 256, 64, 1, 1, 4, true)), 2));
  EXPECT_FALSE(sm90_chunk_staging(knobs(128, 256, 64, 2, 1, 5, true), 2));
}

TEST(Sm90Path, SwappedKernelsStageNothingAndSayTheyAreSwapped) {
  const GeneratedKnobs k = knobs(64, 256, 64, 1, 1, 3, true);
  EXPECT_EQ(sm90_staging_buffers(k, 2), 2);
  EXPECT_EQ(sm90_staging_buffers(swapped(k), 2), 0);
  EXPECT_LT(sm90_launch_shape(swapped(k), 2).dynamic_shared_bytes, sm90_launch_shape(k, 2).dynamic_shared_bytes);
  EXPECT_FALSE(sm90_tma_store(swapped(k), problem(4096, 4096, 64, "nn")));
  EXPECT_TRUE(mentions(sm90_defines(swapped(k), 0), "#define KT_SWAP_AB 1\n"));
  EXPECT_FALSE(mentions(sm90_defines(k, 0), "KT_SWAP_AB"));
}

TEST(Sm90Path, DefinesEveryKnobMacro) {
  GeneratedKnobs k = knobs(128, 256, 64, 2, 1, 4, true);
  k.min_blocks_per_sm = 1;
  const std::string d = sm90_defines(k, 0);
  for (const char* line : {"#define KT_TILE_M 128\n", "#define KT_TILE_N 256\n", "#define KT_TILE_K 64\n",
                           "#define KT_SUBGROUP_M 2\n", "#define KT_SUBGROUP_N 1\n", "#define KT_STAGES 4\n",
                           "#define KT_PERSISTENT 1\n", "#define KT_MIN_BLOCKS 1\n"})
    EXPECT_TRUE(mentions(d, line)) << line;
}

// kt_wgmma's asm operands for each warpgroup width: N / 2 accumulators, then desc_a, desc_b,
// scale_d and the two transpose immediates. (The cubins are byte-identical to those of the
// hand-written wrapper per N that this replaced, for every N from 16 to 256.)
TEST(Sm90Path, WgmmaOperandsFollowTheWarpgroupWidth) {
  const std::string n16 = sm90_wgmma_defines(knobs(64, 16, 64, 1, 1, 3), 0);
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_SHAPE \"m64n16k16\"\n")) << n16;
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_D \"%0, %1, %2, %3, %4, %5, %6, %7\"\n")) << n16;
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_D_OPERANDS \"+f\"(d[0]), ")) << n16;
  EXPECT_TRUE(mentions(n16, "\"+f\"(d[7])\n")) << n16;
  EXPECT_FALSE(mentions(n16, "d[8]")) << n16;
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_DESCRIPTORS \"%8, %9\"\n")) << n16;
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_SCALE_D \"%10\"\n")) << n16;
  EXPECT_TRUE(mentions(n16, "#define KT_WGMMA_TRANSPOSES \"%11, %12\"\n")) << n16;
  // tile_n / subgroup_n: two warpgroups side by side of 128 columns each.
  const std::string n128 = sm90_wgmma_defines(knobs(64, 256, 64, 1, 2, 3), 0);
  EXPECT_TRUE(mentions(n128, "\"m64n128k16\"")) << n128;
  EXPECT_TRUE(mentions(n128, ", %63\"\n")) << n128;
  EXPECT_TRUE(mentions(n128, "#define KT_WGMMA_SCALE_D \"%66\"\n")) << n128;
  EXPECT_TRUE(mentions(sm90_defines(knobs(128, 256, 64, 2, 1, 4), 0), "#define KT_WGMMA_SHAPE \"m64n256k16\"\n"));
  // Not a wgmma width: nothing, and the kernel's #error names the rule.
  EXPECT_EQ(sm90_wgmma_defines(knobs(128, 40, 64, 1, 1, 4), 0), "");
  EXPECT_EQ(sm90_wgmma_defines(knobs(128, 512, 64, 1, 1, 4), 0), "");
  EXPECT_EQ(sm90_wgmma_defines(knobs(128, 96, 64, 1, 4, 4), 0), "");  // 24 columns per warpgroup
}

TEST(Sm90Path, GridAndLaunchParams) {
  ProblemTraits p = problem(1000, 3000, 2000);
  p.batch = 3;
  unsigned grid[3];
  sm90_grid(knobs(128, 256, 64, 2, 1, 4, false, 4), p, 132, grid);
  EXPECT_EQ(grid[0], 8u * 12u);  // ceil(1000/128) x ceil(3000/256)
  EXPECT_EQ(grid[1], 4u);
  EXPECT_EQ(grid[2], 3u);
  sm90_grid(knobs(128, 256, 64, 2, 1, 4, true), p, 132, grid);
  EXPECT_EQ(grid[0], 132u);  // one 197 KB CTA per SM
  EXPECT_EQ(grid[1], 1u);
  sm90_grid(knobs(128, 256, 64, 2, 1, 4, true), problem(128, 256, 64), 132, grid);
  EXPECT_EQ(grid[0], 1u);  // never more CTAs than work items

  KtuneGemmParams params;
  std::memset(&params, 0, sizeof params);
  GeneratedKnobs k = knobs(128, 256, 64, 2, 1, 4, true, 4);
  k.swizzle_group = 16;
  sm90_set_launch_params(params, k, p, 132);
  EXPECT_EQ(params.tiles_m, 8);
  EXPECT_EQ(params.tiles_n, 12);
  EXPECT_EQ(params.split_k, 4);
  EXPECT_EQ(params.k_per_split, 8 * 64);  // 32 K tiles, 8 per slice
  EXPECT_EQ(params.swizzle_group, 16);
  EXPECT_EQ(params.grid_tiles, 132);
  sm90_set_launch_params(params, knobs(128, 256, 64, 2, 1, 4), p, 132);
  EXPECT_EQ(params.split_k, 1);
  EXPECT_EQ(params.k_per_split, 2000);
}

// What the path asked cuTensorMapEncodeTiled for.
struct EncodeCall {
  int data_type;
  unsigned rank;
  void* address;
  std::uint64_t dims[3];
  std::uint64_t strides[2];
  std::uint32_t box[3];
  int swizzle, l2_promotion, oob_fill;
};
std::vector<EncodeCall> encode_calls;
int encode_result = 0;

int fake_encode(void* map, int data_type, unsigned rank, void* address, const std::uint64_t* dims,
                const std::uint64_t* strides, const std::uint32_t* box, const std::uint32_t* element_strides, int,
                int swizzle, int l2_promotion, int oob_fill) {
  EncodeCall call{data_type, rank, address, {dims[0], dims[1], dims[2]}, {strides[0], strides[1]},
                  {box[0], box[1], box[2]}, swizzle, l2_promotion, oob_fill};
  for (unsigned i = 0; i < rank; ++i)
    if (element_strides[i] != 1) return 1;
  std::memset(map, 0xAB, 128);
  encode_calls.push_back(call);
  return encode_result;
}

KtuneGemmParams params_for(const ProblemTraits& t, const void* a, const void* b) {
  KtuneGemmParams p;
  std::memset(&p, 0, sizeof p);
  p.a = a;
  p.b = b;
  p.m = t.m;
  p.n = t.n;
  p.k = t.k;
  p.lda = t.a_k_contiguous ? t.k : t.m;
  p.ldb = t.b_k_contiguous ? t.k : t.n;
  p.batch = static_cast<int>(t.batch);
  p.batch_stride_a = t.m * t.k;
  p.batch_stride_b = t.k * t.n;
  return p;
}

TEST(Sm90Path, TensorMapsFollowTheLayout) {
  alignas(16) static unsigned char a[16], b[16];
  const GeneratedKnobs k = knobs(128, 256, 64, 2, 1, 4);
  ProblemTraits nn = problem(1000, 3000, 2000, "nn");
  nn.batch = 2;
  nn.in_type = 1;
  KtuneGemmParams p = params_for(nn, a, b);
  encode_calls.clear();
  encode_result = 0;
  sm90_encode_tensor_maps(p, k, nn, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  const EncodeCall& ma = encode_calls[0];
  EXPECT_EQ(ma.data_type, 9);  // bf16
  EXPECT_EQ(ma.rank, 3u);
  EXPECT_EQ(ma.address, a);
  EXPECT_EQ(ma.dims[0], 2000u);  // K contiguous
  EXPECT_EQ(ma.dims[1], 1000u);
  EXPECT_EQ(ma.dims[2], 2u);
  EXPECT_EQ(ma.strides[0], 4000u);
  EXPECT_EQ(ma.strides[1], 2u * 1000 * 2000);
  EXPECT_EQ(ma.box[0], 64u);
  EXPECT_EQ(ma.box[1], 128u);  // tile_m rows
  EXPECT_EQ(ma.swizzle, 3);    // 128B
  EXPECT_EQ(ma.l2_promotion, 3);  // 256B: 4000-byte rows start on 32-byte sectors
  EXPECT_EQ(ma.oob_fill, 0);   // zeros
  const EncodeCall& mb = encode_calls[1];
  EXPECT_EQ(mb.dims[0], 3000u);  // N contiguous
  EXPECT_EQ(mb.dims[1], 2000u);
  EXPECT_EQ(mb.strides[0], 6000u);
  EXPECT_EQ(mb.box[1], 64u);  // tile_k rows
  EXPECT_EQ(mb.l2_promotion, 2);  // 128B: every other 6000-byte row starts mid-sector
  EXPECT_EQ(p.tma_a[0], 0xAB);
  EXPECT_EQ(p.tma_b[127], 0xAB);

  GeneratedKnobs pair = k;
  pair.cluster_n = 2;
  p = params_for(nn, a, b);
  encode_calls.clear();
  sm90_encode_tensor_maps(p, pair, nn, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  EXPECT_EQ(encode_calls[0].box[1], 64u);  // half of tile_m: each CTA of the pair loads half
  ProblemTraits nt = problem(1000, 3000, 2000, "nt");
  nt.in_type = 1;
  GeneratedKnobs quad = knobs(128, 128, 64, 2, 1, 4);
  quad.cluster_n = 2;
  quad.cluster_m = 4;
  p = params_for(nt, a, b);
  encode_calls.clear();
  sm90_encode_tensor_maps(p, quad, nt, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  EXPECT_EQ(encode_calls[0].box[1], 64u);  // A: tile_m / cluster_n
  EXPECT_EQ(encode_calls[1].box[1], 32u);  // B: tile_n / cluster_m

  ProblemTraits tt = problem(1000, 3000, 2000, "tt");
  tt.in_type = 0;
  p = params_for(tt, a, b);
  encode_calls.clear();
  sm90_encode_tensor_maps(p, k, tt, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  EXPECT_EQ(encode_calls[0].data_type, 6);  // f16
  EXPECT_EQ(encode_calls[0].dims[0], 1000u);  // M contiguous
  EXPECT_EQ(encode_calls[0].box[1], 64u);     // tile_k rows
  EXPECT_EQ(encode_calls[0].strides[1], 2u * 1000 * 2000);  // single batch: any valid stride
  EXPECT_EQ(encode_calls[1].dims[0], 2000u);  // K contiguous
  EXPECT_EQ(encode_calls[1].dims[1], 3000u);
  EXPECT_EQ(encode_calls[1].box[1], 256u);  // tile_n rows
}

TEST(Sm90Path, TensorMapsOfFp8AndTf32CountTheirElementBytes) {
  alignas(16) static unsigned char a[16], b[16];
  ProblemTraits fp8 = typed(problem(16, 8192, 8192, "nt"), 2);
  KtuneGemmParams p = params_for(fp8, a, b);
  encode_calls.clear();
  encode_result = 0;
  sm90_encode_tensor_maps(p, knobs(64, 128, 128, 1, 1, 4), fp8, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  EXPECT_EQ(encode_calls[0].data_type, 0);       // u8: e4m3 bytes copied as they are
  EXPECT_EQ(encode_calls[0].strides[0], 8192u);  // K bytes per row of A
  EXPECT_EQ(encode_calls[0].box[0], 128u);       // one 128-byte swizzle row
  EXPECT_EQ(encode_calls[1].box[1], 128u);       // tile_n rows of B
  ProblemTraits tf32 = typed(problem(1000, 3000, 2000, "nt"), 3);
  p = params_for(tf32, a, b);
  encode_calls.clear();
  sm90_encode_tensor_maps(p, knobs(128, 192, 32, 1, 1, 4), tf32, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 2u);
  EXPECT_EQ(encode_calls[0].data_type, 11);      // tf32: the copy rounds f32
  EXPECT_EQ(encode_calls[0].strides[0], 8000u);  // 2000 f32
  EXPECT_EQ(encode_calls[0].box[0], 32u);
  EXPECT_EQ(encode_calls[1].strides[0], 8000u);
}

// Staged 16-bit tiles leave by TMA stores: a map of D with 64-column boxes of one warpgroup's
// rows, 128-byte swizzle, when D's rows are 16-byte aligned; none for f32 outputs, tiles whose
// warpgroup columns are not whole 64-column chunks, or misaligned rows.
TEST(Sm90Path, StagedTilesStoreByTmaThroughAMapOfD) {
  alignas(16) static unsigned char a[16], b[16], d[16];
  ProblemTraits t = problem(4096, 16384, 256, "nt");
  t.out_type = 1;
  const GeneratedKnobs k = knobs(256, 128, 64, 2, 1, 3, true);
  ASSERT_TRUE(sm90_tma_store(k, t));
  KtuneGemmParams p = params_for(t, a, b);
  p.d = d;
  p.ldd = t.n;
  p.batch_stride_d = t.m * t.n;
  encode_calls.clear();
  encode_result = 0;
  sm90_encode_tensor_maps(p, k, t, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 3u);
  const EncodeCall& md = encode_calls[0];
  EXPECT_EQ(md.address, d);
  EXPECT_EQ(md.data_type, 9);  // bf16
  EXPECT_EQ(md.dims[0], 16384u);
  EXPECT_EQ(md.dims[1], 4096u);
  EXPECT_EQ(md.strides[0], 16384u * 2);
  EXPECT_EQ(md.box[0], 64u);
  EXPECT_EQ(md.box[1], 128u);  // one warpgroup's rows (256 / 2)
  EXPECT_EQ(md.swizzle, 3);
  EXPECT_EQ(p.tma_d[0], 0xAB);
  encode_calls.clear();
  p.ldd = t.n + 1;  // rows off 16 bytes: the kernel stores directly, and no map is made
  sm90_encode_tensor_maps(p, k, t, &fake_encode);
  EXPECT_EQ(encode_calls.size(), 2u);
  ProblemTraits f32 = t;
  f32.out_type = 2;
  EXPECT_FALSE(sm90_tma_store(k, f32));
  EXPECT_FALSE(sm90_tma_store(knobs(128, 80, 64, 1, 1, 3), t));  // 80 columns: not whole 32-column chunks
  // 192x192 in two warpgroups of 96 columns: 32-column boxes in the 64-byte swizzle.
  const GeneratedKnobs square = knobs(192, 192, 64, 1, 2, 3, true);
  ASSERT_TRUE(sm90_tma_store(square, t));
  p.ldd = t.n;
  encode_calls.clear();
  sm90_encode_tensor_maps(p, square, t, &fake_encode);
  ASSERT_EQ(encode_calls.size(), 3u);
  EXPECT_EQ(encode_calls[0].box[0], 32u);
  EXPECT_EQ(encode_calls[0].box[1], 192u);
  EXPECT_EQ(encode_calls[0].swizzle, 2);
}

TEST(Sm90Path, EncodeFailureNamesTheOperandAndResult) {
  alignas(16) static unsigned char a[16], b[16];
  const ProblemTraits t = problem(256, 256, 256);
  KtuneGemmParams p = params_for(t, a, b);
  encode_result = 1;  // CUDA_ERROR_INVALID_VALUE
  try {
    sm90_encode_tensor_maps(p, kRecipe, t, &fake_encode);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(mentions(e.what(), "for A with CUresult 1")) << e.what();
  }
  encode_result = 0;
  EXPECT_THROW(sm90_encode_tensor_maps(p, kRecipe, t, nullptr), std::runtime_error);
  p.b = nullptr;
  EXPECT_THROW(sm90_encode_tensor_maps(p, kRecipe, t, &fake_encode), std::runtime_error);
}

// ---- NVRTC ----------------------------------------------------------------------------------

std::string read_source(const std::string& name) {
  const std::string path = std::string(KTUNE_SOURCE_DIR) + "/src/ktune/families/generated/kernels/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// What the emitter produces: type/epilogue macros, the path's knob macros, then the three files.
std::string assemble(const GeneratedKnobs& k, const ProblemTraits& t) {
  std::ostringstream out;
  out << "#define KT_IN_TYPE " << t.in_type << "\n#define KT_OUT_TYPE " << t.out_type
      << "\n#define KT_A_K_CONTIGUOUS " << t.a_k_contiguous << "\n#define KT_B_K_CONTIGUOUS " << t.b_k_contiguous
      << "\n#define KT_READS_C " << t.reads_c << "\n#define KT_HAS_BIAS " << t.bias << "\n#define KT_ACTIVATION "
      << t.activation << "\n#define KT_SPLIT_K " << (k.split_k > 1) << "\n"
      << sm90_defines(k, t.in_type) << read_source("gemm_params.h") << "\n"
      << read_source("gemm_common.cuh") << "\n"
      << read_source("gemm_sm90.cuh") << "\n";
  return out.str();
}

class Sm90Nvrtc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto loaded = cuda::NvrtcCompiler::load();
    if (loaded) compiler_ = loaded.value;
  }
  static void TearDownTestSuite() { compiler_.reset(); }
  void SetUp() override {
    if (!compiler_) GTEST_SKIP() << "NVRTC not found";
    const auto& archs = compiler_->supported_archs();
    if (!archs.empty() && std::find(archs.begin(), archs.end(), 90) == archs.end())
      GTEST_SKIP() << "this NVRTC cannot target sm_90";
  }
  static std::shared_ptr<cuda::NvrtcCompiler> compiler_;
};
std::shared_ptr<cuda::NvrtcCompiler> Sm90Nvrtc::compiler_;

struct Sample {
  GeneratedKnobs knobs;
  ProblemTraits traits;
};

TEST_F(Sm90Nvrtc, CompilesEveryLayoutAndASampleOfKnobsWithoutSpills) {
  std::vector<Sample> samples;
  for (const char* layout : {"nn", "nt", "tn", "tt"}) samples.push_back({kRecipe, problem(4096, 4096, 4096, layout)});
  ProblemTraits epilogue = problem(1000, 3000, 2000, "nn");
  epilogue.out_type = 2;
  epilogue.reads_c = true;
  epilogue.bias = true;
  epilogue.activation = 2;
  samples.push_back({knobs(128, 256, 64, 2, 1, 4, true, 4), epilogue});
  ProblemTraits f16 = problem(4096, 4096, 4096, "tn");
  f16.in_type = 0;
  f16.out_type = 0;
  f16.activation = 1;
  samples.push_back({knobs(128, 128, 128, 1, 1, 3, true), f16});
  samples.push_back({knobs(256, 192, 64, 2, 1, 4, true), problem(4096, 4096, 4096, "nn")});
  samples.push_back({knobs(64, 256, 64, 1, 2, 4), problem(4096, 4096, 4096, "nt")});
  samples.push_back({knobs(128, 256, 64, 2, 1, 3, true), problem(4096, 4096, 4096, "nn")});  // staged stores
  samples.push_back({knobs(64, 256, 64, 1, 2, 3, true), problem(16384, 4096, 128, "nn")});   // two staging buffers
  samples.push_back({knobs(192, 128, 64, 3, 1, 4, false, 2), problem(4096, 4096, 4096, "tt")});
  // B panels, N- and K-contiguous B, one and two consumer warpgroups.
  samples.push_back({knobs(64, 256, 64, 1, 1, 4, true, 1, 2), problem(16384, 4096, 128, "nn")});
  samples.push_back({knobs(128, 256, 64, 2, 1, 4, true, 1, 4), problem(4096, 16384, 256, "nt")});
  samples.push_back({knobs(128, 192, 64, 2, 1, 3, true, 1, 1), problem(8192, 8192, 64, "tn")});
  // Pingpong with a staging tile per warpgroup, 16-bit and f32 out (the latter stores directly).
  GeneratedKnobs pingpong = knobs(64, 256, 64, 1, 1, 3, true);
  pingpong.pingpong = true;
  samples.push_back({pingpong, problem(8192, 8192, 64, "nn")});
  pingpong.tile_m = 128;
  pingpong.tile_n = 128;
  samples.push_back({pingpong, epilogue});
  // CTA pairs multicasting A: K- and M-contiguous A, persistent or not.
  for (const char* layout : {"nt", "tn"}) {
    GeneratedKnobs pair = knobs(128, 256, 64, 2, 1, 3, true);
    pair.cluster_n = 2;
    samples.push_back({pair, problem(3000, 3000, 3000, layout)});
    pair = knobs(256, 128, 64, 2, 1, 4);
    pair.cluster_n = 2;
    samples.push_back({pair, problem(4096, 4096, 4096, layout)});
  }
  GeneratedKnobs pair192 = knobs(192, 192, 64, 1, 2, 3, true);
  pair192.cluster_n = 2;
  samples.push_back({pair192, problem(3000, 3000, 3000, "nt")});
  // 2-D clusters multicasting A and B, with split-K (4x2 of 64x32, K-contiguous B) and an
  // N-contiguous B (2x2 of 128x128, 64-column chunks each).
  GeneratedKnobs quad = knobs(64, 32, 64, 1, 1, 8, false, 8);
  quad.cluster_n = 2;
  quad.cluster_m = 4;
  samples.push_back({quad, problem(256, 128, 16384, "nt")});
  GeneratedKnobs square2 = knobs(128, 128, 64, 2, 1, 4, true);
  square2.cluster_n = 2;
  square2.cluster_m = 2;
  samples.push_back({square2, problem(1000, 1000, 1000, "nn")});
  // Split-K slices stored apart and summed by a second kernel (split_reduce), plain and swapped.
  GeneratedKnobs reduced = knobs(64, 64, 64, 1, 1, 8, false, 16);
  reduced.split_reduce = true;
  samples.push_back({reduced, problem(128, 256, 32768, "nn")});
  GeneratedKnobs reduced_swap = knobs(64, 16, 64, 1, 1, 8, false, 4);
  reduced_swap.split_reduce = true;
  reduced_swap.swap_ab = true;
  samples.push_back({reduced_swap, problem(4096, 16, 8192, "nt")});
  // Small split-K tiles take their totals back 16 values at a time, 128-row ones 8 at a time.
  samples.push_back({knobs(64, 64, 64, 1, 1, 8, false, 16), problem(256, 128, 16384, "nt")});
  samples.push_back({knobs(128, 64, 64, 2, 1, 6, false, 8), problem(256, 128, 16384, "nn")});
  // fp8 (128-deep K tiles, k32 instructions) and tf32 (32-deep, k8), K-major A and B.
  samples.push_back({knobs(128, 256, 128, 2, 1, 4, true), typed(problem(4096, 4096, 4096, "nt"), 2)});
  samples.push_back({knobs(64, 128, 128, 1, 1, 5, false, 4), typed(problem(16, 8192, 8192, "nt"), 2)});
  samples.push_back({knobs(128, 192, 32, 1, 1, 4, true), typed(problem(1000, 3000, 2000, "nt"), 3)});
  ProblemTraits tf32_epilogue = typed(problem(1000, 3000, 2000, "nt"), 3);
  tf32_epilogue.reads_c = true;
  tf32_epilogue.bias = true;
  samples.push_back({knobs(128, 128, 64, 2, 1, 3, true), tf32_epilogue});  // two swizzle rows per K tile
  samples.push_back({knobs(128, 128, 32, 2, 1, 4, true, 1, 4), typed(problem(16384, 4096, 128, "nt"), 3)});  // a panel
  // Promoted accumulator chains (strict f32 as 3xTF32): two accumulator sets within the registers.
  GeneratedKnobs promoted = knobs(128, 192, 32, 2, 1, 4, true);
  promoted.promote = 16;
  samples.push_back({promoted, typed(problem(2048, 2048, 6144, "nt"), 3)});
  GeneratedKnobs promoted_split = knobs(64, 64, 32, 1, 1, 8, false, 4);
  promoted_split.promote = 5;
  promoted_split.split_reduce = true;
  samples.push_back({promoted_split, typed(problem(777, 1001, 1548, "nt"), 3)});
  // Chunked staging (no staging tile beside 4 stages): 64-column chunks (128x256), 32-column ones
  // (192x192 pairs), and an f32 output that leaves the chunk buffer unused.
  samples.push_back({knobs(128, 256, 64, 2, 1, 4, true), problem(4096, 4096, 4096, "nt")});
  GeneratedKnobs chunked192 = knobs(192, 192, 64, 1, 2, 4, true);
  chunked192.cluster_n = 2;
  samples.push_back({chunked192, problem(3000, 3000, 3000, "nt")});
  samples.push_back({knobs(128, 256, 64, 2, 1, 4, true), epilogue});
  // Swapped A and B (swap_ab: the kernel's own problem is 8192 x 16; D stored transposed), split
  // and not, fp8, and the whole epilogue into f32.
  GeneratedKnobs swapped = knobs(64, 16, 64, 1, 1, 8, false, 4);
  swapped.swap_ab = true;
  samples.push_back({swapped, problem(8192, 16, 8192, "nt")});
  GeneratedKnobs swapped_fp8 = knobs(128, 32, 128, 2, 1, 8, true);
  swapped_fp8.swap_ab = true;
  samples.push_back({swapped_fp8, typed(problem(8192, 32, 8192, "nt"), 2)});
  GeneratedKnobs swapped_epilogue = knobs(64, 64, 64, 1, 1, 4, true);
  swapped_epilogue.swap_ab = true;
  samples.push_back({swapped_epilogue, epilogue});
  // tf32 with an M-contiguous A read into registers (KT_A_REGS): swapped nn (B^T is that A),
  // one and two atoms per warpgroup, a cluster row sharing A's 32-row chunks, and split-K. The
  // traits are the kernel's own problem (a swapped nn one is tt).
  GeneratedKnobs swapped_tf32 = knobs(128, 256, 32, 2, 1, 3, true);
  swapped_tf32.swap_ab = true;
  samples.push_back({swapped_tf32, typed(problem(4096, 4096, 4096, "tt"), 3)});
  GeneratedKnobs regs_a = knobs(128, 128, 32, 1, 1, 4, false);
  samples.push_back({regs_a, typed(problem(1000, 3000, 2000, "tt"), 3)});
  regs_a.cluster_n = 2;
  samples.push_back({regs_a, typed(problem(1000, 3000, 2000, "tt"), 3)});
  GeneratedKnobs regs_split = knobs(64, 64, 64, 1, 1, 6, false, 8);
  regs_split.split_reduce = true;
  regs_split.swap_ab = true;
  samples.push_back({regs_split, typed(problem(128, 256, 16384, "tt"), 3)});
  // Split-K summed inside a cluster: one and two consumer warpgroups, the whole epilogue, swapped.
  GeneratedKnobs in_cluster = knobs(64, 32, 64, 1, 1, 16, false, 8);
  in_cluster.split_cluster = true;
  samples.push_back({in_cluster, problem(256, 128, 16384, "nt")});
  GeneratedKnobs in_cluster_epilogue = knobs(128, 128, 64, 2, 1, 4, false, 2);
  in_cluster_epilogue.split_cluster = true;
  samples.push_back({in_cluster_epilogue, epilogue});
  GeneratedKnobs in_cluster_swapped = knobs(64, 16, 64, 1, 1, 8, false, 4);
  in_cluster_swapped.split_cluster = true;
  in_cluster_swapped.swap_ab = true;
  samples.push_back({in_cluster_swapped, problem(8192, 16, 8192, "nt")});
  // Widths in steps of 16 with one warpgroup across (stmatrix and row copies), three consumer
  // warpgroups at the widest m64nN that fits 128 entry registers, and swapped mid-M tiles.
  samples.push_back({knobs(128, 144, 64, 2, 1, 4, true), problem(660, 3072, 11008, "nt")});
  samples.push_back({knobs(192, 176, 64, 3, 1, 3, true), problem(1000, 2000, 264, "tt")});
  ProblemTraits epilogue_nt = epilogue;
  epilogue_nt.b_k_contiguous = true;
  samples.push_back({knobs(128, 240, 64, 2, 1, 3, false), epilogue_nt});
  GeneratedKnobs swapped_mid = knobs(128, 144, 64, 2, 1, 4, true);
  swapped_mid.swap_ab = true;
  samples.push_back({swapped_mid, problem(660, 3072, 11008, "nt")});
  GeneratedKnobs swapped_mid_epilogue = knobs(64, 208, 64, 1, 1, 3, false);
  swapped_mid_epilogue.swap_ab = true;
  samples.push_back({swapped_mid_epilogue, epilogue_nt});
  // Split tails: the whole epilogue, and pairs.
  GeneratedKnobs tail = knobs(128, 256, 64, 2, 1, 3, true, 4);
  tail.split_tail = true;
  samples.push_back({tail, epilogue});
  tail.cluster_n = 2;
  samples.push_back({tail, problem(3000, 3000, 3000, "nt")});
  for (const Sample& s : samples) {
    ASSERT_EQ(why(s.knobs, s.traits), "");
    cuda::NvrtcRequest request;
    request.source = assemble(s.knobs, s.traits);
    request.program_name = "gemm_sm90.cu";
    request.arch = "sm_90a";
    const cuda::NvrtcResult result = compiler_->compile(request);
    const std::string label = sm90_defines(s.knobs, s.traits.in_type) + " in_type " + std::to_string(s.traits.in_type) + " layout " + (s.traits.a_k_contiguous ? "n" : "t") +
                              (s.traits.b_k_contiguous ? "t" : "n");
    ASSERT_TRUE(result.ok) << label << "\n" << result.error << "\n" << result.log;
    EXPECT_FALSE(result.cubin.empty()) << label;
    const analysis::KernelResourceUsage* usage = result.resources.find("ktune_gemm_sm90");
    ASSERT_NE(usage, nullptr) << label << "\n" << result.log;
    EXPECT_FALSE(usage->has_spills()) << label << "\n" << result.log;
    EXPECT_EQ(usage->stack_frame_bytes, 0) << label;
    // The operand copy (repack.h) is in every module, for every element size.
    const analysis::KernelResourceUsage* repack = result.resources.find("ktune_repack_sm90");
    ASSERT_NE(repack, nullptr) << label << "\n" << result.log;
    EXPECT_FALSE(repack->has_spills()) << label;
    // With setmaxnreg the entry share is the launch-bound maximum; the kernel's
    // rebalancing arithmetic assumes exactly that.
    if (s.knobs.subgroup_m * s.knobs.subgroup_n >= 2) {
      EXPECT_EQ(usage->registers, sm90_entry_registers(s.knobs)) << label;
    }
    for (const std::string& warning : result.resources.warnings) ADD_FAILURE() << label << " ptxas warning: " << warning;
  }
}

// The launch's dynamic shared memory and the kernel's own layout (stages, 0-2 staging buffers,
// barriers) come from two copies of one rule, host C++ and kernel preprocessor: a kernel that
// placed its barriers past what the launch reserves would corrupt memory. Each sample is one
// branch of the rule.
TEST_F(Sm90Nvrtc, TheKernelLaysOutTheSharedMemoryTheLaunchReserves) {
  GeneratedKnobs two_ctas = knobs(64, 128, 64, 1, 1, 3);
  two_ctas.min_blocks_per_sm = 2;
  const std::vector<GeneratedKnobs> samples = {
      knobs(64, 256, 64, 1, 1, 3, true),  // two buffers
      knobs(64, 256, 64, 1, 1, 4, true),  // one: a second does not fit
      knobs(64, 64, 64, 1, 1, 4),         // one: a second would cost a CTA per SM
      knobs(128, 256, 64, 2, 1, 4, true), // no tile: a 64-column chunk per warpgroup
      knobs(192, 192, 64, 1, 2, 4, true), // no tile: a 32-column chunk per warpgroup
      knobs(64, 256, 64, 1, 1, 4, true, 1, 2),   // a B panel and two buffers
      knobs(128, 256, 64, 2, 1, 4, true, 1, 4),  // a B panel of four K tiles and one buffer
      pingpong(knobs(64, 256, 64, 1, 1, 3, true)),   // pingpong: one per warpgroup
      pingpong(knobs(64, 256, 64, 1, 1, 4, true)),   // pingpong: none
      two_ctas,                           // two, within min_blocks_per_sm = 2
      swapped(knobs(64, 256, 64, 1, 1, 3, true))};  // swapped A and B: none (D stored transposed)                          // two, within min_blocks_per_sm = 2
  for (const GeneratedKnobs& k : samples) {
    const int launch = sm90_launch_shape(k, 2).dynamic_shared_bytes;
    cuda::NvrtcRequest request;
    // Warpgroup pieces of 96 columns need K-contiguous B.
    const char* layout = (k.tile_n / k.subgroup_n) % 64 == 0 ? "nn" : "nt";
    request.source = assemble(k, problem(16384, 4096, 4096, layout)) +
                     "static_assert(KT_SMEM_WITHOUT_STAGING + KT_STAGING * KT_STAGING_BYTES + "
                     "KT_CHUNK_STAGING * KT_CHUNK_STAGING_BYTES == " + std::to_string(launch) +
                     ", \"the kernel's shared memory layout differs from the launch's size\");\n";
    request.program_name = "gemm_sm90.cu";
    request.arch = "sm_90a";
    const cuda::NvrtcResult result = compiler_->compile(request);
    EXPECT_TRUE(result.ok) << sm90_defines(k, 0) << " launch " << launch << "\n" << result.error << "\n" << result.log;
  }
  // fp8 and tf32 tiles: the same rule in bytes.
  const std::vector<std::pair<GeneratedKnobs, int>> typed_samples = {
      {knobs(128, 256, 128, 2, 1, 4, true), 2}, {knobs(64, 256, 256, 1, 1, 3, true), 2},
      {knobs(128, 256, 32, 2, 1, 4, true), 3},  {knobs(64, 128, 64, 1, 1, 5, true, 1, 2), 3}};
  for (const auto& [k, in_type] : typed_samples) {
    const int launch = sm90_launch_shape(k, in_type_bytes(in_type)).dynamic_shared_bytes;
    cuda::NvrtcRequest request;
    request.source = assemble(k, typed(problem(16384, 4096, 128, "nt"), in_type)) +
                     "static_assert(KT_SMEM_WITHOUT_STAGING + KT_STAGING * KT_STAGING_BYTES + "
                     "KT_CHUNK_STAGING * KT_CHUNK_STAGING_BYTES == " + std::to_string(launch) +
                     ", \"the kernel's shared memory layout differs from the launch's size\");\n";
    request.program_name = "gemm_sm90.cu";
    request.arch = "sm_90a";
    const cuda::NvrtcResult result = compiler_->compile(request);
    EXPECT_TRUE(result.ok) << sm90_defines(k, in_type) << " launch " << launch << "\n" << result.error << "\n" << result.log;
  }
}

// An operand streamed with the L2 evict-first policy (l2_evict_first): the emitter names the
// kernel's operand (the problem's B is the kernel's A in a swapped kernel), and the policy's
// loads compile, unicast and multicast, into different code than the plain ones.
TEST_F(Sm90Nvrtc, EvictFirstLoadsCompileUnicastMulticastAndSwapped) {
  struct Case {
    GeneratedKnobs knobs;
    ProblemTraits traits;
    const char* kernel_macro;
  };
  std::vector<Case> cases;
  GeneratedKnobs decode = knobs(64, 128, 64, 1, 1, 8, true);  // l70b_down_decode_m128's kind
  decode.evict_first_b = true;
  cases.push_back({decode, problem(128, 8192, 28672, "nt"), "#define KT_B_EVICT_FIRST 1"});
  GeneratedKnobs pair = knobs(128, 128, 64, 2, 1, 4, true);
  pair.cluster_m = 2;  // B multicast along the pair
  pair.evict_first_a = pair.evict_first_b = true;
  cases.push_back({pair, problem(4096, 4096, 4096, "nn"), "#define KT_A_EVICT_FIRST 1"});
  GeneratedKnobs swapped = knobs(64, 16, 64, 1, 1, 16);
  swapped.swap_ab = true;
  swapped.evict_first_b = true;  // the weights: the swapped kernel's A
  cases.push_back({swapped, problem(16, 4096, 4096, "nt"), "#define KT_A_EVICT_FIRST 1"});
  for (const Case& c : cases) {
    ASSERT_EQ(sm90_rejects(c.knobs, c.traits).value_or(""), "");
    const std::string hinted = emit_source(c.knobs, c.traits);
    EXPECT_NE(hinted.find(c.kernel_macro), std::string::npos) << c.kernel_macro;
    GeneratedKnobs plain = c.knobs;
    plain.evict_first_a = plain.evict_first_b = false;
    const std::string unhinted = emit_source(plain, c.traits);
    EXPECT_EQ(unhinted.find("_EVICT_FIRST 1"), std::string::npos);
    cuda::NvrtcResult results[2];
    for (int i = 0; i < 2; ++i) {
      cuda::NvrtcRequest request;
      request.source = i == 0 ? hinted : unhinted;
      request.program_name = "ktune_gemm_sm90.cu";
      request.arch = "sm_90a";
      request.options = {"-std=c++17"};
      results[i] = compiler_->compile(request);
      ASSERT_TRUE(results[i].ok) << results[i].error << "\n" << results[i].log;
    }
    EXPECT_NE(results[0].cubin, results[1].cubin) << "the policy changed nothing";
  }
  GeneratedKnobs mixed = swapped;
  mixed.evict_first_a = true;
  mixed.evict_first_b = false;  // the activations: the swapped kernel's B
  EXPECT_NE(emit_source(mixed, problem(16, 4096, 4096, "nt")).find("#define KT_B_EVICT_FIRST 1"), std::string::npos);
}

TEST_F(Sm90Nvrtc, AnUnsupportedWarpgroupWidthFailsToCompileWithItsReason) {
  // tile_n / subgroup_n = 40 is not a wgmma width the kernel instantiates.
  GeneratedKnobs k = knobs(128, 40, 64, 1, 1, 4);
  cuda::NvrtcRequest request;
  request.source = assemble(k, problem(4096, 4096, 4096, "nt"));
  request.arch = "sm_90a";
  const cuda::NvrtcResult result = compiler_->compile(request);
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(mentions(result.log + result.error, "multiple of 16")) << result.log;
}

}  // namespace
}  // namespace ktune::generated
