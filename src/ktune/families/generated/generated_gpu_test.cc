// GPU tests of ktune's generated GEMM kernels through the gemm worker, in process: every
// layout, both kernel paths, odd sizes (1, 7, 511, 1000, 4097), split-K, the epilogues, batches
// and both input types, each verified against the fp64 reference on fresh random data with the
// output poisoned first. Skipped, with the reason printed, without a CUDA driver or GPU.

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <set>

#include "ktune/families/gpu_test_support.h"
#include "ktune/core/config.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/families/generated/cluster_probe.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::generated {
namespace {

struct Gpu {
  std::string skip_reason;
  DeviceTraits traits;
};

const Gpu& gpu() {
  static const Gpu g = [] {
    Gpu r;
    const testing::TestDriver loaded = testing::load_test_driver();
    if (!loaded.driver) {
      r.skip_reason = loaded.skip_reason;
      return r;
    }
    const auto& driver = loaded.driver;
    const cuda::CudaDeviceProperties p = cuda::query_device_properties(*driver, 0);
    r.traits.compute_capability = p.compute_major * 10 + p.compute_minor;
    r.traits.sm_count = p.multiprocessors;
    r.traits.max_shared_per_block = static_cast<int>(p.shared_memory_per_block_optin);
    r.traits.name = p.name;
    if (r.traits.compute_capability < 80) r.skip_reason = "generated kernels need sm_80+, GPU 0 is " + p.name;
    std::printf("GPU 0: %s (sm_%d)\n", p.name.c_str(), r.traits.compute_capability);
    return r;
  }();
  return g;
}

#define REQUIRE_GPU() KTUNE_SKIP_IF(gpu().skip_reason)

gemm::GemmWorker& worker() {
  static gemm::GemmWorker w;
  return w;
}

gemm::GemmProblem make(std::int64_t m, std::int64_t n, std::int64_t k, gemm::Precision precision, const char* layout) {
  gemm::GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.precision = precision;
  p.out = gemm::default_output(precision);
  gemm::set_layout(p, layout);
  return p;
}

// The model's best knob setting per path, plus a split-K variant of each where the problem
// allows one.
std::vector<GeneratedKnobs> knob_settings(const gemm::GemmProblem& problem) {
  const ProblemTraits traits = problem_traits(problem);
  std::vector<GeneratedKnobs> out;
  for (KernelPath path : {KernelPath::MmaSync, KernelPath::Wgmma}) {
    SpaceOptions options;
    options.max_candidates = 1;
    options.mma_sync = path == KernelPath::MmaSync;
    options.wgmma = path == KernelPath::Wgmma;
    const std::vector<RankedKnobs> best = select_candidates(traits, gpu().traits, options);
    if (best.empty()) continue;
    GeneratedKnobs k = best.front().knobs;
    k.split_k = 1;
    if (!rejects(k, traits, gpu().traits)) out.push_back(k);
    for (int split : {3, 2}) {
      GeneratedKnobs s = k;
      s.split_k = split;
      if (!rejects(s, traits, gpu().traits)) {
        out.push_back(s);
        break;
      }
    }
  }
  return out;
}

// Runs every knob setting of `problem` with verification (no timing); returns how many ran.
int verify_all(const gemm::GemmProblem& problem) {
  gemm::GemmSetup setup;
  setup.problem = problem;
  setup.families = {"generated"};
  const ProblemTraits traits = problem_traits(problem);
  int ran = 0;
  for (const GeneratedKnobs& k : knob_settings(problem)) {
    const nlohmann::json candidate = {{"family", "generated"},
                                      {"candidate", {{"config", config_to_json(to_config(k, traits))}}}};
    gemm::EvaluateOptions options;
    options.measure = false;
    const nlohmann::json reply = worker().handle(gemm::evaluate_request(setup, candidate, options));
    const std::string label = problem.name() + " " + config_key(to_config(k, traits));
    EXPECT_EQ(reply.value("status", ""), "ok") << label << "\n" << reply.dump(1).substr(0, 4000);
    EXPECT_TRUE(reply.value("verified", false)) << label;
    ++ran;
  }
  return ran;
}

// Runs one knob setting on `problem` with verification (no timing): it must be valid, run and
// match the reference.
// The worker's reply (its `launch` says how the kernel launched: registers, blocks_per_sm).
nlohmann::json verify_knobs(const gemm::GemmProblem& problem, const GeneratedKnobs& k, const std::string& what) {
  const ProblemTraits traits = problem_traits(problem);
  const auto why = rejects(k, traits, gpu().traits);
  EXPECT_FALSE(why) << what << ": " << *why;
  if (why) return {};
  gemm::GemmSetup setup;
  setup.problem = problem;
  setup.families = {"generated"};
  const nlohmann::json candidate = {{"family", "generated"}, {"candidate", {{"config", config_to_json(to_config(k, traits))}}}};
  gemm::EvaluateOptions options;
  options.measure = false;
  const nlohmann::json reply = worker().handle(gemm::evaluate_request(setup, candidate, options));
  EXPECT_EQ(reply.value("status", ""), "ok") << what << "\n" << reply.dump(1).substr(0, 4000);
  EXPECT_TRUE(reply.value("verified", false)) << what;
  return reply;
}

// A wgmma knob setting with 64-deep K tiles (the tests change what they exercise).
GeneratedKnobs wgmma(int tile_m, int tile_n, int subgroup_m, int subgroup_n, int stages, bool persistent) {
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = tile_m;
  k.tile_n = tile_n;
  k.tile_k = 64;
  k.subgroup_m = subgroup_m;
  k.subgroup_n = subgroup_n;
  k.stages = stages;
  k.persistent = persistent;
  return k;
}

// The full epilogue: 777x1000x256 f16 "nn" with C (beta 0.5), a bias and GELU, into f32.
gemm::GemmProblem full_epilogue() {
  gemm::GemmProblem p = make(777, 1000, 256, gemm::Precision::F16, "nn");
  p.bias = true;
  p.beta = 0.5;
  p.out = gemm::Storage::F32;
  p.activation = gemm::Activation::Gelu;
  return p;
}

TEST(GeneratedGpu, EveryLayoutBothPaths) {
  REQUIRE_GPU();
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    EXPECT_GE(verify_all(make(256, 384, 320, gemm::Precision::BF16, layout)), 2) << layout;
    EXPECT_GE(verify_all(make(1000, 3000, 2000, gemm::Precision::F16, layout)), 2) << layout;
  }
}

// Tiles of 192 rows (three wgmma M atoms per consumer, or three consumers of one atom), every
// layout, ragged edges, plain and persistent, checked against fp64 whatever the model would pick.
TEST(GeneratedGpu, TilesOf192Rows) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    const gemm::GemmProblem problem = make(1000, 3000, 520, gemm::Precision::F16, layout);
    const ProblemTraits traits = problem_traits(problem);
    for (bool persistent : {false, true}) {
      GeneratedKnobs k;
      k.path = KernelPath::Wgmma;
      k.tile_m = 192;
      // An N-contiguous B needs whole 64-column swizzle rows per consumer: 192x128 there.
      k.tile_n = traits.b_k_contiguous ? 192 : 128;
      k.tile_k = 64;
      k.subgroup_m = 1;
      k.subgroup_n = 2;
      k.stages = 4;
      k.persistent = persistent;
      verify_knobs(problem, k, std::string(layout) + (persistent ? " persistent" : ""));
      // Three 64-row consumer warpgroups over the whole width (sg3x1), in pairs once.
      k.subgroup_m = 3;
      k.subgroup_n = 1;
      k.cluster_n = persistent && traits.a_k_contiguous ? 2 : 1;
      verify_knobs(problem, k, std::string(layout) + (k.cluster_n == 2 ? " persistent pairs" : "") + " sg3x1");
      k.subgroup_m = 1;
      k.subgroup_n = 2;
      k.cluster_n = 1;
    }
  }
}

