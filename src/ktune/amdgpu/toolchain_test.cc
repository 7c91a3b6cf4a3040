#include "ktune/amdgpu/toolchain.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/analysis/isa_lint.h"
#include "ktune/analysis/occupancy_amdgpu.h"

namespace ktune::amdgpu {
namespace {

std::string testdata(const std::string& name) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/amdgpu/testdata/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ktune-amdgpu-test-" + name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

// The toolchain for `arch` from LLVM `major`, or a skip with the reason.
#define REQUIRE_TOOLCHAIN(var, arch, major)                                                   \
  std::string var##_why;                                                                    \
  auto var = Toolchain::find(arch, major, &var##_why);                                      \
  if (!var) GTEST_SKIP() << "skipped: " << var##_why << " (scripts/install-deps.sh installs it)"

struct Case {
  const char* arch;
  int llvm;
  SourceLanguage language;
  const char* source;
  std::vector<const char*> kernels;
};

class CompileKernels : public ::testing::TestWithParam<Case> {};

// Compiles the test kernels, reads the code object, and checks that the note and the assembly's
// metadata agree and that the facts match what the kernels were written to do.
TEST_P(CompileKernels, CodeObjectAndAssemblyAgree) {
  const Case& c = GetParam();
  REQUIRE_TOOLCHAIN(toolchain, c.arch, c.llvm);
  CompileRequest request;
  request.source = testdata(c.source);
  request.language = c.language;
  request.arch = c.arch;
  request.output_dir = scratch_dir(std::string(c.arch) + "-" + to_string(c.language));
  const CompileResult result = toolchain->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;
  EXPECT_EQ(result.commands.size(), 3u);
  EXPECT_TRUE(std::filesystem::exists(result.code_object_path));

  const CodeObject co = read_code_object(result.code_object_path);
  EXPECT_EQ(co.elf.machine, 224);
  EXPECT_EQ(co.elf.os_abi_name, "AMDGPU_HSA");
  EXPECT_EQ(co.elf.processor, analysis::amdgpu_processor_name(c.arch));
  EXPECT_EQ(co.elf.code_object_version, toolchain->major_version() >= 22 ? 6 : 5);
  EXPECT_TRUE(co.warnings.empty()) << co.warnings.front();
  const CodeObjectMetadata from_asm = parse_asm_metadata(result.asm_text);
  EXPECT_EQ(compare_metadata(from_asm, co.metadata, "assembly", "note"), std::vector<std::string>{});
  ASSERT_EQ(co.metadata.kernels.size(), c.kernels.size());
  for (const char* name : c.kernels) {
    const KernelMetadata* k = co.find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->wavefront_size, 64);
    EXPECT_GT(k->vgpr_count, 0);
    EXPECT_GT(k->sgpr_count, 0);
  }
  if (const KernelMetadata* mm = co.find_kernel(c.language == SourceLanguage::Hip ? "matmul_tiled" : "mm_cl")) {
    EXPECT_EQ(mm->group_segment_fixed_size, 2048);
    EXPECT_EQ(mm->max_flat_workgroup_size, 256);
    EXPECT_EQ(mm->private_segment_fixed_size, 0);
  }
  if (const KernelMetadata* spill = co.find_kernel("spill_kernel")) {
    EXPECT_GT(spill->vgpr_spill_count, 0);
    EXPECT_GT(spill->private_segment_fixed_size, 0);
  }
  if (const KernelMetadata* mfma = co.find_kernel("mfma32_agpr")) {
    EXPECT_GE(mfma->vgpr_count, 128);  // 8 accumulators of 16 floats
  }

  std::string error;
  const auto disassembly = toolchain->disassemble(result.code_object_path, c.arch, &error);
  ASSERT_TRUE(disassembly) << error;
  for (const char* name : c.kernels) EXPECT_NE(disassembly->find(std::string("<") + name + ">:"), std::string::npos);
  if (c.language == SourceLanguage::Hip) {
    EXPECT_NE(disassembly->find("v_mfma_f32_16x16x16"), std::string::npos);
    EXPECT_NE(result.asm_text.find("v_mfma_f32_32x32x8"), std::string::npos);
  }

  // The ISA lint reads both forms of the fresh output and finds the same things.
  const analysis::IsaLintReport from_asm_lint = analysis::lint_isa(result.asm_text);
  const analysis::IsaLintReport from_disassembly = analysis::lint_isa(*disassembly);
  // Functions are linted too (LLVM 22 adds a callable copy of each OpenCL kernel).
  for (const char* name : c.kernels) ASSERT_NE(from_asm_lint.kernel(name), nullptr) << name;
  ASSERT_EQ(from_disassembly.kernels.size(), from_asm_lint.kernels.size());
  for (const auto& k : from_asm_lint.kernels) {
    const analysis::IsaKernelSummary* d = from_disassembly.kernel(k.name);
    ASSERT_NE(d, nullptr) << k.name;
    EXPECT_EQ(d->loops, k.loops) << k.name;
    EXPECT_EQ(d->count("scratch"), k.count("scratch")) << k.name;
    EXPECT_EQ(d->matrix_shapes, k.matrix_shapes) << k.name;
  }
  if (c.language == SourceLanguage::Hip) {
    EXPECT_EQ(from_asm_lint.kernel("mfma16")->matrix_shapes, std::vector<std::string>{"16x16x16"});
    EXPECT_EQ(from_asm_lint.kernel("mfma32_agpr")->matrix_shapes, std::vector<std::string>{"32x32x8"});
    EXPECT_EQ(from_asm_lint.find(analysis::kCheckScratch, "spill_kernel").size(), 1u);
    EXPECT_EQ(from_asm_lint.find(analysis::kCheckScratch, "matmul_tiled").size(), 0u);
    EXPECT_EQ(from_asm_lint.kernel("scalar_sum")->count("global_load_narrow_in_loop"), 1);
  } else {
    // float4 loads in the grid-stride loop are 128-bit.
    EXPECT_GE(from_asm_lint.kernel("vec_copy4")->count("global_load_128_in_loop"), 1);
  }
}

const std::vector<const char*> kHipKernels = {"matmul_tiled", "mfma16", "mfma32_agpr", "spill_kernel", "scalar_sum"};
const std::vector<const char*> kClKernels = {"mm_cl", "vec_copy4"};

INSTANTIATE_TEST_SUITE_P(
    Targets, CompileKernels,
    ::testing::Values(Case{"gfx942", 19, SourceLanguage::Hip, "kernels.hip", kHipKernels},
                      Case{"gfx90a", 19, SourceLanguage::Hip, "kernels.hip", kHipKernels},
                      Case{"gfx950", 22, SourceLanguage::Hip, "kernels.hip", kHipKernels},
                      Case{"gfx942:sramecc+:xnack-", 19, SourceLanguage::OpenCl, "kernels.cl", kClKernels},
                      Case{"gfx90a", 19, SourceLanguage::OpenCl, "kernels.cl", kClKernels},
                      Case{"gfx950", 22, SourceLanguage::OpenCl, "kernels.cl", kClKernels}),
    [](const auto& param_info) {
      std::string name = std::string(param_info.param.arch).substr(0, 6) + "_" + to_string(param_info.param.language);
      return name;
    });

TEST(Toolchain, DefinesReachTheSource) {
  REQUIRE_TOOLCHAIN(toolchain, "gfx942", std::nullopt);
  CompileRequest request;
  request.source = "__global__ void k(float* p) { __shared__ float s[LDS_FLOATS]; s[threadIdx.x] = p[0]; "
                   "__syncthreads(); p[threadIdx.x] = s[(threadIdx.x + 1) % LDS_FLOATS]; }\n";
  request.defines = {{"LDS_FLOATS", "1000"}};
  request.output_dir = scratch_dir("defines");
  const CompileResult result = toolchain->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;
  const CodeObject co = read_code_object(result.code_object_path);
  ASSERT_EQ(co.metadata.kernels.size(), 1u);
  EXPECT_EQ(co.metadata.kernels[0].group_segment_fixed_size, 4000);
  EXPECT_NE(result.commands[0].find("-DLDS_FLOATS=1000"), std::string::npos);
}

TEST(Toolchain, CompileErrorsNameTheStepAndTheFirstError) {
  REQUIRE_TOOLCHAIN(toolchain, "gfx942", std::nullopt);
  CompileRequest request;
  request.source = "__global__ void k(float* p) { p[0] = undefined_name; }\n";
  request.output_dir = scratch_dir("error");
  const CompileResult result = toolchain->compile(request);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.error.rfind("compile step exited with code 1: ", 0), 0u) << result.error;
  EXPECT_NE(result.error.find("use of undeclared identifier 'undefined_name'"), std::string::npos) << result.error;

