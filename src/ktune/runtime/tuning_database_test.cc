#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <ktune/ktune.h>

#include "ktune/db/database.h"

namespace {

namespace fs = std::filesystem;

class RuntimeApi : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() / ("ktune_runtime_" + std::to_string(::getpid()) + ".db");
    fs::remove(path_);
    ktune::db::Database db(path_);
    auto dev = db.upsert_device({0, "fp-gpu", "cuda", "NVIDIA H200", {}});
    auto other_dev = db.upsert_device({0, "fp-cpu", "cpu", "AMD EPYC", {}});
    auto kernel = db.upsert_kernel({0, "h1", "gemm", "cuda", "gemm.cu"});
    auto small = db.upsert_problem({0, "p1", "gemm", {{"M", 128}, {"N", 128}}, {}});
    auto large = db.upsert_problem({0, "p2", "gemm", {{"M", 4096}, {"N", 4096}}, {}});
    auto add = [&](std::int64_t device, std::int64_t problem, int bm, double median, ktune::db::Status status) {
      ktune::db::ResultRecord r;
      r.device_id = device;
      r.kernel_id = kernel;
      r.problem_id = problem;
      r.config = {{"BM", bm}, {"layout", "row"}};
      r.config_key = "BM=" + std::to_string(bm) + ",layout=row";
      r.status = status;
      r.median_s = median;
      r.samples = 10;
      db.insert_result(r);
    };
    add(dev, small, 32, 2e-6, ktune::db::Status::Ok);
    add(dev, small, 64, 1e-6, ktune::db::Status::WrongResult);  // faster but wrong: never returned
    add(dev, large, 128, 3e-3, ktune::db::Status::Ok);
    add(dev, large, 64, 4e-3, ktune::db::Status::Ok);
    add(other_dev, large, 16, 9e-3, ktune::db::Status::Ok);
  }
  void TearDown() override {
    fs::remove(path_);
    fs::remove(path_.string() + "-wal");
    fs::remove(path_.string() + "-shm");
  }
  fs::path path_;
};

TEST_F(RuntimeApi, ReturnsTheFastestVerifiedConfigForSizesAndDevice) {
  ktune::TuningDatabase db(path_.string());
  auto small = db.best("gemm", {{"M", "128"}});
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->parameters.at("BM"), "32");
  EXPECT_EQ(small->parameters.at("layout"), "row");
  EXPECT_EQ(small->device_name, "NVIDIA H200");
  auto large = db.best("gemm", {{"M", "4096"}, {"N", "4096"}});
  ASSERT_TRUE(large.has_value());
  EXPECT_EQ(large->parameters.at("BM"), "128");
  EXPECT_DOUBLE_EQ(large->median_seconds, 3e-3);
  auto on_cpu = db.best("gemm", {{"M", "4096"}}, "fp-cpu");
  ASSERT_TRUE(on_cpu.has_value());
  EXPECT_EQ(on_cpu->parameters.at("BM"), "16");
  EXPECT_FALSE(db.best("gemm", {{"M", "7"}}).has_value());
  EXPECT_FALSE(db.best("conv").has_value());
  EXPECT_EQ(db.all_best().size(), 3u);
}

TEST(RuntimeApiErrors, MissingDatabaseIsAnError) {
  EXPECT_THROW(ktune::TuningDatabase("/nonexistent/dir/ktune.db"), std::runtime_error);
}

}  // namespace
