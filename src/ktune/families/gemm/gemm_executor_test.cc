// GemmExecutor and its C ABI (libktune_gemm, include/ktune/ktune_gemm.h) where they cannot run
// anything: without a CUDA driver both say so, and every C entry point turns a null executor
// into -1 with a message instead of a crash. On a machine with a driver and a GPU the same
// entry points are checked for their errors (unknown family, unknown plan, no such device);
// the GPU work itself is in gemm_executor_gpu_test.cc.

#include "ktune/families/gpu_test_support.h"
#include "ktune/families/gemm/gemm_executor.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "ktune/device/cuda/driver_api.h"
#include "ktune/ktune_gemm.h"

namespace ktune::gemm {
namespace {

// Empty when a driver loads (the driver-missing checks are then skipped), else why not.
const std::string& driver_missing() {
  static const std::string why = [] {
    const Loaded<cuda::CudaDriver> driver = cuda::CudaDriver::load();
    return driver ? std::string() : driver.error;
  }();
  return why;
}

// Whether a driver loads and sees at least one GPU (the checks that need an executor).
bool have_gpu() {
  static const bool yes = [] {
    const Loaded<cuda::CudaDriver> driver = cuda::CudaDriver::load();
    return driver && driver->device_count() > 0;
  }();
  return yes;
}

#define REQUIRE_NO_DRIVER() \
  KTUNE_SKIP_IF(driver_missing().empty() ? std::string("a CUDA driver is present; this checks the driver-missing path") : "")
#define REQUIRE_GPU() KTUNE_SKIP_IF(have_gpu() ? std::string() : "no CUDA driver or GPU (" + driver_missing() + ")")

std::string thrown_by_constructor(int ordinal) {
  try {
    GemmExecutor executor(ordinal);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "<nothing thrown>";
}

// --- without a driver ---------------------------------------------------------------------

TEST(GemmExecutorNoDriver, ConstructorSaysTheDriverIsMissing) {
  REQUIRE_NO_DRIVER();
  const std::string message = thrown_by_constructor(0);
  EXPECT_NE(message.find("CUDA driver not available"), std::string::npos) << message;
}

TEST(GemmCapiNoDriver, AbiVersionMatchesTheHeader) { EXPECT_EQ(ktune_gemm_abi_version(), KTUNE_GEMM_ABI_VERSION); }

TEST(GemmCapiNoDriver, CreateReturnsNullWithTheReason) {
  REQUIRE_NO_DRIVER();
  char error[512];
  std::memset(error, 'x', sizeof error);
  EXPECT_EQ(ktune_gemm_create(0, error, sizeof error), nullptr);
  ASSERT_NE(std::memchr(error, '\0', sizeof error), nullptr) << "not NUL-terminated";
  EXPECT_NE(std::string(error).find("CUDA driver not available"), std::string::npos) << error;
  EXPECT_STREQ(ktune_gemm_last_error(), error);
}

TEST(GemmCapiNoDriver, ASmallErrorBufferGetsATruncatedTerminatedPrefix) {
  REQUIRE_NO_DRIVER();
  char error[16];
  std::memset(error, 'x', sizeof error);
  EXPECT_EQ(ktune_gemm_create(0, error, 8), nullptr);
  EXPECT_STREQ(error, "CUDA dr");  // 7 characters and the NUL
  EXPECT_EQ(error[8], 'x') << "wrote past error_size";
  // The full message is still there for ktune_gemm_last_error().
  EXPECT_GT(std::strlen(ktune_gemm_last_error()), 7u);
  // No buffer at all is allowed.
  EXPECT_EQ(ktune_gemm_create(0, nullptr, 0), nullptr);
  EXPECT_EQ(ktune_gemm_create(0, error, 0), nullptr);
  EXPECT_STREQ(error, "CUDA dr");  // size 0: untouched
}

// --- null executors (any machine) -----------------------------------------------------------

TEST(GemmCapi, NullExecutorIsAnErrorEverywhere) {
  char error[128] = "unchanged";
  EXPECT_EQ(ktune_gemm_add_plan(nullptr, "{}", error, sizeof error), -1);
  EXPECT_NE(std::string(error).find("null executor"), std::string::npos) << error;
  EXPECT_STRNE(ktune_gemm_last_error(), "");

  char a[16];  // any address: nothing may be dereferenced
  EXPECT_EQ(ktune_gemm_run(nullptr, 0, a, a, nullptr, a, nullptr, nullptr), -1);
  EXPECT_NE(std::string(ktune_gemm_last_error()).find("ktune_gemm_run"), std::string::npos) << ktune_gemm_last_error();

  char out[64] = "unchanged";
  EXPECT_EQ(ktune_gemm_describe(nullptr, 0, out, sizeof out), -1);
  EXPECT_STREQ(out, "unchanged");
  EXPECT_NE(std::string(ktune_gemm_last_error()).find("ktune_gemm_describe"), std::string::npos)
      << ktune_gemm_last_error();

  ktune_gemm_destroy(nullptr);  // like free(NULL)
}

// --- with a GPU: errors that need an executor -----------------------------------------------

TEST(GemmExecutorErrors, NoSuchDevice) {
  REQUIRE_GPU();
  const std::string message = thrown_by_constructor(4096);
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST(GemmExecutorErrors, AnUnknownFamilyAndAnUnknownPlan) {
  REQUIRE_GPU();
  GemmExecutor executor(0);
  GemmProblem problem;
  problem.m = problem.n = problem.k = 64;
  const nlohmann::json pick = {
      {"problem_name", "my gemm"}, {"problem", problem.to_json()}, {"config", {{"family", "nonsense"}}}};
  try {
    executor.add_plan(pick);
    ADD_FAILURE() << "an unknown family was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("my gemm: unknown family 'nonsense'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(executor.plan_count(), 0u);
  EXPECT_THROW(executor.run(0, {}, nullptr), std::out_of_range);
  EXPECT_THROW(executor.describe(-1), std::out_of_range);
}

TEST(GemmCapiErrors, PicksThatDoNotParseOrRun) {
  REQUIRE_GPU();
  char error[256];
  ktune_gemm_executor* executor = ktune_gemm_create(0, error, sizeof error);
  ASSERT_NE(executor, nullptr) << error;
  EXPECT_EQ(ktune_gemm_add_plan(executor, "{not json", error, sizeof error), -1);
  EXPECT_NE(std::string(error).find("not valid JSON"), std::string::npos) << error;
  EXPECT_EQ(ktune_gemm_add_plan(executor, R"({"config": {}})", error, sizeof error), -1);  // no problem
  EXPECT_EQ(ktune_gemm_run(executor, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), -1);
  EXPECT_NE(std::string(ktune_gemm_last_error()).find("no GEMM plan 0"), std::string::npos) << ktune_gemm_last_error();
  EXPECT_EQ(ktune_gemm_describe(executor, 3, nullptr, 0), -1);
  ktune_gemm_destroy(executor);
}

}  // namespace
}  // namespace ktune::gemm