  // A call to a function nobody defines compiles, then fails to link (no device libraries).
  request.source = "extern \"C\" __device__ float missing_fn(float);\n"
                   "__global__ void k(float* p) { p[0] = missing_fn(p[1]); }\n";
  const CompileResult link = toolchain->compile(request);
  EXPECT_FALSE(link.ok);
  EXPECT_EQ(link.error.rfind("link step", 0), 0u) << link.error;
  EXPECT_NE(link.error.find("missing_fn"), std::string::npos) << link.error;

  request.arch = "gfx9999";
  EXPECT_NE(toolchain->compile(request).error.find("does not target 'gfx9999'"), std::string::npos);
  request.arch = "gfx942";
  request.name = "../escape";
  EXPECT_FALSE(toolchain->compile(request).ok);
}

TEST(Toolchain, FindExplainsWhatIsMissing) {
  std::string why;
  EXPECT_FALSE(Toolchain::find("gfx942", 5, &why));
  EXPECT_NE(why.find("no clang-5 that targets gfx942 found"), std::string::npos) << why;
  EXPECT_FALSE(Toolchain::find("gfx9999", std::nullopt, &why));
  EXPECT_NE(why.find("apt-get install clang-N lld-N llvm-N"), std::string::npos) << why;
  for (const Toolchain& t : Toolchain::installed()) {
    EXPECT_TRUE(t.supports("gfx90a")) << t.clang();
  }
}

TEST(Toolchain, OpenClPreludeWorkItemFunctions) {
  REQUIRE_TOOLCHAIN(toolchain, "gfx90a", std::nullopt);
  CompileRequest request;
  request.language = SourceLanguage::OpenCl;
  request.arch = "gfx90a";
  request.source = "kernel void k(global int* p) { p[get_global_id(0)] = get_local_size(0) + get_num_groups(1); "
                   "barrier(CLK_LOCAL_MEM_FENCE); }\n";
  request.output_dir = scratch_dir("opencl-prelude");
  const CompileResult result = toolchain->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;
  EXPECT_NE(result.asm_text.find("s_barrier"), std::string::npos);
}

}  // namespace
}  // namespace ktune::amdgpu
