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

}  // namespace
}  // namespace ktune::generated