// B panels (b_panel): B's whole K extent stays in shared memory while a persistent CTA walks down
// a column; each CTA's run of items crosses columns (so the panel is reloaded mid-run) and, with
// a batch, batch entries. Every layout, a K tail the TMA zero-fills, ragged M and N, and one and
// two consumer warpgroups; the epilogue with C, bias and an f32 output once.
TEST(GeneratedGpu, BPanelsKeepBAcrossAColumn) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  auto run = [](const gemm::GemmProblem& problem, GeneratedKnobs k, const std::string& what) {
    k.b_panel = static_cast<int>((problem.k + k.tile_k - 1) / k.tile_k);
    verify_knobs(problem, k, what);
  };
  const GeneratedKnobs one = wgmma(64, 256, 1, 1, 4, true);
  GeneratedKnobs two = one;
  two.tile_m = 128;
  two.subgroup_m = 2;
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    run(make(3000, 1000, 136, gemm::Precision::F16, layout), one, std::string("3000x1000x136 ") + layout);
    run(make(2056, 3000, 64, gemm::Precision::BF16, layout), two, std::string("2056x3000x64 ") + layout);
  }
  gemm::GemmProblem batched = make(1000, 520, 200, gemm::Precision::BF16, "nt");
  batched.batch = 5;
  run(batched, one, "5 x 1000x520x200 nt");
  run(full_epilogue(), two, "777x1000x256 nn, f32 out, C, bias, gelu");
}

// Pingpong (two warpgroups taking turns on whole tiles, one staging tile each): every layout,
// ragged edges, a batch, split-K, and the full epilogue with an f32 output (direct stores).
TEST(GeneratedGpu, PingpongWarpgroupsTakeTurns) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  const auto run = verify_knobs;
  GeneratedKnobs k = wgmma(64, 256, 1, 1, 3, true);  // 3 stages leave room for a staging tile per warpgroup
  k.pingpong = true;
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    run(make(3000, 1000, 136, gemm::Precision::F16, layout), k, std::string("3000x1000x136 ") + layout);
  gemm::GemmProblem batched = make(1000, 520, 200, gemm::Precision::BF16, "nt");
  batched.batch = 5;
  run(batched, k, "5 x 1000x520x200 nt");
  GeneratedKnobs split = k;
  split.split_k = 3;
  run(make(512, 1024, 4096, gemm::Precision::BF16, "nt"), split, "512x1024x4096 split 3");
  GeneratedKnobs square = k;
  square.tile_m = 128;
  square.tile_n = 128;
  run(full_epilogue(), square, "777x1000x256 nn, f32 out, C, bias, gelu");
}

// Kernels built for two CTAs per SM (--generated-co-resident: launch bound 2, 2-4 stages):
// every layout over ragged sizes with a K tail, two consumer warpgroups with registers
// rebalanced under the halved share, CTA pairs, atomic split-K and the full epilogue; against
// fp64, and the driver must find room for two of each on an SM.
TEST(GeneratedGpu, CoResidentKernelsTwoPerSm) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  auto paired = [](GeneratedKnobs k) {
    k.min_blocks_per_sm = 2;
    return k;
  };
  auto two_fit = [](const nlohmann::json& reply, const std::string& what) {
    ASSERT_TRUE(reply.contains("launch") && reply["launch"].contains("blocks_per_sm")) << what;
    EXPECT_GE(reply["launch"]["blocks_per_sm"].get<int>(), 2) << what << " " << reply["launch"].dump();
  };
  const GeneratedKnobs lone = paired(wgmma(64, 128, 1, 1, 2, true));
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    const std::string what = std::string("1000x1000x136 64x128 2 stages, two per SM, ") + layout;
    two_fit(verify_knobs(make(1000, 1000, 136, gemm::Precision::F16, layout), lone, what), what);
  }
  GeneratedKnobs two = paired(wgmma(128, 64, 2, 1, 3, false));
  two_fit(verify_knobs(make(2048, 2048, 96, gemm::Precision::F16, "nn"), two, "2048x2048x96 128x64 two per SM"),
          "128x64, 2 warpgroups");
  two.cluster_n = 2;
  two.persistent = true;
  verify_knobs(make(777, 1001, 513, gemm::Precision::BF16, "nt"), two, "777x1001x513 128x64 CTA pairs, two per SM");
  GeneratedKnobs split = paired(wgmma(64, 64, 1, 1, 4, false));
  split.split_k = 8;
  verify_knobs(make(128, 256, 8192, gemm::Precision::BF16, "nt"), split, "128x256x8192 64x64 split-K 8, two per SM");
  verify_knobs(full_epilogue(), lone, "777x1000x256 nn, f32 out, C, bias, gelu, two per SM");
}

// fp8 (e4m3 in, bf16/f32 out) and tf32 (f32 in and out) wgmma kernels, K-major A and B (layout
// nt): the model's best and a split variant, ragged M/N with a K tail, decode-sized M, 128-byte
// and 256-byte K tiles, a B panel, a batch, and the epilogue with C and bias; against fp64.
TEST(GeneratedGpu, Fp8AndTf32WgmmaKernels) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  EXPECT_GE(verify_all(make(1000, 3000, 2000, gemm::Precision::F8E4M3, "nt")), 2);
  EXPECT_GE(verify_all(make(16, 4096, 8192, gemm::Precision::F8E4M3, "nt")), 2);
  EXPECT_GE(verify_all(make(1000, 3000, 2000, gemm::Precision::TF32, "nt")), 2);
  EXPECT_GE(verify_all(make(16, 4096, 8192, gemm::Precision::TF32, "nt")), 2);
  GeneratedKnobs k = wgmma(128, 128, 2, 1, 3, true);
  GeneratedKnobs deep = k;  // two 128-byte rows per K tile
  deep.tile_k = 256;
  gemm::GemmProblem fp8_f32 = make(777, 1000, 1040, gemm::Precision::F8E4M3, "nt");
  fp8_f32.out = gemm::Storage::F32;
  fp8_f32.beta = 0.5;
  fp8_f32.alpha = 0.25;
  verify_knobs(fp8_f32, deep, "fp8 777x1000x1040, f32 out, C, 256-deep K tiles");
  deep.tile_k = 64;
  gemm::GemmProblem tf32 = make(777, 1000, 1000, gemm::Precision::TF32, "nt");
  tf32.bias = true;
  tf32.beta = -1.0;
  tf32.activation = gemm::Activation::Gelu;
  verify_knobs(tf32, deep, "tf32 777x1000x1000, C, bias, gelu, 64-deep K tiles");
  GeneratedKnobs panel = k;
  panel.tile_k = 128;
  panel.b_panel = 2;
  gemm::GemmProblem batched = make(1000, 520, 256, gemm::Precision::F8E4M3, "nt");
  batched.batch = 3;
  verify_knobs(batched, panel, "fp8 3 x 1000x520x256, a B panel");
  panel.tile_k = 32;
  panel.b_panel = 4;
  verify_knobs(make(3000, 1000, 128, gemm::Precision::TF32, "nt"), panel, "tf32 3000x1000x128, a B panel");
}

// A wgmma knob setting with tf32's 32-deep K tiles; `promote` K tiles per accumulator chain.
GeneratedKnobs tf32_knobs(int tile_m, int tile_n, int subgroup_m, int stages, bool persistent, int promote) {
  GeneratedKnobs k = wgmma(tile_m, tile_n, subgroup_m, 1, stages, persistent);
  k.tile_k = 32;
  k.promote = promote;
  return k;
}

// What tf32 and strict f32 kernels share: the whole epilogue (C, bias, gelu) on 777x1000x999 nn
// and CTA pairs on 1000x1104x520 tn, 128x128 tiles of 32-deep K.
void verify_tf32_kernels(gemm::Precision precision, int promote) {
  const std::string type(gemm::precision_name(precision));
  const GeneratedKnobs k = tf32_knobs(128, 128, 2, 4, true, promote);
  gemm::GemmProblem full = make(777, 1000, 999, precision, "nn");
  full.bias = true;
  full.beta = -1.0;
  full.activation = gemm::Activation::Gelu;
  verify_knobs(full, k, type + " 777x1000x999 nn, C, bias, gelu");
  GeneratedKnobs pair = k;
  pair.cluster_n = 2;
  verify_knobs(make(1000, 1104, 520, precision, "tn"), pair, type + " 1000x1104x520 tn, CTA pairs");
}

