// The generated family's host side without a GPU: knobs <-> config, problem traits, the
// constraints, the cost model's choices, and that what the emitter writes compiles with NVRTC
// for sm_80 and sm_90a without spills.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/sm80_path.h"
#include "ktune/families/generated/sm90_path.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

DeviceTraits h100() {
  DeviceTraits d;
  d.compute_capability = 90;
  d.sm_count = 132;
  d.max_shared_per_block = 232448;
  d.name = "NVIDIA H100 80GB HBM3";
  return d;
}

TEST(GeneratedConfig, RoundTripsThroughTheDatabaseConfig) {
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = 128;
  k.tile_n = 256;
  k.tile_k = 64;
  k.subgroup_m = 2;
  k.subgroup_n = 1;
  k.stages = 4;
  k.split_k = 3;
  k.swizzle_group = 16;
  k.persistent = true;
  k.min_blocks_per_sm = 1;
  const ProblemTraits traits = problem_traits(make_problem(4096, 4096, 4096));
  const Config config = to_config(k, traits);
  EXPECT_EQ(config.at("family").as_string(), "generated");
  EXPECT_EQ(config.at("workgroup").as_string(), "128x256");
  EXPECT_EQ(config.at("mma_kind").as_string(), "WGMMA_F32_64x256x16_BF16");
  EXPECT_EQ(knobs_from_config(config), k);
  // b_panel appears only where set, so configurations recorded before it keep their identity.
  EXPECT_EQ(config.count("b_panel"), 0u);
  GeneratedKnobs panel = k;
  panel.split_k = 1;
  panel.b_panel = 2;
  EXPECT_EQ(to_config(panel, traits).at("b_panel").as_int(), 2);
  EXPECT_EQ(knobs_from_config(to_config(panel, traits)), panel);
  EXPECT_EQ(config.count("pingpong"), 0u);
  GeneratedKnobs pingpong = panel;
  pingpong.b_panel = 0;
  pingpong.subgroup_m = 1;
  pingpong.pingpong = true;
  EXPECT_TRUE(to_config(pingpong, traits).at("pingpong").as_bool());
  EXPECT_EQ(knobs_from_config(to_config(pingpong, traits)), pingpong);

  Config bad = config;
  bad["workgroup"] = Value::string("128by256");
  EXPECT_THROW(knobs_from_config(bad), std::invalid_argument);
  bad = config;
  bad.erase("pipeline_stages");
  try {
    knobs_from_config(bad);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pipeline_stages"), std::string::npos);
  }
  bad = config;
  bad["path"] = Value::string("hmma");
  EXPECT_THROW(knobs_from_config(bad), std::invalid_argument);
  bad = config;
  bad["family"] = Value::string("cublaslt");
  EXPECT_THROW(knobs_from_config(bad), std::invalid_argument);

  // l2_evict_first names the problem's operands whose loads stream evict-first; absent when none.
  EXPECT_EQ(config.count("l2_evict_first"), 0u);
  for (const auto& [a, b, name] : {std::tuple{true, false, "a"}, {false, true, "b"}, {true, true, "ab"}}) {
    GeneratedKnobs streamed = k;
    streamed.evict_first_a = a;
    streamed.evict_first_b = b;
    EXPECT_EQ(to_config(streamed, traits).at("l2_evict_first").as_string(), name);
    EXPECT_EQ(knobs_from_config(to_config(streamed, traits)), streamed);
  }
  for (const char* wrong : {"", "c", "ba", "A"}) {
    bad = config;
    bad["l2_evict_first"] = Value::string(wrong);
    EXPECT_THROW(knobs_from_config(bad), std::invalid_argument) << wrong;
  }
  bad = config;
  bad["l2_evict_first"] = Value::boolean(true);
  EXPECT_THROW(knobs_from_config(bad), std::invalid_argument);
}

TEST(GeneratedProblem, TraitsFollowTheLayoutAndAlignment) {
  ProblemTraits t = problem_traits(make_problem(4096, 4096, 4096));
  EXPECT_TRUE(t.a_k_contiguous);
  EXPECT_FALSE(t.b_k_contiguous);
  EXPECT_EQ(t.ab_alignment_bytes, 16);
  t = problem_traits(make_problem(100, 100, 4097, gemm::Precision::F16, "tt"));
  EXPECT_FALSE(t.a_k_contiguous);
  EXPECT_TRUE(t.b_k_contiguous);
  EXPECT_EQ(t.in_type, 0);
  EXPECT_EQ(t.ab_alignment_bytes, 2);  // B stored N x K with K = 4097 halves per row
  t = problem_traits(make_problem(1000, 3000, 2000, gemm::Precision::F16));
  EXPECT_EQ(t.ab_alignment_bytes, 16);
  t = problem_traits(make_problem(1000, 3004, 2000, gemm::Precision::F16));
  EXPECT_EQ(t.ab_alignment_bytes, 8);

  // fp8, tf32 and strict fp32 (three TF32 products) in any layout (the wgmma path reads a
  // K-major copy of an operand stored otherwise, repack.h).
  EXPECT_FALSE(unsupported_reason(make_problem(64, 64, 64, gemm::Precision::F32)).has_value());
  EXPECT_FALSE(unsupported_reason(make_problem(64, 64, 64, gemm::Precision::TF32)).has_value());  // nn
  t = problem_traits(make_problem(64, 64, 64, gemm::Precision::F8E4M3, "tn"));
  EXPECT_FALSE(t.a_k_contiguous);
  EXPECT_FALSE(t.b_k_contiguous);
  t = problem_traits(make_problem(64, 64, 64, gemm::Precision::F8E4M3, "nt"));
  EXPECT_EQ(t.in_type, 2);
  EXPECT_EQ(t.out_type, 1);  // bf16 by default
  EXPECT_EQ(t.ab_alignment_bytes, 16);
  t = problem_traits(make_problem(1000, 3000, 2002, gemm::Precision::TF32, "nt"));
  EXPECT_EQ(t.in_type, 3);
  EXPECT_EQ(t.out_type, 2);
  EXPECT_EQ(t.ab_alignment_bytes, 8);  // 2002 f32 per row
  gemm::GemmProblem fp8_bias = make_problem(64, 64, 64, gemm::Precision::F8E4M3, "nt");
  fp8_bias.out = gemm::Storage::F32;
  fp8_bias.bias = true;  // cuBLASLt's bf16 bias beside an f32 output: not what the kernels read
  EXPECT_TRUE(unsupported_reason(fp8_bias).has_value());
}

// alpha = 1 is compiled in (KT_ALPHA_ONE: with nothing else in the epilogue the finishing
// variants are not compiled at all); any other alpha is read from the parameters, and a kernel
// compiled for 1 refuses a problem with another.
TEST(GeneratedProblem, AlphaOneIsCompiledIn) {
  gemm::GemmProblem plain = make_problem(256, 256, 256, gemm::Precision::F16, "nn");
  gemm::GemmProblem scaled = plain;
  scaled.alpha = 0.5;
  EXPECT_TRUE(problem_traits(plain).alpha_one);
  EXPECT_FALSE(problem_traits(scaled).alpha_one);
  EXPECT_FALSE(ProblemTraits{}.alpha_one) << "traits built by hand stay right for any alpha";
  const GeneratedKnobs k = testing_support::wgmma_knobs(128, 128, 64, 1, 1, 4);
  EXPECT_NE(emit_source(k, problem_traits(plain)).find("#define KT_ALPHA_ONE 1\n"), std::string::npos);
  EXPECT_NE(emit_source(k, problem_traits(scaled)).find("#define KT_ALPHA_ONE 0\n"), std::string::npos);

  alignas(16) static unsigned char a[16], b[16], d[16];
  DeviceOperands operands;
  operands.a = a;
  operands.b = b;
  operands.d = d;
  const Launch launch = plan_launch(k, problem_traits(plain), h100());
  EXPECT_FLOAT_EQ(make_params(k, problem_traits(scaled), scaled, operands, launch, h100()).alpha, 0.5f);
  EXPECT_FLOAT_EQ(make_params(k, problem_traits(plain), plain, operands, launch, h100()).alpha, 1.0f);
  EXPECT_THROW(make_params(k, problem_traits(plain), scaled, operands, launch, h100()), gemm::GemmError);
}

