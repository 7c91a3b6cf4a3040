// `ktune calibrate --backend cuda` on a real GPU: copy bandwidth, FFMA peak and a cuBLASLt
// bf16 peak are measured, plausible and stored. Skips, saying why, without a CUDA device.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/device/registry.h"
#include "support/cli_run.h"

namespace {

namespace fs = std::filesystem;
using ktune::testing::CommandResult;
using ktune::testing::run_command;
using ktune::testing::shell_quote;
// $KTUNE_BINARY, which this test took before the shared $KTUNE_TEST_KTUNE, still overrides.
const fs::path kKtune = std::getenv("KTUNE_BINARY") ? fs::path(std::getenv("KTUNE_BINARY"))
                                                    : ktune::testing::ktune_binary();

TEST(CalibrateGpu, MeasuresAndStoresTheDeviceCeilings) {
  const ktune::device::Availability cuda = ktune::device::make_backend("cuda")->availability();
  if (!cuda.available) GTEST_SKIP() << "no CUDA device: " << cuda.reason;
  const fs::path dir = fs::temp_directory_path() / ("ktune_calibrate_gpu_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const CommandResult r = run_command(shell_quote(kKtune.string()) + " --db " + shell_quote((dir / "k.db").string()) +
                                          " calibrate --backend cuda --json --tensor bf16 --gemm-size 4096",
                                      dir);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::cout << j.dump(2) << "\n";
  const nlohmann::json& c = j.at("calibration");
  EXPECT_EQ(j.at("device").at("backend"), "cuda");
  // Lower bounds any CUDA GPU of the last decade passes; upper bounds no GPU reaches yet.
  EXPECT_GT(c.at("copy_gbps").get<double>(), 100.0);
  EXPECT_LT(c.at("copy_gbps").get<double>(), 20000.0);
  EXPECT_GT(c.at("fp32_gflops").get<double>(), 1000.0);
  EXPECT_LT(c.at("fp32_gflops").get<double>(), 300000.0);
  ASSERT_TRUE(c.at("tensor_tflops").contains("bf16")) << c.at("method").dump(2);
  EXPECT_GT(c.at("tensor_tflops").at("bf16").get<double>(), 10.0);
  EXPECT_LT(c.at("tensor_tflops").at("bf16").get<double>(), 5000.0);
  fs::remove_all(dir);
}

}  // namespace
