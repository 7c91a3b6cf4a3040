// Reports and traces of real `ktune tune gemm` sessions (1024^3 bf16 on an H200: a cuBLASLt
// session, a generated-kernel session and the pick), recorded into testdata.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "ktune/report/chrome_trace.h"
#include "ktune/report/html_report.h"
#include "ktune/report/session_data.h"

namespace ktune::report {
namespace {

namespace fs = std::filesystem;

class GemmSessions : public ::testing::Test {
 protected:
  void SetUp() override {
    // Opening migrates in place when the schema moves on: work on a copy.
    copy_ = fs::temp_directory_path() / ("ktune_gemm_report_" + std::to_string(::getpid()) + ".db");
    fs::copy_file(fs::path(KTUNE_SOURCE_DIR) / "src/ktune/report/testdata/gemm_h200_sessions.db", copy_,
                  fs::copy_options::overwrite_existing);
    fs::permissions(copy_, fs::perms::owner_read | fs::perms::owner_write);
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(copy_.string() + suffix);
  }
  fs::path copy_;
};

TEST_F(GemmSessions, EverySessionRendersWithStringValuedKnobs) {
  db::Database database(copy_, db::OpenOptions{.create_if_missing = false});
  const auto sessions = database.sessions();
  ASSERT_EQ(sessions.size(), 3u);
  bool saw_tiles = false;
  for (const auto& s : sessions) {
    SessionData data = load_session_data(database, s.id);
    HtmlReportSummary summary;
    const std::string html = render_html_report(data, {}, &summary);
    EXPECT_EQ(summary.results, data.results.size());
    EXPECT_TRUE(summary.winner_result_id) << s.id;
    EXPECT_TRUE(summary.roofline_points) << s.id;  // gemm rows carry GFLOP/s and GB/s
    EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    if (data.kernel.language == "cublaslt") {
      ASSERT_NE(std::find(summary.sensitivity_parameters.begin(), summary.sensitivity_parameters.end(), "tile"),
                summary.sensitivity_parameters.end());
      EXPECT_NE(html.find(">128x64</text>"), std::string::npos);  // a tile as a category label
      saw_tiles = true;
    }

    TraceSummary trace_summary;
    const nlohmann::json trace = chrome_trace(data, &trace_summary);
    // The worker compiles gemm candidates itself: one evaluation span per row, no compile track.
    EXPECT_EQ(trace_summary.measure_spans, data.results.size());
    EXPECT_EQ(trace_summary.compile_spans, 0u);
    for (const auto& e : trace.at("traceEvents")) {
      if (e.at("ph") == "X" && e.at("cat") == "measure") {
        EXPECT_TRUE(e.at("args").at("config").contains("family"));
      }
    }
  }
  EXPECT_TRUE(saw_tiles);
}

}  // namespace
}  // namespace ktune::report