// --generated-evict-first: an operand that one CTA reads once (the other dimension is one tile,
// or one cluster of tiles) streams evict-first; the problem's operands are named, through any
// swap; off by default, and then no kernel carries the policy.
TEST(GeneratedSpace, ReadOnceOperandsStreamEvictFirst) {
  const ProblemTraits decode = problem_traits(make_problem(16, 8192, 4096, gemm::Precision::BF16, "nt"));
  GeneratedKnobs k = testing_support::wgmma_knobs(64, 128, 64, 1, 1, 8);
  stream_read_once_operands(k, decode);
  EXPECT_TRUE(k.evict_first_b);   // the weights: 16 rows fit one 64-row tile
  EXPECT_FALSE(k.evict_first_a);  // the activations: read by all 64 column tiles
  GeneratedKnobs swapped = testing_support::wgmma_knobs(64, 16, 64, 1, 1, 16);
  swapped.swap_ab = true;
  stream_read_once_operands(swapped, decode);
  EXPECT_TRUE(swapped.evict_first_b);  // still the problem's B, now the kernel's A
  EXPECT_FALSE(swapped.evict_first_a);
  EXPECT_NE(emit_source(swapped, decode).find("#define KT_A_EVICT_FIRST 1"), std::string::npos);
  const ProblemTraits tall = problem_traits(make_problem(32768, 64, 4096, gemm::Precision::BF16, "nn"));
  GeneratedKnobs t = testing_support::wgmma_knobs(256, 64, 64, 2, 1, 4);
  stream_read_once_operands(t, tall);
  EXPECT_TRUE(t.evict_first_a);
  EXPECT_FALSE(t.evict_first_b);
  const ProblemTraits square = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::BF16, "nt"));
  GeneratedKnobs big = testing_support::wgmma_knobs(128, 256, 64, 2, 1, 4);
  big.evict_first_a = big.evict_first_b = true;
  stream_read_once_operands(big, square);  // both operands are read many times: cleared
  EXPECT_FALSE(big.evict_first_a || big.evict_first_b);
  const ProblemTraits m256 = problem_traits(make_problem(256, 8192, 4096, gemm::Precision::BF16, "nt"));
  GeneratedKnobs pair = testing_support::wgmma_knobs(128, 128, 64, 2, 1, 4);
  stream_read_once_operands(pair, m256);
  EXPECT_FALSE(pair.evict_first_b);  // two row tiles read each B tile
  pair.cluster_m = 2;
  stream_read_once_operands(pair, m256);
  EXPECT_TRUE(pair.evict_first_b);  // ... unless one cluster multicasts it to both

  SpaceOptions options;
  options.max_candidates = 20;
  for (const RankedKnobs& r : select_candidates(decode, h100(), options))
    EXPECT_FALSE(r.knobs.evict_first_a || r.knobs.evict_first_b);
  options.evict_first = true;
  int streamed = 0;
  for (const RankedKnobs& r : select_candidates(decode, h100(), options)) {
    GeneratedKnobs expected = r.knobs;
    stream_read_once_operands(expected, decode);
    EXPECT_EQ(r.knobs, expected);
    streamed += r.knobs.evict_first_b ? 1 : 0;
  }
  EXPECT_GT(streamed, 10);  // most decode kernels cover the 16 rows in one tile

  // Refinement keeps the policy, decided again for each neighbour's tiles: from 128 rows over
  // M = 128 to 64 rows, the weights are read twice and lose it.
  const ProblemTraits m128 = problem_traits(make_problem(128, 8192, 8192, gemm::Precision::BF16, "nt"));
  GeneratedKnobs seed = testing_support::wgmma_knobs(128, 128, 64, 1, 1, 6);
  stream_read_once_operands(seed, m128);
  ASSERT_TRUE(seed.evict_first_b);
  bool halved = false;
  for (const RankedKnobs& r : neighbours({seed}, {seed}, m128, h100(), 64)) {
    GeneratedKnobs expected = r.knobs;
    stream_read_once_operands(expected, m128);
    EXPECT_EQ(r.knobs, expected);
    if (r.knobs.tile_m * r.knobs.cluster_m < 128) {
      halved = true;
      EXPECT_FALSE(r.knobs.evict_first_b);
    }
  }
  EXPECT_TRUE(halved);
  GeneratedKnobs plain = seed;
  plain.evict_first_a = plain.evict_first_b = false;
  for (const RankedKnobs& r : neighbours({plain}, {plain}, m128, h100(), 64))
    EXPECT_FALSE(r.knobs.evict_first_a || r.knobs.evict_first_b);  // off stays off
}

// swap_ab: the kernel computes D^T = B^T A^T. Its traits swap M and N and A's and B's contiguity
// and alignment; its parameter block swaps the operands, sizes and pitches but keeps D's; the
// space offers swapped kernels for M <= 64 only (unless turned off), at least one of them among
// the candidates; the config round-trips; mma.sync and repacked operands refuse it.
TEST(GeneratedSwapAB, TheKernelComputesTheTransposedProblem) {
  const gemm::GemmProblem decode = make_problem(16, 8192, 4096, gemm::Precision::BF16, "nn");
  const ProblemTraits traits = problem_traits(decode);
  GeneratedKnobs k = testing_support::wgmma_knobs(64, 16, 64, 1, 1, 8);
  k.swap_ab = true;
  const ProblemTraits kt = kernel_traits(k, traits);
  EXPECT_EQ(kt.m, 8192);
  EXPECT_EQ(kt.n, 16);
  EXPECT_FALSE(kt.a_k_contiguous);  // B^T of an N-contiguous B
  EXPECT_TRUE(kt.b_k_contiguous);   // A^T of a K-contiguous A
  EXPECT_EQ(kernel_traits(GeneratedKnobs{}, traits).m, 16);
  EXPECT_FALSE(rejects(k, traits, h100())) << *rejects(k, traits, h100());
  EXPECT_TRUE(emit_source(k, traits).find("#define KT_B_K_CONTIGUOUS 1\n") != std::string::npos);
  EXPECT_TRUE(emit_source(k, traits).find("#define KT_SWAP_AB 1\n") != std::string::npos);

  alignas(16) static unsigned char a[16], b[16], d[16];
  DeviceOperands operands;
  operands.a = a;
  operands.b = b;
  operands.d = d;
  const Launch launch = plan_launch(k, traits, h100());
  EXPECT_EQ(launch.grid[0], 8192u / 64);  // tiles along the problem's N
  EXPECT_EQ(launch.counter_count, 8192 / 64);
  const KtuneGemmParams p = make_params(k, traits, decode, operands, launch, h100());
  EXPECT_EQ(p.a, b);
  EXPECT_EQ(p.b, a);
  EXPECT_EQ(p.m, 8192);
  EXPECT_EQ(p.n, 16);
  EXPECT_EQ(p.lda, 8192);  // B's pitch (K x N, N contiguous)
  EXPECT_EQ(p.ldb, 4096);  // A's pitch (M x K, K contiguous)
  EXPECT_EQ(p.batch_stride_a, 4096 * 8192);
  EXPECT_EQ(p.batch_stride_b, 16 * 4096);
  EXPECT_EQ(p.ldd, 8192);  // D keeps the problem's layout
  EXPECT_EQ(p.tiles_m, 128);
  EXPECT_EQ(p.tiles_n, 1);

  const Config config = to_config(k, traits);
  EXPECT_EQ(config.at("swap_ab").as_bool(), true);
  EXPECT_EQ(knobs_from_config(config), k);
  EXPECT_EQ(to_config(GeneratedKnobs{}, traits).count("swap_ab"), 0u);

  GeneratedKnobs sync = k;
  sync.path = KernelPath::MmaSync;
  EXPECT_TRUE(rejects(sync, traits, h100()).has_value());
  const ProblemTraits misaligned = problem_traits(make_problem(16, 8191, 4096, gemm::Precision::BF16, "nn"));
  ASSERT_TRUE(rejects(k, misaligned, h100()).has_value());
  EXPECT_NE(rejects(k, misaligned, h100())->find("repacked"), std::string::npos);

  SpaceOptions options;
  options.max_candidates = 20;
  const std::vector<RankedKnobs> with = select_candidates(traits, h100(), options);
  EXPECT_TRUE(std::any_of(with.begin(), with.end(), [](const RankedKnobs& r) { return r.knobs.swap_ab; }));
  for (const RankedKnobs& r : rank_space(traits, h100(), options))
    if (r.knobs.swap_ab) {
      EXPECT_LE(r.knobs.tile_n, 16) << "M = 16 needs no wider swapped tile";
    }
  options.swap_ab = false;
  for (const RankedKnobs& r : select_candidates(traits, h100(), options)) EXPECT_FALSE(r.knobs.swap_ab);
  options.swap_ab = true;
  const ProblemTraits prefill = problem_traits(make_problem(128, 8192, 4096, gemm::Precision::BF16, "nt"));
  for (const RankedKnobs& r : rank_space(prefill, h100(), options)) EXPECT_FALSE(r.knobs.swap_ab);
  // Mid-size M: swapped widths only where they pad M at least 10% less than 128-row tiles.
  // 660x3072x11008 as 128x144 swapped (720 rows against 768) screened 77.8 us against 75.2
  // unswapped (H200, session 25); 512 rows fill 128-row tiles exactly.
  const ProblemTraits mid = problem_traits(make_problem(660, 3072, 11008, gemm::Precision::BF16, "nt"));
  for (const RankedKnobs& r : rank_space(mid, h100(), options))
    if (r.knobs.swap_ab) {
      EXPECT_NE(r.knobs.tile_n, 144);
      EXPECT_LE(1.1 * ((660 + r.knobs.tile_n - 1) / r.knobs.tile_n) * r.knobs.tile_n, 768.0) << r.knobs.tile_n;
    }
  const ProblemTraits whole = problem_traits(make_problem(512, 5120, 13824, gemm::Precision::BF16, "nt"));
  for (const RankedKnobs& r : rank_space(whole, h100(), options)) EXPECT_FALSE(r.knobs.swap_ab);
  // 322 rows: 384 in 128-row tiles, 336 as three 112-column swapped tiles (51.9 us against 55.7
  // unswapped on an H200, session 31), which the selection measures.
  const ProblemTraits odd_m = problem_traits(make_problem(322, 5120, 8192, gemm::Precision::BF16, "nt"));
  const std::vector<RankedKnobs> odd_m_chosen = select_candidates(odd_m, h100(), options);
  EXPECT_TRUE(std::any_of(odd_m_chosen.begin(), odd_m_chosen.end(),
                          [](const RankedKnobs& r) { return r.knobs.swap_ab && r.knobs.tile_n == 112; }));
}

