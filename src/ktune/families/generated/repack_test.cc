#include "ktune/families/generated/repack.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "ktune/families/gemm/gemm_numeric.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/gemm/gemm_reference.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

GeneratedKnobs wgmma() { return testing_support::wgmma_knobs(128, 128, 64, 2, 2, 4); }

// Host addresses standing in for device buffers: make_params only does arithmetic on them.
DeviceOperands fake_operands() {
  alignas(16) static unsigned char a[16], b[16], scratch[16];
  DeviceOperands operands;
  operands.a = a;
  operands.b = b;
  operands.repack = scratch;
  return operands;
}

// 511 x 1000 x 4097, f16 nn: A's rows (K = 4097) are 8194 bytes apart, off 16; B's (N = 1000)
// are 2000, which TMA takes.
TEST(Repack, CopiesOnlyTheOperandWhoseRowsAreOff16Bytes) {
  const Repacks r = sm90_repacks(problem_traits(make_problem(511, 1000, 4097, gemm::Precision::F16, "nn")));
  ASSERT_TRUE(r.a.active);
  EXPECT_FALSE(r.b.active);
  EXPECT_EQ(r.a.inner, 4097);
  EXPECT_EQ(r.a.outer, 511);
  EXPECT_EQ(r.a.ld_src, 4097);
  EXPECT_EQ(r.a.ld_dst, 4104);  // the next multiple of 8 f16 elements
  EXPECT_EQ(r.a.stride_dst, 4104 * 511);
  EXPECT_EQ(r.bytes(), 4104 * 511 * 2);
  EXPECT_DOUBLE_EQ(r.a.traffic_bytes(), 511.0 * (4097 + 4104) * 2);
}

// tn with M = 4097 and N = 511: A is K x M (rows of M), B is K x N; both are copied, B after A
// at a 256-byte boundary; element counts follow the type (fp8 would round to 16, tf32 to 4).
TEST(Repack, BothOperandsAndBatchesGetTheirOwnPitches) {
  const Repacks r = sm90_repacks(problem_traits(make_problem(4097, 511, 1000, gemm::Precision::BF16, "tn", 3)));
  ASSERT_TRUE(r.a.active && r.b.active);
  EXPECT_EQ(r.a.inner, 4097);
  EXPECT_EQ(r.a.outer, 1000);
  EXPECT_EQ(r.a.batch, 3);
  EXPECT_EQ(r.a.stride_src, 4097 * 1000);
  EXPECT_EQ(r.b.inner, 511);
  EXPECT_EQ(r.b.ld_dst, 512);
  EXPECT_EQ(r.b_offset() % 256, 0);
  EXPECT_GE(r.b_offset(), r.a.bytes());
  EXPECT_EQ(r.bytes(), r.b_offset() + 3 * 512 * 1000 * 2);
  const Repacks fp8 = sm90_repacks(problem_traits(make_problem(64, 64, 1000, gemm::Precision::F8E4M3, "nt")));
  EXPECT_TRUE(fp8.a.active && fp8.b.active);
  EXPECT_EQ(fp8.a.ld_dst, 1008);
  EXPECT_EQ(fp8.a.element_bytes, 1);
  const Repacks tf32 = sm90_repacks(problem_traits(make_problem(64, 64, 1002, gemm::Precision::TF32, "nt")));
  EXPECT_EQ(tf32.a.ld_dst, 1004);
  EXPECT_TRUE(sm90_repacks(problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::F16, "nn"))).bytes() == 0);
}