// fp8 and tf32 operands that are not K-contiguous: the kernel reads a transposed K-major copy
// (repack.h). tf32 in every other layout, with ragged M, N and K (K = 1002: the copy pads rows to
// 1004), beside an aligned-row copy of A (nn, 2002 f32 per row); fp8 tn in a batch; split-K, CTA
// pairs and the epilogue with C, bias and gelu; the model's best two per problem. Against fp64.
TEST(GeneratedGpu, TransposedCopiesForKMajorOnlyTypes) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  EXPECT_GE(verify_all(make(1000, 3000, 2002, gemm::Precision::TF32, "nn")), 2);
  EXPECT_GE(verify_all(make(777, 1001, 1002, gemm::Precision::TF32, "tn")), 2);
  EXPECT_GE(verify_all(make(513, 1000, 1002, gemm::Precision::TF32, "tt")), 2);
  gemm::GemmProblem fp8 = make(1000, 520, 264, gemm::Precision::F8E4M3, "tn");
  fp8.batch = 3;
  EXPECT_GE(verify_all(fp8), 2);
  verify_tf32_kernels(gemm::Precision::TF32, 0);
  GeneratedKnobs split = tf32_knobs(64, 64, 1, 8, false, 0);
  split.split_k = 4;
  verify_knobs(make(256, 128, 8192, gemm::Precision::TF32, "nn"), split, "tf32 256x128x8192 nn, split-K 4");
}

// The relative L2 error against fp64 of one verified run of `candidate` on `problem`.
double verified_rel_l2(const gemm::GemmProblem& problem, const nlohmann::json& candidate, const std::string& what) {
  gemm::GemmSetup setup;
  setup.problem = problem;
  setup.families = {candidate.value("family", "generated")};
  gemm::EvaluateOptions options;
  options.measure = false;
  const nlohmann::json reply = worker().handle(gemm::evaluate_request(setup, candidate, options));
  EXPECT_EQ(reply.value("status", ""), "ok") << what << "\n" << reply.dump(1).substr(0, 4000);
  if (!reply.contains("verification") || !reply.at("verification").at("D").at("rel_l2").is_number()) return -1;
  return reply.at("verification").at("D").at("rel_l2").get<double>();
}

// Strict f32 on the tf32 kernel through split copies of both operands (three TF32 products,
// repack.h): every layout with ragged sizes, a batch, split-K both ways, CTA pairs, the full
// epilogue, each against fp64 with the strict f32 bound. Then the error itself, on one problem:
// near cuBLASLt's f32 kernel's and far below plain TF32's.
TEST(GeneratedGpu, StrictF32ThroughThreeTf32Products) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    EXPECT_GE(verify_all(make(513, 1000, 1002, gemm::Precision::F32, layout)), 1) << layout;
  verify_tf32_kernels(gemm::Precision::F32, 4);
  GeneratedKnobs split = tf32_knobs(64, 64, 1, 8, false, 3);  // chains straddle slices and segments
  split.split_k = 4;
  gemm::GemmProblem batched = make(100, 96, 2050, gemm::Precision::F32, "nt");
  batched.batch = 3;
  verify_knobs(batched, split, "f32 3 x 100x96x2050 nt, split-K 4");
  split.split_reduce = true;
  verify_knobs(batched, split, "f32 3 x 100x96x2050 nt, split-K 4 reduced");
  // An odd M x N: the reduced slices are padded so that pairs stay 8-byte aligned in each.
  verify_knobs(make(777, 1001, 513, gemm::Precision::F32, "nn"), split, "f32 777x1001x513 nn, split-K 4 reduced");
  GeneratedKnobs odd = wgmma(128, 64, 2, 1, 4, false);
  odd.split_k = 2;
  odd.split_reduce = true;
  verify_knobs(make(777, 1001, 1024, gemm::Precision::BF16, "nn"), odd, "bf16 777x1001x1024 nn, split-K 2 reduced");

  const GeneratedKnobs k = tf32_knobs(128, 128, 2, 4, true, 4);
  const gemm::GemmProblem f32 = make(1024, 1024, 4096, gemm::Precision::F32, "nn");
  const gemm::GemmProblem tf32 = make(1024, 1024, 4096, gemm::Precision::TF32, "nn");
  auto generated = [&](const gemm::GemmProblem& p) {
    return nlohmann::json{{"family", "generated"},
                          {"candidate", {{"config", config_to_json(to_config(k, problem_traits(p)))}}}};
  };
  const double split_error = verified_rel_l2(f32, generated(f32), "f32 split");
  const double tf32_error = verified_rel_l2(tf32, generated(tf32), "tf32");
  gemm::GemmSetup lt;
  lt.problem = f32;
  lt.families = {"cublaslt"};
  const nlohmann::json listed = worker().handle(gemm::candidates_request(lt));
  ASSERT_TRUE(listed.contains("candidates") && !listed.at("candidates").empty()) << listed.dump().substr(0, 2000);
  const double lt_error = verified_rel_l2(f32, listed.at("candidates")[0], "cuBLASLt f32");
  std::printf("  1024x1024x4096 nn, relative L2 error against fp64: f32 as 3xTF32 %.3g, cuBLASLt f32 %.3g, plain TF32 %.3g\n",
              split_error, lt_error, tf32_error);
  EXPECT_GT(split_error, 0);
  EXPECT_LT(split_error, tf32_error / 50);
  EXPECT_LT(split_error, 2 * lt_error);
}

// The cases both split-K reduction schemes pass: every layout with ragged M, N and K, an odd N
// (pairs straddle rows), a batch, the epilogue with C, bias and gelu into f32 on two consumer
// warpgroups, a swapped decode shape with C and bias, and tf32 in `tf32_slices` slices. `scheme`
// sets the reduction scheme on a split kernel, `name` labels it; the worker runs each twice
// (nothing may depend on state left behind). Against fp64.
void verify_split_k_cases(const std::function<void(GeneratedKnobs&)>& scheme, const std::string& name,
                          bool persistent_big_tile, int tf32_slices) {
  auto split = [&](GeneratedKnobs k, int slices) {
    k.split_k = slices;
    scheme(k);
    return k;
  };
  const GeneratedKnobs k = split(wgmma(64, 64, 1, 1, 8, false), 8);
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    verify_knobs(make(250, 130, 8200, gemm::Precision::F16, layout), k, "250x130x8200 split 8 " + name + " " + layout);
  verify_knobs(make(128, 257, 4096, gemm::Precision::BF16, "nt"), k, "128x257x4096 (odd N) split 8 " + name);
  gemm::GemmProblem batched = make(100, 96, 2048, gemm::Precision::BF16, "nn");
  batched.batch = 3;
  verify_knobs(batched, k, "3 x 100x96x2048 split 8 " + name);
  verify_knobs(full_epilogue(), split(wgmma(128, 128, 2, 1, 4, persistent_big_tile), 2),
               "777x1000x256 nn, f32 out, C, bias, gelu, split 2 " + name);
  GeneratedKnobs swapped = wgmma(64, 16, 1, 1, 8, false);
  swapped.swap_ab = true;
  gemm::GemmProblem decode = make(16, 4096, 8192, gemm::Precision::BF16, "nt");
  decode.beta = 0.5;
  decode.bias = true;
  verify_knobs(decode, split(swapped, 4), "16x4096x8192 swapped, split 4 " + name + ", C and bias");
  GeneratedKnobs tf32 = wgmma(64, 64, 1, 1, 8, false);
  tf32.tile_k = 32;
  verify_knobs(make(256, 128, 8192, gemm::Precision::TF32, "nn"), split(tf32, tf32_slices),
               "tf32 256x128x8192 nn, split " + std::to_string(tf32_slices) + " " + name);
}