// tf32 with an N-contiguous B: every tiling also swapped, whose kernel reads B^T into registers
// and copies nothing; the model, charging the unswapped kernels their copy of B, ranks a swapped
// one first, and the selection keeps unswapped ones too. A K-contiguous B gets no swapped
// kernels at large M.
TEST(GeneratedSwapAB, Tf32WithAnNContiguousBSwapsAtEveryTiling) {
  const ProblemTraits nn = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "nn"));
  SpaceOptions options;
  options.max_candidates = 20;
  const std::vector<RankedKnobs> ranked = rank_space(nn, h100(), options);
  ASSERT_FALSE(ranked.empty());
  EXPECT_TRUE(ranked.front().knobs.swap_ab);
  EXPECT_FALSE(plan_launch(ranked.front().knobs, nn, h100()).repacks.any());
  EXPECT_TRUE(std::any_of(ranked.begin(), ranked.end(),
                          [](const RankedKnobs& r) { return r.knobs.swap_ab && r.knobs.tile_m == 256; }));
  const std::vector<RankedKnobs> chosen = select_candidates(nn, h100(), options);
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return !r.knobs.swap_ab; }));
  // Alone on their SMs: swapped CTA pairs ran 4-9% slower (H200, session 37).
  for (const RankedKnobs& r : ranked) {
    if (r.knobs.swap_ab) {
      EXPECT_EQ(cluster_size(r.knobs), 1);
    }
  }
  const ProblemTraits nt = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "nt"));
  for (const RankedKnobs& r : rank_space(nt, h100(), options)) EXPECT_FALSE(r.knobs.swap_ab);
  options.swap_ab = false;
  for (const RankedKnobs& r : rank_space(nn, h100(), options)) EXPECT_FALSE(r.knobs.swap_ab);
}

// A read into registers (tf32 swapped nn: the kernel's A is B^T, M-contiguous): consumer
// warpgroups stack along M only (side by side along N each would load the same A fragments),
// estimates that tie go to the wider warpgroup, and the 4-stage 128x256 tile of two 64x256
// warpgroups is among the measured (it beat the usual 256x128 pick by 4-7%; H200, session 38).
// Kernels that read both operands from shared memory keep both arrangements.
TEST(GeneratedSpace, RegisterAKernelsStackTheirWarpgroupsAlongM) {
  const ProblemTraits nn = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "nn"));
  SpaceOptions options;
  options.max_candidates = 20;
  const std::vector<RankedKnobs> ranked = rank_space(nn, h100(), options);
  ASSERT_FALSE(ranked.empty());
  bool any_register_a = false;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const RankedKnobs& r = ranked[i];
    if (r.estimate.register_a_columns == 0) continue;
    any_register_a = true;
    EXPECT_TRUE(r.knobs.swap_ab);
    EXPECT_EQ(r.knobs.subgroup_n, 1) << r.knobs.tile_m << "x" << r.knobs.tile_n;
    EXPECT_EQ(r.estimate.register_a_columns, r.knobs.tile_n);
    if (i > 0 && ranked[i - 1].estimate.seconds == r.estimate.seconds &&
        ranked[i - 1].estimate.loaded_ring_seconds == r.estimate.loaded_ring_seconds) {
      EXPECT_GE(ranked[i - 1].estimate.register_a_columns, r.estimate.register_a_columns);
    }
  }
  EXPECT_TRUE(any_register_a);
  const std::vector<RankedKnobs> chosen = select_candidates(nn, h100(), options);
  auto four_stage_wide = [](const RankedKnobs& r) {
    return r.knobs.swap_ab && r.knobs.tile_m == 128 && r.knobs.tile_n == 256 && r.knobs.subgroup_m == 2 &&
           r.knobs.stages == 4;
  };
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), four_stage_wide));
  // On the H200 too, whose faster HBM ranks other kernels higher: swapped register-A kernels are
  // not charged for a 4-stage ring (session 38 measured that kernel fastest of six there).
  DeviceTraits h200 = h100();
  h200.name = "NVIDIA H200";
  const std::vector<RankedKnobs> on_h200 = select_candidates(nn, h200, options);
  EXPECT_TRUE(std::any_of(on_h200.begin(), on_h200.end(), four_stage_wide));
  // Unswapped kernels (B copied K-major first) read A from shared memory: both arrangements.
  bool stacked = false, side_by_side = false;
  for (const RankedKnobs& r : ranked) {
    if (r.knobs.swap_ab || r.knobs.tile_m != 128 || r.knobs.tile_n != 256) continue;
    EXPECT_EQ(r.estimate.register_a_columns, 0);
    stacked = stacked || r.knobs.subgroup_n == 1;
    side_by_side = side_by_side || r.knobs.subgroup_n == 2;
  }
  EXPECT_TRUE(stacked);
  EXPECT_TRUE(side_by_side);
  // The same arrangement step from a stacked seed is not offered for register A.
  GeneratedKnobs seed = chosen.front().knobs;
  ASSERT_GT(chosen.front().estimate.register_a_columns, 0);
  for (const RankedKnobs& r : neighbours({seed}, {seed}, nn, h100(), 40)) {
    if (r.estimate.register_a_columns > 0) {
      EXPECT_EQ(r.knobs.subgroup_n, 1);
    }
  }
}

// A 4-stage tile of 128x256 or more without chunked staging is charged for stores it cannot
// overlap, but not a swapped kernel that reads A into registers (tf32 nn), whose deeper ring pays;
// unswapped register-A kernels (tf32 tt) keep the charge (session 41, docs/benchmarks.md).
TEST(GeneratedSpace, OnlySwappedRegisterAKernelsGoUnchargedForFourStages) {
  const ProblemTraits nn = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "nn"));
  const ProblemTraits tt = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "tt"));
  auto kernel = [](int stages, bool swap) {
    GeneratedKnobs k = testing_support::wgmma_knobs(128, 256, 32, 2, 1, stages);
    k.persistent = true;
    k.swap_ab = swap;
    return k;
  };
  for (const GeneratedKnobs& k : {kernel(3, true), kernel(4, true)}) ASSERT_FALSE(rejects(k, nn, h100()));
  for (const GeneratedKnobs& k : {kernel(3, false), kernel(4, false)}) ASSERT_FALSE(rejects(k, tt, h100()));
  ASSERT_GT(estimate(kernel(4, true), nn, h100()).register_a_columns, 0);
  ASSERT_GT(estimate(kernel(4, false), tt, h100()).register_a_columns, 0);
  EXPECT_DOUBLE_EQ(estimate(kernel(4, true), nn, h100()).compute_seconds,
                   estimate(kernel(3, true), nn, h100()).compute_seconds);
  EXPECT_GT(estimate(kernel(4, false), tt, h100()).compute_seconds,
            estimate(kernel(3, false), tt, h100()).compute_seconds * 1.04);
}

// fp8 and tf32 problems get wgmma kernels only, with K tiles of one 128-byte row, and the model
// charges their tensor rate (fp8 twice f16's, tf32 half).
// The model sizes an fp8 kernel's shared memory in fp8 bytes: a 128x256 tile with 128-deep K
// tiles has a 16-bit kernel's stages and staging tile, so the two differ only in the operand
// bytes they read (the store is charged alike).
TEST(GeneratedSpace, Fp8KernelsAreChargedTheirOwnStagingTile) {
  const DeviceTraits device = h100();
  const ProblemTraits f16 = problem_traits(make_problem(8192, 8192, 256, gemm::Precision::F16, "nt"));
  const ProblemTraits fp8 = problem_traits(make_problem(8192, 8192, 256, gemm::Precision::F8E4M3, "nt"));
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = 128;
  k.tile_n = 256;
  k.subgroup_m = 2;
  k.subgroup_n = 1;
  k.stages = 3;
  k.persistent = true;
  k.tile_k = 64;
  const ModelEstimate e16 = estimate(k, f16, device);
  k.tile_k = 128;
  ASSERT_FALSE(rejects(k, fp8, device).has_value());
  const ModelEstimate e8 = estimate(k, fp8, device);
  // Operand reads from L2: A once per column of tiles, B once per row (32 x 64 tiles), at the
  // model's 10 TB/s; fp8 reads half the bytes.
  const double f16_operands = (8192.0 * 256 * 32 + 256.0 * 8192 * 64) * 2;
  EXPECT_NEAR(e16.l2_seconds - e8.l2_seconds, f16_operands / 2 / 10e12, 1e-9);
}

