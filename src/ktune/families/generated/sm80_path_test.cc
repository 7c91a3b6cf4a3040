// The sm_80 path's host side (constraints, launch shape, defines, grid) and that the kernel it
// describes compiles with NVRTC, as the emitter assembles it, for sm_80 and sm_90a: every layout,
// every vector width, a sample of knob settings, and no spills for the default tiles. (The GPU
// check of the kernel's results is bench/generated/sm80_harness.cu.)

#include "ktune/families/generated/sm80_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/generated_kernel.h"

namespace ktune::generated {
namespace {

ProblemTraits problem(std::int64_t m, std::int64_t n, std::int64_t k, bool a_k = true, bool b_k = false,
                      int alignment = 16) {
  ProblemTraits t;
  t.m = m;
  t.n = n;
  t.k = k;
  t.a_k_contiguous = a_k;
  t.b_k_contiguous = b_k;
  t.ab_alignment_bytes = alignment;
  return t;
}

GeneratedKnobs knobs(int tm, int tn, int tk, int sgm, int sgn, int stages) {
  GeneratedKnobs k;
  k.tile_m = tm;
  k.tile_n = tn;
  k.tile_k = tk;
  k.subgroup_m = sgm;
  k.subgroup_n = sgn;
  k.stages = stages;
  return k;
}

// The reason, or "" when accepted.
std::string why(const GeneratedKnobs& k, const ProblemTraits& p) { return sm80_rejects(k, p).value_or(""); }

TEST(Sm80Path, AcceptsTheDefaultsAndUsualTiles) {
  const ProblemTraits p = problem(4096, 4096, 4096);
  EXPECT_EQ(why(GeneratedKnobs{}, p), "");
  EXPECT_EQ(why(knobs(128, 256, 32, 2, 4, 4), p), "");
  EXPECT_EQ(why(knobs(128, 256, 64, 2, 4, 3), p), "");
  EXPECT_EQ(why(knobs(64, 64, 16, 2, 2, 2), p), "");
  EXPECT_EQ(why(knobs(16, 16, 16, 1, 1, 2), problem(1, 1, 1)), "");
}

TEST(Sm80Path, RejectsWithPreciseReasons) {
  const ProblemTraits p = problem(4096, 4096, 4096);
  GeneratedKnobs k;
  k.persistent = true;
  EXPECT_NE(why(k, p).find("persistent"), std::string::npos);
  k = GeneratedKnobs{};
  k.cluster_n = 2;  // refinement toggles cluster_n on any seed; the mma.sync kernel has no clusters
  EXPECT_NE(why(k, p).find("cluster_n"), std::string::npos);
  k = GeneratedKnobs{};
  k.path = KernelPath::Wgmma;
  EXPECT_NE(why(k, p).find("mma_sync"), std::string::npos);

  EXPECT_EQ(why(knobs(96, 128, 32, 4, 2, 3), p),
            "tile_m 96 is not a multiple of 16 * subgroup_m = 64 (each warp covers whole 16-row mma tiles)");
  EXPECT_NE(why(knobs(128, 120, 32, 2, 2, 3), p).find("tile_n 120 is not a multiple of 16 * subgroup_n = 32"),
            std::string::npos);
  // 8-column warp tiles: a multiple of 8 * subgroup_n is not enough for ldmatrix.x4 on B.
  EXPECT_NE(why(knobs(128, 64, 32, 2, 8, 3), p).find("tile_n 64 is not a multiple of 16 * subgroup_n = 128"),
            std::string::npos);
  EXPECT_EQ(why(knobs(128, 128, 24, 2, 2, 3), p), "tile_k 24 is not a multiple of 16 (the K of one mma.sync m16n8k16)");
  EXPECT_NE(why(knobs(512, 512, 32, 8, 8, 2), p).find("2048 threads; a CTA has at most 1024"), std::string::npos);
  EXPECT_NE(why(knobs(128, 128, 32, 1, 2, 3), p).find("warp tile 128x64 needs 256 fp32 accumulators"),
            std::string::npos);
  EXPECT_NE(why(knobs(128, 128, 32, 2, 2, 1), p).find("stages 1 is outside 2..8"), std::string::npos);

  // Shared memory: 5 x (128 + 256) x 64 x 2 = 245760 bytes.
  EXPECT_EQ(why(knobs(128, 256, 64, 2, 4, 5), p),
            "5 stages of 128x64 A and 64x256 B tiles need 245760 bytes of shared memory; a CTA can have at most "
            "232320");
  // 4 x (128 + 128) x 64 x 2 = 131072 fits once, not twice per SM.
  GeneratedKnobs two = knobs(128, 128, 64, 2, 2, 4);
  two.min_blocks_per_sm = 2;
  EXPECT_NE(why(two, p).find("bytes of shared memory per SM"), std::string::npos);
  // 256 threads x 2 CTAs leave 128 registers; a 64x64 warp tile needs ~230.
  GeneratedKnobs regs = knobs(128, 256, 32, 2, 4, 3);
  regs.min_blocks_per_sm = 2;
  EXPECT_EQ(why(regs, p),
            "256 threads x 2 CTAs per SM (min_blocks_per_sm) leave 128 registers per thread; the 64x64 warp tile "
            "needs about 232 (it would spill)");
  // Without an occupancy hint the CTA alone must fit: 512 threads leave 128 registers.
  GeneratedKnobs big = knobs(256, 256, 32, 4, 4, 3);
  big.min_blocks_per_sm = 0;
  EXPECT_NE(why(big, p).find("512 threads leave 128 registers per thread"), std::string::npos);
  GeneratedKnobs threads = knobs(128, 256, 32, 4, 8, 2);  // 1024 threads
  threads.min_blocks_per_sm = 3;
  EXPECT_NE(why(threads, p).find("exceeds the 2048 threads of an SM"), std::string::npos);

  // Shared rows of 96 elements (192 bytes) cannot be swizzled; only the contiguous dimension matters.
  EXPECT_NE(why(knobs(96, 128, 32, 3, 2, 3), problem(4096, 4096, 4096, false, false))
                .find("tile_m 96 cannot be the contiguous dimension of A's shared tile (A is M-contiguous)"),
            std::string::npos);
  EXPECT_EQ(why(knobs(96, 128, 32, 3, 2, 3), problem(4096, 4096, 4096, true, false)), "");
  EXPECT_NE(why(knobs(128, 128, 48, 2, 2, 3), problem(4096, 4096, 4096, true, false)).find("tile_k 48 cannot be"),
            std::string::npos);
  EXPECT_NE(why(knobs(128, 160, 32, 4, 2, 3), problem(4096, 4096, 4096, true, false)).find("tile_n 160 cannot"),
            std::string::npos);
  EXPECT_EQ(why(knobs(128, 160, 32, 4, 2, 3), problem(4096, 4096, 4096, true, true)), "");
  EXPECT_EQ(why(knobs(128, 192, 32, 2, 4, 3), problem(4096, 4096, 4096, true, false)), "");

  GeneratedKnobs split;
  split.split_k = 5;
  EXPECT_EQ(why(split, problem(512, 512, 100)), "split_k 5 exceeds the 4 K tiles of 32 (K = 100)");
  split.split_k = 4;
  EXPECT_EQ(why(split, problem(512, 512, 100)), "");
  ProblemTraits odd = problem(512, 512, 100);
  odd.ab_alignment_bytes = 1;
  EXPECT_NE(why(GeneratedKnobs{}, odd).find("1-byte aligned"), std::string::npos);
  ProblemTraits batch = problem(512, 512, 100);
  batch.batch = 70000;
  EXPECT_NE(why(GeneratedKnobs{}, batch).find("batch 70000"), std::string::npos);
  EXPECT_NE(why(GeneratedKnobs{}, problem(0, 5, 5)).find("no output"), std::string::npos);
}

TEST(Sm80Path, VectorBytesFollowTheAlignment) {
  ProblemTraits p = problem(64, 64, 64);
  const std::pair<int, int> cases[] = {{16, 16}, {8, 8}, {4, 4}, {2, 2}, {32, 16}, {6, 2}, {12, 4}, {1, 2}};
  for (auto [alignment, bytes] : cases) {
    p.ab_alignment_bytes = alignment;
    EXPECT_EQ(sm80_vector_bytes(p), bytes) << "alignment " << alignment;
  }
}

TEST(Sm80Path, LaunchShapeDefinesAndGrid) {
  ProblemTraits p = problem(1000, 3000, 2000);
  p.batch = 3;
  p.ab_alignment_bytes = 8;
  GeneratedKnobs k = knobs(128, 256, 32, 2, 4, 4);
  k.split_k = 2;
  k.min_blocks_per_sm = 0;
  const LaunchShape shape = sm80_launch_shape(k, p);
  EXPECT_EQ(shape.threads, 256);
  EXPECT_EQ(shape.dynamic_shared_bytes, 4 * (128 + 256) * 32 * 2);
  EXPECT_EQ(shape.cluster, 1);
  EXPECT_EQ(sm80_defines(k, p),
            "#define KT_TILE_M 128\n#define KT_TILE_N 256\n#define KT_TILE_K 32\n#define KT_SUBGROUP_M 2\n"
            "#define KT_SUBGROUP_N 4\n#define KT_STAGES 4\n#define KT_MIN_BLOCKS 0\n#define KT_THREADS 256\n"
            "#define KT_VECTOR_BYTES 8\n");
  unsigned grid[3] = {0, 0, 0};
  sm80_grid(k, p, grid);
  EXPECT_EQ(grid[0], 8u * 12u);  // ceil(1000 / 128) x ceil(3000 / 256)
  EXPECT_EQ(grid[1], 2u);
  EXPECT_EQ(grid[2], 3u);
  EXPECT_EQ(sm80_accumulators_per_thread(k), 64 * 64 / 32);

  // A thin tile with a short ring: the epilogue's staging area (16 rows of 64 + 8 floats per
  // warp) is the larger part, and the kernel reuses the ring for it.
  const GeneratedKnobs thin = knobs(16, 256, 16, 1, 4, 2);
  EXPECT_EQ(sm80_dynamic_shared_bytes(thin), 4 * 16 * (64 + 8) * 4);
  EXPECT_GT(sm80_dynamic_shared_bytes(thin), 2 * (16 + 256) * 16 * 2);
  EXPECT_EQ(sm80_launch_shape(thin, p).dynamic_shared_bytes, 18432);
}

std::string read_kernel_file(const std::string& name) {
  const std::string path = std::string(KTUNE_SOURCE_DIR) + "/src/ktune/families/generated/kernels/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What the emitter writes: problem macros, this path's knob macros, then the three files.
std::string assemble(const GeneratedKnobs& k, const ProblemTraits& p, bool split) {
  std::ostringstream out;
  out << "#define KT_IN_TYPE " << p.in_type << "\n#define KT_OUT_TYPE " << p.out_type << "\n"
      << "#define KT_A_K_CONTIGUOUS " << (p.a_k_contiguous ? 1 : 0) << "\n"
      << "#define KT_B_K_CONTIGUOUS " << (p.b_k_contiguous ? 1 : 0) << "\n"
      << "#define KT_READS_C " << (p.reads_c ? 1 : 0) << "\n#define KT_HAS_BIAS " << (p.bias ? 1 : 0) << "\n"
      << "#define KT_ACTIVATION " << p.activation << "\n#define KT_SPLIT_K " << (split ? 1 : 0) << "\n"
      << sm80_defines(k, p) << read_kernel_file("gemm_params.h") << "\n"
      << read_kernel_file("gemm_common.cuh") << "\n" << read_kernel_file("gemm_sm80.cuh") << "\n";
  return out.str();
}

struct CompileCase {
  GeneratedKnobs knobs;
  ProblemTraits traits;
  bool split = false;
  std::string arch;
  bool require_no_spills = false;
};

std::string describe(const CompileCase& c) {
  std::ostringstream out;
  out << c.arch << " " << (c.traits.a_k_contiguous ? "n" : "t") << (c.traits.b_k_contiguous ? "t" : "n") << " "
      << c.knobs.tile_m << "x" << c.knobs.tile_n << "x" << c.knobs.tile_k << " w" << c.knobs.subgroup_m << "x"
      << c.knobs.subgroup_n << " s" << c.knobs.stages << " v" << sm80_vector_bytes(c.traits)
      << (c.split ? " split" : "");
  return out.str();
}

TEST(Sm80PathNvrtc, CompilesEveryLayoutAndVectorWidthForSm80AndSm90a) {
  auto compiler = cuda::NvrtcCompiler::load();
  if (!compiler) GTEST_SKIP() << "NVRTC not available: " << compiler.error;

  const GeneratedKnobs samples[] = {GeneratedKnobs{}, knobs(128, 256, 32, 2, 4, 4), knobs(64, 128, 16, 1, 4, 4),
                                    knobs(256, 128, 64, 4, 2, 3)};
  std::vector<CompileCase> cases;
  int sample = 0;
  for (int layout = 0; layout < 4; ++layout) {
    for (int vector : {16, 8, 4, 2}) {
      // Each layout and each vector width meets both archs (alternating keeps the test short).
      {
        const char* arch = (layout + vector / 4) % 2 == 0 ? "sm_80" : "sm_90a";
        CompileCase c;
        c.traits = problem(1000, 3000, 2000, (layout & 2) == 0, (layout & 1) != 0, vector);
        c.traits.in_type = sample % 2;
        c.traits.out_type = sample % 3;
        c.traits.reads_c = sample % 2 == 0;
        c.traits.bias = sample % 3 == 1;
        c.traits.activation = sample % 3;
        c.split = sample % 2 == 1;
        c.knobs = samples[(layout + vector) % 4];
        c.arch = arch;
        ++sample;
        cases.push_back(c);
      }
    }
  }
  // The default tiles: no spills with any vector width, on either arch, in any layout.
  sample = 0;
  for (int vector : {16, 8, 4, 2}) {
    for (const char* arch : {"sm_80", "sm_90a"}) {
      const int layout = sample % 4;
      CompileCase c;
      c.traits = problem(4096, 4096, 4096, (layout & 2) == 0, (layout & 1) != 0, vector);
      c.traits.bias = true;
      c.traits.activation = 2;
      c.traits.reads_c = layout % 2 == 0;
      c.split = sample % 3 != 0;
      c.arch = arch;
      c.require_no_spills = true;
      ++sample;
      cases.push_back(c);
    }
  }

  for (const CompileCase& c : cases) ASSERT_EQ(why(c.knobs, c.traits), "") << describe(c);
  // A few compiles at a time: each NVRTC program takes seconds and hundreds of MB.
  std::vector<cuda::NvrtcResult> compiled(cases.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  const unsigned parallel = std::max(2u, std::min(4u, std::thread::hardware_concurrency()));
  for (unsigned w = 0; w < parallel; ++w)
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < cases.size(); i = next++) {
        cuda::NvrtcRequest request;
        request.source = assemble(cases[i].knobs, cases[i].traits, cases[i].split);
        request.program_name = "ktune_gemm_sm80.cu";
        request.arch = cases[i].arch;
        request.options = {"-std=c++17"};
        compiled[i] = compiler->compile(request);
      }
    });
  for (auto& worker : workers) worker.join();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const CompileCase& c = cases[i];
    const cuda::NvrtcResult& result = compiled[i];
    ASSERT_TRUE(result.ok) << describe(c) << ": " << result.error << "\n" << result.log;
    const auto* usage = result.resources.find("ktune_gemm_sm80");
    ASSERT_NE(usage, nullptr) << describe(c) << "\n" << result.log;
    if (c.require_no_spills) {
      EXPECT_FALSE(usage->has_spills()) << describe(c) << ": " << usage->spill_store_bytes << " bytes spilled";
      EXPECT_LE(usage->registers, 255) << describe(c);
    }
    EXPECT_LE(usage->shared_bytes, kSm80StaticSharedBytes) << describe(c);
  }
}

