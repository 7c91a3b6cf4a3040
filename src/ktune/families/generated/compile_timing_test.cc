// NVRTC times for the kernels tune gemm lists: one entry per listed kernel, in the model's order,
// each compiled (no cache hit), and the split kernels with the largest tiles among them.

#include "ktune/families/generated/compile_timing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "ktune/families/generated/model_replay.h"
#include "ktune/families/generated/test_problems.h"

namespace ktune::generated {
namespace {

using testing_support::make_problem;

class CompileTiming : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto loaded = cuda::NvrtcCompiler::load();
    if (loaded) nvrtc_ = loaded.value;
  }
  static void TearDownTestSuite() { nvrtc_.reset(); }
  void SetUp() override {
    if (!nvrtc_) GTEST_SKIP() << "NVRTC not found";
    const auto& archs = nvrtc_->supported_archs();
    if (!archs.empty() && std::find(archs.begin(), archs.end(), 90) == archs.end())
      GTEST_SKIP() << "this NVRTC cannot target sm_90";
  }
  static std::shared_ptr<cuda::NvrtcCompiler> nvrtc_;
};
std::shared_ptr<cuda::NvrtcCompiler> CompileTiming::nvrtc_;

TEST_F(CompileTiming, TimesEveryListedKernelInTheModelsOrder) {
  const gemm::GemmProblem problem = make_problem(256, 128, 16384);
  const DeviceTraits device = hopper_traits("NVIDIA H200");
  const std::vector<CompileTime> times = time_listed_compiles(*nvrtc_, problem, device, 3);
  SpaceOptions options;
  options.max_candidates = 3;
  const auto listed = select_candidates(problem_traits(problem), device, options);
  ASSERT_EQ(times.size(), listed.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i].rank, i);
    EXPECT_TRUE(times[i].ok) << times[i].config_key << ": " << times[i].error;
    EXPECT_GT(times[i].seconds, 0.0) << "a cache hit would read 0: every kernel must compile";
    EXPECT_GT(times[i].cubin_bytes, 1000u);
    EXPECT_EQ(times[i].config_key, config_key(to_config(listed[i].knobs, problem_traits(problem))));
    EXPECT_EQ(times[i].to_json().at("ok"), true);
  }
}

TEST_F(CompileTiming, WritesEachSourceAndCubinItTimedWhenGivenADirectory) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "compile_timing_cubins";
  fs::remove_all(dir);
  const std::vector<CompileTime> times =
      time_listed_compiles(*nvrtc_, make_problem(128, 256, 512), hopper_traits("NVIDIA H200"), 2, dir / "nested");
  ASSERT_EQ(times.size(), 2u);
  for (const CompileTime& t : times) {
    ASSERT_TRUE(t.ok) << t.error;
    std::ifstream in(dir / "nested" / ("rank" + std::to_string(t.rank) + ".cubin"), std::ios::binary);
    ASSERT_TRUE(in) << "rank " << t.rank << " was not written";
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.size(), t.cubin_bytes);
    EXPECT_EQ(bytes.substr(0, 4), std::string("\x7f" "ELF", 4)) << "a cubin is an ELF image";
    std::ifstream cu(dir / "nested" / ("rank" + std::to_string(t.rank) + ".cu"));
    const std::string source((std::istreambuf_iterator<char>(cu)), std::istreambuf_iterator<char>());
    EXPECT_NE(source.find("#define KT_TILE_M"), std::string::npos) << "rank " << t.rank << "'s source was not written";
  }
  fs::remove_all(dir);
}

// alpha = 1 with nothing else in the epilogue compiles one copy of the tile's epilogue
// (KT_PLAIN_EPILOGUE), not also the alpha, C/bias and guarded-edge ones: the same kernel for
// alpha 0.5 carries them all (2944 SASS instructions against 1288 for this one with NVRTC 13.0).
TEST_F(CompileTiming, AlphaOneCompilesOneEpilogue) {
  gemm::GemmProblem plain = make_problem(2048, 2048, 96, gemm::Precision::F16, "nn");
  gemm::GemmProblem scaled = plain;
  scaled.alpha = 0.5;
  const DeviceTraits device = hopper_traits("NVIDIA H200");
  const std::vector<CompileTime> one = time_listed_compiles(*nvrtc_, plain, device, 1);
  const std::vector<CompileTime> any = time_listed_compiles(*nvrtc_, scaled, device, 1);
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(any.size(), 1u);
  ASSERT_TRUE(one[0].ok && any[0].ok) << one[0].error << any[0].error;
  EXPECT_EQ(one[0].config_key, any[0].config_key) << "alpha does not change the selection";
  EXPECT_LT(one[0].cubin_bytes * 10, any[0].cubin_bytes * 8)
      << one[0].cubin_bytes << " bytes for alpha 1 against " << any[0].cubin_bytes << " for alpha 0.5";
}

TEST_F(CompileTiming, RefusesAProblemTheFamilyCannotExpress) {
  gemm::GemmProblem problem = make_problem(64, 64, 64);
  problem.precision = gemm::Precision::F32;
  problem.out = gemm::Storage::F16;  // f32 in, f16 out: no kernel of the family
  EXPECT_THROW(time_listed_compiles(*nvrtc_, problem, hopper_traits("NVIDIA H200"), 2), std::invalid_argument);
}

}  // namespace
}  // namespace ktune::generated
