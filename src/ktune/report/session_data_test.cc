#include "ktune/report/session_data.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ktune/db/calibrations.h"

namespace ktune::report {
namespace {

struct Fixture {
  db::Database database{":memory:"};
  std::int64_t device = 0, kernel = 0, problem = 0, session = 0;
  Fixture() {
    device = database.upsert_device({0, "fp1", "cpu", "cpu0", {}});
    kernel = database.upsert_kernel({0, "h", "k", "cpp", "k.cpp"});
    problem = database.upsert_problem({0, "p", "p", {{"N", 8}}, {}});
    session = database.begin_session(device, kernel, problem, "random");
  }
  void add(double median) {
    db::ResultRecord r;
    r.session_id = session;
    r.device_id = device, r.kernel_id = kernel, r.problem_id = problem;
    r.config = {{"X", median}};
    r.config_key = r.config.dump();
    r.median_s = median;
    database.insert_result(r);
  }
};

TEST(SessionData, LoadsSessionRowsInOrder) {
  Fixture f;
  f.add(3e-3);
  f.add(1e-3);
  const SessionData d = load_session_data(f.database, f.session);
  EXPECT_EQ(d.session.id, f.session);
  EXPECT_EQ(d.device.name, "cpu0");
  EXPECT_EQ(d.kernel.name, "k");
  EXPECT_EQ(d.problem.sizes.at("N"), 8);
  ASSERT_EQ(d.results.size(), 2u);
  EXPECT_LT(d.results[0].id, d.results[1].id);
  EXPECT_FALSE(d.ceilings);
}

TEST(SessionData, MissingSessionIsAClearError) {
  Fixture f;
  try {
    load_session_data(f.database, 42);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no session 42"), std::string::npos) << e.what();
  }
}

TEST(SessionData, CeilingsFromJsonFieldNamesAndUnits) {
  Ceilings c = ceilings_from_json({{"copy_bandwidth_gbps", 900}, {"peaks", {{"fp32_tflops", 60}, {"tensor_flops_per_s", 4e14}}},
                                   {"device_id", 3}, {"note", "x"}},
                                  "test");
  ASSERT_TRUE(c.memory_gbps);
  EXPECT_DOUBLE_EQ(*c.memory_gbps, 900);
  ASSERT_EQ(c.compute_gflops.size(), 2u);
  EXPECT_EQ(c.compute_gflops[0].first, "peaks.fp32_tflops");
  EXPECT_DOUBLE_EQ(c.compute_gflops[0].second, 60000);
  EXPECT_DOUBLE_EQ(c.compute_gflops[1].second, 400000);
  EXPECT_TRUE(ceilings_from_json({{"registers", 3}}, "x").empty());
  EXPECT_DOUBLE_EQ(*ceilings_from_json({{"copy_bytes_per_s", 2e12}}, "x").memory_gbps, 2000);
}

TEST(SessionData, CeilingsFromACalibrationTableOrDeviceProperties) {
  Fixture f;
  // The table `ktune calibrate` writes (schema v2), newest record per device.
  db::CalibrationRecord mine;
  mine.device_id = f.device;
  mine.copy_gbps = 10;
  mine.fp32_gflops = 100;
  mine.tensor_tflops = {{"bf16", 2}};
  db::insert_calibration(f.database, mine);
  db::CalibrationRecord other;
  other.device_id = f.database.upsert_device({0, "fp-other", "cuda", "other gpu", nlohmann::json::object()});
  other.copy_gbps = 99;
  other.fp32_gflops = 999;
  db::insert_calibration(f.database, other);
  auto c = find_ceilings(f.database, *f.database.device(f.device));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, "table device_calibrations");
  EXPECT_DOUBLE_EQ(*c->memory_gbps, 10);
  std::vector<double> compute;
  for (const auto& [name, gflops] : c->compute_gflops) compute.push_back(gflops);
  EXPECT_NE(std::find(compute.begin(), compute.end(), 2000.0), compute.end());  // tensor_tflops.bf16
  EXPECT_NE(std::find(compute.begin(), compute.end(), 100.0), compute.end());   // fp32_gflops
  EXPECT_EQ(std::find(compute.begin(), compute.end(), 999.0), compute.end());   // another device's

  db::DeviceRecord with_properties{0, "fp2", "cuda", "gpu", {{"ceilings", {{"dram_bandwidth_gbps", 3000}}}}};
  with_properties.id = f.database.upsert_device(with_properties);
  c = find_ceilings(f.database, with_properties);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->source, "device properties: ceilings");
  EXPECT_DOUBLE_EQ(*c->memory_gbps, 3000);
}

}  // namespace
}  // namespace ktune::report
