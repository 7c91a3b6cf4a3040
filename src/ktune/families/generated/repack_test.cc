#include "ktune/families/generated/repack.h"

#include <gtest/gtest.h>

#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

GeneratedKnobs wgmma() { return testing_support::wgmma_knobs(128, 128, 64, 2, 2, 4); }

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
  alignas(16) static unsigned char a[16], b[16], scratch[16];
  DeviceOperands operands;
  operands.a = a;
  operands.b = b;
  operands.repack = scratch;
  const std::vector<RepackLaunch> launches = repack_launches(launch.repacks, a, b, scratch, device.sm_count);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].params.src, a);
  EXPECT_EQ(launches[0].params.dst, scratch);
  EXPECT_EQ(launches[1].params.src, b);
  EXPECT_EQ(launches[1].params.dst, scratch + launch.repacks.b_offset());
  EXPECT_EQ(launches[0].grid[0], (1000u + 7) / 8);              // a warp per row of 1000
  EXPECT_LE(launches[1].grid[0], static_cast<unsigned>(device.sm_count * 16));
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
  alignas(16) static unsigned char a[16], b[16], scratch[16];
  DeviceOperands operands;
  operands.a = a;
  operands.b = b;
  operands.repack = scratch;
  const KtuneGemmParams p = make_params(k, traits, problem, operands, launch, DeviceTraits{});
  EXPECT_EQ(p.b, scratch + launch.repacks.b_offset());
  EXPECT_EQ(p.ldb, 2004);
  EXPECT_EQ(p.batch_stride_b, 2004 * 3000);
  const std::vector<RepackLaunch> launches = repack_launches(launch.repacks, a, b, scratch, 132);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[1].params.transpose, 1);
  EXPECT_EQ(launches[0].params.transpose, 0);
  EXPECT_EQ(launches[1].grid[0], 132u * 16);  // 94 x 63 tiles of 32x32, walked by 16 CTAs per SM

  // swap_ab would have to transpose the swapped operands too: refused.
  GeneratedKnobs swapped = testing_support::wgmma_knobs(64, 16, 32, 1, 1, 8);
  swapped.swap_ab = true;
  EXPECT_TRUE(rejects(swapped, problem_traits(make_problem(16, 4096, 4096, gemm::Precision::TF32, "nn")), DeviceTraits{}));
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

}  // namespace
}  // namespace ktune::generated