// The L2 evict-first policy on mma.sync's copies (l2_evict_first): 16-byte cp.async.cg and the
// narrower cp.async.ca (rows off 16 bytes) both take it, and the code changes with it.
TEST(Sm80PathNvrtc, EvictFirstCopiesCompileAtEveryCopyWidth) {
  auto compiler = cuda::NvrtcCompiler::load();
  if (!compiler) GTEST_SKIP() << "NVRTC not available: " << compiler.error;
  for (int vector : {16, 4}) {
    const ProblemTraits t = problem(32, 4096, 4096, true, true, vector);
    GeneratedKnobs k = knobs(32, 32, 256, 2, 2, 4);  // l7b_o_decode_m16's kind
    ASSERT_EQ(why(k, t), "");
    std::string cubins[2];
    for (int hinted = 0; hinted < 2; ++hinted) {
      k.evict_first_a = false;
      k.evict_first_b = hinted == 1;
      cuda::NvrtcRequest request;
      request.source = emit_source(k, t);
      EXPECT_EQ(request.source.find("#define KT_B_EVICT_FIRST 1") != std::string::npos, hinted == 1);
      request.program_name = "ktune_gemm_sm80.cu";
      request.arch = "sm_80";
      request.options = {"-std=c++17"};
      const cuda::NvrtcResult result = compiler->compile(request);
      ASSERT_TRUE(result.ok) << "vector " << vector << ": " << result.error << "\n" << result.log;
      cubins[hinted] = result.cubin;
    }
    EXPECT_NE(cubins[0], cubins[1]) << "vector " << vector << ": the policy changed nothing";
  }
}

}  // namespace
}  // namespace ktune::generated
