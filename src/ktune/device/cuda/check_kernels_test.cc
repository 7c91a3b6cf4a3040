// The device-side check kernels compile for every architecture ktune targets, and name every
// function CheckKernels looks up. (Their results are checked on a GPU by gpu_e2e_test and the
// bench suite: the verification of every CUDA candidate goes through them.)
#include "ktune/device/cuda/check_kernels.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "ktune/device/cuda/nvrtc.h"

namespace ktune::device::cuda {
namespace {

TEST(CheckKernels, CompileForEveryTargetWithEveryFunction) {
  auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) GTEST_SKIP() << "NVRTC not available: " << nvrtc.error;
  for (const char* arch : {"sm_80", "sm_90a"}) {
    ktune::cuda::NvrtcRequest request;
    request.source = check_kernels_source();
    request.arch = arch;
    request.resource_usage = false;
    auto result = nvrtc->compile(request);
    ASSERT_TRUE(result.ok) << arch << ": " << result.error << "\n" << result.log;
    for (int k = 0; k < 12; ++k)
      EXPECT_NE(result.ptx.find(".entry kt_compare_" + std::to_string(k) + "("), std::string::npos) << arch << " " << k;
    EXPECT_NE(result.ptx.find(".entry kt_first_diff("), std::string::npos);
    EXPECT_NE(result.ptx.find(".entry kt_count_ne("), std::string::npos);
  }
}

TEST(CheckKernels, CachedCubinIsCompiledOnceAndReused) {
  auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) GTEST_SKIP() << "NVRTC not available: " << nvrtc.error;
  const auto dir = std::filesystem::temp_directory_path() / ("ktune-check-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string first = cached_cubin(*nvrtc, dir, check_kernels_source(), "k.cu", "sm_90a", ".check.cubin");
  ASSERT_GT(first.size(), 4u);
  EXPECT_EQ(first.compare(0, 4, "\x7f" "ELF"), 0);
  std::size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += e.is_regular_file();
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(cached_cubin(*nvrtc, dir, check_kernels_source(), "k.cu", "sm_90a", ".check.cubin"), first);
  EXPECT_THROW(cached_cubin(*nvrtc, dir, "this is not CUDA", "bad.cu", "sm_90a", ".bad.cubin"), DeviceError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ktune::device::cuda