TEST(Repack, LaunchesAndParamsReadTheCopies) {
  const gemm::GemmProblem problem = make_problem(4097, 511, 1000, gemm::Precision::BF16, "tn");
  const ProblemTraits traits = problem_traits(problem);
  const DeviceTraits device;
  const Launch launch = plan_launch(wgmma(), traits, device);
  ASSERT_TRUE(launch.repacks.any());
  const DeviceOperands operands = fake_operands();
  const void *a = operands.a, *b = operands.b;
  unsigned char* scratch = static_cast<unsigned char*>(operands.repack);
  const std::vector<RepackLaunch> launches = repack_launches(launch.repacks, a, b, scratch, device.sm_count);
  ASSERT_EQ(launches.size(), 1u);  // one launch copies both
  const KtuneRepackLaunch& both = launches[0].params;
  EXPECT_EQ(launches[0].operands(), 2);
  EXPECT_EQ(both.op[0].src, a);
  EXPECT_EQ(both.op[0].dst, scratch);
  EXPECT_EQ(both.op[1].src, b);
  EXPECT_EQ(both.op[1].dst, scratch + launch.repacks.b_offset());
  EXPECT_EQ(both.ctas[0], (1000u * 513 + 255) / 256);  // a thread per vector: 1000 rows of 513
  EXPECT_LE(both.ctas[1], static_cast<unsigned>(device.sm_count * 16));
  EXPECT_EQ(launches[0].grid[0], both.ctas[0] + both.ctas[1]);
  const KtuneGemmParams p = make_params(wgmma(), traits, problem, operands, launch, device);
  EXPECT_EQ(p.a, scratch);
  EXPECT_EQ(p.lda, 4104);
  EXPECT_EQ(p.b, scratch + launch.repacks.b_offset());
  EXPECT_EQ(p.ldb, 512);
  // mma.sync kernels read the operands as they are.
  GeneratedKnobs sync = wgmma();
  sync.path = KernelPath::MmaSync;
  EXPECT_FALSE(plan_launch(sync, traits, device).repacks.any());
}

// tf32 nn (B stored K x N): wgmma reads tf32 K-major only, so B is copied transposed, N rows of
// K padded to 16 bytes, and the kernel reads that copy as a K-contiguous operand. A, already
// K-contiguous with 16-byte rows, is read in place.
TEST(Repack, TransposesATf32OperandThatIsNotKMajor) {
  const gemm::GemmProblem problem = make_problem(1000, 3000, 2002, gemm::Precision::TF32, "nn");
  const ProblemTraits traits = problem_traits(problem);
  const Repacks r = sm90_repacks(traits);
  ASSERT_TRUE(r.b.active);
  EXPECT_TRUE(r.b.transpose);
  EXPECT_TRUE(r.a.active);  // 2002 f32 per row: 8008 bytes, off 16 (an aligned copy, not a transpose)
  EXPECT_FALSE(r.a.transpose);
  EXPECT_EQ(r.b.inner, 3000);
  EXPECT_EQ(r.b.outer, 2002);
  EXPECT_EQ(r.b.ld_src, 3000);
  EXPECT_EQ(r.b.ld_dst, 2004);  // K rounded to 4 f32
  EXPECT_EQ(r.b.rows_dst(), 3000);
  EXPECT_EQ(r.b.stride_dst, 2004 * 3000);
  EXPECT_DOUBLE_EQ(r.b.traffic_bytes(), (2002.0 * 3000 + 3000.0 * 2004) * 4);

  const ProblemTraits read = kernel_traits(wgmma(), traits);
  EXPECT_TRUE(read.a_k_contiguous && read.b_k_contiguous);
  GeneratedKnobs k = testing_support::wgmma_knobs(128, 128, 32, 2, 1, 4);
  EXPECT_FALSE(rejects(k, traits, DeviceTraits{})) << *rejects(k, traits, DeviceTraits{});
  EXPECT_NE(emit_source(k, traits).find("#define KT_B_K_CONTIGUOUS 1\n"), std::string::npos);
  const Launch launch = plan_launch(k, traits, DeviceTraits{});
  const DeviceOperands operands = fake_operands();
  const void *a = operands.a, *b = operands.b;
  unsigned char* scratch = static_cast<unsigned char*>(operands.repack);
  const KtuneGemmParams p = make_params(k, traits, problem, operands, launch, DeviceTraits{});
  EXPECT_EQ(p.b, scratch + launch.repacks.b_offset());
  EXPECT_EQ(p.ldb, 2004);
  EXPECT_EQ(p.batch_stride_b, 2004 * 3000);
  const std::vector<RepackLaunch> launches = repack_launches(launch.repacks, a, b, scratch, 132);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].params.op[1].transpose, 1);
  EXPECT_EQ(launches[0].params.op[0].transpose, 0);
  EXPECT_EQ(launches[0].params.ctas[1], 47u * 32);  // 47 x 32 tiles of 64x64, a CTA each

  // Swapped (swap_ab), B^T is the kernel's M-contiguous A, read into registers: nothing is
  // copied. fp8 would have to transpose the swapped operands: refused.
  GeneratedKnobs swapped = testing_support::wgmma_knobs(64, 16, 32, 1, 1, 8);
  swapped.swap_ab = true;
  const ProblemTraits tf32_nn = problem_traits(make_problem(16, 4096, 4096, gemm::Precision::TF32, "nn"));
  EXPECT_FALSE(rejects(swapped, tf32_nn, DeviceTraits{})) << *rejects(swapped, tf32_nn, DeviceTraits{});
  EXPECT_FALSE(plan_launch(swapped, tf32_nn, DeviceTraits{}).repacks.any());
  const ProblemTraits swapped_read = kernel_traits(swapped, tf32_nn);
  EXPECT_FALSE(swapped_read.a_k_contiguous);
  EXPECT_TRUE(swapped_read.b_k_contiguous);
  EXPECT_NE(emit_source(swapped, tf32_nn).find("#define KT_A_K_CONTIGUOUS 0\n"), std::string::npos);
  GeneratedKnobs swapped_fp8 = swapped;
  swapped_fp8.tile_k = 128;
  EXPECT_TRUE(rejects(swapped_fp8, problem_traits(make_problem(16, 4096, 4096, gemm::Precision::F8E4M3, "nn")),
                      DeviceTraits{}));
  // 16-bit types are read transposed by wgmma itself: no copy.
  EXPECT_FALSE(sm90_repacks(problem_traits(make_problem(4096, 4096, 4096, gemm::Precision::BF16, "tn"))).any());
}

