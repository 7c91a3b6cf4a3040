#include "ktune/analysis/inspect_report.h"

#include <gtest/gtest.h>

namespace ktune::analysis {
namespace {

TEST(InspectReport, NvidiaKernelShowsOccupancyLimiterAndHint) {
  InspectReport report;
  report.subject = "k.cubin";
  report.kind = "cubin";
  report.vendor = "nvidia";
  report.target = "sm_90";
  KernelInspection k;
  k.name = "gemm";
  k.set("registers", 128);
  k.set("registers", 96);  // replaces, keeps one entry
  OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 96;
  k.nvidia_occupancy = nvidia_occupancy(nvidia_arch("sm_90"), in);
  k.occupancy_arch = "sm_90";
  report.kernels.push_back(k);

  ASSERT_EQ(report.kernels[0].resources.size(), 1u);
  EXPECT_EQ(*report.kernels[0].resource("registers"), 96);
  const std::string text = format_inspect_text(report);
  // 96 x 256 = 24576 registers per block: 2 blocks of 64 K; 80 registers give 3.
  EXPECT_NE(text.find("2 blocks/SM"), std::string::npos) << text;
  EXPECT_NE(text.find("limited by registers"), std::string::npos) << text;
  EXPECT_NE(text.find("16 fewer registers"), std::string::npos) << text;
  const nlohmann::json j = to_json(report);
  EXPECT_EQ(j["kernels"][0]["occupancy"]["active_blocks_per_sm"], 2);
  EXPECT_EQ(j["kernels"][0]["resources"]["registers"], 96);
  ASSERT_FALSE(j["kernels"][0]["hints"].empty());
  EXPECT_TRUE(j["isa"].is_null());
}

TEST(InspectReport, AmdgpuHintNamesTheNextWaveStep) {
  KernelInspection k;
  k.name = "k";
  AmdgpuOccupancyInput in;
  in.workgroup_size = 256;
  in.vgprs = 171;
  k.amdgpu_occupancy = amdgpu_occupancy(amdgpu_arch("gfx942"), in);
  InspectReport report;
  report.kernels.push_back(k);
  const std::string text = format_inspect_text(report);
  EXPECT_NE(text.find("3 fewer VGPRs (171 -> 168)"), std::string::npos) << text;
}

TEST(InspectReport, LintFindingsGoToTheirKernelByNameOrDescriptor) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry one(.param .u64 p)
{
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  .local .align 4 .b8 __local_depot0[64];
  ld.param.u64 %rd1, [p];
  st.local.f32 [__local_depot0], %f1;
  ld.local.f32 %f2, [__local_depot0];
  ret;
}
.visible .entry two(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ret;
}
)";
  const IsaLintReport lint = lint_isa(ptx);
  InspectReport report;
  KernelInspection one;
  one.name = "one";
  one.symbol = "one.kd";
  report.kernels.push_back(one);
  attach_isa_lint(report, lint, "PTX");
  ASSERT_TRUE(report.kernels[0].isa.has_value());
  EXPECT_EQ(report.kernels[0].isa->name, "one");
  ASSERT_FALSE(report.kernels[0].findings.empty());
  EXPECT_EQ(report.kernels[0].findings[0].check, kCheckScratch);
  EXPECT_EQ(report.kernels[0].findings[0].lines.at(0).number, 10);
  const std::string text = format_inspect_text(report);
  EXPECT_NE(text.find("line 10: "), std::string::npos) << text;

  // No kernels known beforehand (an object without metadata): the lint's kernels are the list.
  InspectReport bare;
  attach_isa_lint(bare, lint, "PTX");
  ASSERT_EQ(bare.kernels.size(), 2u);
  EXPECT_EQ(bare.kernels[1].name, "two");
  EXPECT_EQ(to_json(bare)["isa"]["dialect"], "ptx");
}

}  // namespace
}  // namespace ktune::analysis