// CTA pairs (cluster_n 2) are in the space unless turned off, with the model's A saving.
TEST(GeneratedSpace, ClusterPairsJoinTheSpaceUnlessTurnedOff) {
  const DeviceTraits device = h100();
  const ProblemTraits traits = problem_traits(make_problem(3000, 3000, 3000, gemm::Precision::F16, "nt"));
  SpaceOptions options;
  options.max_candidates = 40;
  options.clusters = false;
  for (const RankedKnobs& r : select_candidates(traits, device, options)) EXPECT_EQ(r.knobs.cluster_n, 1);
  options.clusters = true;
  const std::vector<RankedKnobs> with = select_candidates(traits, device, options);
  const auto pair = std::find_if(with.begin(), with.end(), [](const RankedKnobs& r) { return r.knobs.cluster_n == 2; });
  ASSERT_NE(pair, with.end());
  GeneratedKnobs single = pair->knobs;
  single.cluster_n = 1;
  EXPECT_LT(pair->estimate.l2_seconds, estimate(single, traits, device).l2_seconds);
  // Sharing B along M too (cluster_m) cuts B's reads as well; the config round-trips.
  GeneratedKnobs quad = pair->knobs;
  quad.cluster_m = 2;
  if (!rejects(quad, traits, device)) {
    EXPECT_LT(estimate(quad, traits, device).l2_seconds, pair->estimate.l2_seconds);
    EXPECT_EQ(knobs_from_config(to_config(quad, traits)), quad);
  }
  // At most one cluster shape per kernel among the candidates.
  for (std::size_t i = 0; i < with.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      GeneratedKnobs x = with[i].knobs, y = with[j].knobs;
      if (cluster_size(x) == 1 || cluster_size(y) == 1) continue;
      x.cluster_n = x.cluster_m = y.cluster_n = y.cluster_m = 1;
      EXPECT_FALSE(x == y) << "two cluster shapes of one kernel";
    }
}

// split_reduce: split-K slices stored apart and summed by a second kernel. It needs split_k >= 2,
// the wgmma path and at most 256 MiB of slices; it gets split_k x batch x M x N floats of
// workspace and a reduction grid; the config round-trips; the model charges no atomics for it,
// so on long K it ranks the reducing kernel ahead of the same kernel with atomic adds.
TEST(GeneratedSpace, SplitKSlicesSummedByASecondKernel) {
  const ProblemTraits traits = problem_traits(make_problem(128, 256, 32768, gemm::Precision::F16, "nn"));
  GeneratedKnobs k = testing_support::wgmma_knobs(64, 64, 64, 1, 1, 8);
  k.split_k = 16;
  GeneratedKnobs reduced = k;
  reduced.split_reduce = true;
  ASSERT_FALSE(rejects(reduced, traits, h100())) << *rejects(reduced, traits, h100());
  const Launch launch = plan_launch(reduced, traits, h100());
  EXPECT_EQ(launch.split_k_workspace_floats, 16 * 128 * 256);
  EXPECT_EQ(launch.reduce_grid, 128u * 128 / 64);  // 64 pairs of columns per CTA
  EXPECT_EQ(plan_launch(k, traits, h100()).split_k_workspace_floats, 128 * 256);
  EXPECT_EQ(plan_launch(k, traits, h100()).reduce_grid, 0u);
  EXPECT_NE(emit_source(reduced, traits).find("#define KT_SPLIT_REDUCE 1\n"), std::string::npos);
  EXPECT_EQ(emit_source(k, traits).find("KT_SPLIT_REDUCE 1"), std::string::npos);
  EXPECT_EQ(knobs_from_config(to_config(reduced, traits)), reduced);
  EXPECT_EQ(to_config(k, traits).count("split_reduce"), 0u);  // old configurations keep their identity
  EXPECT_LT(estimate(reduced, traits, h100()).seconds, estimate(k, traits, h100()).seconds);
  GeneratedKnobs unsplit = reduced;
  unsplit.split_k = 1;
  EXPECT_TRUE(rejects(unsplit, traits, h100()).has_value());
  GeneratedKnobs sync = reduced;
  sync.path = KernelPath::MmaSync;
  EXPECT_TRUE(rejects(sync, traits, h100()).has_value());
  GeneratedKnobs huge = reduced;
  huge.split_k = 4;
  EXPECT_TRUE(rejects(huge, problem_traits(make_problem(8192, 8192, 8192, gemm::Precision::F16)), h100()).has_value());
  // The space offers the reducing variant only where the atomic adds (batch x M x N x split)
  // would reach 64K; below that, refinement may still step to it.
  const ProblemTraits small = problem_traits(make_problem(64, 64, 65536, gemm::Precision::BF16));
  bool any_reduced = false;
  for (const RankedKnobs& r : rank_space(small, h100(), {})) {
    EXPECT_FALSE(r.knobs.split_reduce && 64 * 64 * r.knobs.split_k < 64 * 1024) << r.knobs.split_k;
    any_reduced = any_reduced || r.knobs.split_reduce;
  }
  EXPECT_TRUE(any_reduced);  // split 16 and up
  bool large_reduced = false;
  for (const RankedKnobs& r : rank_space(traits, h100(), {})) large_reduced = large_reduced || r.knobs.split_reduce;
  EXPECT_TRUE(large_reduced);
}

// A split tail: the config keeps the knob (and old configs their identity), the model charges
// the last round as slices, and the space offers it (when asked: opt-in) where the last round is
// partial.
TEST(GeneratedSpace, SplitTailFillsThePartialLastRound) {
  const ProblemTraits traits = problem_traits(make_problem(3000, 3000, 3000, gemm::Precision::F16, "nt"));
  GeneratedKnobs whole = testing_support::wgmma_knobs(128, 256, 64, 2, 1, 3);
  whole.persistent = true;
  GeneratedKnobs tail = whole;
  tail.split_k = 4;
  tail.split_tail = true;
  ASSERT_FALSE(rejects(tail, traits, h100())) << *rejects(tail, traits, h100());
  EXPECT_EQ(knobs_from_config(to_config(tail, traits)), tail);
  EXPECT_EQ(to_config(whole, traits).count("split_tail"), 0u);
  EXPECT_NE(emit_source(tail, traits).find("#define KT_SPLIT_TAIL 1\n"), std::string::npos);
  EXPECT_EQ(plan_launch(tail, traits, h100()).split_k_workspace_floats, 24 * 4 * 128 * 256);  // a slot per slice
  // 288 tiles: two full rounds and 24 tiles in quarters, against three whole rounds.
  const ModelEstimate e_tail = estimate(tail, traits, h100()), e_whole = estimate(whole, traits, h100());
  EXPECT_NEAR(e_tail.waves, 2.0 + 96.0 / 132.0, 1e-9);
  EXPECT_LT(e_tail.compute_seconds, 0.8 * e_whole.compute_seconds);
  EXPECT_LT(e_tail.seconds, e_whole.seconds);
  // Not where the rounds are whole (264 tiles) or where there is less than one.
  EXPECT_TRUE(rejects(tail, problem_traits(make_problem(4224, 2048, 1024, gemm::Precision::F16, "nt")), h100()));
  EXPECT_TRUE(rejects(tail, problem_traits(make_problem(512, 1024, 4096, gemm::Precision::F16, "nt")), h100()));
  GeneratedKnobs sync = tail;
  sync.path = KernelPath::MmaSync;
  EXPECT_TRUE(rejects(sync, traits, h100()));
  // In the space with slices that fit one round, and among the chosen candidates.
  SpaceOptions with_tails;
  with_tails.split_tail = true;
  for (const RankedKnobs& r : rank_space(traits, h100(), {})) EXPECT_FALSE(r.knobs.split_tail);  // opt-in
  bool offered = false;
  for (const RankedKnobs& r : rank_space(traits, h100(), with_tails))
    if (r.knobs.split_tail) {
      offered = true;
      const SplitTail t = sm90_split_tail(r.knobs, kernel_traits(r.knobs, traits), 132);
      EXPECT_LE(t.tiles * r.knobs.split_k, t.units);
    }
  EXPECT_TRUE(offered);
  // The fixup was measured dear (3000^3 in 128x256 tiles, H200: 12-23 us after the slice), so
  // on this shape the whole 192x192 tiles keep the slots; 1024x10240x8192 (256 tiles of 256x160,
  // eight short of two rounds) has tails near the best, and a quarter of the slots at most.
  SpaceOptions options = with_tails;
  options.max_candidates = 20;
  const ProblemTraits prefill = problem_traits(make_problem(1024, 10240, 8192, gemm::Precision::BF16, "nt"));
  const std::vector<RankedKnobs> chosen = select_candidates(prefill, h100(), options);
  const auto tails = std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.split_tail; });
  EXPECT_GE(tails, 1);
  EXPECT_LE(tails, 5);
  // Refinement steps a persistent seed to its split tail.
  const std::vector<RankedKnobs> steps = neighbours({whole}, {whole}, traits, h100(), 64, true, true);
  EXPECT_TRUE(std::any_of(steps.begin(), steps.end(), [](const RankedKnobs& r) {
    return r.knobs.split_tail && r.knobs.split_k >= 2 && r.knobs.tile_m == 128 && r.knobs.tile_n == 256;
  }));
  for (const RankedKnobs& r : neighbours({whole}, {whole}, traits, h100(), 64, true)) EXPECT_FALSE(r.knobs.split_tail);
}

