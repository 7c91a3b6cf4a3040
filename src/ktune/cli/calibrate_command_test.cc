// Drives the built ktune binary: `ktune calibrate --backend cpu` measures and stores the host's
// ceilings, `--show` prints them, a CPU tuning's results get roofline fields, and the HTML
// report's ceiling finder reads the stored row.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/db/calibrations.h"
#include "ktune/db/database.h"
#include "ktune/report/session_data.h"
#include "support/cli_run.h"

namespace {

namespace fs = std::filesystem;
namespace db = ktune::db;
namespace report = ktune::report;
using ktune::testing::CommandResult;
using ktune::testing::run_command;
using ktune::testing::shell_quote;
const fs::path kSource = ktune::testing::source_dir();
const fs::path kKtune = ktune::testing::ktune_binary();

class CalibrateCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("ktune_calibrate_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    ::setenv("KTUNE_CACHE_DIR", (*dir_ / "cache").c_str(), 1);
    first_ = new CommandResult(ktune("calibrate --backend cpu --json --max-seconds 2"));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete first_;
  }

  static CommandResult ktune(const std::string& args, const std::string& db = "t.db") {
    return run_command(shell_quote(kKtune.string()) + " --db " + shell_quote((*dir_ / db).string()) + " " + args,
                       *dir_);
  }

  static fs::path* dir_;
  static CommandResult* first_;
};
fs::path* CalibrateCommand::dir_ = nullptr;
CommandResult* CalibrateCommand::first_ = nullptr;

TEST_F(CalibrateCommand, CpuCalibrationIsMeasuredAndStored) {
  ASSERT_EQ(first_->code, 0) << first_->err << first_->out;
  const nlohmann::json j = first_->json();
  EXPECT_EQ(j.at("device").at("backend"), "cpu");
  const nlohmann::json& c = j.at("calibration");
  // Plausible for any host this runs on: a copy of 512 MiB buffers and vector FMAs on all cores.
  EXPECT_GT(c.at("copy_gbps").get<double>(), 0.5);
  EXPECT_LT(c.at("copy_gbps").get<double>(), 5000.0);
  EXPECT_GT(c.at("fp32_gflops").get<double>(), 1.0);
  EXPECT_LT(c.at("fp32_gflops").get<double>(), 200000.0);
  EXPECT_TRUE(c.at("tensor_tflops").empty());
  EXPECT_GT(c.at("method").at("fp32").at("fma_per_iteration").get<int>(), 0);
  EXPECT_EQ(c.at("method").at("copy").at("buffer_bytes"), std::int64_t{1} << 29);
  EXPECT_TRUE(j.at("ridge_intensity").at("fp32").is_number());

  // The row is in the database, and --show reads it back.
  db::Database database(*dir_ / "t.db");
  auto stored = db::latest_calibration(database, j.at("device").at("id").get<std::int64_t>());
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->id, c.at("id").get<std::int64_t>());
  CommandResult shown = ktune("calibrate --show --json");
  ASSERT_EQ(shown.code, 0) << shown.err;
  const nlohmann::json show = shown.json();
  ASSERT_EQ(show.size(), 1u);
  EXPECT_EQ(show[0].at("calibration").at("id"), c.at("id"));
  CommandResult text = ktune("calibrate --show --backend cpu");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("copy bandwidth"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("FP32 peak"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("ridge point"), std::string::npos) << text.out;
}

TEST_F(CalibrateCommand, ReportFindsTheStoredCeilings) {
  ASSERT_EQ(first_->code, 0) << first_->err;
  const nlohmann::json j = first_->json();
  db::Database database(*dir_ / "t.db");
  auto device = database.device(j.at("device").at("id").get<std::int64_t>());
  ASSERT_TRUE(device);
  auto ceilings = report::find_ceilings(database, *device);
  ASSERT_TRUE(ceilings);
  ASSERT_TRUE(ceilings->memory_gbps);
  EXPECT_NEAR(*ceilings->memory_gbps, j.at("calibration").at("copy_gbps").get<double>(), 1e-6);
  // Only the ceilings are read as compute peaks, not numbers in the method description.
  ASSERT_EQ(ceilings->compute_gflops.size(), 1u) << ceilings->compute_gflops[0].first;
  EXPECT_EQ(ceilings->compute_gflops[0].first, "fp32_gflops");
}

