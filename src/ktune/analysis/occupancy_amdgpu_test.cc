#include "ktune/analysis/occupancy_amdgpu.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ktune::analysis {
namespace {

// DESIGN.md "Occupancy": VGPRs -> waves per SIMD on gfx90a/gfx942/gfx950.
TEST(AmdgpuOccupancy, VgprTableFromDesignNotes) {
  struct Range {
    int first, last, waves;
  };
  const Range table[] = {{1, 64, 8},     {65, 72, 7},    {73, 80, 6},    {81, 96, 5},
                         {97, 128, 4},   {129, 168, 3},  {169, 256, 2},  {257, 512, 1}};
  for (const char* name : {"gfx90a", "gfx942", "gfx950"}) {
    const AmdgpuArch& arch = amdgpu_arch(name);
    for (const Range& range : table) {
      for (int vgprs = range.first; vgprs <= range.last; ++vgprs) {
        ASSERT_EQ(amdgpu_waves_per_simd_for_vgprs(arch, vgprs), range.waves) << name << " vgprs=" << vgprs;
      }
      // The budget for a wave count is the table's upper end.
      EXPECT_EQ(amdgpu_max_vgprs_for_waves(arch, range.waves), range.last) << name;
    }
  }
}

TEST(AmdgpuOccupancy, UnifiedRegisterFileCountsAlignedArchVgprsPlusAgprs) {
  const AmdgpuArch& gfx942 = amdgpu_arch("gfx942");
  EXPECT_EQ(amdgpu_total_vgprs(gfx942, 8, 128), 136);   // clang: NumVgprs 8, NumAgprs 128, Total 136
  EXPECT_EQ(amdgpu_total_vgprs(gfx942, 9, 128), 140);   // arch VGPRs round to 4 before the AGPRs
  EXPECT_EQ(amdgpu_total_vgprs(gfx942, 42, 0), 42);
  EXPECT_EQ(amdgpu_allocated_vgprs(gfx942, 42), 48);
  const AmdgpuArch& gfx908 = amdgpu_arch("gfx908");
  EXPECT_EQ(amdgpu_total_vgprs(gfx908, 9, 128), 128);   // separate files: the larger counts
  EXPECT_EQ(amdgpu_waves_per_simd_for_vgprs(gfx908, 24), 10);
  EXPECT_EQ(amdgpu_waves_per_simd_for_vgprs(gfx908, 28), 9);
  EXPECT_EQ(amdgpu_waves_per_simd_for_vgprs(gfx908, 256), 1);
}

TEST(AmdgpuOccupancy, SgprTable) {
  const AmdgpuArch& gfx942 = amdgpu_arch("gfx942");
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx942, 0), 8);
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx942, 80), 8);   // table says 10, clamped to the SIMD's 8
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx942, 100), 8);
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx942, 101), 7);
  EXPECT_EQ(amdgpu_max_sgprs_for_waves(gfx942, 8), 100);
  EXPECT_EQ(amdgpu_max_sgprs_for_waves(gfx942, 7), std::nullopt);
  const AmdgpuArch& gfx908 = amdgpu_arch("gfx908");
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx908, 80), 10);
  EXPECT_EQ(amdgpu_waves_per_simd_for_sgprs(gfx908, 88), 9);
  EXPECT_EQ(amdgpu_max_sgprs_for_waves(gfx908, 9), 88);
}

TEST(AmdgpuOccupancy, ArchNamesAcceptTargetIdsAndTriples) {
  EXPECT_EQ(amdgpu_arch("gfx942:sramecc+:xnack-").name, "gfx942");
  EXPECT_EQ(amdgpu_arch("amdgcn-amd-amdhsa--gfx90a").name, "gfx90a");
  EXPECT_EQ(amdgpu_arch("gfx950").lds_per_cu, 160 * 1024);
  EXPECT_EQ(amdgpu_arch("gfx942").lds_per_cu, 64 * 1024);
  EXPECT_EQ(amdgpu_processor_name("gfx9-4-generic:xnack+"), "gfx9-4-generic");
  EXPECT_EQ(find_amdgpu_arch("sm_90"), nullptr);
  try {
    amdgpu_arch("gfx1100");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gfx942"), std::string::npos) << e.what();
  }
}