// Two CTAs per SM (--generated-co-resident): small tiles with a shallow ring and registers for
// two, opt-in; the model overlaps one CTA's stores with the other's MMAs (no serial term).
TEST(GeneratedSpace, CoResidentKernelsShareTheirSm) {
  const ProblemTraits traits = problem_traits(make_problem(2048, 2048, 96, gemm::Precision::F16, "nn"));
  for (const RankedKnobs& r : rank_space(traits, h100(), {})) {
    EXPECT_EQ(r.knobs.min_blocks_per_sm, 1);  // opt-in
    if (r.knobs.path == KernelPath::Wgmma) {
      EXPECT_GE(r.knobs.stages, 3);
    }
  }
  SpaceOptions options;
  options.co_resident = true;
  options.max_candidates = 20;
  std::size_t paired = 0;
  for (const RankedKnobs& r : rank_space(traits, h100(), options)) {
    if (r.knobs.min_blocks_per_sm == 1) {
      EXPECT_GE(r.knobs.stages, r.knobs.path == KernelPath::Wgmma ? 3 : 2);
      continue;
    }
    ++paired;
    EXPECT_EQ(r.knobs.path, KernelPath::Wgmma);
    EXPECT_EQ(r.knobs.min_blocks_per_sm, 2);
    EXPECT_LE(r.knobs.stages, 4);
    // Two of them fit an SM: shared memory, threads and the accumulators' registers.
    const Launch launch = plan_launch(r.knobs, traits, h100());
    EXPECT_LE(2 * (launch.shape.dynamic_shared_bytes + 1024), 233472);
    EXPECT_LE(2 * launch.shape.threads, 2048);
    EXPECT_LE(sm90_entry_registers(r.knobs) * launch.shape.threads * 2, 65536);
    EXPECT_NE(emit_source(r.knobs, traits).find("#define KT_MIN_BLOCKS 2\n"), std::string::npos);
  }
  EXPECT_GT(paired, 0u);
  // Tiles whose accumulators need more than half the register file stay out.
  GeneratedKnobs big = testing_support::wgmma_knobs(128, 256, 64, 2, 1, 3);
  big.min_blocks_per_sm = 2;
  EXPECT_TRUE(rejects(big, traits, h100()));
  GeneratedKnobs small = testing_support::wgmma_knobs(64, 128, 64, 1, 1, 2);
  small.min_blocks_per_sm = 2;
  ASSERT_FALSE(rejects(small, traits, h100())) << *rejects(small, traits, h100());
  EXPECT_EQ(knobs_from_config(to_config(small, traits)), small);
  // Against the same kernel alone on its SM: twice the CTAs at once, no serial store term.
  GeneratedKnobs alone = small;
  alone.min_blocks_per_sm = 1;
  EXPECT_LT(estimate(small, traits, h100()).seconds, estimate(alone, traits, h100()).seconds);
  // The best of them is measured, and they take a quarter of the slots at most.
  const std::vector<RankedKnobs> chosen = select_candidates(traits, h100(), options);
  const auto in_pairs = std::count_if(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.min_blocks_per_sm == 2; });
  EXPECT_GE(in_pairs, 1);
  EXPECT_LE(in_pairs, 5);
  // Refinement steps a lone seed to its pair where asked, and a paired seed back.
  GeneratedKnobs lone = alone;
  lone.stages = 4;
  auto paired_step = [&](const std::vector<RankedKnobs>& steps) {
    return std::any_of(steps.begin(), steps.end(), [](const RankedKnobs& r) {
      return r.knobs.min_blocks_per_sm == 2 && r.knobs.tile_m == 64 && r.knobs.tile_n == 128 && r.knobs.stages <= 4;
    });
  };
  EXPECT_TRUE(paired_step(neighbours({lone}, {lone}, traits, h100(), 64, true, false, true)));
  EXPECT_FALSE(paired_step(neighbours({lone}, {lone}, traits, h100(), 64, true, false, false)));
  const std::vector<RankedKnobs> back = neighbours({small}, {small}, traits, h100(), 64, true);
  EXPECT_TRUE(std::any_of(back.begin(), back.end(), [](const RankedKnobs& r) {
    return r.knobs.min_blocks_per_sm == 1 && r.knobs.tile_n == 128 && r.knobs.stages == 3;
  }));
}

// The split-K reduction is charged about 2 us per kReduceChargedSlices slices past the first (H200,
// sessions 26-27: 64x128 tiles in 32 slices ran 14.3-15.1 us on 256x128x16384 where 64x64 in 16
// ran 13.25). Within a round only the slices' bytes (written and read at HBM rate) tell two
// splits apart.
TEST(GeneratedSpace, ReductionRoundsAreCharged) {
  constexpr int kRound = kReduceChargedSlices;
  for (const auto& [m, n, k] : {std::tuple{256, 128, 16384}, std::tuple{128, 256, 32768}}) {
    const ProblemTraits traits = problem_traits(make_problem(m, n, k, gemm::Precision::F16, "nt"));
    auto reduced = [&](int split) {
      GeneratedKnobs knobs = testing_support::wgmma_knobs(64, 64, 64, 1, 1, 8);
      knobs.split_k = split;
      knobs.split_reduce = true;
      knobs.persistent = true;
      EXPECT_FALSE(rejects(knobs, traits, h100())) << split;
      return estimate(knobs, traits, h100()).reduction_seconds;
    };
    const double partial = 4.0 * m * n;
    EXPECT_NEAR(reduced(kRound) - reduced(kRound / 2), 2.0 * partial * (kRound / 2) / 3.35e12, 0.2e-6);
    EXPECT_NEAR(reduced(2 * kRound) - reduced(kRound), 2e-6 + 2.0 * partial * kRound / 3.35e12, 0.2e-6);
  }
}

// Every kernel of a memory-bound problem ties at unique bytes over HBM bandwidth; the tied kernel
// with the most slack in its other terms is measured too (32x28672x8192: 64x224 tiles, one wave,
// were ranked 74th and ran 123 us where the first-enumerated 64x112 ran 127; H200, session 26).
TEST(GeneratedSpace, MemoryBoundTiesKeepTheKernelWithMostSlack) {
  const ProblemTraits traits = problem_traits(make_problem(32, 28672, 8192, gemm::Precision::BF16, "nt"));
  SpaceOptions options;
  options.max_candidates = 20;
  const std::vector<RankedKnobs> ranked = rank_space(traits, h100(), options);
  ASSERT_GT(ranked.size(), 2u);
  const double best = ranked.front().estimate.seconds;
  EXPECT_GT(ranked.front().estimate.overlap_seconds, 0.0);
  const RankedKnobs* slack = &ranked.front();
  std::size_t tied = 0;
  for (const RankedKnobs& r : ranked) {
    if (r.estimate.seconds != best) break;
    ++tied;
    if (cluster_size(r.knobs) == 1 && (cluster_size(slack->knobs) > 1 || r.estimate.overlap_seconds < slack->estimate.overlap_seconds))
      slack = &r;
  }
  ASSERT_EQ(cluster_size(slack->knobs), 1);  // not a pair: the model's multicast credit does not decide
  ASSERT_GT(tied, options.max_candidates);  // more ties than slots: the order alone would decide
  const std::vector<RankedKnobs> chosen = select_candidates(traits, h100(), options);
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [&](const RankedKnobs& c) { return c.knobs == slack->knobs; }));
  EXPECT_GE(slack->knobs.tile_n, 192);  // fewer, wider tiles: one wave
  // A compute-bound problem has no such term.
  const ProblemTraits big = problem_traits(make_problem(4096, 4096, 4096));
  EXPECT_EQ(rank_space(big, h100(), options).front().estimate.overlap_seconds, 0.0);
}

// Tiles past 64x64 ring up to 8 deep, and where the ring binds at a loaded HBM's latency the
// model's ties go to the deeper ring: on 128x8192x28672 bf16 (H200, session 30) 64x128 tiles ran
// 149.8, 135.5 and 128.0 us with 5, 6 and 8 stages, which the model's compute and L2 terms tie.
TEST(GeneratedSpace, DeeperRingsWinTiesWhereTheRingMayBind) {
  const ProblemTraits traits = problem_traits(make_problem(128, 8192, 28672, gemm::Precision::BF16, "nt"));
  SpaceOptions options;
  options.max_candidates = 20;
  options.clusters = false;
  const std::vector<RankedKnobs> ranked = rank_space(traits, h100(), options);
  auto lone_64x128 = [](const RankedKnobs& r) {
    return r.knobs.path == KernelPath::Wgmma && r.knobs.tile_m == 64 && r.knobs.tile_n == 128 && r.knobs.split_k == 1 &&
           r.knobs.persistent && !r.knobs.swap_ab && r.knobs.subgroup_n == 1;
  };
  std::vector<const RankedKnobs*> rings;
  for (const RankedKnobs& r : ranked)
    if (lone_64x128(r)) rings.push_back(&r);
  ASSERT_GE(rings.size(), 4u);
  std::set<int> depths;
  for (const RankedKnobs* r : rings) depths.insert(r->knobs.stages);
  EXPECT_TRUE(depths.count(6) && depths.count(8)) << "the 6- and 8-stage rings are in the space";
  EXPECT_EQ(depths.count(12), 0u) << "12 stages of 64x128 do not fit";
  // The first of them in the model's order is the deepest, and its estimate ties with the 5-stage one.
  EXPECT_EQ(rings.front()->knobs.stages, 8);
  const auto five = std::find_if(rings.begin(), rings.end(), [](const RankedKnobs* r) { return r->knobs.stages == 5; });
  ASSERT_NE(five, rings.end());
  EXPECT_EQ((*five)->estimate.seconds, rings.front()->estimate.seconds);
  EXPECT_GT((*five)->estimate.loaded_ring_seconds, (*five)->estimate.seconds);
  EXPECT_LT(rings.front()->estimate.loaded_ring_seconds, (*five)->estimate.loaded_ring_seconds);
  // ...and it is among the kernels measured.
  const std::vector<RankedKnobs> chosen = select_candidates(traits, h100(), options);
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [&](const RankedKnobs& c) { return c.knobs == rings.front()->knobs; }));
  // Small tiles keep their rings (3-5, 8, 12, 16): no 6-stage 64x64.
  for (const RankedKnobs& r : ranked) {
    if (r.knobs.path == KernelPath::Wgmma && r.knobs.tile_m <= 64 && r.knobs.tile_n <= 64) {
      EXPECT_NE(r.knobs.stages, 6);
    }
  }
  // Where no ring binds (a compute-bound tie), the order stays the enumeration's: shallow first.
  const ProblemTraits big = problem_traits(make_problem(4096, 4096, 4096));
  const std::vector<RankedKnobs> big_ranked = rank_space(big, h100(), options);
  for (std::size_t i = 1; i < big_ranked.size() && i < 200; ++i) {
    const RankedKnobs& a = big_ranked[i - 1];
    const RankedKnobs& b = big_ranked[i];
    if (a.estimate.seconds == b.estimate.seconds && a.estimate.loaded_ring_seconds <= a.estimate.seconds &&
        b.estimate.loaded_ring_seconds <= b.estimate.seconds) {
      GeneratedKnobs a_ring = a.knobs, b_ring = b.knobs;
      a_ring.stages = b_ring.stages = 0;
      if (a_ring == b_ring) {
        EXPECT_LT(a.knobs.stages, b.knobs.stages);
      }
    }
  }
}

