// `ktune calibrate --backend cuda` on a real GPU: copy bandwidth, FFMA peak and a cuBLASLt
// bf16 peak are measured, plausible and stored. Skips, saying why, without a CUDA device.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/device/registry.h"

namespace {

namespace fs = std::filesystem;
// $KTUNE_BINARY overrides the build's binary (a copy carried to a GPU machine).
const fs::path kKtune = std::getenv("KTUNE_BINARY") ? fs::path(std::getenv("KTUNE_BINARY"))
                                                    : fs::path(KTUNE_BINARY_DIR) / "ktune";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CalibrateGpu, MeasuresAndStoresTheDeviceCeilings) {
  const ktune::device::Availability cuda = ktune::device::make_backend("cuda")->availability();
  if (!cuda.available) GTEST_SKIP() << "no CUDA device: " << cuda.reason;
  const fs::path dir = fs::temp_directory_path() / ("ktune_calibrate_gpu_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string command = kKtune.string() + " --db " + (dir / "k.db").string() +
                              " calibrate --backend cuda --json --tensor bf16 --gemm-size 4096 >" +
                              (dir / "out").string() + " 2>" + (dir / "err").string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(dir / "err") << slurp(dir / "out");
  const nlohmann::json j = nlohmann::json::parse(slurp(dir / "out"));
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