// Split-K slices summed by a second kernel (split_reduce): the shared cases (the big tile
// persistent, tf32 in 6 slices), and CTA pairs.
TEST(GeneratedGpu, SplitKSlicesSummedByASecondKernel) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  verify_split_k_cases([](GeneratedKnobs& k) { k.split_reduce = true; }, "reduced", true, 6);
  GeneratedKnobs pair = wgmma(128, 128, 2, 1, 4, true);
  pair.split_k = 3;
  pair.split_reduce = true;
  pair.cluster_n = 2;
  verify_knobs(make(1000, 1104, 2048, gemm::Precision::F16, "nt"), pair, "1000x1104x2048 split 3 reduced, CTA pairs");
  // More slices than the reduction loads in one round (kReduceSlicesPerRound), the last round
  // part empty, and an odd N.
  GeneratedKnobs many = wgmma(64, 64, 1, 1, 8, true);
  many.split_k = kReduceSlicesPerRound + 9;
  many.split_reduce = true;
  verify_knobs(make(130, 201, 64 * 1024, gemm::Precision::BF16, "nt"), many,
               "130x201x65536 split " + std::to_string(many.split_k) + " reduced (two rounds)");
}

// A split tail (split_tail): whole tiles for the persistent grid's full rounds, the last
// round's tiles in slices added atomically. As many slices (2-4) as that round has room for on
// this GPU; each problem verified twice in a row (the slices must leave the workspace and
// counters zero for the next launch). Ragged tiles, pairs, a batch whose tail crosses batch
// entries, and the full epilogue, against fp64.
TEST(GeneratedGpu, SplitTailSplitsTheLastRound) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  int checked = 0;
  auto check = [&](const gemm::GemmProblem& problem, GeneratedKnobs k, const std::string& what) {
    k.split_tail = true;
    const SplitTail tail = sm90_split_tail(k, problem_traits(problem), gpu().traits.sm_count);
    k.split_k = static_cast<int>(std::min<std::int64_t>(4, tail.tiles > 0 ? tail.units / tail.tiles : 0));
    if (k.split_k < 2) {
      std::printf("[ SKIPPED ] %s: %lld tiles left over on %d SMs\n", what.c_str(), static_cast<long long>(tail.tiles),
                  gpu().traits.sm_count);
      return;
    }
    const std::string label = what + ", " + std::to_string(tail.tiles) + " tail tiles in " + std::to_string(k.split_k);
    verify_knobs(problem, k, label);
    verify_knobs(problem, k, label + " (again)");
    ++checked;
  };
  for (const char* layout : {"nt", "nn"})
    check(make(3000, 3000, 3000, gemm::Precision::BF16, layout), wgmma(128, 256, 2, 1, 3, true),
          std::string("3000^3 ") + layout + " 128x256");
  GeneratedKnobs pair = wgmma(128, 256, 2, 1, 3, true);
  pair.cluster_n = 2;
  check(make(3000, 3000, 3000, gemm::Precision::F16, "nt"), pair, "3000^3 nt 128x256 pairs");
  gemm::GemmProblem batched = make(1000, 1000, 520, gemm::Precision::BF16, "tn");
  batched.batch = 3;  // 64 tiles of 128x128 each
  check(batched, wgmma(128, 128, 2, 1, 4, true), "3 x 1000x1000x520 tn 128x128");
  gemm::GemmProblem epilogue = make(2000, 3000, 512, gemm::Precision::F16, "nn");
  epilogue.bias = true;
  epilogue.beta = 0.5;
  epilogue.out = gemm::Storage::F32;
  epilogue.activation = gemm::Activation::Gelu;
  check(epilogue, wgmma(128, 256, 2, 1, 3, true), "2000x3000x512 nn, f32 out, C, bias, gelu, 128x256");
  EXPECT_GE(checked, 3);
}

// Split-K summed inside a cluster (split_cluster): the shared cases (not persistent, tf32 in 4
// slices: a cluster's slices split the tile's 64 rows evenly), and 64x32 tiles in clusters of 8
// with a 16-stage ring.
TEST(GeneratedGpu, SplitKSummedInsideAClusterOfSlices) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  verify_split_k_cases([](GeneratedKnobs& k) { k.split_cluster = true; }, "in a cluster", false, 4);
  GeneratedKnobs narrow = wgmma(64, 32, 1, 1, 16, false);
  narrow.split_k = 8;
  narrow.split_cluster = true;
  verify_knobs(make(256, 128, 16384, gemm::Precision::BF16, "nt"), narrow, "256x128x16384 64x32 split 8 in a cluster");
}

// 2-D clusters (cluster_n along N share A, cluster_m along M share B): every layout, ragged M and
// N whose last clusters hang past the edges (their CTAs compute zeros and store nothing, and
// split-K counts slices per CTA tile), split-K under 4x2 and 2x4 clusters, persistent and not,
// a batch, and the epilogue with C, bias and gelu into f32. Against fp64.
TEST(GeneratedGpu, TwoDimensionalClusters) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs k = wgmma(128, 128, 2, 1, 4, false);
  k.cluster_n = 2;
  k.cluster_m = 2;
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (bool persistent : {false, true}) {
      k.persistent = persistent;
      verify_knobs(make(1000, 1104, 520, gemm::Precision::F16, layout), k,
                   std::string("2x2 of 128x128, 1000x1104x520 ") + layout + (persistent ? " persistent" : ""));
    }
  GeneratedKnobs split = wgmma(64, 32, 1, 1, 8, false);
  split.split_k = 8;
  split.cluster_n = 2;
  split.cluster_m = 4;
  verify_knobs(make(256, 128, 16384, gemm::Precision::BF16, "nt"), split, "4x2 of 64x32, split-K 8, 256x128x16384 nt");
  verify_knobs(make(1000, 100, 4096, gemm::Precision::BF16, "nt"), split, "4x2 of 64x32, split-K 8, 1000x100x4096 (padded)");
  split.persistent = true;
  verify_knobs(make(1000, 100, 4096, gemm::Precision::BF16, "nt"), split, "4x2 persistent split-K, 1000x100x4096");
  GeneratedKnobs wide = wgmma(64, 64, 1, 1, 8, false);
  wide.split_k = 12;
  wide.cluster_n = 4;
  wide.cluster_m = 2;
  verify_knobs(make(128, 256, 32768, gemm::Precision::F16, "nt"), wide, "2x4 of 64x64, split-K 12, 128x256x32768 nt");
  wide.cluster_m = 1;  // an N-contiguous B of 64 columns is one chunk: not shared
  verify_knobs(make(128, 256, 32768, gemm::Precision::F16, "nn"), wide, "1x4 of 64x64, split-K 12, 128x256x32768 nn");
  GeneratedKnobs four = wgmma(128, 64, 2, 1, 5, true);
  four.cluster_m = 4;
  gemm::GemmProblem batched = make(1000, 1000, 1000, gemm::Precision::BF16, "nt");
  batched.batch = 3;
  verify_knobs(batched, four, "4x1 of 128x64, 3 x 1000^3 nt, persistent");
  verify_knobs(full_epilogue(), k, "2x2 of 128x128, 777x1000x256 nn, f32 out, C, bias, gelu");
  GeneratedKnobs tf32 = wgmma(128, 128, 2, 1, 4, true);
  tf32.tile_k = 32;
  tf32.cluster_n = 2;
  tf32.cluster_m = 2;
  verify_knobs(make(1000, 3000, 2002, gemm::Precision::TF32, "nn"), tf32, "tf32 2x2, nn (transposed B copy)");
}

