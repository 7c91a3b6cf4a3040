#include "ktune/db/calibrations.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "ktune/db/schema.h"
#include "ktune/db/sqlite.h"

namespace ktune::db {
namespace {

std::int64_t add_device(Database& db, const std::string& fingerprint) {
  return db.upsert_device({0, fingerprint, "cpu", "test cpu", {}});
}

TEST(Calibrations, RoundTripAndNewestWins) {
  Database db(":memory:");
  const std::int64_t device = add_device(db, "fp-a");
  const std::int64_t other = add_device(db, "fp-b");
  EXPECT_FALSE(latest_calibration(db, device));

  CalibrationRecord first;
  first.device_id = device;
  first.copy_gbps = 20.5;
  first.fp32_gflops = 300;
  first.method = {{"copy", {{"buffer_bytes", 1 << 20}}}};
  const std::int64_t first_id = insert_calibration(db, first);

  CalibrationRecord second = first;
  second.copy_gbps = 4000;
  second.tensor_tflops = {{"bf16", 750.5}, {"f16", 760}};
  const std::int64_t second_id = insert_calibration(db, second);
  EXPECT_GT(second_id, first_id);

  auto latest = latest_calibration(db, device);
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, second_id);
  EXPECT_EQ(latest->device_id, device);
  EXPECT_DOUBLE_EQ(*latest->copy_gbps, 4000);
  EXPECT_DOUBLE_EQ(*latest->fp32_gflops, 300);
  EXPECT_DOUBLE_EQ(latest->tensor_tflops.at("bf16"), 750.5);
  EXPECT_EQ(latest->method.at("copy").at("buffer_bytes"), 1 << 20);
  EXPECT_EQ(latest->created_at.size(), std::string("2025-01-31T12:00:00.123Z").size());
  EXPECT_EQ(calibrations(db, device).size(), 2u);
  EXPECT_FALSE(latest_calibration(db, other));

  nlohmann::json j = to_json(*latest);
  EXPECT_EQ(j.at("tensor_tflops").at("f16"), 760.0);
  EXPECT_EQ(j.at("copy_gbps"), 4000.0);
}

TEST(Calibrations, MissingCeilingsAreNull) {
  Database db(":memory:");
  CalibrationRecord c;
  c.device_id = add_device(db, "fp");
  c.copy_gbps = 10;
  insert_calibration(db, c);
  auto latest = latest_calibration(db, c.device_id);
  ASSERT_TRUE(latest);
  EXPECT_FALSE(latest->fp32_gflops);
  EXPECT_TRUE(latest->tensor_tflops.empty());
  EXPECT_TRUE(to_json(*latest).at("fp32_gflops").is_null());
}

TEST(Calibrations, BadInputIsRefused) {
  Database db(":memory:");
  CalibrationRecord c;
  EXPECT_THROW(insert_calibration(db, c), std::invalid_argument);  // no device
  c.device_id = 42;
  EXPECT_THROW(insert_calibration(db, c), SqliteError);  // no such device
  c.device_id = add_device(db, "fp");
  c.copy_gbps = -1;
  EXPECT_THROW(insert_calibration(db, c), std::invalid_argument);
  c.copy_gbps = 1;
  c.tensor_tflops["bf16"] = std::nan("");
  EXPECT_THROW(insert_calibration(db, c), std::invalid_argument);
}

TEST(Calibrations, VersionOneDatabaseIsMigrated) {
  const auto path = std::filesystem::temp_directory_path() / ("ktune-calibrations-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  {
    Database db(path);
    // Pretend this file was written by a build with schema version 1.
    db.connection().execute(
        "DROP TABLE device_calibrations; ALTER TABLE results DROP COLUMN phases;"
        " ALTER TABLE results DROP COLUMN sanitizer; PRAGMA user_version = 1");
  }
  {
    Database db(path);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    CalibrationRecord c;
    c.device_id = add_device(db, "fp");
    c.fp32_gflops = 5;
    EXPECT_GT(insert_calibration(db, c), 0);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

TEST(Calibrations, VersionTwoDatabaseGainsPhasesAndSanitizerColumns) {
  const auto path = std::filesystem::temp_directory_path() / ("ktune-v2-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  {
    Database db(path);
    db.connection().execute(
        "ALTER TABLE results DROP COLUMN phases; ALTER TABLE results DROP COLUMN sanitizer; PRAGMA user_version = 2");
  }
  {
    Database db(path);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    Statement s(db.connection(), "SELECT count(*) FROM pragma_table_info('results') WHERE name IN ('phases', 'sanitizer')");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.column_int(0), 2);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

}  // namespace
}  // namespace ktune::db