TEST_F(CalibrateCommand, ResultsAndBestShowTheRoofline) {
  ASSERT_EQ(first_->code, 0) << first_->err;
  // Without a calibration: said so.
  CommandResult tuned = ktune("--json tune " + (kSource / "examples/cpu/reduction/reduction.yaml").string() +
                                  " --max-evals 3 --seed 2 --progress none",
                              "uncalibrated.db");
  ASSERT_EQ(tuned.code, 0) << tuned.err << tuned.out;
  CommandResult plain = ktune("results", "uncalibrated.db");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.out.find("no calibration: run ktune calibrate"), std::string::npos) << plain.out;
  CommandResult best_plain = ktune("best", "uncalibrated.db");
  EXPECT_NE(best_plain.out.find("no calibration: run ktune calibrate"), std::string::npos) << best_plain.out;

  // The same tuning where the host is calibrated: every ok result is classified.
  tuned = ktune("--json tune " + (kSource / "examples/cpu/reduction/reduction.yaml").string() +
                " --max-evals 3 --seed 2 --progress none");
  ASSERT_EQ(tuned.code, 0) << tuned.err << tuned.out;
  CommandResult results = ktune("results --json --status ok");
  ASSERT_EQ(results.code, 0) << results.err;
  const nlohmann::json rows = results.json();
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) {
    const nlohmann::json& r = row.at("roofline");
    ASSERT_TRUE(r.is_object()) << row.dump();
    // reduction: N FLOP per 4 N bytes.
    EXPECT_NEAR(r.at("intensity").get<double>(), 0.25, 1e-9);
    EXPECT_EQ(r.at("math"), "fp32");
    EXPECT_EQ(r.at("roof"), "memory");  // far below any CPU's ridge
    const std::string bound = r.at("bound");
    EXPECT_TRUE(bound == "memory" || bound == "latency") << bound;
    EXPECT_EQ(bound == "memory", r.at("fraction").get<double>() >= 0.5);
  }
  CommandResult table = ktune("results");
  EXPECT_NE(table.out.find("FLOP/B"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("0.250"), std::string::npos) << table.out;
  CommandResult best = ktune("best");
  EXPECT_NE(best.out.find("FLOP/byte"), std::string::npos) << best.out;
  EXPECT_NE(best.out.find("-bound"), std::string::npos) << best.out;
  CommandResult best_json = ktune("best --json");
  EXPECT_TRUE(best_json.json().at(0).at("roofline").contains("bound")) << best_json.out;
}

TEST_F(CalibrateCommand, RecalibratingAddsANewerRecord) {
  ASSERT_EQ(first_->code, 0) << first_->err;
  const std::int64_t first_id = first_->json().at("calibration").at("id");
  CommandResult again = ktune("calibrate --backend cpu --json --max-seconds 1");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::int64_t second_id = again.json().at("calibration").at("id");
  EXPECT_GT(second_id, first_id);
  // The compiled kernels came from the cache the first run filled.
  EXPECT_TRUE(again.json().at("calibration").at("method").at("copy").at("compile").at("cache_hit").get<bool>());
  const nlohmann::json show = ktune("calibrate --show --json").json();
  EXPECT_EQ(show[0].at("calibration").at("id"), second_id);
}

TEST_F(CalibrateCommand, ShowWithoutCalibrationSaysWhatToDo) {
  CommandResult empty = ktune("calibrate --show", "never.db");
  EXPECT_NE(empty.code, 0);  // no database at all
  CommandResult tuned = ktune("--json tune " + (kSource / "examples/cpu/reduction/reduction.yaml").string() +
                                  " --max-evals 1 --progress none",
                              "nocal.db");
  ASSERT_EQ(tuned.code, 0) << tuned.err;
  CommandResult none = ktune("calibrate --show", "nocal.db");
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.out.find("no calibration: run ktune calibrate"), std::string::npos) << none.out;
  CommandResult bad = ktune("calibrate --backend hip");
  EXPECT_EQ(bad.code, 2) << bad.err;
  CommandResult bad_math = ktune("calibrate --backend cpu --tensor bf17");
  EXPECT_EQ(bad_math.code, 2) << bad_math.err;
  EXPECT_NE(bad_math.err.find("unknown tensor math 'bf17'"), std::string::npos) << bad_math.err;
}

}  // namespace
