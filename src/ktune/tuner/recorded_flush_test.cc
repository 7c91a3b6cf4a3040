// Resuming must not mix measurements taken after a dirty and after a clean L2 flush.
#include "ktune/tuner/recorded_flush.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace ktune::tuner {
namespace {

class RecordedFlushTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ktune-recorded-flush-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    db_ = std::make_unique<db::Database>(dir_ / "t.db");
    device_ = db_->upsert_device({0, "fp", "cuda", "gpu", nlohmann::json::object()});
    kernel_ = db_->upsert_kernel({0, "h", "k", "cuda", ""});
    problem_ = db_->upsert_problem({0, "p", "p", nlohmann::json::object(), nlohmann::json::object()});
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  db::ResultRecord result_of_session(const nlohmann::json& options) {
    db::ResultRecord r;
    r.session_id = db_->begin_session(device_, kernel_, problem_, "random", options);
    r.device_id = device_;
    r.kernel_id = kernel_;
    r.problem_id = problem_;
    return r;
  }

  std::filesystem::path dir_;
  std::unique_ptr<db::Database> db_;
  std::int64_t device_ = 0, kernel_ = 0, problem_ = 0;
};

TEST_F(RecordedFlushTest, ReadsTheFlushFromTheSessionsPolicy) {
  measure::Policy clean;
  clean.l2_flush = measure::L2Flush::Clean;
  const db::ResultRecord after_clean = result_of_session({{"policy", measure::policy_to_json(clean)}});
  const db::ResultRecord after_dirty = result_of_session({{"policy", measure::policy_to_json(measure::Policy{})}});
  RecordedFlush flushes(*db_);
  EXPECT_EQ(flushes.of(after_clean), measure::L2Flush::Clean);
  EXPECT_EQ(flushes.of(after_dirty), measure::L2Flush::Dirty);
  EXPECT_EQ(flushes.of(after_clean), measure::L2Flush::Clean);  // memoised, the same answer
}

TEST_F(RecordedFlushTest, OlderAndSessionlessResultsWereMeasuredAfterTheDirtyFlush) {
  RecordedFlush flushes(*db_);
  EXPECT_EQ(flushes.of(result_of_session(nlohmann::json::object())), measure::L2Flush::Dirty);  // no policy
  EXPECT_EQ(flushes.of(result_of_session({{"policy", "not an object"}})), measure::L2Flush::Dirty);
  db::ResultRecord outside;  // session_id 0
  EXPECT_EQ(flushes.of(outside), measure::L2Flush::Dirty);
  db::ResultRecord unknown;
  unknown.session_id = 12345;  // no such session
  EXPECT_EQ(flushes.of(unknown), measure::L2Flush::Dirty);
}

}  // namespace
}  // namespace ktune::tuner