// The ROCm MI300X guide's example shape: occ = min(floor(occ_vgpr*4/nW), occ_lds) * nW / 4.
TEST(AmdgpuOccupancy, RocmGuideFormula) {
  const AmdgpuArch& arch = amdgpu_arch("gfx942");
  AmdgpuOccupancyInput in;
  in.workgroup_size = 256;  // 4 waves
  in.vgprs = 100;           // 4 waves/SIMD from VGPRs
  in.lds_bytes = 20000;     // 3 workgroups by LDS
  auto r = amdgpu_occupancy(arch, in);
  ASSERT_TRUE(r.launchable);
  EXPECT_EQ(r.waves_per_workgroup, 4);
  EXPECT_EQ(r.waves_per_simd_limit_vgprs, 4);
  EXPECT_EQ(r.workgroups_limit_vgprs, 4);
  EXPECT_EQ(r.workgroups_limit_lds, 3);
  EXPECT_EQ(r.workgroups_per_cu, 3);
  EXPECT_EQ(r.waves_per_cu, 12);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 3.0);
  EXPECT_DOUBLE_EQ(r.occupancy, 3.0 / 8.0);
  EXPECT_EQ(r.limiters, std::vector<AmdgpuLimiter>{AmdgpuLimiter::Lds});
  EXPECT_EQ(r.compiler_occupancy, 3);
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].resource, AmdgpuLimiter::Lds);
  EXPECT_EQ(r.hints[0].needed, 16384);
  EXPECT_EQ(r.hints[0].message,
            "3616 fewer LDS bytes per workgroup (20000 -> 16384) -> 4 waves per SIMD (16 per CU), occupancy 37.5% -> 50%");
}

TEST(AmdgpuOccupancy, WholeWorkgroupsRoundTheRegisterLimitDown) {
  const AmdgpuArch& arch = amdgpu_arch("gfx942");
  AmdgpuOccupancyInput in;
  in.workgroup_size = 512;  // 8 waves
  in.vgprs = 90;            // 5 waves/SIMD = 20 slots per CU -> 2 whole workgroups (16 waves)
  auto r = amdgpu_occupancy(arch, in);
  ASSERT_TRUE(r.launchable);
  EXPECT_EQ(r.workgroups_per_cu, 2);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 4.0);
  EXPECT_EQ(r.limiters, std::vector<AmdgpuLimiter>{AmdgpuLimiter::Vgprs});
  // LLVM's figure does not round to whole workgroups.
  EXPECT_EQ(r.compiler_occupancy, 5);
  ASSERT_EQ(r.hints.size(), 1u);
  // 6 waves/SIMD (80 VGPRs) gives 24 slots = 3 workgroups.
  EXPECT_EQ(r.hints[0].needed, 80);
  EXPECT_DOUBLE_EQ(r.hints[0].resulting_waves_per_simd, 6.0);
  EXPECT_EQ(r.hints[0].message.rfind("10 fewer VGPRs (90 -> 80) -> 6 waves per SIMD (24 per CU)", 0), 0u)
      << r.hints[0].message;
}

TEST(AmdgpuOccupancy, HintSkipsStepsThatDoNotAddAWorkgroup) {
  const AmdgpuArch& arch = amdgpu_arch("gfx90a");
  AmdgpuOccupancyInput in;
  in.workgroup_size = 1024;  // 16 waves: 4 per SIMD needed
  in.vgprs = 120;            // 4 waves/SIMD -> 1 workgroup
  auto r = amdgpu_occupancy(arch, in);
  ASSERT_TRUE(r.launchable);
  EXPECT_EQ(r.workgroups_per_cu, 1);
  ASSERT_EQ(r.hints.size(), 1u);
  // 5, 6, 7 waves/SIMD still hold one workgroup of 16 waves; 8 (64 VGPRs) holds two.
  EXPECT_EQ(r.hints[0].needed, 64);
  EXPECT_DOUBLE_EQ(r.hints[0].resulting_waves_per_simd, 8.0);
}

TEST(AmdgpuOccupancy, SmallHintFromTheBrief) {
  const AmdgpuArch& arch = amdgpu_arch("gfx942");
  AmdgpuOccupancyInput in;
  in.workgroup_size = 64;
  in.vgprs = 171;  // 2 waves/SIMD; 168 gives 3
  auto r = amdgpu_occupancy(arch, in);
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].message.rfind("3 fewer VGPRs (171 -> 168) -> 3 waves per SIMD", 0), 0u) << r.hints[0].message;
  EXPECT_EQ(r.summary(), "2 waves/SIMD (8/CU, 8 workgroups of 1 waves), 25%, limited by VGPRs");
}