// mma.sync with copies narrower than 16 bytes is charged on its tensor rate (sqrt of the share
// of 16 bytes a copy moves): on odd sizes its 2-byte loads ran 2-4x slower than wgmma on
// repacked operands (511x1000x4097 f16: 94.6 us against 25.6; H200, sessions 25-27).
TEST(GeneratedSpace, NarrowCopiesCostMmaSyncItsRate) {
  const ProblemTraits odd = problem_traits(make_problem(511, 1000, 4097, gemm::Precision::F16, "nn"));
  const ProblemTraits even = problem_traits(make_problem(512, 1000, 4096, gemm::Precision::F16, "nn"));
  ASSERT_EQ(sm80_vector_bytes(odd), 2);
  ASSERT_EQ(sm80_vector_bytes(even), 16);
  const GeneratedKnobs k = testing_support::mma_sync_knobs(64, 128, 64, 2, 2, 3);
  ASSERT_FALSE(rejects(k, odd, h100()));
  const ModelEstimate narrow = estimate(k, odd, h100()), wide = estimate(k, even, h100());
  EXPECT_NEAR(narrow.compute_seconds / wide.compute_seconds, std::sqrt(8.0), 0.1);
  // The wgmma path's estimate does not depend on it; the model's first choice there is wgmma.
  SpaceOptions options;
  options.max_candidates = 20;
  EXPECT_EQ(rank_space(odd, h100(), options).front().knobs.path, KernelPath::Wgmma);
}

// Split-K counters cover the grid padded to whole clusters: 1000 rows of 64 are 16 row tiles,
// 4 cluster rows of 4; 128 columns of 32 are 4 column tiles, 2 cluster columns of 2.
TEST(GeneratedSpace, SplitKCountersCoverThePaddedClusterGrid) {
  const ProblemTraits traits = problem_traits(make_problem(1000, 128, 16384, gemm::Precision::BF16, "nt"));
  GeneratedKnobs k = testing_support::wgmma_knobs(64, 32, 64, 1, 1, 8);
  k.split_k = 8;
  k.cluster_n = 2;
  k.cluster_m = 4;
  ASSERT_FALSE(rejects(k, traits, h100())) << *rejects(k, traits, h100());
  EXPECT_EQ(plan_launch(k, traits, h100()).counter_count, 16 * 4);
  k.cluster_m = 1;
  k.cluster_n = 1;
  EXPECT_EQ(plan_launch(k, traits, h100()).counter_count, 16 * 4);
  k.cluster_m = 2;
  const ProblemTraits odd = problem_traits(make_problem(1000, 100, 16384, gemm::Precision::BF16, "nt"));
  EXPECT_EQ(plan_launch(k, odd, h100()).counter_count, 16 * 4);  // 4 column tiles of 32 for 100
  k.cluster_m = 4;
  const ProblemTraits rows = problem_traits(make_problem(900, 100, 16384, gemm::Precision::BF16, "nt"));
  EXPECT_EQ(plan_launch(k, rows, h100()).counter_count, 16 * 4);  // 15 row tiles padded to 16
}

// Tile widths in steps of 32 join the space where B is K-contiguous (an N-contiguous B needs
// whole 64-column swizzle rows per warpgroup), and the model takes them where they fill the SMs
// in whole waves: 1024x10240 in 256 tiles of 256x160 (1.94 waves on 132 SMs) against 320 of
// 128x256 (2.42, a third wave mostly idle).
TEST(GeneratedSpace, TileWidthsInStepsOf32FillWholeWaves) {
  const DeviceTraits device = h100();
  SpaceOptions options;
  options.max_candidates = 20;
  const ProblemTraits nt = problem_traits(make_problem(1024, 10240, 8192, gemm::Precision::BF16, "nt"));
  const std::vector<RankedKnobs> chosen = select_candidates(nt, device, options);
  ASSERT_FALSE(chosen.empty());
  EXPECT_EQ(chosen.front().knobs.tile_n % 64, 32) << chosen.front().knobs.tile_m << "x" << chosen.front().knobs.tile_n;
  EXPECT_LT(chosen.front().estimate.waves, 2.0);
  const ProblemTraits nn = problem_traits(make_problem(1024, 10240, 8192, gemm::Precision::BF16, "nn"));
  for (const RankedKnobs& r : rank_space(nn, device, options)) {
    if (r.knobs.path != KernelPath::Wgmma || r.knobs.swap_ab) continue;
    EXPECT_EQ((r.knobs.tile_n / r.knobs.subgroup_n) % 64, 0) << r.knobs.tile_n << "/" << r.knobs.subgroup_n;
  }
}

TEST(GeneratedSpace, Fp8AndTf32GetWgmmaKernelsWithTheirOwnKTilesAndRates) {
  const DeviceTraits hopper = h100();
  SpaceOptions options;
  options.max_candidates = 12;
  const auto f16 = select_candidates(problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::F16, "nt")), hopper, options);
  const auto fp8 = select_candidates(problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::F8E4M3, "nt")), hopper, options);
  const auto tf32 = select_candidates(problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::TF32, "nt")), hopper, options);
  ASSERT_FALSE(fp8.empty());
  ASSERT_FALSE(tf32.empty());
  for (const RankedKnobs& r : fp8) {
    EXPECT_EQ(r.knobs.path, KernelPath::Wgmma);
    EXPECT_EQ(r.knobs.tile_k % 128, 0);
  }
  for (const RankedKnobs& r : tf32) {
    EXPECT_EQ(r.knobs.path, KernelPath::Wgmma);
    EXPECT_EQ(r.knobs.tile_k % 32, 0);
  }
  EXPECT_LT(fp8.front().estimate.compute_seconds, 0.6 * f16.front().estimate.compute_seconds);
  EXPECT_GT(tf32.front().estimate.compute_seconds, 1.6 * f16.front().estimate.compute_seconds);
  const ProblemTraits fp8_traits = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::F8E4M3, "nt"));
  EXPECT_NE(intrinsic_name(fp8.front().knobs, fp8_traits).find("x32_E4M3"), std::string::npos);
}

TEST(GeneratedConstraints, RejectWhatCannotRun) {
  const ProblemTraits traits = problem_traits(make_problem(512, 512, 256));
  GeneratedKnobs k;
  k.path = KernelPath::MmaSync;
  k.tile_m = 128;
  k.tile_n = 128;
  k.tile_k = 32;
  k.subgroup_m = 2;
  k.subgroup_n = 2;
  k.stages = 3;
  EXPECT_FALSE(rejects(k, traits, h100()).has_value()) << *rejects(k, traits, h100());
  k.split_k = 9;  // 8 K tiles
  EXPECT_TRUE(rejects(k, traits, h100()).has_value());
  k.split_k = 6;  // 8 tiles in slices of 2: the sixth slice would be empty
  ASSERT_TRUE(rejects(k, traits, h100()).has_value());
  EXPECT_NE(rejects(k, traits, h100())->find("empty"), std::string::npos);
  k.split_k = 4;
  EXPECT_FALSE(rejects(k, traits, h100()).has_value());
  DeviceTraits ampere = h100();
  ampere.compute_capability = 80;
  GeneratedKnobs w = k;
  w.path = KernelPath::Wgmma;
  w.tile_k = 64;
  w.split_k = 1;
  ASSERT_TRUE(rejects(w, traits, ampere).has_value());
  EXPECT_NE(rejects(w, traits, ampere)->find("sm_90a"), std::string::npos);
  DeviceTraits small = h100();
  small.max_shared_per_block = 48 * 1024;
  GeneratedKnobs big = k;
  big.tile_m = 256;
  big.tile_n = 256;
  big.tile_k = 64;
  big.subgroup_m = 4;
  big.subgroup_n = 2;
  big.stages = 4;
  EXPECT_TRUE(rejects(big, traits, small).has_value());
}

