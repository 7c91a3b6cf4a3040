// `ktune inspect` on cubins with cuobjdump: SASS checks (128-bit global loads, local-memory
// traffic from spills, HMMA/HGMMA in a matrix kernel) with line numbers, and cuobjdump's resource
// figures. Needs cuobjdump (a CUDA toolkit on GPU machines, or pip's nvidia-cuda-cuobjdump +
// nvidia-cuda-nvdisasm on PATH) and NVRTC; no GPU is needed to compile or disassemble, so on a
// machine without one it runs where those tools exist and skips, saying why, where they do not.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/cli/cubin_info.h"
#include "ktune/device/cuda/nvrtc.h"
#include "support/cli_run.h"

namespace {
namespace fs = std::filesystem;
using ktune::testing::CommandResult;
using ktune::testing::shell_quote;

constexpr const char* kKernels = R"(
#include <mma.h>
extern "C" __global__ void wide_loads(const float4* __restrict__ x, float4* __restrict__ y, int n) {
  float4 acc = make_float4(0, 0, 0, 0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float4 v = x[i];
    acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
  }
  y[threadIdx.x] = acc;
}
extern "C" __global__ void __launch_bounds__(256) spills(float* out, int n) {
  float v[64];
  for (int i = 0; i < 64; ++i) v[i] = out[i * n];
  float s = 0;
  for (int i = 0; i < n; ++i) s += v[(i * 7) % 64];
  out[0] = s;
}
extern "C" __global__ void tensor_core(const half* a, const half* b, float* c) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
)";

const nlohmann::json* kernel_named(const nlohmann::json& report, const std::string& name) {
  for (const auto& k : report["kernels"])
    if (k["name"] == name) return &k;
  return nullptr;
}

bool has_finding(const nlohmann::json& kernel, const std::string& check, const std::string& text) {
  for (const auto& f : kernel["findings"]) {
    if (f["check"] != check) continue;
    for (const auto& l : f["lines"])
      if (l["text"].get<std::string>().find(text) != std::string::npos && l["line"].get<int>() > 0) return true;
  }
  return false;
}

TEST(InspectSass, CuobjdumpFindingsWithLineNumbers) {
  if (ktune::cli::find_cuobjdump().empty())
    GTEST_SKIP() << "cuobjdump not found on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin: SASS checks not tested";
  const auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) GTEST_SKIP() << "NVRTC not available: " << nvrtc.error;
  const auto compiled = nvrtc->compile(kKernels, "k.cu", {}, {}, "sm_90");
  ASSERT_TRUE(compiled.ok) << compiled.error << compiled.log;
  const fs::path dir = fs::temp_directory_path() / ("ktune-sass-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / "k.cubin";
  std::ofstream(path, std::ios::binary) << compiled.cubin;

  const CommandResult r = ktune::testing::run_command(
      shell_quote(ktune::testing::ktune_binary().string()) + " inspect " + shell_quote(path.string()) + " --json", dir);
  fs::remove_all(dir);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_TRUE(j["isa"].is_object()) << j["notes"];
  EXPECT_EQ(j["isa"]["dialect"], "sass");
  EXPECT_EQ(j["isa"]["source"], "cuobjdump -sass");
  EXPECT_EQ(j["facts"]["resource_source"], "cuobjdump --dump-resource-usage");

  const nlohmann::json* wide = kernel_named(j, "wide_loads");
  const nlohmann::json* spills = kernel_named(j, "spills");
  const nlohmann::json* mma = kernel_named(j, "tensor_core");
  ASSERT_TRUE(wide && spills && mma) << r.out;
  EXPECT_GT((*wide)["isa"]["counts"].value("global_load_128", 0), 0) << (*wide)["isa"];
  EXPECT_TRUE(has_finding(*spills, "scratch", "STL") || has_finding(*spills, "scratch", "LDL")) << (*spills)["findings"];
  EXPECT_GT((*spills)["resources"]["stack_frame_bytes"].get<int>(), 0);
  EXPECT_TRUE(has_finding(*mma, "matrix-instructions", "HMMA")) << (*mma)["findings"];
}

}  // namespace
