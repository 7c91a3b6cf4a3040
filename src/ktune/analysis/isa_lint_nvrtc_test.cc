// The ISA lint on PTX that NVRTC produces here (no GPU needed): the same kernels as the
// committed nvcc output in testdata/isa, compiled live, must give the same findings.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "ktune/analysis/isa_lint.h"
#include "ktune/device/cuda/nvrtc.h"

namespace ktune::analysis {
namespace {

TEST(IsaLintNvrtc, LiveNvrtcPtx) {
  auto compiler = cuda::NvrtcCompiler::load();
  if (!compiler) GTEST_SKIP() << "skipped: NVRTC not available: " << compiler.error;
  if (compiler->cuda_include_dir().empty()) GTEST_SKIP() << "skipped: no CUDA include directory with cuda_fp16.h";
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/analysis/testdata/isa/lint_kernels.cu");
  cuda::NvrtcRequest request;
  request.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  request.program_name = "lint_kernels.cu";
  request.arch = "sm_90a";
  const cuda::NvrtcResult result = compiler->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;

  const IsaLintReport r = lint_isa(result.ptx);
  EXPECT_EQ(r.dialect, IsaDialect::Ptx);
  ASSERT_EQ(r.kernels.size(), 5u);
  ASSERT_EQ(r.find(kCheckGlobalLoadWidth, "vec4_copy").size(), 1u);
  EXPECT_EQ(r.find(kCheckGlobalLoadWidth, "vec4_copy")[0]->severity, IsaSeverity::Info);
  EXPECT_GE(r.kernel("vec4_copy")->count("global_load_128_in_loop"), 1);
  ASSERT_EQ(r.find(kCheckGlobalLoadWidth, "scalar_sum").size(), 1u);
  EXPECT_EQ(r.find(kCheckGlobalLoadWidth, "scalar_sum")[0]->severity, IsaSeverity::Warning);
  ASSERT_EQ(r.find(kCheckScratch, "local_array").size(), 1u);
  EXPECT_NE(r.find(kCheckScratch, "local_array")[0]->lines.at(0).text.find("st.local"), std::string::npos);
  EXPECT_EQ(r.kernel("mma_loop")->matrix_shapes, std::vector<std::string>{"m16n8k16"});
  IsaLintOptions expect_matrix;
  expect_matrix.expect_matrix_instructions = true;
  const IsaLintReport m = lint_isa(result.ptx, IsaDialect::Ptx, expect_matrix);
  EXPECT_EQ(m.find(kCheckMatrix, "scalar_sum").at(0)->severity, IsaSeverity::Warning);
  EXPECT_EQ(m.find(kCheckMatrix, "mma_loop").at(0)->severity, IsaSeverity::Info);
}

}  // namespace
}  // namespace ktune::analysis