// CTA pairs sharing A by TMA multicast (cluster_n 2): every layout,
// an odd number of tile columns (5 of 256: the last pair's second CTA computes zeros past N and
// stores nothing), ragged M and K,
// persistent and not, a batch, and the epilogue with C, bias and an f32 output.
TEST(GeneratedGpu, ClustersShareATileByMulticast) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs k = wgmma(128, 256, 2, 1, 3, false);
  k.cluster_n = 2;
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (bool persistent : {false, true}) {
      k.persistent = persistent;
      verify_knobs(make(1000, 1104, 520, gemm::Precision::F16, layout), k,
                   std::string("1000x1104x520 ") + layout + (persistent ? " persistent" : ""));
    }
  k.persistent = true;
  GeneratedKnobs square = wgmma(192, 192, 1, 2, 3, true);  // 192-row tiles: 96-row halves of A
  square.cluster_n = 2;
  gemm::GemmProblem batched = make(3000, 3000, 3000, gemm::Precision::BF16, "nt");
  verify_knobs(batched, square, "3000^3 nt, 192x192 (rows off 32-byte sectors)");
  batched = make(1000, 520, 264, gemm::Precision::BF16, "tn");
  batched.batch = 5;
  verify_knobs(batched, k, "5 x 1000x520x264 tn");
  GeneratedKnobs wide = k;
  wide.tile_m = 256;
  wide.tile_n = 128;
  verify_knobs(full_epilogue(), wide, "777x1000x256 nn, 256x128, f32 out, C, bias, gelu");
  GeneratedKnobs fp8 = k;
  fp8.tile_k = 128;
  verify_knobs(make(1000, 3000, 2048, gemm::Precision::F8E4M3, "nt"), fp8, "fp8 1000x3000x2048");
}

// The placement probe on this GPU: every SM in one GPC, a leader SM per cluster of 2 (SMs
// distinct), a table for a whole persistent grid of pairs; and the same answer a second time
// (the order assumes the hardware places a launch's clusters the same way every time).
TEST(GeneratedGpu, ClusterPlacementNamesEveryGpc) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "clusters need sm_90";
  const testing::TestDriver loaded = testing::load_test_driver();
  device::cuda::CudaDeviceContext context(loaded.driver, 0, nullptr, "", {});
  context.enter();
  ClusterPlacement first(*loaded.driver, context.properties()), second(*loaded.driver, context.properties());
  const nlohmann::json report = first.report();
  std::printf("cluster placement: %s\n", report.dump().c_str());
  ASSERT_FALSE(report.contains("reason")) << report.dump();
  int sms = 0;
  for (const auto& n : report.at("gpc_sms")) sms += n.get<int>();
  EXPECT_EQ(sms, gpu().traits.sm_count);
  const std::vector<int> leaders = report.at("cluster2_leaders").get<std::vector<int>>();
  EXPECT_EQ(static_cast<int>(leaders.size()), gpu().traits.sm_count / 2);
  EXPECT_EQ(std::set<int>(leaders.begin(), leaders.end()).size(), leaders.size());
  EXPECT_EQ(first.resident_clusters(2), gpu().traits.sm_count / 2);
  EXPECT_NE(first.table(2, gpu().traits.sm_count / 2), nullptr);
  const nlohmann::json again = second.report();
  std::printf("the same placement a second time: %s\n", again == report ? "yes" : again.dump().c_str());
}

// Clusters in GPC-aware order (cluster_probe.h): a grid of one wave and a persistent grid take
// a table, a grid of more clusters than fit at once stays in launch order; pairs along M,
// clusters of 4 and K-slice clusters too; every one computes every tile once.
TEST(GeneratedGpu, ClustersInGpcOrderComputeEveryTileOnce) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  auto ordered = [](const nlohmann::json& reply) {
    return reply.is_object() ? reply.value("launch", nlohmann::json::object()).value("cluster_order", 0) : 0;
  };
  GeneratedKnobs pair = wgmma(128, 128, 1, 1, 4, false);
  pair.cluster_n = 2;
  pair.swizzle_group = 1;
  // 1000 x 2000: 8 x 16 tiles, 64 pairs: one wave.
  EXPECT_GT(ordered(verify_knobs(make(1000, 2000, 200, gemm::Precision::BF16, "nt"), pair, "1000x2000x200 pairs, one wave")), 1);
  // 2049 x 4100: 17 x 33 tiles, 17 x 17 clusters (289: several waves).
  const gemm::GemmProblem many = make(2049, 4100, 200, gemm::Precision::BF16, "nt");
  EXPECT_EQ(ordered(verify_knobs(many, pair, "2049x4100x200 pairs, grid of tiles")), 0);
  pair.persistent = true;
  pair.swizzle_group = 8;
  EXPECT_GT(ordered(verify_knobs(many, pair, "2049x4100x200 pairs, persistent")), 1);
  // Swapped mid-M prefill (the problem's N along the kernel's M): 40 x 3 tiles, 20 x 3 clusters.
  GeneratedKnobs along_m = wgmma(128, 112, 2, 1, 5, false);
  along_m.swap_ab = true;
  along_m.cluster_m = 2;
  along_m.swizzle_group = 1;
  EXPECT_GT(ordered(verify_knobs(make(322, 5120, 1000, gemm::Precision::BF16, "nt"), along_m,
                                 "322x5120x1000 nt, swapped 128x112 along M")), 1);
  GeneratedKnobs four = wgmma(128, 128, 1, 1, 4, true);
  four.cluster_n = 2;
  four.cluster_m = 2;
  verify_knobs(make(3000, 3000, 512, gemm::Precision::F16, "nn"), four, "3000^2x512 2x2 clusters");
  GeneratedKnobs slices = wgmma(128, 128, 1, 1, 4, false);
  slices.split_k = 2;
  slices.split_cluster = true;
  verify_knobs(make(2048, 2048, 4096, gemm::Precision::BF16, "nt"), slices, "2048^2x4096 K slices in clusters of 2");
}

// Tile widths in steps of 32 (96, 160, 224; the space has them for whole waves) with a
// K-contiguous B: staged TMA stores in 32-column chunks (wg piece 160 or 96), chunked staging
// (224 with 4 stages), bulk row copies (a piece of 80 or 112 columns, not whole chunks), ragged
// M and N, pairs, split-K, a batch and C + bias, each verified against fp64.
TEST(GeneratedGpu, TileWidthsInStepsOf32) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  for (const char* layout : {"nt", "tt"}) {
    const std::string l(layout);
    verify_knobs(make(1000, 2000, 520, gemm::Precision::BF16, layout), wgmma(256, 160, 2, 1, 3, true), "256x160 " + l);
    verify_knobs(make(1000, 2000, 520, gemm::Precision::F16, layout), wgmma(128, 160, 1, 2, 4, true), "128x160 sg1x2 " + l);
    verify_knobs(make(777, 1000, 256, gemm::Precision::F16, layout), wgmma(128, 224, 2, 1, 4, true), "128x224 4 stages " + l);
    verify_knobs(make(777, 1000, 256, gemm::Precision::BF16, layout), wgmma(128, 224, 1, 2, 3, false), "128x224 sg1x2 " + l);
    verify_knobs(make(300, 1000, 4096, gemm::Precision::F16, layout), wgmma(64, 96, 1, 1, 5, true), "64x96 " + l);
  }
  GeneratedKnobs pair = wgmma(256, 160, 2, 1, 3, true);
  pair.cluster_n = 2;
  verify_knobs(make(1024, 10240, 1024, gemm::Precision::BF16, "nt"), pair, "1024x10240x1024 256x160 pairs");
  GeneratedKnobs split = wgmma(128, 160, 1, 1, 4, true);
  split.split_k = 4;
  verify_knobs(make(512, 1000, 8192, gemm::Precision::F16, "nt"), split, "512x1000x8192 128x160 split 4");
  gemm::GemmProblem batched = make(512, 800, 512, gemm::Precision::BF16, "nt");
  batched.batch = 3;
  batched.beta = 0.5;
  batched.bias = true;
  verify_knobs(batched, wgmma(128, 160, 2, 1, 3, true), "3 x 512x800x512 128x160, C and bias");
}

