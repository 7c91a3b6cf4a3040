// The background compiler with the real NVRTC (no GPU needed); skipped where NVRTC is missing.

#include "ktune/families/generated/background_compiler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "ktune/device/cuda/nvrtc.h"

namespace ktune::generated {
namespace {

namespace fs = std::filesystem;

fs::path fresh_cache_directory() {
  std::random_device random;
  const fs::path dir = fs::temp_directory_path() / ("ktune-background-compiler-" + std::to_string(random()));
  fs::remove_all(dir);
  return dir;
}

// A distinct kernel per `tag`, so tests never share cache entries.
CompileJob tiny_job(const std::string& tag, const std::string& body = "x[threadIdx.x] += 1.0f;") {
  return {"// " + tag + "\nextern \"C\" __global__ void tiny(float* x) { " + body + " }\n", "sm_80", "tiny"};
}

class BackgroundCompilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = ktune::cuda::NvrtcCompiler::load();
    if (!loaded) GTEST_SKIP() << "NVRTC not available: " << loaded.error;
    nvrtc_ = loaded.value;
    cache_dir_ = fresh_cache_directory();
  }
  void TearDown() override {
    if (!cache_dir_.empty()) fs::remove_all(cache_dir_);
  }
  std::shared_ptr<const ktune::cuda::NvrtcCompiler> nvrtc_;
  fs::path cache_dir_;
};

TEST_F(BackgroundCompilerTest, SubmittedJobsCompileInTheBackgroundOnce) {
  BackgroundCompiler compiler(nvrtc_, device::CompileCache(cache_dir_), 2);
  const CompileJob a = tiny_job("a"), b = tiny_job("b");
  EXPECT_TRUE(compiler.submit(a));
  EXPECT_TRUE(compiler.submit(b));
  EXPECT_FALSE(compiler.submit(a)) << "the same source and target is compiled once";
  EXPECT_EQ(compiler.submitted(), 2u);
  const BackgroundCompiler::Result ra = compiler.get(a);
  const BackgroundCompiler::Result rb = compiler.get(b);
  ASSERT_TRUE(ra.kernel.ok) << ra.kernel.error;
  ASSERT_TRUE(rb.kernel.ok) << rb.kernel.error;
  EXPECT_TRUE(ra.background);
  EXPECT_FALSE(ra.kernel.cubin.empty());
  EXPECT_FALSE(ra.kernel.cached);
  EXPECT_GT(ra.kernel.seconds, 0.0);
  EXPECT_EQ(compiler.unfinished(), 0u);
  // Asking again hands back the same result without compiling.
  const BackgroundCompiler::Result again = compiler.get(a);
  EXPECT_EQ(again.kernel.cubin, ra.kernel.cubin);
}

TEST_F(BackgroundCompilerTest, ReadyWithinWaitsAtMostItsDeadline) {
  BackgroundCompiler compiler(nvrtc_, device::CompileCache(cache_dir_), 1);
  const CompileJob a = tiny_job("ready a"), b = tiny_job("ready b");
  EXPECT_FALSE(compiler.ready_within(a, 0.0)) << "never submitted";
  ASSERT_TRUE(compiler.submit(a));
  ASSERT_TRUE(compiler.submit(b));
  // One thread: b waits behind a, so right after submitting neither can be done.
  EXPECT_FALSE(compiler.ready_within(b, 0.0));
  EXPECT_TRUE(compiler.ready_within(a, 120.0));
  EXPECT_TRUE(compiler.ready_within(b, 120.0));
  EXPECT_TRUE(compiler.get(b).kernel.ok);
}

TEST_F(BackgroundCompilerTest, AJobNeverSubmittedCompilesOnTheCallingThread) {
  BackgroundCompiler compiler(nvrtc_, device::CompileCache(cache_dir_), 1);
  const BackgroundCompiler::Result r = compiler.get(tiny_job("direct"));
  ASSERT_TRUE(r.kernel.ok) << r.kernel.error;
  EXPECT_FALSE(r.background);
  EXPECT_EQ(r.waited_seconds, 0.0);
  EXPECT_EQ(compiler.submitted(), 0u);
}

TEST_F(BackgroundCompilerTest, CompileErrorsAreResultsAndTheCacheServesTheNextCompiler) {
  const CompileJob broken = tiny_job("broken", "x[threadIdx.x] = undeclared_name;");
  const CompileJob good = tiny_job("good");
  {
    BackgroundCompiler compiler(nvrtc_, device::CompileCache(cache_dir_), 2);
    compiler.submit(broken);
    compiler.submit(good);
    const BackgroundCompiler::Result r = compiler.get(broken);
    EXPECT_FALSE(r.kernel.ok);
    EXPECT_NE(r.kernel.error.find("undeclared_name"), std::string::npos) << r.kernel.error;
    ASSERT_TRUE(compiler.get(good).kernel.ok);
  }
  BackgroundCompiler next(nvrtc_, device::CompileCache(cache_dir_), 1);
  next.submit(good);
  const BackgroundCompiler::Result cached = next.get(good);
  ASSERT_TRUE(cached.kernel.ok);
  EXPECT_TRUE(cached.kernel.cached);
  EXPECT_FALSE(next.get(broken).kernel.ok) << "failed compiles are not cached as successes";
}

TEST_F(BackgroundCompilerTest, DestroyingWithQueuedJobsDropsThem) {
  {
    BackgroundCompiler compiler(nvrtc_, device::CompileCache(cache_dir_), 1);
    for (int i = 0; i < 40; ++i) compiler.submit(tiny_job("queued " + std::to_string(i)));
  }
  // The running compile finishes (its cubin lands in the cache); the queued ones never start.
  std::size_t cubins = 0;
  if (fs::exists(cache_dir_))
    for (const auto& entry : fs::recursive_directory_iterator(cache_dir_))
      if (entry.path().extension() == ".cubin") ++cubins;
  EXPECT_LT(cubins, 40u);
}

}  // namespace
}  // namespace ktune::generated