// fp8 tn: both operands stored K-outer; both copies transpose, with K padded to 16 bytes, and a
// batch keeps its own stride per copy.
TEST(Repack, TransposesBothFp8OperandsOfEveryBatchEntry) {
  const Repacks r = sm90_repacks(problem_traits(make_problem(100, 200, 40, gemm::Precision::F8E4M3, "tn", 2)));
  ASSERT_TRUE(r.a.transpose && r.b.transpose);
  EXPECT_EQ(r.a.inner, 100);
  EXPECT_EQ(r.a.ld_dst, 48);
  EXPECT_EQ(r.a.stride_dst, 48 * 100);
  EXPECT_EQ(r.a.stride_src, 100 * 40);
  EXPECT_EQ(r.b.inner, 200);
  EXPECT_EQ(r.b.stride_dst, 48 * 200);
  EXPECT_EQ(r.bytes(), r.b_offset() + 2 * 48 * 200);
}

// Strict f32: both operands are split into three K segments (repack.h), whatever their layout,
// and the kernel sees a tf32 problem over those segments, reading both copies K-major.
TEST(Repack, StrictF32SplitsBothOperandsIntoThreeSegments) {
  const gemm::GemmProblem problem = make_problem(513, 1000, 1002, gemm::Precision::F32, "tt", 2);
  const ProblemTraits traits = problem_traits(problem);
  EXPECT_TRUE(traits.f32_split);
  EXPECT_EQ(traits.in_type, 3);
  EXPECT_EQ(kernel_k(traits), 3 * 1004);
  const Repacks r = sm90_repacks(traits);
  ASSERT_TRUE(r.a.active && r.b.active);
  EXPECT_TRUE(r.a.transpose);   // A stored K x M
  EXPECT_FALSE(r.b.transpose);  // B stored N x K
  EXPECT_EQ(r.a.split, 1);
  EXPECT_EQ(r.b.split, 2);
  EXPECT_EQ(r.a.segment, 1004);
  EXPECT_EQ(r.a.ld_dst, 3 * 1004);
  EXPECT_EQ(r.a.stride_dst, 3 * 1004 * 513);
  EXPECT_EQ(r.b.ld_dst, 3 * 1004);
  EXPECT_EQ(r.b.stride_dst, 3 * 1004 * 1000);
  EXPECT_EQ(r.bytes(), r.b_offset() + 2 * 3 * 1004 * 1000 * 4);
  // Every element read once, three written.
  EXPECT_DOUBLE_EQ(r.b.traffic_bytes(), 2.0 * (1002.0 * 1000 + 1000.0 * 3012) * 4);

  GeneratedKnobs k = testing_support::wgmma_knobs(128, 128, 32, 2, 1, 4);
  // Strict f32 must promote its tensor-core sums at least every kF32ChainK elements.
  EXPECT_TRUE(rejects(k, traits, DeviceTraits{}));
  k.promote = kF32ChainK / 32 + 1;
  EXPECT_TRUE(rejects(k, traits, DeviceTraits{}));
  k.promote = kF32ChainK / 32;
  ASSERT_FALSE(rejects(k, traits, DeviceTraits{})) << *rejects(k, traits, DeviceTraits{});
  EXPECT_NE(emit_source(k, traits).find("#define KT_PROMOTE 4\n"), std::string::npos);
  EXPECT_EQ(knobs_from_config(to_config(k, traits)), k);
  // The chain's sum and the total: twice the accumulators, which a 128x256 warpgroup tile lacks.
  GeneratedKnobs wide = testing_support::wgmma_knobs(256, 128, 32, 2, 1, 3);
  wide.promote = 16;
  EXPECT_TRUE(rejects(wide, traits, DeviceTraits{}));
  // Every candidate the space offers for strict f32 promotes.
  for (const RankedKnobs& ranked : select_candidates(traits, DeviceTraits{}, SpaceOptions{}))
    EXPECT_EQ(ranked.knobs.promote * ranked.knobs.tile_k, kF32ChainK);
  const ProblemTraits read = kernel_traits(k, traits);
  EXPECT_EQ(read.k, 3 * 1004);
  EXPECT_TRUE(read.a_k_contiguous && read.b_k_contiguous);
  const std::string source = emit_source(k, traits);
  EXPECT_NE(source.find("#define KT_IN_TYPE 3\n"), std::string::npos);
  EXPECT_NE(source.find("3xTF32"), std::string::npos);
  const Launch launch = plan_launch(k, traits, DeviceTraits{});
  const DeviceOperands operands = fake_operands();
  const void *a = operands.a, *b = operands.b;
  unsigned char* scratch = static_cast<unsigned char*>(operands.repack);
  GeneratedKnobs split = k;
  split.split_k = 3;
  ASSERT_FALSE(rejects(split, traits, DeviceTraits{}));
  const KtuneGemmParams p = make_params(split, traits, problem, operands, plan_launch(split, traits, DeviceTraits{}),
                                        DeviceTraits{});
  EXPECT_EQ(p.k, 3 * 1004);
  EXPECT_EQ(p.lda, 3 * 1004);
  EXPECT_EQ(p.ldb, 3 * 1004);
  EXPECT_EQ(p.k_per_split, 32 * 32);  // 95 K tiles of 32 in 3 slices
  const std::vector<RepackLaunch> launches = repack_launches(launch.repacks, a, b, scratch, 132);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].params.op[0].split, 1);
  EXPECT_EQ(launches[0].params.op[1].split, 2);
  EXPECT_EQ(launches[0].params.op[1].segment, 1004);

  // mma.sync has no tf32 kernel, and the copies rule out swap_ab.
  GeneratedKnobs swapped = testing_support::wgmma_knobs(64, 16, 32, 1, 1, 8);
  swapped.swap_ab = true;
  EXPECT_TRUE(rejects(swapped, problem_traits(make_problem(16, 4096, 4096, gemm::Precision::F32, "nt")), DeviceTraits{}));
  GeneratedKnobs mma;
  EXPECT_TRUE(rejects(mma, traits, DeviceTraits{}));
}