// Chunked staging (no staging tile beside 4 stages): 128x256 stores 64-column chunks, 192x192
// in two warpgroups 32-column ones, each chunk through one buffer per warpgroup; edge tiles store
// directly. Every layout, persistent or not, pairs, a batch, C + bias (16-bit out) and an f32
// output (buffer reserved, unused), each verified against fp64.
TEST(GeneratedGpu, ChunkedStagingStoresChunkByChunk) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs k = wgmma(128, 256, 2, 1, 4, true);
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (bool persistent : {false, true}) {
      k.persistent = persistent;
      verify_knobs(make(1000, 1104, 520, gemm::Precision::BF16, layout), k,
                   std::string("1000x1104x520 ") + layout + (persistent ? " persistent" : ""));
    }
  k.persistent = true;
  GeneratedKnobs square = wgmma(192, 192, 1, 2, 4, true);
  verify_knobs(make(3000, 3000, 3000, gemm::Precision::F16, "nt"), square, "3000^3 nt, 192x192, 4 stages");
  square.cluster_n = 2;
  verify_knobs(make(3000, 3000, 3000, gemm::Precision::F16, "nt"), square, "3000^3 nt, 192x192 pairs, 4 stages");
  gemm::GemmProblem batched = make(1024, 1024, 1024, gemm::Precision::BF16, "nn");
  batched.batch = 3;
  verify_knobs(batched, k, "3 x 1024^3 nn");
  gemm::GemmProblem with_c = make(1024, 2048, 512, gemm::Precision::F16, "nt");
  with_c.beta = 0.5;
  with_c.bias = true;
  verify_knobs(with_c, k, "1024x2048x512 nt, C and bias");
  gemm::GemmProblem f32 = with_c;
  f32.out = gemm::Storage::F32;
  verify_knobs(f32, k, "1024x2048x512 nt, f32 out (direct stores)");
}

// Swapped kernels (swap_ab: D^T = B^T A^T) for skinny M: every layout, M of 1, 16, 37 and 64
// (tiles of 16-64 columns along M), split-K, persistent, a batch, the full epilogue (C, bias,
// GELU, f32 out: C and bias are indexed transposed), and fp8, each verified against fp64.
// Interior tiles of D rows in multiples of 4 elements store 4 elements per lane after a shuffle
// (kt90_store_swapped_rows); the 1002-element rows store element by element.
TEST(GeneratedGpu, SwappedKernelsStoreDTransposed) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs k = wgmma(64, 16, 1, 1, 8, false);
  k.swap_ab = true;
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    // N-contiguous B^T (A stored 't') needs 64-column tiles along M.
    GeneratedKnobs l = k;
    if (layout[0] == 't') l.tile_n = 64;
    verify_knobs(make(16, 1000, 520, gemm::Precision::BF16, layout), l, std::string("16x1000x520 ") + layout);
  }
  GeneratedKnobs wide = wgmma(128, 32, 2, 1, 6, true);
  wide.swap_ab = true;
  verify_knobs(make(37, 1040, 776, gemm::Precision::F16, "nt"), wide, "37x1040x776 nt, 128x32 persistent");
  verify_knobs(make(1, 4096, 4096, gemm::Precision::BF16, "nt"), k, "1x4096x4096 nt");
  verify_knobs(make(40, 1002, 520, gemm::Precision::F16, "nt"), k, "40x1002x520 nt, rows of 1002 (element stores)");
  GeneratedKnobs split = k;
  split.split_k = 8;
  verify_knobs(make(16, 1000, 8192, gemm::Precision::BF16, "nt"), split, "16x1000x8192 nt, split-K 8");
  GeneratedKnobs m64 = wgmma(64, 64, 1, 1, 4, true);
  m64.swap_ab = true;
  gemm::GemmProblem batched = make(64, 520, 264, gemm::Precision::F16, "nn");
  batched.batch = 3;
  verify_knobs(batched, m64, "3 x 64x520x264 nn, 64x64");
  gemm::GemmProblem epilogue = full_epilogue();
  epilogue.m = 48;
  verify_knobs(epilogue, m64, "48x1000x256 nn, C, bias, gelu, f32 out");
  GeneratedKnobs fp8 = k;
  fp8.tile_k = 128;
  verify_knobs(make(16, 3000, 2048, gemm::Precision::F8E4M3, "nt"), fp8, "fp8 16x3000x2048");
}

// Loads with the L2 evict-first policy (l2_evict_first): a hint only, so every kernel must still
// match the reference: both paths, unicast and multicast (a cluster pair sharing B), swapped
// (the problem's B is the kernel's A), split-K, narrow mma.sync copies on rows off 16 bytes.
TEST(GeneratedGpu, EvictFirstLoadsKeepTheResults) {
  REQUIRE_GPU();
  GeneratedKnobs sync;  // mma.sync 32x32, 256-deep K tiles (l7b_o_decode_m16's kind)
  sync.tile_m = sync.tile_n = 32;
  sync.tile_k = 256;
  sync.subgroup_m = sync.subgroup_n = 2;
  sync.stages = 4;
  for (const char* which : {"a", "b", "ab"}) {
    GeneratedKnobs k = sync;
    k.evict_first_a = std::string(which).find('a') != std::string::npos;
    k.evict_first_b = std::string(which).find('b') != std::string::npos;
    verify_knobs(make(16, 1000, 4096, gemm::Precision::BF16, "nt"), k, std::string("mma.sync 16x1000x4096 nt ") + which);
    verify_knobs(make(16, 1002, 1026, gemm::Precision::F16, "nn"), k, std::string("mma.sync, 4-byte copies ") + which);
  }
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs decode = wgmma(64, 128, 1, 1, 8, true);
  decode.evict_first_b = true;
  verify_knobs(make(128, 2048, 8192, gemm::Precision::BF16, "nt"), decode, "128x2048x8192 nt, 64x128, B evict-first");
  GeneratedKnobs pair = wgmma(128, 128, 2, 1, 4, true);
  pair.cluster_m = 2;
  pair.evict_first_a = pair.evict_first_b = true;
  verify_knobs(make(1000, 1000, 1000, gemm::Precision::BF16, "nn"), pair, "1000^3 nn, cluster_m 2, both evict-first");
  GeneratedKnobs swapped = wgmma(64, 16, 1, 1, 16, false);
  swapped.swap_ab = true;
  swapped.evict_first_b = true;
  verify_knobs(make(16, 4096, 4096, gemm::Precision::BF16, "nt"), swapped, "16x4096x4096 nt swapped, weights evict-first");
  GeneratedKnobs split = swapped;
  split.stages = 8;
  split.split_k = 4;
  verify_knobs(make(16, 1000, 8192, gemm::Precision::BF16, "nt"), split, "16x1000x8192 nt swapped, split-K 4");
}

// Tile widths in steps of 16 with one warpgroup across (144, 176, 208, 240, 80: stmatrix and
// row copies, no TMA store; 192x176 as three warpgroups), and swapped kernels with M along
// tiles of 128-208 columns, stored transposed (a configuration may ask for them; the space
// keeps swapped kernels for M <= 64), over ragged sizes, persistent or not, a batch with C and
// bias, each verified against fp64.
TEST(GeneratedGpu, TilesInStepsOf16AndSwappedMidM) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  for (const char* layout : {"nt", "tt"}) {
    const std::string l(layout);
    verify_knobs(make(660, 3072, 1100, gemm::Precision::BF16, layout), wgmma(128, 144, 2, 1, 4, true), "128x144 " + l);
    verify_knobs(make(777, 1000, 520, gemm::Precision::F16, layout), wgmma(64, 176, 1, 1, 5, false), "64x176 " + l);
    verify_knobs(make(1000, 2000, 264, gemm::Precision::BF16, layout), wgmma(192, 176, 3, 1, 3, true), "192x176 " + l);
    verify_knobs(make(300, 1000, 520, gemm::Precision::F16, layout), wgmma(128, 240, 2, 1, 3, false), "128x240 " + l);
    verify_knobs(make(500, 700, 520, gemm::Precision::BF16, layout), wgmma(128, 80, 2, 1, 4, true), "128x80 " + l);
  }
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    GeneratedKnobs k = wgmma(128, 144, 2, 1, 4, true);
    k.swap_ab = true;
    // N-contiguous B^T (A stored 't') needs 64-column tiles along M.
    if (layout[0] == 't') k.tile_n = 128;
    verify_knobs(make(664, 3000, 1104, gemm::Precision::BF16, layout), k, std::string("664x3000x1104 swapped ") + layout);
  }
  GeneratedKnobs mid = wgmma(64, 208, 1, 1, 3, false);
  mid.swap_ab = true;
  gemm::GemmProblem batched = make(598, 520, 264, gemm::Precision::F16, "nt");
  batched.batch = 3;
  batched.beta = 0.5;
  batched.bias = true;
  verify_knobs(batched, mid, "3 x 598x520x264 nt, 64x208 swapped, C and bias");
}

