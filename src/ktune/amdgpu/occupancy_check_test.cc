// Cross-checks analysis::amdgpu_occupancy against the compiler: kernels with chosen register
// pressure, workgroup size and LDS are compiled for each CDNA target, and the occupancy ktune
// computes from the code object's metadata must equal the `; Occupancy: N` comment LLVM writes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/amdgpu/toolchain.h"
#include "ktune/analysis/occupancy_amdgpu.h"

namespace ktune::amdgpu {
namespace {

// R floats stay live across the loop (each update reads its neighbour), so VGPRs grow with R.
// The flat workgroup size is pinned to WG so LLVM's figure is for exactly that launch size.
constexpr const char* kPressureSource = R"(
template <int R, int WG, int LDS_FLOATS>
__global__ void __attribute__((amdgpu_flat_work_group_size(WG, WG)))
pressure(const float* __restrict__ in, float* __restrict__ out, int n) {
  float r[R];
#pragma unroll
  for (int j = 0; j < R; ++j) r[j] = in[threadIdx.x + j * 1024];
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int j = 0; j < R; ++j) r[j] = r[j] * r[(j + 1) % R] + 1.0f;
  }
  if constexpr (LDS_FLOATS > 0) {
    __shared__ float lds[LDS_FLOATS];
    for (int i = threadIdx.x; i < LDS_FLOATS; i += WG) lds[i] = r[i % R];
    __syncthreads();
    r[0] += lds[(threadIdx.x * 7) % LDS_FLOATS];
  }
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < R; ++j) s += r[j];
  out[threadIdx.x] = s;
}
#define P(R, WG, LDS) template __global__ void pressure<R, WG, LDS>(const float*, float*, int);
#define SWEEP_R(WG, LDS) P(8, WG, LDS) P(40, WG, LDS) P(60, WG, LDS) P(66, WG, LDS) P(76, WG, LDS) \
  P(90, WG, LDS) P(110, WG, LDS) P(150, WG, LDS) P(200, WG, LDS)
SWEEP_R(64, 0)
SWEEP_R(256, 0)
SWEEP_R(512, 0)
P(40, 1024, 0) P(110, 1024, 0)
P(8, 64, 512) P(8, 64, 2048) P(8, 256, 1250) P(8, 256, 2500) P(60, 256, 1250)
P(8, 512, 750) P(76, 512, 1500) P(8, 1024, 1000) P(8, 128, 3000)
P(8, 256, 5000) P(8, 64, 10000) P(110, 256, 4000)
#if defined(__gfx950__)
P(8, 256, 20000) P(8, 64, 30000) P(8, 512, 12000)
#endif
)";

struct Target {
  const char* arch;
  int llvm;
};

class OccupancyMatchesCompiler : public ::testing::TestWithParam<Target> {};

TEST_P(OccupancyMatchesCompiler, ForEveryKernelOfTheSweep) {
  const Target& t = GetParam();
  std::string why;
  auto toolchain = Toolchain::find(t.arch, t.llvm, &why);
  if (!toolchain) GTEST_SKIP() << "skipped: " << why << " (scripts/install-deps.sh installs it)";
  CompileRequest request;
  request.source = kPressureSource;
  request.arch = t.arch;
  request.name = "pressure";
  const auto dir = std::filesystem::temp_directory_path() / ("ktune-amdgpu-occupancy-" + std::string(t.arch));
  std::filesystem::remove_all(dir);
  request.output_dir = dir.string();
  const CompileResult result = toolchain->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;

  const CodeObject co = read_code_object(result.code_object_path);
  std::map<std::string, AsmKernelInfo> comments;
  for (const auto& info : parse_asm_kernel_info(result.asm_text)) comments[info.name] = info;
  const analysis::AmdgpuArch& arch = analysis::amdgpu_arch(t.arch);

  ASSERT_GE(co.metadata.kernels.size(), 40u);
  std::map<int, int> occupancies_seen;
  for (const KernelMetadata& k : co.metadata.kernels) {
    SCOPED_TRACE(k.name);
    const auto it = comments.find(k.name);
    ASSERT_NE(it, comments.end());
    const AsmKernelInfo& info = it->second;
    ASSERT_TRUE(info.occupancy && info.num_vgprs && info.num_agprs && info.total_num_vgprs);
    // The metadata's count is the unified one the occupancy rules take.
    EXPECT_EQ(k.vgpr_count, *info.total_num_vgprs);
    EXPECT_EQ(analysis::amdgpu_total_vgprs(arch, *info.num_vgprs, *info.num_agprs), *info.total_num_vgprs);

    const auto r = kernel_occupancy(k, arch);
    EXPECT_TRUE(r.launchable) << r.not_launchable_reason;
    EXPECT_EQ(r.compiler_occupancy, *info.occupancy)
        << "vgprs " << k.vgpr_count << " sgprs " << k.sgpr_count << " lds " << k.group_segment_fixed_size
        << " workgroup " << k.max_flat_workgroup_size;
    // Whole workgroups never beat the compiler's evenly spread figure.
    EXPECT_LE(r.waves_per_simd, *info.occupancy);
    ++occupancies_seen[*info.occupancy];
  }
  // The sweep must exercise the limits, not only full occupancy.
  EXPECT_GE(occupancies_seen.size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(Targets, OccupancyMatchesCompiler,
                         ::testing::Values(Target{"gfx90a", 19}, Target{"gfx942", 19}, Target{"gfx950", 22},
                                           Target{"gfx908", 19}),
                         [](const auto& param_info) { return std::string(param_info.param.arch); });

// The committed code objects (AGPR kernel included) against their committed assembly.
TEST(OccupancyMatchesCompiler, CommittedTestKernels) {
  for (const char* stem : {"kernels_hip_gfx942", "kernels_hip_gfx90a", "kernels_hip_gfx950", "kernels_cl_gfx942",
                           "kernels_cl_gfx90a"}) {
    SCOPED_TRACE(stem);
    const std::string dir = std::string(KTUNE_SOURCE_DIR) + "/src/ktune/amdgpu/testdata/";
    const CodeObject co = read_code_object(dir + stem + ".hsaco");
    std::ifstream in(dir + stem + ".s");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto comments = parse_asm_kernel_info(text);
    ASSERT_EQ(comments.size(), co.metadata.kernels.size());
    const analysis::AmdgpuArch& arch = analysis::amdgpu_arch(co.elf.processor);
    for (const auto& info : comments) {
      const KernelMetadata* k = co.find_kernel(info.name);
      ASSERT_NE(k, nullptr);
      EXPECT_EQ(kernel_occupancy(*k, arch).compiler_occupancy, info.occupancy) << info.name;
    }
  }
}

}  // namespace
}  // namespace ktune::amdgpu
