// The blocking kernel is hand-written PTX (no NVRTC on a worker's critical path): it must
// assemble for the architectures ktune times on. (That it holds a stream and releases it is
// checked on a GPU by cuda_backend_test's blocking-kernel timing tests.)
#include "ktune/device/cuda/cuda_context.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include <unistd.h>

namespace ktune::device::cuda {
namespace {

std::filesystem::path find_ptxas() {
  std::vector<std::filesystem::path> candidates;
  if (const char* home = std::getenv("CUDA_HOME")) candidates.emplace_back(std::filesystem::path(home) / "bin" / "ptxas");
  candidates.emplace_back("/usr/local/cuda/bin/ptxas");
  for (const auto& c : candidates)
    if (std::filesystem::exists(c)) return c;
  return {};
}

// Assembles `ptx_text` with ptxas for every architecture ktune times on, into dir/<arch>.cubin.
void expect_assembles_everywhere(const std::filesystem::path& ptxas, const std::filesystem::path& dir,
                                 const std::string& ptx_text) {
  std::filesystem::create_directories(dir);
  const auto ptx = dir / "kernel.ptx";
  std::ofstream(ptx) << ptx_text;
  for (const char* arch : {"sm_75", "sm_80", "sm_89", "sm_90", "sm_90a"}) {
    const auto cubin = dir / (std::string(arch) + ".cubin");
    const std::string command = "'" + ptxas.string() + "' -arch=" + arch + " '" + ptx.string() + "' -o '" +
                                cubin.string() + "' 2>'" + (dir / "log").string() + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << arch;
    EXPECT_GT(std::filesystem::file_size(cubin), 0u) << arch;
  }
}

TEST(BlockingKernel, PtxAssemblesForEveryTimedArchitecture) {
  const std::filesystem::path ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (CUDA_HOME or /usr/local/cuda)";
  const auto dir = std::filesystem::temp_directory_path() / ("ktune-spin-" + std::to_string(::getpid()));
  expect_assembles_everywhere(ptxas, dir, blocking_kernel_ptx());
  std::filesystem::remove_all(dir);
}

TEST(L2SweepKernel, PtxAssemblesForEveryTimedArchitectureAndKeepsItsLoads) {
  const std::filesystem::path ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found (CUDA_HOME or /usr/local/cuda)";
  const auto dir = std::filesystem::temp_directory_path() / ("ktune-sweep-" + std::to_string(::getpid()));
  expect_assembles_everywhere(ptxas, dir, l2_sweep_kernel_ptx());
  // The SASS still loads: the folded word guards the only store, so ptxas cannot drop the loads.
  const std::filesystem::path cuobjdump = ptxas.parent_path() / "cuobjdump";
  if (std::filesystem::exists(cuobjdump)) {
    const auto sass = dir / "sass.txt";
    const std::string command = "'" + cuobjdump.string() + "' -sass '" + (dir / "sm_90.cubin").string() + "' >'" +
                                sass.string() + "' 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::ifstream in(sass);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("LDG.E.128"), std::string::npos) << text;
  }
  std::filesystem::remove_all(dir);
}

TEST(L2SweepKernel, PtxNamesTheEntryTheContextLooksUp) {
  const std::string ptx = l2_sweep_kernel_ptx();
  EXPECT_NE(ptx.find(".visible .entry ktune_l2_sweep("), std::string::npos);
  EXPECT_NE(ptx.find("ld.global.v4.u32"), std::string::npos);
  EXPECT_EQ(ptx.find("st.global.u32 [%rd1]"), std::string::npos);  // never writes the buffer it reads
}

TEST(BlockingKernel, PtxNamesTheEntryTheContextLooksUp) {
  const std::string ptx = blocking_kernel_ptx();
  EXPECT_NE(ptx.find(".visible .entry ktune_block_stream("), std::string::npos);
  // The release flag is polled with volatile loads (the host writes it through mapped memory).
  EXPECT_NE(ptx.find("ld.volatile.global.u32"), std::string::npos);
}

}  // namespace
}  // namespace ktune::device::cuda
