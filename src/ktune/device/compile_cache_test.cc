#include "ktune/device/compile_cache.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "ktune/device/device.h"

namespace ktune::device {
namespace {
namespace fs = std::filesystem;

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ktune-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    if (value) setenv(name, value, 1); else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1); else unsetenv(name_);
  }
 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST_F(CompileCacheTest, DefaultRootFollowsEnvironment) {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv a("KTUNE_CACHE_DIR", "/x/ktune");
    ScopedEnv b("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(default_cache_root(), fs::path("/x/ktune"));
  }
  {
    ScopedEnv a("KTUNE_CACHE_DIR", nullptr);
    ScopedEnv b("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(default_cache_root(), fs::path("/xdg/ktune"));
  }
  {
    ScopedEnv a("KTUNE_CACHE_DIR", "");
    ScopedEnv b("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(default_cache_root(), fs::path("/home/someone/.cache/ktune"));
  }
}

TEST_F(CompileCacheTest, WritesAndReadsEntries) {
  CompileCache cache(root_ / "cpu");
  EXPECT_FALSE(cache.contains("abc", ".so"));
  EXPECT_FALSE(cache.read("abc", ".so").has_value());
  auto path = cache.write("abc", ".so", "contents");
  EXPECT_EQ(path, root_ / "cpu" / "abc.so");
  EXPECT_TRUE(cache.contains("abc", ".so"));
  EXPECT_EQ(cache.read("abc", ".so").value(), "contents");
  cache.write("abc", ".so", "replaced");  // same key republished atomically
  EXPECT_EQ(cache.read("abc", ".so").value(), "replaced");
  // Nothing left behind in tmp/.
  EXPECT_TRUE(fs::is_empty(root_ / "cpu" / "tmp"));
}

TEST_F(CompileCacheTest, TemporaryPathsAreUniqueAcrossThreads) {
  CompileCache cache(root_);
  std::set<fs::path> paths;
  std::mutex m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) {
        auto p = cache.temporary_path(".so");
        std::lock_guard lock(m);
        paths.insert(p);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(paths.size(), 400u);
  for (const auto& p : paths) EXPECT_EQ(p.parent_path(), root_ / "tmp");
}

TEST_F(CompileCacheTest, PrunesOnlyOldTemporaries) {
  CompileCache cache(root_);
  auto old_tmp = cache.temporary_path(".so");
  auto new_tmp = cache.temporary_path(".so");
  std::ofstream(old_tmp) << "x";
  std::ofstream(new_tmp) << "y";
  fs::last_write_time(old_tmp, fs::file_time_type::clock::now() - std::chrono::hours(2));
  EXPECT_EQ(cache.prune_temporaries(std::chrono::hours(1)), 1u);
  EXPECT_FALSE(fs::exists(old_tmp));
  EXPECT_TRUE(fs::exists(new_tmp));
}

TEST_F(CompileCacheTest, UnwritableDirectoryIsADeviceError) {
  std::ofstream(root_ / "file") << "not a directory";
  CompileCache cache(root_ / "file" / "cpu");
  EXPECT_THROW(cache.write("k", ".so", "x"), DeviceError);
}

}  // namespace
}  // namespace ktune::device