TEST(GeneratedSpace, TheModelPrefersSensibleShapes) {
  const DeviceTraits device = h100();
  SpaceSummary summary;
  std::vector<RankedKnobs> chosen = select_candidates(problem_traits(make_problem(4096, 4096, 4096)), device, {}, &summary);
  ASSERT_FALSE(chosen.empty());
  EXPECT_LE(chosen.size(), 12u);
  EXPECT_GT(summary.valid, chosen.size());
  EXPECT_LT(summary.valid, summary.considered);
  // A large problem: the mma.sync path's best lies past hedge_window's 1.3x, so only the wgmma
  // path is measured; every kernel chosen lies within 1.3x of the best, or was chosen by the
  // model's order (no forced hedge further out).
  const std::vector<RankedKnobs> ranked = rank_space(problem_traits(make_problem(4096, 4096, 4096)), device, {});
  const double best_4096 = ranked.front().estimate.seconds;
  EXPECT_GE(best_4096, 100e-6);
  EXPECT_DOUBLE_EQ(hedge_window(best_4096), 1.3);
  const auto best_mma_sync = std::find_if(ranked.begin(), ranked.end(), [](const RankedKnobs& r) {
    return r.knobs.path == KernelPath::MmaSync;
  });
  ASSERT_NE(best_mma_sync, ranked.end());
  EXPECT_GT(best_mma_sync->estimate.seconds, 1.3 * best_4096);
  std::set<KernelPath> paths;
  for (const RankedKnobs& r : chosen) paths.insert(r.knobs.path);
  EXPECT_EQ(paths, std::set<KernelPath>{KernelPath::Wgmma});
  // A small one: the best of each path is kept, however far behind (the model errs there).
  const ProblemTraits small_problem = problem_traits(make_problem(1024, 1024, 512));
  const std::vector<RankedKnobs> small_ranked = rank_space(small_problem, device, {});
  EXPECT_LT(small_ranked.front().estimate.seconds, 100e-6);
  EXPECT_DOUBLE_EQ(hedge_window(small_ranked.front().estimate.seconds), 2.0);
  paths.clear();
  for (const RankedKnobs& r : select_candidates(small_problem, device, {})) paths.insert(r.knobs.path);
  EXPECT_EQ(paths.size(), 2u);
  EXPECT_EQ(chosen.front().knobs.path, KernelPath::Wgmma);
  EXPECT_EQ(chosen.front().knobs.split_k, 1);
  EXPECT_GE(chosen.front().knobs.tile_m * chosen.front().knobs.tile_n, 128 * 128);
  for (std::size_t i = 1; i < chosen.size(); ++i) EXPECT_LE(chosen[i - 1].estimate.seconds, chosen[i].estimate.seconds);

  // 512 x 5120 x 13824 (Llama-13B down projection, M = 512): 80 tiles of 128x256 tempt split-K,
  // but each slice's fp32 atomic adds cost more than the idle SMs (measured on H100: unsplit
  // 117 us, every split-3 kernel 290-340 us). The model prefers unsplit, and unsplit and split
  // kernels of each path are both measured whatever the model says.
  // (Slices summed inside a cluster, split_cluster, have no workspace or atomics: the model may
  // rank one first, as a guess the measurement checks.)
  chosen = select_candidates(problem_traits(make_problem(512, 5120, 13824, gemm::Precision::F16, "nt")), device, {});
  ASSERT_FALSE(chosen.empty());
  for (const RankedKnobs& r : chosen)
    if (!r.knobs.split_cluster) {
      EXPECT_EQ(r.knobs.split_k, 1);  // the model's best kernel through global memory is unsplit
      break;
    }
  std::set<std::pair<KernelPath, bool>> classes;
  for (const RankedKnobs& r : chosen) classes.insert({r.knobs.path, r.knobs.split_k > 1});
  // Its best estimate is about 100 us: both paths where the window is 2x, and split-K only if the
  // model put it within the window.
  const double best_512 = rank_space(problem_traits(make_problem(512, 5120, 13824, gemm::Precision::F16, "nt")), device, {})
                              .front()
                              .estimate.seconds;
  EXPECT_GE(classes.size(), hedge_window(best_512) == 2.0 ? 2u : 1u);
  EXPECT_TRUE(classes.count({KernelPath::Wgmma, false}));

  // Split-K summed inside a cluster is opt-in, and then one kernel of the class at most.
  const ProblemTraits long_k = problem_traits(make_problem(256, 128, 16384, gemm::Precision::BF16, "nt"));
  for (const RankedKnobs& r : select_candidates(long_k, device, {})) EXPECT_FALSE(r.knobs.split_cluster);
  SpaceOptions with_cluster_splits;
  with_cluster_splits.split_cluster = true;
  with_cluster_splits.max_candidates = 20;
  const std::vector<RankedKnobs> offered = select_candidates(long_k, device, with_cluster_splits);
  EXPECT_EQ(std::count_if(offered.begin(), offered.end(), [](const RankedKnobs& r) { return r.knobs.split_cluster; }), 1);

  // Decode, M = 16: the model is unsure between split and unsplit (within 1.4x): both measured.
  chosen = select_candidates(problem_traits(make_problem(16, 4096, 4096)), device, {});
  classes.clear();
  for (const RankedKnobs& r : chosen) classes.insert({r.knobs.path, r.knobs.split_k > 1});
  EXPECT_EQ(classes.size(), 4u);

  // 64 x 64 x 65536: one output tile; only split-K fills the GPU.
  chosen = select_candidates(problem_traits(make_problem(64, 64, 65536)), device, {});
  ASSERT_FALSE(chosen.empty());
  EXPECT_GE(chosen.front().knobs.split_k, 16);

  // Decode-like M = 16: a tile of 16 or 32 rows wastes less than wgmma's 64.
  chosen = select_candidates(problem_traits(make_problem(16, 4096, 4096)), device, {});
  ASSERT_FALSE(chosen.empty());
  bool small_m = false;
  for (const RankedKnobs& r : chosen) small_m |= r.knobs.tile_m <= 32;
  EXPECT_TRUE(small_m);

  // Short K (16384 x 4096 x 128): the output write and the operand reads are the whole cost, so
  // kernels that cut the operand reads come first (B's panel kept in shared memory, or CTA pairs
  // sharing A), and the best panel kernel is always measured; with deep K they are not in the space.
  chosen = select_candidates(problem_traits(make_problem(16384, 4096, 128, gemm::Precision::F16)), device, {});
  ASSERT_FALSE(chosen.empty());
  EXPECT_TRUE(chosen.front().knobs.b_panel == 2 || chosen.front().knobs.cluster_n == 2);
  EXPECT_TRUE(chosen.front().knobs.persistent);
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.b_panel == 2; }));
  // ...and the best streaming kernel is measured beside them (4096 x 16384 x 256: the panel kernels
  // ran slower there).
  chosen = select_candidates(problem_traits(make_problem(4096, 16384, 256, gemm::Precision::BF16, "nt")), device, {});
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.b_panel > 0; }));
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(),
                          [](const RankedKnobs& r) { return r.knobs.b_panel == 0 && r.knobs.path == KernelPath::Wgmma; }));
  // Pingpong kernels only when asked for.
  const ProblemTraits short_k = problem_traits(make_problem(8192, 8192, 64));
  for (const RankedKnobs& r : rank_space(short_k, device, {})) EXPECT_FALSE(r.knobs.pingpong);
  SpaceOptions with_pingpong;
  with_pingpong.pingpong = true;
  const std::vector<RankedKnobs> all = rank_space(short_k, device, with_pingpong);
  EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const RankedKnobs& r) { return r.knobs.pingpong; }));
  for (const RankedKnobs& r : rank_space(problem_traits(make_problem(4096, 4096, 4096)), device, {}))
    EXPECT_EQ(r.knobs.b_panel, 0);

  // Unaligned rows (K odd): TMA cannot address them, so wgmma kernels copy A and B to 16-byte
  // rows first and the model charges the copies; mma.sync kernels read them as they are.
  const ProblemTraits odd = problem_traits(make_problem(511, 513, 129, gemm::Precision::F16));
  chosen = select_candidates(odd, device, {});
  ASSERT_FALSE(chosen.empty());
  EXPECT_TRUE(std::any_of(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.path == KernelPath::MmaSync; }));
  const auto copying = std::find_if(chosen.begin(), chosen.end(), [](const RankedKnobs& r) { return r.knobs.path == KernelPath::Wgmma; });
  ASSERT_NE(copying, chosen.end());
  EXPECT_GT(copying->estimate.repack_seconds, 0.0);
  ProblemTraits pretend_aligned = odd;
  pretend_aligned.a_alignment_bytes = pretend_aligned.b_alignment_bytes = pretend_aligned.ab_alignment_bytes = 16;
  EXPECT_EQ(estimate(copying->knobs, pretend_aligned, device).repack_seconds, 0.0);
}

