#include "ktune/device/cuda/nvrtc.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "ktune/analysis/occupancy_nvidia.h"

namespace ktune::cuda {
namespace {

// A tiled SGEMM: 32x32 tiles in shared memory (padded against bank conflicts), two barriers
// per tile step.
const char* kSgemm = R"(
template <int TILE>
__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
template __global__ void sgemm<32>(const float*, const float*, float*, int, int, int);
)";

// 96 live values per thread and a dependency chain through all of them: ~128 registers
// unconstrained, so -maxrregcount=32 forces spills.
const char* kRegisterHungry = R"(
extern "C" __global__ void register_hungry(const float* in, float* out) {
  float v[96];
#pragma unroll
  for (int i = 0; i < 96; ++i) v[i] = in[threadIdx.x + i * 1024];
  float acc = 0;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < 96; ++i) { acc = acc * v[(i * 7 + r) % 96] + v[i]; v[i] = acc * 0.5f + v[(i + 1) % 96]; }
#pragma unroll
  for (int i = 0; i < 96; ++i) out[threadIdx.x + i * 1024] = v[i];
}
)";

class NvrtcTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Loaded<NvrtcCompiler> loaded = NvrtcCompiler::load();
    if (loaded) {
      compiler_ = loaded.value;
    } else {
      skip_reason_ = new std::string(loaded.error);
    }
  }
  static void TearDownTestSuite() {
    compiler_.reset();
    delete skip_reason_;
    skip_reason_ = nullptr;
  }
  void SetUp() override {
    if (!compiler_) {
      std::printf("skipping: %s\n", skip_reason_ ? skip_reason_->c_str() : "NVRTC not loaded");
      GTEST_SKIP() << (skip_reason_ ? *skip_reason_ : std::string("NVRTC not loaded"));
    }
  }
  static std::shared_ptr<NvrtcCompiler> compiler_;
  static std::string* skip_reason_;
};
std::shared_ptr<NvrtcCompiler> NvrtcTest::compiler_;
std::string* NvrtcTest::skip_reason_ = nullptr;

TEST_F(NvrtcTest, ReportsVersionAndTargets) {
  EXPECT_GE(compiler_->major_version(), 11);
  EXPECT_FALSE(compiler_->library_path().empty());
  const auto& archs = compiler_->supported_archs();
  ASSERT_FALSE(archs.empty());
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end());
  std::printf("NVRTC %s from %s, include dir '%s'\n", compiler_->version_string().c_str(),
              compiler_->library_path().c_str(), compiler_->cuda_include_dir().c_str());
}

TEST_F(NvrtcTest, SgemmWithSharedMemoryForAmpereAndHopper) {
  for (const char* arch : {"sm_80", "sm_90a"}) {
    SCOPED_TRACE(arch);
    NvrtcRequest request;
    request.source = kSgemm;
    request.program_name = "sgemm.cu";
    request.arch = arch;
    request.name_expressions = {"sgemm<32>"};
    NvrtcResult result = compiler_->compile(request);
    ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;
    ASSERT_GT(result.cubin.size(), 4u);
    EXPECT_EQ(result.cubin.substr(0, 4), std::string("\x7f" "ELF"));
    EXPECT_NE(result.ptx.find(std::string(".target ") + arch), std::string::npos);
    const std::string mangled = result.lowered_name("sgemm<32>");
    EXPECT_EQ(mangled, "_Z5sgemmILi32EEvPKfS1_Pfiii");
    EXPECT_GT(result.seconds, 0.0);
    EXPECT_NE(std::find(result.options.begin(), result.options.end(), std::string("-arch=") + arch),
              result.options.end());

    const analysis::KernelResourceUsage* usage = result.resources.find(mangled);
    ASSERT_NE(usage, nullptr) << result.log;
    EXPECT_EQ(usage->arch, arch);
    EXPECT_EQ(usage->shared_bytes, 2 * 32 * 33 * 4);
    EXPECT_GE(usage->barriers, 1);
    EXPECT_GT(usage->registers, 8);
    EXPECT_FALSE(usage->has_spills());
    EXPECT_TRUE(result.resources.unparsed_lines.empty()) << result.resources.unparsed_lines.front();

    // The compiled kernel feeds the occupancy calculator directly.
    analysis::OccupancyInput in;
    in.threads_per_block = 32 * 32;
    in.registers_per_thread = usage->registers;
    in.static_shared_bytes = usage->shared_bytes;
    in.barriers = usage->barriers;
    analysis::OccupancyResult occupancy = analysis::nvidia_occupancy(analysis::nvidia_arch(arch), in);
    EXPECT_TRUE(occupancy.launchable) << occupancy.not_launchable_reason;
  }
}

