// export_gemm_picks (`ktune export --gemm-picks`): the JSON that GemmExecutor and libktune_gemm
// read, from a real `ktune tune gemm` session (1024^3 bf16 on an H200, recorded into the report
// testdata) and from picks written here whose problem or configuration cannot be read.

#include "ktune/families/gemm/gemm_picks.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "ktune/core/config.h"
#include "ktune/db/database.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_space.h"

namespace ktune::gemm {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system's temp directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ktune_gemm_picks_test_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Opening a database migrates it in place (and WAL mode writes beside it): work on a copy.
class GemmPicks : public ::testing::Test {
 protected:
  void SetUp() override {
    copy_ = dir_.path() / "sessions.db";
    fs::copy_file(fs::path(KTUNE_SOURCE_DIR) / "src/ktune/report/testdata/gemm_h200_sessions.db", copy_);
    fs::permissions(copy_, fs::perms::owner_read | fs::perms::owner_write);
  }
  db::Database open() { return db::Database(copy_, db::OpenOptions{.create_if_missing = false}); }

  TempDir dir_;
  fs::path copy_;
};

// Adds a "gemm pick" result (under a kernel record of its own) with `spec` as the problem's
// stored description and `config` as the pick; returns the result id.
std::int64_t add_pick(db::Database& database, const std::string& problem_name, const nlohmann::json& spec,
                      const nlohmann::json& config) {
  const std::int64_t device = database.upsert_device({0, "fp-test-gpu", "cuda", "Test GPU", nlohmann::json::object()});
  const std::int64_t kernel = database.upsert_kernel({0, "hash-test-pick", "gemm pick", "gemm-pick", ""});
  const std::int64_t problem =
      database.upsert_problem({0, "hash-" + problem_name, problem_name, nlohmann::json::object(), spec});
  db::ResultRecord r;
  r.device_id = device;
  r.kernel_id = kernel;
  r.problem_id = problem;
  r.config = config;
  r.config_key = config_key(config_from_json(config));
  r.median_s = 1e-5;
  return database.insert_result(r);
}

GemmProblem small_problem() {
  GemmProblem p;
  p.m = p.n = p.k = 64;
  p.precision = Precision::F16;
  p.out = Storage::F16;
  return p;
}

TEST_F(GemmPicks, ExportsTheRecordedPick) {
  db::Database database = open();
  const nlohmann::json out = export_gemm_picks(database);
  EXPECT_EQ(out.at("format"), kGemmPicksFormat);
  EXPECT_EQ(out.at("version"), 1);
  EXPECT_TRUE(out.at("skipped").empty()) << out.at("skipped").dump();
  ASSERT_EQ(out.at("picks").size(), 1u) << out.dump(1);

  const nlohmann::json& pick = out.at("picks")[0];
  EXPECT_EQ(pick.at("problem_name"), "gemm 1024x1024x1024 bf16 nn");
  EXPECT_EQ(pick.at("family"), "cublaslt");
  EXPECT_EQ(pick.at("config").at("family"), "cublaslt");
  EXPECT_EQ(pick.at("config").at("algo"), 66);
  EXPECT_EQ(pick.at("device").at("name"), "NVIDIA H200");
  EXPECT_FALSE(pick.at("device").at("fingerprint").get<std::string>().empty());
  EXPECT_EQ(pick.at("problem").at("m"), 1024);
  EXPECT_EQ(pick.at("problem").at("n"), 1024);
  EXPECT_EQ(pick.at("problem").at("k"), 1024);
  EXPECT_GT(pick.at("result_id").get<std::int64_t>(), 0);

  // The session kept cuBLASLt's default (the baseline): the speedup is the session's verdict, 1,
  // not the ratio of two separate measurements of that configuration.
  const double median = pick.at("median_seconds").get<double>();
  const double baseline = pick.at("baseline_median_seconds").get<double>();
  EXPECT_GT(median, 0);
  EXPECT_GT(baseline, 0);
  EXPECT_NE(baseline / median, 1.0);
  EXPECT_DOUBLE_EQ(pick.at("speedup").get<double>(), 1.0);
}

TEST_F(GemmPicks, TheProblemRoundTripsThroughProblemFromJson) {
  db::Database database = open();
  const nlohmann::json problem_json = export_gemm_picks(database).at("picks").at(0).at("problem");
  const GemmProblem problem = problem_from_json(problem_json);
  EXPECT_EQ(problem.m, 1024);
  EXPECT_EQ(problem.precision, Precision::BF16);
  EXPECT_EQ(problem.layout(), "nn");
  EXPECT_EQ(problem.name(), "gemm 1024x1024x1024 bf16 nn");
  EXPECT_EQ(problem.to_json(), problem_json);  // canonical: what the executor parses is what was written
}

TEST_F(GemmPicks, IsStable) {
  // The same database gives the same bytes, also through a second connection.
  db::Database database = open();
  const std::string first = export_gemm_picks(database).dump();
  EXPECT_EQ(export_gemm_picks(database).dump(), first);
  db::Database again = open();
  EXPECT_EQ(export_gemm_picks(again).dump(), first);
}

TEST_F(GemmPicks, AnUnknownFamilyIsSkippedWithTheReason) {
  db::Database database = open();
  add_pick(database, small_problem().name(), small_problem().to_json(), {{"family", "nonsense"}});
  const nlohmann::json out = export_gemm_picks(database);
  EXPECT_EQ(out.at("picks").size(), 1u);  // the recorded pick stays
  ASSERT_EQ(out.at("skipped").size(), 1u) << out.dump(1);
  EXPECT_EQ(out.at("skipped")[0].at("problem_name"), small_problem().name());
  EXPECT_NE(out.at("skipped")[0].at("reason").get<std::string>().find("unknown family"), std::string::npos)
      << out.at("skipped")[0].dump();
}

TEST_F(GemmPicks, AnIncompleteConfigurationIsSkippedWithTheReason) {
  // The executor could not build it: refused at export, not in the application.
  db::Database database = open();
  add_pick(database, small_problem().name(), small_problem().to_json(), {{"family", "cublaslt"}, {"tile", "128x64"}});
  const nlohmann::json out = export_gemm_picks(database);
  EXPECT_EQ(out.at("picks").size(), 1u);
  ASSERT_EQ(out.at("skipped").size(), 1u) << out.dump(1);
  EXPECT_NE(out.at("skipped")[0].at("reason").get<std::string>().find("algo"), std::string::npos)
      << out.at("skipped")[0].dump();
}

TEST_F(GemmPicks, AnUnreadableProblemIsSkippedWithTheReason) {
  db::Database database = open();
  nlohmann::json spec = small_problem().to_json();
  spec["m"] = -3;  // validate() refuses sizes below 1
  add_pick(database, "a broken problem", spec, {{"family", "cublaslt"}, {"algo", 6}});
  const nlohmann::json out = export_gemm_picks(database);
  EXPECT_EQ(out.at("picks").size(), 1u);
  ASSERT_EQ(out.at("skipped").size(), 1u) << out.dump(1);
  EXPECT_EQ(out.at("skipped")[0].at("problem_name"), "a broken problem");
  EXPECT_FALSE(out.at("skipped")[0].at("reason").get<std::string>().empty());
}

TEST_F(GemmPicks, APickWithoutABaselineHasNoSpeedup) {
  db::Database database = open();
  const nlohmann::json config = config_to_json(
      generated::to_config(generated::GeneratedKnobs{}, generated::problem_traits(small_problem())));
  const std::int64_t id = add_pick(database, small_problem().name(), small_problem().to_json(), config);
  const nlohmann::json out = export_gemm_picks(database);
  ASSERT_EQ(out.at("picks").size(), 2u) << out.dump(1);
  const nlohmann::json& pick = out.at("picks")[1];
  EXPECT_EQ(pick.at("result_id"), id);
  EXPECT_EQ(pick.at("family"), "generated");
  EXPECT_EQ(pick.at("device").at("name"), "Test GPU");
  EXPECT_DOUBLE_EQ(pick.at("median_seconds").get<double>(), 1e-5);
  EXPECT_TRUE(pick.at("baseline_median_seconds").is_null());
  EXPECT_TRUE(pick.at("speedup").is_null());
}

TEST(GemmPicksEmpty, ADatabaseWithoutPicksGivesNone) {
  db::Database database(":memory:");
  const nlohmann::json out = export_gemm_picks(database);
  EXPECT_EQ(out.at("format"), kGemmPicksFormat);
  EXPECT_EQ(out.at("version"), 1);
  EXPECT_TRUE(out.at("picks").is_array());
  EXPECT_TRUE(out.at("picks").empty());
  EXPECT_TRUE(out.at("skipped").empty());
}

}  // namespace
}  // namespace ktune::gemm