TEST(AmdgpuOccupancy, FullOccupancyHasNoHints) {
  AmdgpuOccupancyInput in;
  in.workgroup_size = 256;
  in.vgprs = 42;
  in.sgprs = 16;
  in.lds_bytes = 2048;
  auto r = amdgpu_occupancy(amdgpu_arch("gfx942"), in);
  ASSERT_TRUE(r.launchable);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 8.0);
  EXPECT_EQ(r.workgroups_per_cu, 8);
  EXPECT_EQ(r.limiters, std::vector<AmdgpuLimiter>{AmdgpuLimiter::WaveSlots});
  EXPECT_TRUE(r.hints.empty());
  EXPECT_EQ(r.compiler_occupancy, 8);
}

TEST(AmdgpuOccupancy, Gfx950LdsIsLarger) {
  AmdgpuOccupancyInput in;
  in.workgroup_size = 256;
  in.vgprs = 32;
  in.lds_bytes = 80000;
  EXPECT_FALSE(amdgpu_occupancy(amdgpu_arch("gfx942"), in).launchable);
  auto r = amdgpu_occupancy(amdgpu_arch("gfx950"), in);
  ASSERT_TRUE(r.launchable);
  EXPECT_EQ(r.workgroups_per_cu, 2);  // 163840 / 80000
  EXPECT_EQ(r.compiler_occupancy, 2);
}

TEST(AmdgpuOccupancy, SgprLimit) {
  AmdgpuOccupancyInput in;
  in.workgroup_size = 64;
  in.vgprs = 32;
  in.sgprs = 104;
  auto r = amdgpu_occupancy(amdgpu_arch("gfx942"), in);
  EXPECT_EQ(r.waves_per_simd_limit_sgprs, 7);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 7.0);
  EXPECT_EQ(r.limiters, std::vector<AmdgpuLimiter>{AmdgpuLimiter::Sgprs});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].needed, 100);
}

TEST(AmdgpuOccupancy, BarrierLimitOnGfx908) {
  AmdgpuOccupancyInput in;
  in.workgroup_size = 128;  // 2 waves; 40 slots would hold 20 workgroups, barriers allow 16
  in.vgprs = 20;
  auto r = amdgpu_occupancy(amdgpu_arch("gfx908"), in);
  EXPECT_EQ(r.workgroups_per_cu, 16);
  EXPECT_EQ(r.limiters, std::vector<AmdgpuLimiter>{AmdgpuLimiter::Workgroups});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].resource, AmdgpuLimiter::Workgroups);
}

TEST(AmdgpuOccupancy, NotLaunchable) {
  const AmdgpuArch& arch = amdgpu_arch("gfx942");
  AmdgpuOccupancyInput in;
  in.workgroup_size = 1024;
  in.vgprs = 200;  // 2 waves/SIMD = 8 slots < 16 waves of the workgroup
  auto r = amdgpu_occupancy(arch, in);
  EXPECT_FALSE(r.launchable);
  EXPECT_EQ(r.not_launchable_reason,
            "a workgroup of 16 waves needs 4 waves per SIMD resident at once, but 200 VGPRs allow 2 (at most 128 VGPRs "
            "fit)");
  in.vgprs = 64;
  in.max_flat_workgroup_size = 256;
  r = amdgpu_occupancy(arch, in);
  EXPECT_FALSE(r.launchable);
  EXPECT_NE(r.not_launchable_reason.find("max_flat_workgroup_size 256"), std::string::npos);
  in = {};
  in.workgroup_size = 2048;
  EXPECT_FALSE(amdgpu_occupancy(arch, in).launchable);
  in.workgroup_size = 64;
  in.lds_bytes = 65537;
  EXPECT_FALSE(amdgpu_occupancy(arch, in).launchable);
  in.lds_bytes = 0;
  in.vgprs = 513;
  EXPECT_FALSE(amdgpu_occupancy(arch, in).launchable);
  in.vgprs = 0;
  in.workgroup_size = 0;
  EXPECT_FALSE(amdgpu_occupancy(arch, in).launchable);
  in.workgroup_size = -1;
  EXPECT_THROW(amdgpu_occupancy(arch, in), std::invalid_argument);
  in.workgroup_size = 64;
  in.wavefront_size = 48;
  EXPECT_THROW(amdgpu_occupancy(arch, in), std::invalid_argument);
}

TEST(AmdgpuOccupancy, Json) {
  AmdgpuOccupancyInput in;
  in.workgroup_size = 256;
  in.vgprs = 100;
  auto j = to_json(amdgpu_occupancy(amdgpu_arch("gfx942"), in));
  EXPECT_EQ(j["waves_per_simd"], 4.0);
  EXPECT_EQ(j["limiters"][0], "VGPRs");
  EXPECT_TRUE(j["workgroups_limit"]["lds"].is_null());
  EXPECT_EQ(j["hints"].size(), 1u);
}

}  // namespace
}  // namespace ktune::analysis