TEST_F(NvrtcTest, RegisterCapForcesSpills) {
  for (const char* arch : {"sm_80", "sm_90a"}) {
    SCOPED_TRACE(arch);
    NvrtcResult capped = compiler_->compile(kRegisterHungry, "hungry.cu", {"-maxrregcount=32"}, {}, arch);
    ASSERT_TRUE(capped.ok) << capped.error << "\n" << capped.log;
    const analysis::KernelResourceUsage* usage = capped.resources.find("register_hungry");
    ASSERT_NE(usage, nullptr) << capped.log;
    EXPECT_LE(usage->registers, 32);
    EXPECT_GT(usage->spill_store_bytes, 0) << capped.log;
    EXPECT_GT(usage->spill_load_bytes, 0);
    EXPECT_EQ(usage->max_registers_override, 32);
  }
  NvrtcResult uncapped = compiler_->compile(kRegisterHungry, "hungry.cu", {}, {}, "sm_90a");
  ASSERT_TRUE(uncapped.ok) << uncapped.error;
  const analysis::KernelResourceUsage* usage = uncapped.resources.find("register_hungry");
  ASSERT_NE(usage, nullptr);
  EXPECT_GT(usage->registers, 32);
  EXPECT_FALSE(usage->has_spills());
}

TEST_F(NvrtcTest, CompileErrorHasAClearLog) {
  const char* broken = "extern \"C\" __global__ void broken(float* out) {\n"
                       "  out[threadIdx.x] = 1.0f;\n"
                       "  out[0] = undefined_name;\n"
                       "}\n";
  NvrtcResult result = compiler_->compile(broken, "broken.cu", {}, {}, "sm_80");
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(result.cubin.empty());
  EXPECT_NE(result.error.find("NVRTC_ERROR_COMPILATION"), std::string::npos) << result.error;
  EXPECT_NE(result.error.find("broken.cu"), std::string::npos);
  EXPECT_NE(result.log.find("broken.cu(3): error"), std::string::npos) << result.log;
  EXPECT_NE(result.log.find("undefined_name"), std::string::npos);
}

TEST_F(NvrtcTest, SilentPtxasFailureIsExplained) {
  const char* too_big = "extern \"C\" __global__ void too_big(float* out) {\n"
                        "  __shared__ float big[60000];\n"
                        "  big[threadIdx.x] = 1.0f; __syncthreads();\n"
                        "  out[threadIdx.x] = big[(threadIdx.x + 1) % 60000];\n"
                        "}\n";
  NvrtcResult result = compiler_->compile(too_big, "too_big.cu", {}, {}, "sm_80");
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("48 KiB"), std::string::npos) << result.error << "\n" << result.log;
}

TEST_F(NvrtcTest, ToolkitHeadersAndInMemoryHeaders) {
  if (compiler_->cuda_include_dir().empty()) GTEST_SKIP() << "no CUDA include directory with cuda_fp16.h";
  NvrtcRequest request;
  request.source = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "tile.h"
extern "C" __global__ void scale(const __half* in, __nv_bfloat16* out) {
  int i = blockIdx.x * TILE + threadIdx.x;
  out[i] = __float2bfloat16(__half2float(in[i]) * 2.0f);
}
)";
  request.headers = {{"tile.h", "#pragma once\n#define TILE 128\n"}};
  request.arch = "sm_90a";
  request.name_expressions = {"scale"};
  NvrtcResult result = compiler_->compile(request);
  ASSERT_TRUE(result.ok) << result.error << "\n" << result.log;
  EXPECT_EQ(result.lowered_name("scale"), "scale");
}