TEST(Repack, Tf32SplitParts) {
  EXPECT_EQ(round_to_tf32(1.0f), 1.0f);
  // 1 + 2^-11 is halfway between two TF32 neighbours (10 mantissa bits): away from zero.
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(round_to_tf32(-1.0f - std::ldexp(1.0f, -11)), -1.0f - std::ldexp(1.0f, -10));
  EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -12)), 1.0f);
  EXPECT_TRUE(std::isinf(round_to_tf32(INFINITY)));
  // FLT_MAX rounds up to infinity; its split truncates instead, so the parts still sum to it
  // (within the split's 2^-21).
  const float huge = std::numeric_limits<float>::max();
  EXPECT_TRUE(std::isinf(round_to_tf32(huge)));
  const Tf32Split top = split_tf32(huge);
  EXPECT_TRUE(std::isfinite(top.big) && std::isfinite(top.small));
  EXPECT_LE(std::fabs(static_cast<double>(huge) - top.big - top.small), std::ldexp(static_cast<double>(huge), -21));
  const Tf32Split inf = split_tf32(-INFINITY);
  EXPECT_EQ(inf.big, -INFINITY);
  EXPECT_EQ(inf.small, 0.0f);
  for (float x : {0.1f, -3.14159265f, 1e-20f, 12345.678f, 0.0f}) {
    const Tf32Split s = split_tf32(x);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(s.big) & 0x1fffu, 0u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(s.small) & 0x1fffu, 0u);
    EXPECT_LE(std::fabs(static_cast<double>(x) - s.big - s.small), std::ldexp(std::fabs(static_cast<double>(x)), -21)) << x;
  }
}