TEST(GeneratedSpace, NeighboursAreOneValidStepAwayAndNew) {
  const DeviceTraits device = h100();
  const ProblemTraits traits = problem_traits(make_problem(16, 4096, 4096));
  const std::vector<RankedKnobs> first = select_candidates(traits, device, {});
  ASSERT_GE(first.size(), 2u);
  std::vector<GeneratedKnobs> seen;
  for (const RankedKnobs& r : first) seen.push_back(r.knobs);
  const std::vector<GeneratedKnobs> seeds{first[0].knobs, first[1].knobs};
  const std::vector<RankedKnobs> next = neighbours(seeds, seen, traits, device, 6);
  ASSERT_FALSE(next.empty());
  EXPECT_LE(next.size(), 6u);
  for (std::size_t i = 0; i < next.size(); ++i) {
    const GeneratedKnobs& k = next[i].knobs;
    EXPECT_FALSE(rejects(k, traits, device).has_value());
    EXPECT_EQ(std::find(seen.begin(), seen.end(), k), seen.end()) << "already measured";
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(next[j].knobs == k) << "duplicate";
    // One knob apart from a seed (a split-K step, stages, a tile dimension, ...).
    int closest = 99;
    for (const GeneratedKnobs& s : seeds) {
      const int differences = (s.tile_m != k.tile_m) + (s.tile_n != k.tile_n) + (s.tile_k != k.tile_k) +
                              (s.stages != k.stages) + (s.split_k != k.split_k) + (s.persistent != k.persistent) +
                              (s.swizzle_group != k.swizzle_group) + (s.path != k.path) + (s.cluster_n != k.cluster_n) +
                              (s.cluster_m != k.cluster_m) + (s.b_panel != k.b_panel) +
                              (s.split_reduce != k.split_reduce) + (s.swap_ab != k.swap_ab) +
                              ((s.subgroup_m != k.subgroup_m || s.subgroup_n != k.subgroup_n) ? 1 : 0);
      closest = std::min(closest, differences);
    }
    EXPECT_EQ(closest, 1);
  }
  EXPECT_TRUE(neighbours({}, seen, traits, device, 6).empty());
  // CTA pairs are one step away from a wgmma seed unless the caller turned them off.
  const ProblemTraits square = problem_traits(make_problem(3000, 3000, 3000, gemm::Precision::F16, "nt"));
  GeneratedKnobs seed;
  seed.path = KernelPath::Wgmma;
  seed.tile_m = 128;
  seed.tile_n = 256;
  seed.tile_k = 64;
  seed.subgroup_m = 2;
  seed.stages = 3;
  seed.persistent = true;
  ASSERT_FALSE(rejects(seed, square, device));
  auto pairs = [](const std::vector<RankedKnobs>& list) {
    return std::count_if(list.begin(), list.end(), [](const RankedKnobs& r) { return r.knobs.cluster_n == 2; });
  };
  EXPECT_EQ(pairs(neighbours({seed}, {seed}, square, device, 40)), 1);
  EXPECT_EQ(pairs(neighbours({seed}, {seed}, square, device, 40, false)), 0);
}

// Kernels of two CTAs per SM build within half the register file, without spills: the
// launch bound of 2 caps ptxas, and rejects() must have left out what cannot fit.
TEST(GeneratedEmitter, CoResidentCandidatesCompileWithinTheirShare) {
  auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) GTEST_SKIP() << "NVRTC not available: " << nvrtc.error;
  const ProblemTraits traits = problem_traits(make_problem(2048, 2048, 96, gemm::Precision::F16, "nn"));
  SpaceOptions options;
  options.co_resident = true;
  options.mma_sync = false;
  std::vector<GeneratedKnobs> paired;
  for (const RankedKnobs& r : rank_space(traits, h100(), options))
    if (r.knobs.min_blocks_per_sm == 2 && paired.size() < 3 &&
        std::none_of(paired.begin(), paired.end(), [&](const GeneratedKnobs& k) { return k.subgroup_m == r.knobs.subgroup_m && k.tile_m == r.knobs.tile_m; }))
      paired.push_back(r.knobs);
  ASSERT_FALSE(paired.empty());
  for (const GeneratedKnobs& k : paired) {
    ktune::cuda::NvrtcRequest request;
    request.source = emit_source(k, traits);
    request.arch = compile_arch(k.path, h100());
    request.options = {"-std=c++17"};
    const ktune::cuda::NvrtcResult result = nvrtc.value->compile(request);
    const std::string key = config_key(to_config(k, traits));
    ASSERT_TRUE(result.ok) << key << "\n" << result.error << "\n" << result.log;
    const analysis::KernelResourceUsage* usage = result.resources.find(kernel_symbol(k.path));
    if (!usage) continue;
    EXPECT_FALSE(usage->has_spills()) << key;
    EXPECT_LE(usage->registers * plan_launch(k, traits, h100()).shape.threads * 2, 65536) << key;
  }
}

TEST(GeneratedEmitter, CandidatesCompileWithNvrtcWithoutSpills) {
  auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) GTEST_SKIP() << "NVRTC not available: " << nvrtc.error;
  const DeviceTraits device = h100();
  struct Case {
    gemm::GemmProblem problem;
    KernelPath path;
  };
  gemm::GemmProblem epilogue = make_problem(1000, 3000, 2000, gemm::Precision::F16, "tn");
  epilogue.bias = true;
  epilogue.activation = gemm::Activation::Gelu;
  epilogue.beta = 0.5;
  epilogue.out = gemm::Storage::F32;
  const Case cases[] = {{make_problem(4096, 4096, 4096), KernelPath::Wgmma},
                        {make_problem(4096, 4096, 4096), KernelPath::MmaSync},
                        {make_problem(64, 64, 65536), KernelPath::MmaSync},
                        {epilogue, KernelPath::MmaSync},
                        {epilogue, KernelPath::Wgmma}};
  for (const Case& c : cases) {
    const ProblemTraits traits = problem_traits(c.problem);
    SpaceOptions options;
    options.max_candidates = 1;
    options.mma_sync = c.path == KernelPath::MmaSync;
    options.wgmma = c.path == KernelPath::Wgmma;
    const std::vector<RankedKnobs> chosen = select_candidates(traits, device, options);
    ASSERT_EQ(chosen.size(), 1u) << c.problem.name();
    const GeneratedKnobs& k = chosen.front().knobs;
    std::vector<std::string> archs{compile_arch(k.path, device)};
    if (k.path == KernelPath::MmaSync) archs.push_back("sm_80");
    for (const std::string& arch : archs) {
      ktune::cuda::NvrtcRequest request;
      request.source = emit_source(k, traits);
      request.arch = arch;
      request.options = {"-std=c++17"};
      const ktune::cuda::NvrtcResult result = nvrtc.value->compile(request);
      ASSERT_TRUE(result.ok) << c.problem.name() << " " << arch << "\n" << result.error << "\n" << result.log;
      const analysis::KernelResourceUsage* usage = result.resources.find(kernel_symbol(k.path));
      if (!usage) continue;  // NVRTC sometimes returns no ptxas report; the cubin is what counts
      EXPECT_FALSE(usage->has_spills()) << c.problem.name() << " " << arch << " " << config_key(to_config(k, traits));
    }
  }
}


// A GPC's 16 or so consecutive CTAs should span all tile columns where there are 3-7 of them
// (groups of 8 rows span 2; raster_group), and keep groups of 8 where there are more, in a
// cluster (placed round-robin over the GPCs), and for neighbours of such kernels.
TEST(GeneratedSpace, RasterGroupsFollowTheKernelsTileColumns) {
  const ProblemTraits mid_m = problem_traits(make_problem(322, 5120, 8192, gemm::Precision::BF16, "nt"));
  const ProblemTraits square = problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::BF16, "nt"));
  SpaceOptions options;
  options.max_candidates = 20;
  // Tile columns and cluster rows; clusters along N (A multicast) always keep groups of 8.
  auto columns = [](const RankedKnobs& r, const ProblemTraits& t) {
    const ProblemTraits kt = kernel_traits(r.knobs, t);
    const std::int64_t tiles_n = (kt.n + r.knobs.tile_n - 1) / r.knobs.tile_n, tiles_m = (kt.m + r.knobs.tile_m - 1) / r.knobs.tile_m;
    const int cm = std::max(1, r.knobs.cluster_m);
    return std::make_pair(r.knobs.cluster_n > 1 ? std::int64_t{0} : tiles_n, (tiles_m + cm - 1) / cm);
  };
  bool walked_columns_first = false;
  for (const ProblemTraits* t : {&mid_m, &square})
    for (const RankedKnobs& r : rank_space(*t, h100(), options)) {
      const auto [cols, rows] = columns(r, *t);
      const bool one = cols > 2 && cols < 8 && rows > 8;
      EXPECT_EQ(r.knobs.swizzle_group, one ? 1 : 8) << r.knobs.tile_m << "x" << r.knobs.tile_n << " " << cols << " columns";
      walked_columns_first = walked_columns_first || one;
    }
  EXPECT_TRUE(walked_columns_first);  // the swapped mid-M kernels (3 columns of 112 for M = 322)
  // Neighbours choose for their own tiles, except where the seed's group was set by hand.
  const std::vector<RankedKnobs> chosen = select_candidates(mid_m, h100(), options);
  ASSERT_FALSE(chosen.empty());
  for (const RankedKnobs& seed : chosen) {
    for (const RankedKnobs& r : neighbours({seed.knobs}, {seed.knobs}, mid_m, h100(), 60)) {
      const auto [cols, rows] = columns(r, mid_m);
      const bool one = cols > 2 && cols < 8 && rows > 8;
      if (r.knobs.swizzle_group != seed.knobs.swizzle_group && r.knobs.tile_m == seed.knobs.tile_m &&
          r.knobs.tile_n == seed.knobs.tile_n && r.knobs.cluster_n == seed.knobs.cluster_n &&
          r.knobs.cluster_m == seed.knobs.cluster_m) {
        continue;  // the swizzle step itself
      }
      EXPECT_EQ(r.knobs.swizzle_group, one ? 1 : 8) << r.knobs.tile_m << "x" << r.knobs.tile_n;
    }
  }
}

}  // namespace
}  // namespace ktune::generated
