// CPU kernels that crash or hang are run only inside a worker process, never here.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "ktune/device/cpu/cpu_backend.h"
#include "ktune/worker/worker_process.h"

namespace ktune {
namespace {
namespace fs = std::filesystem;
using worker::WorkerProcess;

class CpuKernelIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ktune-isolation-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    device::cpu::CpuCompilerOptions options;
    options.cache_directory = dir_ / "cache";
    compiler_ = std::make_unique<device::cpu::CpuCompiler>(options);
  }
  void TearDown() override { fs::remove_all(dir_); }

  device::CompileResult compile(const std::string& entry, const std::string& source) {
    fs::path path = dir_ / (entry + ".cc");
    std::ofstream(path) << source;
    device::CompileRequest r;
    r.entry = entry;
    r.sources = {path};
    r.signature = {{"n", ElementType::I32, false, false}, {"x", ElementType::F32, true, true}};
    auto result = compiler_->compile(r);
    EXPECT_TRUE(result.ok) << result.log;
    return result;
  }

  static nlohmann::json run_request(const device::CompileResult& compiled, const std::string& entry) {
    return {{"op", "cpu_kernel"},
            {"compiled", compiled},
            {"entry", entry},
            {"args",
             {{{"name", "n"}, {"type", "int32"}, {"is_array", false}, {"values", {3}}},
              {{"name", "x"}, {"type", "float32"}, {"is_array", true}, {"values", {1, 2, 3}}}}}};
  }

  fs::path dir_;
  std::unique_ptr<device::cpu::CpuCompiler> compiler_;
};

TEST_F(CpuKernelIsolationTest, SegfaultingKernelCostsOnlyTheWorker) {
  auto good = compile("doubled", "void doubled(int n, float* x) { for (int i = 0; i < n; ++i) x[i] *= 2; }\n");
  auto bad = compile("crashes",
                     "#include <cstdio>\n"
                     "float* volatile nowhere = nullptr;\n"
                     "void crashes(int n, float* x) {\n"
                     "  std::fprintf(stderr, \"kernel writing through null\\n\");\n"
                     "  for (int i = 0; i < n; ++i) nowhere[i] = x[i];\n}\n");
  worker::WorkerCommand command;
  command.executable = KTUNE_WORKER_TEST_CHILD;
  const char* asan = std::getenv("ASAN_OPTIONS");  // under sanitizers: a real SIGSEGV, not a report
  command.env["ASAN_OPTIONS"] = std::string(asan ? asan : "") + ":handle_segv=0";
  WorkerProcess w(command);

  auto first = w.call(run_request(good, "doubled"), 30);
  ASSERT_TRUE(std::holds_alternative<nlohmann::json>(first));
  EXPECT_EQ(std::get<nlohmann::json>(first)["args"][1], (nlohmann::json{2.0, 4.0, 6.0}));

  auto crash = w.call(run_request(bad, "crashes"), 30);
  ASSERT_TRUE(std::holds_alternative<WorkerProcess::Crashed>(crash));
  const auto& crashed = std::get<WorkerProcess::Crashed>(crash);
  EXPECT_EQ(crashed.signal, SIGSEGV) << crashed.description;
  EXPECT_NE(crashed.stderr_tail.find("kernel writing through null"), std::string::npos);

  auto again = w.call(run_request(good, "doubled"), 30);
  ASSERT_TRUE(std::holds_alternative<nlohmann::json>(again));
  EXPECT_EQ(std::get<nlohmann::json>(again)["args"][1], (nlohmann::json{2.0, 4.0, 6.0}));
  EXPECT_EQ(w.restarts(), 1);
}

TEST_F(CpuKernelIsolationTest, EndlessKernelTimesOut) {
  auto endless = compile("endless", "void endless(int n, float* x) { volatile int v = n; for (;;) x[0] = v; }\n");
  worker::WorkerCommand command;
  command.executable = KTUNE_WORKER_TEST_CHILD;
  WorkerProcess w(command);
  auto outcome = w.call(run_request(endless, "endless"), 0.5);
  EXPECT_TRUE(std::holds_alternative<WorkerProcess::TimedOut>(outcome));
}

TEST_F(CpuKernelIsolationTest, LoadErrorsAreErrorRepliesNotCrashes) {
  auto good = compile("doubled", "void doubled(int n, float* x) { for (int i = 0; i < n; ++i) x[i] *= 2; }\n");
  worker::WorkerCommand command;
  command.executable = KTUNE_WORKER_TEST_CHILD;
  WorkerProcess w(command);
  auto outcome = w.call(run_request(good, "not_the_entry"), 30);
  ASSERT_TRUE(std::holds_alternative<nlohmann::json>(outcome));
  EXPECT_NE(std::get<nlohmann::json>(outcome)["error"].get<std::string>().find("not 'not_the_entry'"),
            std::string::npos);
}

}  // namespace
}  // namespace ktune