// What the split buys, on the CPU: the kernel's arithmetic (TF32 parts, exact products, an f32
// accumulator over the three segments in order) passes the strict f32 verification, while the
// same GEMM on TF32-rounded inputs fails it. K = 256, where TF32's error is ~10x the bound.
TEST(Repack, SplitProductsPassTheStrictF32CheckThatTf32Fails) {
  const gemm::GemmProblem p = make_problem(24, 40, 256, gemm::Precision::F32, "nn");
  const gemm::GemmOperands o = gemm::make_operands(p, 11);
  const gemm::GemmReference ref = gemm::compute_reference(p, o);
  const float* a = reinterpret_cast<const float*>(o.a.data());
  const float* b = reinterpret_cast<const float*>(o.b.data());
  std::vector<float> split(p.m * p.n), tf32(p.m * p.n);
  for (std::int64_t i = 0; i < p.m; ++i)
    for (std::int64_t j = 0; j < p.n; ++j) {
      float acc = 0, plain = 0;
      for (std::int64_t kk = 0; kk < p.k; ++kk) {
        const Tf32Split x = split_tf32(a[i * p.k + kk]), y = split_tf32(b[kk * p.n + j]);
        acc += x.small * y.big;
        plain += x.big * y.big;
      }
      for (std::int64_t kk = 0; kk < p.k; ++kk) {
        const Tf32Split x = split_tf32(a[i * p.k + kk]), y = split_tf32(b[kk * p.n + j]);
        acc += x.big * y.small;
      }
      for (std::int64_t kk = 0; kk < p.k; ++kk) {
        const Tf32Split x = split_tf32(a[i * p.k + kk]), y = split_tf32(b[kk * p.n + j]);
        acc += x.big * y.big;
      }
      split[i * p.n + j] = acc;
      tf32[i * p.n + j] = plain;
    }
  auto bytes = [](const std::vector<float>& v) {
    return std::span<const std::byte>(reinterpret_cast<const std::byte*>(v.data()), v.size() * sizeof(float));
  };
  const gemm::GemmCheck with_split = gemm::check_output(p, ref, bytes(split));
  const gemm::GemmCheck with_tf32 = gemm::check_output(p, ref, bytes(tf32));
  EXPECT_TRUE(with_split.pass) << with_split.summary();
  EXPECT_LT(with_split.max_error_ratio, 0.25) << with_split.summary();
  EXPECT_FALSE(with_tf32.pass) << with_tf32.summary();
  EXPECT_GT(with_tf32.mismatches, with_tf32.checked / 2) << with_tf32.summary();
}

}  // namespace
}  // namespace ktune::generated