TEST_F(NvrtcTest, PtxOnlyTarget) {
  NvrtcResult result = compiler_->compile(kRegisterHungry, "hungry.cu", {}, {}, "compute_90");
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.cubin.empty());
  EXPECT_NE(result.ptx.find(".entry register_hungry"), std::string::npos);
  EXPECT_TRUE(result.resources.kernels.empty());
}

TEST_F(NvrtcTest, BadRequestsSayWhatIsWrong) {
  NvrtcResult old_arch = compiler_->compile(kSgemm, "sgemm.cu", {}, {}, "sm_35");
  EXPECT_FALSE(old_arch.ok);
  EXPECT_NE(old_arch.error.find("cannot target sm_35"), std::string::npos) << old_arch.error;
  EXPECT_NE(old_arch.error.find("sm_90"), std::string::npos);

  NvrtcResult not_arch = compiler_->compile(kSgemm, "sgemm.cu", {}, {}, "hopper");
  EXPECT_FALSE(not_arch.ok);
  EXPECT_NE(not_arch.error.find("not a CUDA target"), std::string::npos);

  NvrtcResult duplicate = compiler_->compile(kSgemm, "sgemm.cu", {"-arch=sm_80"}, {}, "sm_90a");
  EXPECT_FALSE(duplicate.ok);

  NvrtcResult bad_option = compiler_->compile(kSgemm, "sgemm.cu", {"--no-such-option"}, {}, "sm_90a");
  EXPECT_FALSE(bad_option.ok);
  EXPECT_NE(bad_option.error.find("NVRTC_ERROR_INVALID_OPTION"), std::string::npos) << bad_option.error;

  NvrtcRequest missing_name;
  missing_name.source = kSgemm;
  missing_name.arch = "sm_90a";
  missing_name.name_expressions = {"no_such_kernel"};
  NvrtcResult missing = compiler_->compile(missing_name);
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.error.find("no_such_kernel"), std::string::npos) << missing.error;
}

TEST(NvrtcLoad, ExplicitPathThatDoesNotExistIsReported) {
  Loaded<NvrtcCompiler> loaded = NvrtcCompiler::load_from("/nonexistent/libnvrtc.so.99");
  EXPECT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error.find("NVRTC not available"), std::string::npos);
  EXPECT_NE(loaded.error.find("/nonexistent/libnvrtc.so.99"), std::string::npos) << loaded.error;

  // A library that is not NVRTC at all: every missing entry point is named.
  Loaded<NvrtcCompiler> wrong = NvrtcCompiler::load_from("libm.so.6");
  EXPECT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error.find("nvrtcGetErrorString"), std::string::npos) << wrong.error;
}

TEST(NvrtcLoad, EnvironmentOverrideIsStrict) {
  const char* old = std::getenv("KTUNE_NVRTC_PATH");
  std::string saved = old ? old : "";
  setenv("KTUNE_NVRTC_PATH", "/nonexistent/dir/libnvrtc.so", 1);
  Loaded<NvrtcCompiler> loaded = NvrtcCompiler::load();
  if (old) {
    setenv("KTUNE_NVRTC_PATH", saved.c_str(), 1);
  } else {
    unsetenv("KTUNE_NVRTC_PATH");
  }
  EXPECT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error.find("/nonexistent/dir/libnvrtc.so"), std::string::npos) << loaded.error;
}

TEST(NvrtcArch, Numbers) {
  EXPECT_EQ(nvrtc_arch_number("sm_90a"), 90);
  EXPECT_EQ(nvrtc_arch_number("sm_80"), 80);
  EXPECT_EQ(nvrtc_arch_number("compute_100f"), 100);
  EXPECT_EQ(nvrtc_arch_number("sm_"), std::nullopt);
  EXPECT_EQ(nvrtc_arch_number("sm_9x"), std::nullopt);
  EXPECT_EQ(nvrtc_arch_number("90"), std::nullopt);
}

}  // namespace
}  // namespace ktune::cuda