// tf32 with an M-contiguous A read into registers (KT_A_REGS), against fp64: unswapped "tt" and
// "tn" (B copied), and swapped "nn" (B^T is the kernel's A; nothing copied) over ragged sizes,
// one and two 64-row atoms per warpgroup, deep K tiles, a batch, split-K both ways, CTA pairs
// sharing A's 32-row chunks, and the full epilogue stored transposed.
TEST(GeneratedGpu, Tf32AFromRegisters) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs one = tf32_knobs(128, 128, 2, 4, true, 0);
  verify_knobs(make(513, 1000, 1000, gemm::Precision::TF32, "tt"), one, "tf32 513x1000x1000 tt, 2 warpgroups");
  GeneratedKnobs two = tf32_knobs(128, 128, 1, 4, false, 0);
  verify_knobs(make(777, 1001, 1004, gemm::Precision::TF32, "tn"), two, "tf32 777x1001x1004 tn, 2 atoms");
  GeneratedKnobs swapped = tf32_knobs(128, 256, 2, 3, true, 0);
  swapped.swap_ab = true;
  verify_knobs(make(1000, 3000, 2000, gemm::Precision::TF32, "nn"), swapped, "tf32 1000x3000x2000 nn swapped 128x256");
  GeneratedKnobs deep = swapped;
  deep.tile_n = 128;
  deep.tile_k = 64;
  gemm::GemmProblem batched = make(300, 520, 1000, gemm::Precision::TF32, "nn");
  batched.batch = 3;
  verify_knobs(batched, deep, "tf32 3 x 300x520x1000 nn swapped, 64-deep K tiles");
  GeneratedKnobs split = tf32_knobs(64, 64, 1, 8, false, 0);
  split.swap_ab = true;
  split.split_k = 4;
  verify_knobs(make(256, 128, 8192, gemm::Precision::TF32, "nn"), split, "tf32 256x128x8192 nn swapped, split-K 4");
  split.split_reduce = true;
  verify_knobs(make(256, 128, 8192, gemm::Precision::TF32, "nn"), split, "tf32 256x128x8192 nn swapped, reduced");
  GeneratedKnobs pair = tf32_knobs(128, 128, 2, 4, true, 0);
  pair.swap_ab = true;
  pair.cluster_n = 2;
  verify_knobs(make(1000, 3000, 2000, gemm::Precision::TF32, "nn"), pair, "tf32 1000x3000x2000 nn swapped, CTA pairs");
  gemm::GemmProblem epilogue = make(777, 1000, 1000, gemm::Precision::TF32, "nn");
  epilogue.bias = true;
  epilogue.beta = -1.0;
  epilogue.activation = gemm::Activation::Gelu;
  verify_knobs(epilogue, swapped, "tf32 777x1000x1000 nn swapped, C, bias, gelu");
}

// Rows TMA cannot address (16-byte misaligned pitches): the wgmma kernels copy A and/or B to
// 16-byte rows first (repack.h). A only (K = 4097, nn), both (tn with M = 4097 and N = 511; nt
// with K = 1999), a batch, split-K and CTA pairs over the copies, fp8 (K = 1000 bytes) and tf32
// (K = 1002), each verified against fp64; split-K kernels run twice, so the copy runs again.
TEST(GeneratedGpu, MisalignedRowsAreRepackedForTma) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  GeneratedKnobs k = wgmma(128, 128, 2, 1, 4, true);
  verify_knobs(make(511, 1000, 4097, gemm::Precision::F16, "nn"), k, "511x1000x4097 nn (A copied)");
  GeneratedKnobs split = wgmma(128, 128, 2, 1, 4, false);
  split.split_k = 4;
  verify_knobs(make(511, 1000, 4097, gemm::Precision::F16, "nn"), split, "511x1000x4097 nn, split-K 4");
  verify_knobs(make(4097, 511, 1000, gemm::Precision::BF16, "tn"), k, "4097x511x1000 tn (A and B copied)");
  GeneratedKnobs pair = wgmma(128, 256, 2, 1, 3, true);
  pair.cluster_n = 2;
  verify_knobs(make(777, 3001, 1999, gemm::Precision::BF16, "nt"), pair, "777x3001x1999 nt, CTA pairs");
  gemm::GemmProblem batched = make(300, 77, 129, gemm::Precision::F16, "tt");
  batched.batch = 3;
  verify_knobs(batched, k, "3 x 300x77x129 tt");
  GeneratedKnobs fp8 = k;
  fp8.tile_k = 128;
  verify_knobs(make(200, 300, 1000, gemm::Precision::F8E4M3, "nt"), fp8, "fp8 200x300x1000 nt");
  GeneratedKnobs tf32 = k;
  tf32.tile_k = 32;
  verify_knobs(make(130, 70, 1002, gemm::Precision::TF32, "nt"), tf32, "tf32 130x70x1002 nt");
}

// Tiles neither TMA nor bulk copies can store (kt90_store_staged_rows): D's rows off 16 bytes
// (N odd: every other row starts 2 bytes off 4) or batch entries off 16 bytes, staged in shared
// memory and written row by row, edge tiles included; with C, a bias and an activation read
// only inside M x N, and pingpong's buffer per warpgroup. Beside them, the same epilogue with
// 16-byte rows (edge tiles stored directly, interior ones by TMA).
TEST(GeneratedGpu, TilesTmaCannotStoreLeaveRowByRow) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "wgmma needs sm_90";
  const GeneratedKnobs k = wgmma(128, 128, 2, 1, 3, true);
  verify_knobs(make(1108, 10391, 192, gemm::Precision::BF16, "tt"), k, "1108x10391x192 tt (rows off 4 bytes)");
  for (std::int64_t n : {1001, 1000}) {
    gemm::GemmProblem epilogue = make(333, n, 264, gemm::Precision::F16, "nt");
    epilogue.bias = true;
    epilogue.beta = 0.5;
    epilogue.alpha = 0.75;
    epilogue.activation = gemm::Activation::Relu;
    verify_knobs(epilogue, k, "333x" + std::to_string(n) + "x264 nt, C, bias, relu (edge tiles)");
  }
  gemm::GemmProblem batched = make(130, 77, 96, gemm::Precision::BF16, "nn");
  batched.batch = 3;
  verify_knobs(batched, k, "3 x 130x77x96 nn (batch entries off 16 bytes)");
  GeneratedKnobs wide = wgmma(128, 256, 2, 1, 3, true);
  verify_knobs(make(700, 2999, 128, gemm::Precision::F16, "tn"), wide, "700x2999x128 tn, 128x256");
  GeneratedKnobs pingpong = wgmma(64, 256, 1, 1, 3, true);
  pingpong.pingpong = true;
  verify_knobs(make(1000, 1003, 136, gemm::Precision::F16, "nn"), pingpong, "1000x1003x136 nn, pingpong");
}

