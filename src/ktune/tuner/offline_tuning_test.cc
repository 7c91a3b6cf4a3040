// ktune tune --offline: every configuration compiled for gfx942 with a stock LLVM, ranked by
// the static model and recorded without timings, so that nothing reads it as a measurement.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ktune/amdgpu/toolchain.h"
#include "ktune/core/source_error.h"
#include "ktune/tuner/offline_tuning.h"
#include "ktune/tuner/tuner.h"

namespace ktune::tuner {
namespace {
namespace fs = std::filesystem;

class OfflineTuning : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!amdgpu::Toolchain::find("gfx942", std::nullopt, &why)) GTEST_SKIP() << "no LLVM for gfx942 here: " << why;
    dir_ = fs::temp_directory_path() / ("ktune-offline-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // The example kernel with a small space: 2 x 2 launchable shapes x VEC {1, 4}, TM = 3 that
  // fails its static_assert, and BK = 128 with BM = BN = 128 whose LDS (128 KiB) cannot fit.
  fs::path write_spec() {
    const fs::path source = fs::path(KTUNE_SOURCE_DIR) / "examples/hip/matmul/matmul.hip";
    const fs::path spec = dir_ / "small.yaml";
    std::ofstream(spec) << "name: hip_matmul_small\n"
                           "kernel: {language: hip, source: " << source.string() << ", entry: matmul}\n"
                           "sizes: {M: 1024, N: 1024, K: 1024}\n"
                           "parameters:\n"
                           "  BM: [64, 128]\n"
                           "  BN: [64, 128]\n"
                           "  BK: [16, 128]\n"
                           "  TM: [3, 4]\n"
                           "  TN: [4]\n"
                           "  VEC: [1, 4]\n"
                           "constraints:\n"
                           "  - BK == 16 or (BM == 128 and BN == 128 and TM == 4)\n"
                           "  - TM == 4 or (BM == 64 and BN == 64 and VEC == 4 and BK == 16)\n"
                           "launch: {grid: [N // BN, M // BM], block: [BM // TM * (BN // TN)]}\n"
                           "arguments:\n"
                           "  - {name: A, type: float32, length: M * K}\n"
                           "  - {name: B, type: float32, length: K * N}\n"
                           "  - {name: C, type: float32, length: M * N, output: true}\n"
                           "  - {name: M, type: int32, value: M}\n"
                           "  - {name: N, type: int32, value: N}\n"
                           "  - {name: K, type: int32, value: K}\n";
    return spec;
  }

  OfflineTuneOptions options(const fs::path& spec) {
    OfflineTuneOptions o;
    o.spec_path = spec;
    o.target = "gfx942";
    o.db_path = dir_ / "ktune.db";
    o.cache_directory = dir_ / "cache";
    o.compile_jobs = 2;
    return o;
  }

  fs::path dir_;
};

TEST_F(OfflineTuning, RanksEveryConfigurationAndRecordsNoTimings) {
  const OfflineTuneSummary s = run_offline_tuning(options(write_spec()));
  // 4 shapes x 2 VEC with BK 16 + 2 VEC with BK 128 + 1 with TM 3.
  ASSERT_EQ(s.candidates.size(), 11u);
  EXPECT_EQ(s.compiler.rfind("clang ", 0), 0u) << s.compiler;
  EXPECT_EQ(s.device.fingerprint, "offline-gfx942");
  EXPECT_EQ(s.device.backend, "hip");

  int ranked = 0, compile_errors = 0;
  for (std::size_t i = 0; i < s.candidates.size(); ++i) {
    const OfflineCandidate& c = s.candidates[i];
    if (c.rank) {
      EXPECT_EQ(*c.rank, ++ranked) << "ranked candidates come first, in rank order";
      EXPECT_EQ(c.status, db::Status::Skipped);
      ASSERT_TRUE(c.assessment);
      EXPECT_TRUE(c.assessment->launchable);
      if (i > 0 && s.candidates[i - 1].rank) {
        EXPECT_FALSE(device::hip::ranks_above(*c.assessment, *s.candidates[i - 1].assessment));
      }
    } else {
      EXPECT_NE(c.status, db::Status::Skipped);
      EXPECT_FALSE(c.error.empty());
      if (c.status == db::Status::CompileError) ++compile_errors;
    }
  }
  EXPECT_EQ(ranked, 8);
  EXPECT_EQ(compile_errors, 3) << "TM = 3 (static_assert) and 128 KiB of LDS (twice) do not compile";
  EXPECT_EQ(s.by_status.at("skipped"), 8u);
  EXPECT_NE(s.candidates[0].assessment->why().find("waves/SIMD"), std::string::npos);
  // Occupancy comes first (VEC = 4 can cost VGPRs and so waves); at equal occupancy and spills
  // the dwordx4 twin ranks above the VEC = 1 one.
  int twins = 0;
  for (const auto& wide : s.candidates) {
    if (!wide.rank || wide.config.at("VEC").as_int() != 4) continue;
    Config narrow_config = wide.config;
    narrow_config["VEC"] = Value::integer(1);
    for (const auto& narrow : s.candidates) {
      if (!narrow.rank || narrow.config != narrow_config) continue;
      if (narrow.assessment->waves_per_simd != wide.assessment->waves_per_simd ||
          narrow.assessment->spills != wide.assessment->spills)
        continue;
      ++twins;
      EXPECT_LT(*wide.rank, *narrow.rank) << wide.assessment->why() << " vs " << narrow.assessment->why();
    }
  }
  EXPECT_GE(twins, 1);

  db::Database database(dir_ / "ktune.db");
  EXPECT_FALSE(database.best(s.device.id, s.kernel.id, s.problem.id)) << "a static rank is not a measured winner";
  db::ResultQuery q;
  q.session_id = s.session_id;
  const auto rows = database.query(q);
  ASSERT_EQ(rows.size(), 11u);
  for (const auto& r : rows) {
    EXPECT_FALSE(r.median_s);
    EXPECT_EQ(r.samples, 0);
    EXPECT_TRUE(r.resources.value("offline", false)) << r.resources.dump();
    if (r.status == db::Status::Skipped) {
      EXPECT_TRUE(r.resources.contains("static_rank"));
      EXPECT_TRUE(r.resources.contains("vgpr_count"));
      EXPECT_EQ(r.resources["occupancy"]["workgroup_size"], r.config["BM"].get<int>() / 4 * (r.config["BN"].get<int>() / 4));
    }
  }
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;
  EXPECT_TRUE(database.query(q).empty());
  const auto session = database.session(s.session_id);
  ASSERT_TRUE(session);
  EXPECT_EQ(session->state, "finished");
  EXPECT_EQ(session->options["offline"], true);

  // Again: every compile comes from the cache, same ranking.
  const OfflineTuneSummary again = run_offline_tuning(options(write_spec()));
  ASSERT_EQ(again.candidates.size(), s.candidates.size());
  for (std::size_t i = 0; i < s.candidates.size(); ++i) EXPECT_EQ(again.candidates[i].config_key, s.candidates[i].config_key);
}

TEST_F(OfflineTuning, RefusesWhatItCannotDo) {
  OfflineTuneOptions o = options(write_spec());
  o.target = "sm_90a";
  EXPECT_THROW(run_offline_tuning(o), TuneError);
  o.target = "";
  EXPECT_THROW(run_offline_tuning(o), TuneError);
  o = options(fs::path(KTUNE_SOURCE_DIR) / "examples/cuda/sgemm/sgemm.yaml");
  try {
    run_offline_tuning(o);
    FAIL() << "tuned a CUDA spec for gfx942";
  } catch (const TuneError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel.language: hip"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ktune::tuner