TEST(GeneratedGpu, OddSizes) {
  REQUIRE_GPU();
  for (std::int64_t s : {1, 7, 511, 1000, 4097}) {
    EXPECT_GE(verify_all(make(s, s == 4097 ? 96 : s, s == 4097 ? 200 : s, gemm::Precision::F16, "nn")), 1) << s;
    EXPECT_GE(verify_all(make(s, 64, s, gemm::Precision::BF16, "tt")), 1) << s;
  }
  EXPECT_GE(verify_all(make(33, 4097, 129, gemm::Precision::BF16, "nt")), 1);
}

// Split tiles whose last slice takes the totals back pair by pair in a rolled loop (128 or more
// accumulators per thread: gemm_sm90.cuh's KT_TAKE_BLOCKS 0; gemm_sm80.cuh for every tile):
// ragged M, N and K, C, bias and gelu into f32, a batch, both paths.
TEST(GeneratedGpu, LargeSplitTilesTakeTheirTotalsInALoop) {
  REQUIRE_GPU();
  if (gpu().traits.compute_capability == 90) {
    GeneratedKnobs one = wgmma(128, 128, 1, 1, 4, true);  // 128 accumulators per consumer thread
    one.split_k = 2;
    verify_knobs(full_epilogue(), one, "777x1000x256 nn, f32 out, C, bias, gelu, 128x128 in one warpgroup, split 2");
    verify_knobs(make(300, 260, 4100, gemm::Precision::BF16, "nt"), one, "300x260x4100 nt, 128x128, split 2");
    GeneratedKnobs wide = wgmma(192, 256, 1, 2, 3, true);  // 192 per thread
    wide.split_k = 3;
    gemm::GemmProblem batched = make(200, 300, 1500, gemm::Precision::F16, "tn");
    batched.batch = 2;
    verify_knobs(batched, wide, "2 x 200x300x1500 tn, 192x256, split 3");
  }
  GeneratedKnobs sync;
  sync.path = KernelPath::MmaSync;
  sync.tile_m = 128;
  sync.tile_n = 128;
  sync.tile_k = 64;
  sync.subgroup_m = 2;
  sync.subgroup_n = 2;
  sync.stages = 4;
  sync.split_k = 2;
  sync.swizzle_group = 8;
  sync.min_blocks_per_sm = 1;
  verify_knobs(full_epilogue(), sync, "777x1000x256 nn, f32 out, C, bias, gelu, mma.sync 128x128, split 2");
  verify_knobs(make(300, 260, 4100, gemm::Precision::BF16, "nt"), sync, "300x260x4100 nt, mma.sync 128x128, split 2");
}

TEST(GeneratedGpu, SplitKOnLongReductions) {
  REQUIRE_GPU();
  EXPECT_GE(verify_all(make(64, 64, 65536, gemm::Precision::BF16, "nn")), 2);
  EXPECT_GE(verify_all(make(16, 4096, 4096, gemm::Precision::BF16, "nn")), 2);
}

TEST(GeneratedGpu, Epilogues) {
  REQUIRE_GPU();
  gemm::GemmProblem p = make(300, 520, 264, gemm::Precision::F16, "nt");
  p.bias = true;
  p.activation = gemm::Activation::Relu;
  p.alpha = 0.75;
  EXPECT_GE(verify_all(p), 2);
  p.activation = gemm::Activation::Gelu;
  p.beta = -0.5;
  p.out = gemm::Storage::F32;
  EXPECT_GE(verify_all(p), 2);
  p = make(128, 256, 512, gemm::Precision::BF16, "tn");
  p.batch = 3;
  p.beta = 1.0;
  EXPECT_GE(verify_all(p), 2);
}

// Verifies and briefly measures a listed candidate (three samples: the time is not under test).
nlohmann::json evaluate_briefly(gemm::GemmWorker& w, const gemm::GemmSetup& setup, const nlohmann::json& candidate) {
  gemm::EvaluateOptions options;
  options.policy.min_samples = 3;
  options.policy.min_seconds = 0;
  return w.handle(gemm::evaluate_request(setup, candidate, options));
}

TEST(GeneratedGpu, TheWorkerListsCompiledCandidates) {
  REQUIRE_GPU();
  gemm::GemmSetup setup;
  setup.problem = make(2048, 2048, 2048, gemm::Precision::BF16, "nn");
  setup.families = {"generated"};
  setup.generated_max_candidates = 6;
  const nlohmann::json reply = worker().handle(gemm::candidates_request(setup));
  const nlohmann::json& info = reply.at("families").at("generated");
  ASSERT_TRUE(info.value("available", false)) << info.dump(1);
  // Listing only queues the compiles; each evaluation waits for its own kernel.
  EXPECT_EQ(info.at("compile").at("mode"), "background") << info.dump(1);
  EXPECT_EQ(info.at("compile").at("kernels"), 6);
  int generated = 0;
  for (const nlohmann::json& c : reply.at("candidates")) {
    if (c.at("family") != "generated") continue;
    ++generated;
    const nlohmann::json evaluated = evaluate_briefly(worker(), setup, c);
    EXPECT_EQ(evaluated.value("status", ""), "ok") << evaluated.dump(1).substr(0, 4000);
    EXPECT_TRUE(evaluated.at("compile").at("background").get<bool>()) << evaluated.at("compile").dump();
    EXPECT_GE(evaluated.at("compile").at("waited_seconds").get<double>(), 0.0);
  }
  EXPECT_EQ(generated, 6);
  // cuBLAS's default leads the list as the baseline even when only "generated" was asked for.
  if (reply.at("families").at("cublaslt").value("available", false)) {
    EXPECT_EQ(reply.at("candidates")[0].at("family"), "cublaslt");
    EXPECT_EQ(reply.at("families").at("cublaslt").at("role"), "baseline only");
  }
}

// A fresh worker (as in a new worker process): the first listing opens the driver, queues the
// generated kernels' compiles for the device properties the driver reports, and only then makes
// the context and probes cluster placement (gemm_worker.cc, candidates()). The kernels compiled
// from the driver's properties must load, run and verify on that context; the steps show the
// order. The shared worker() cannot show it: whichever test runs first opens its device.
TEST(GeneratedGpu, AFreshWorkerQueuesItsCompilesBeforeItsContext) {
  REQUIRE_GPU();
  gemm::GemmWorker fresh;
  gemm::GemmSetup setup;
  setup.problem = make(1000, 1016, 744, gemm::Precision::BF16, "nt");
  setup.families = {"generated"};
  setup.generated_max_candidates = 3;
  const nlohmann::json reply = fresh.handle(gemm::candidates_request(setup));
  const nlohmann::json& steps = reply.at("steps");
  const nlohmann::json& open = steps.at("device_open");
  std::printf("listing steps: %s\n", steps.dump().c_str());
  EXPECT_LE(open.at("driver_s").get<double>(), open.at("libraries_s").get<double>());
  EXPECT_LE(open.at("libraries_s").get<double>(), open.at("context_s").get<double>());
  if (gpu().traits.compute_capability >= 90) {
    EXPECT_TRUE(open.contains("cluster_probe_s")) << open.dump();
  }
  EXPECT_LE(steps.at("generated_queued_s").get<double>(), steps.at("device_opened_s").get<double>());
  const nlohmann::json& info = reply.at("families").at("generated");
  ASSERT_TRUE(info.value("available", false)) << info.dump(1);
  EXPECT_EQ(info.at("compile").at("kernels"), 3);
  EXPECT_EQ(reply.at("device").at("name"), gpu().traits.name);
  int generated = 0;
  for (const nlohmann::json& c : reply.at("candidates")) {
    if (c.at("family") != "generated") continue;
    ++generated;
    const nlohmann::json evaluated = evaluate_briefly(fresh, setup, c);
    EXPECT_EQ(evaluated.value("status", ""), "ok") << evaluated.dump(1).substr(0, 4000);
    EXPECT_TRUE(evaluated.value("verified", false)) << evaluated.dump(1).substr(0, 4000);
  }
  EXPECT_EQ(generated, 3);
}

}  // namespace
}  // namespace ktune::generated
