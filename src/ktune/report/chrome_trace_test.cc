#include "ktune/report/chrome_trace.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ktune/report/report_test_data.h"

namespace ktune::report {
namespace {

std::vector<nlohmann::json> spans(const nlohmann::json& trace, const std::string& category) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("cat") == category) out.push_back(e);
  return out;
}

std::map<int, std::string> thread_names(const nlohmann::json& trace) {
  std::map<int, std::string> out;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "M" && e.at("name") == "thread_name") out[e.at("tid").get<int>()] = e.at("args").at("name");
  return out;
}

TEST(ChromeTrace, EventsHaveTheFieldsViewersNeed) {
  TraceSummary summary;
  const nlohmann::json trace = chrome_trace(testing::sample_session(), &summary);
  ASSERT_TRUE(trace.at("traceEvents").is_array());
  for (const auto& e : trace.at("traceEvents")) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid") && e.contains("name")) << e.dump();
    EXPECT_EQ(e.at("pid"), 3);  // the device id
    if (e.at("ph") == "X") {
      EXPECT_TRUE(e.at("ts").is_number());
      EXPECT_GE(e.at("dur").get<double>(), 0);
    }
  }
  bool process_named = false;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "M" && e.at("name") == "process_name") process_named = e.at("args").at("name") == "Test CPU <&> (cpu)";
  EXPECT_TRUE(process_named);
  EXPECT_EQ(summary.compile_spans, 5u);
  EXPECT_EQ(summary.measure_spans, 4u);  // the compile error never reached a lane
  EXPECT_EQ(spans(trace, "session").size(), 1u);
  EXPECT_EQ(trace.at("otherData").at("session_id"), 1);
}

TEST(ChromeTrace, CompileSpansNeverOverlapOnOneTrack) {
  const nlohmann::json trace = chrome_trace(testing::sample_session());
  std::map<int, std::vector<std::pair<double, double>>> by_track;
  for (const auto& e : spans(trace, "compile")) {
    const double ts = e.at("ts"), dur = e.at("dur");
    by_track[e.at("tid").get<int>()].emplace_back(ts, ts + dur);
  }
  for (const auto& s : spans(trace, "measure")) {
    const double ts = s.at("ts"), dur = s.at("dur");
    by_track[s.at("tid").get<int>()].emplace_back(ts, ts + dur);
  }
  for (auto& [tid, intervals] : by_track) {
    std::sort(intervals.begin(), intervals.end());
    for (std::size_t i = 1; i < intervals.size(); ++i) EXPECT_GE(intervals[i].first, intervals[i - 1].second - 1e-3) << tid;
  }
  // Results 10 and 11 compile at once (0.0-0.5 s and 0.1-0.6 s): two compile slots.
  const auto names = thread_names(trace);
  EXPECT_EQ(names.at(1000), "compile slot 0");
  EXPECT_EQ(names.at(1001), "compile slot 1");
  EXPECT_EQ(names.at(1), "lane 0 (measure)");
}

TEST(ChromeTrace, MeasurementWaitsForCompileAndLane) {
  const nlohmann::json trace = chrome_trace(testing::sample_session());
  auto measures = spans(trace, "measure");
  ASSERT_EQ(measures.size(), 4u);
  const double t0 = 1.7e9 * 1e6;
  // Result 10: compiled 0.0-0.5, measured 0.5-0.7. Result 11: compiled 0.1-0.6, but the lane
  // is busy until 0.7, so it measures 0.7-0.8.
  EXPECT_NEAR(measures[0].at("ts").get<double>() - t0, 0.5e6, 1);
  EXPECT_NEAR(measures[0].at("dur").get<double>(), 0.2e6, 1);
  EXPECT_NEAR(measures[1].at("ts").get<double>() - t0, 0.7e6, 1);
  EXPECT_NEAR(measures[1].at("dur").get<double>(), 0.1e6, 1);
  EXPECT_EQ(measures[0].at("args").at("config").at("TILE"), "64x64");
  EXPECT_EQ(measures[0].at("args").at("status"), "ok");
  EXPECT_EQ(measures[0].at("args").at("result_id"), 10);
  EXPECT_EQ(measures[3].at("args").at("status"), "wrong_result");
}

TEST(ChromeTrace, RowsWithoutCompileTimeAreOneEvaluationSpan) {
  SessionData d = testing::sample_session();
  for (auto& r : d.results) {
    r.compile_seconds = 0;  // gemm candidates compile inside the worker
    r.resources = nlohmann::json::object();
  }
  TraceSummary summary;
  const nlohmann::json trace = chrome_trace(d, &summary);
  EXPECT_EQ(summary.compile_spans, 0u);
  EXPECT_EQ(summary.measure_spans, 5u);
  EXPECT_EQ(spans(trace, "measure")[0].at("name").get<std::string>().rfind("evaluate ", 0), 0u);
}

TEST(ChromeTrace, EmptySessionAndHostileText) {
  SessionData d = testing::sample_session();
  d.results.clear();
  TraceSummary summary;
  const nlohmann::json empty = chrome_trace(d, &summary);
  EXPECT_EQ(summary.compile_spans + summary.measure_spans, 0u);
  EXPECT_TRUE(spans(empty, "session").empty());
  EXPECT_TRUE(nlohmann::json::accept(chrome_trace_text(d)));

  d = testing::sample_session();
  d.results[3].error = "bad \xFF byte \"quoted\" \n newline";
  const std::string text = chrome_trace_text(d);
  const nlohmann::json parsed = nlohmann::json::parse(text);  // invalid UTF-8 replaced, still valid JSON
  std::string error;
  for (const auto& e : parsed.at("traceEvents"))
    if (e.at("ph") == "X" && e.at("args").value("result_id", 0) == 13) error = e.at("args").at("error");
  EXPECT_EQ(error, "bad \xEF\xBF\xBD byte \"quoted\" \n newline");
}

TEST(ChromeTrace, LanesFromDeviceOrdinals) {
  SessionData d = testing::sample_session();
  d.results[1].resources["device_ordinal"] = 1;
  const nlohmann::json trace = chrome_trace(d);
  std::set<int> measure_tracks;
  for (const auto& s : spans(trace, "measure")) measure_tracks.insert(s.at("tid").get<int>());
  EXPECT_EQ(measure_tracks, (std::set<int>{1, 2}));
  EXPECT_EQ(thread_names(trace).at(2), "lane 1 (measure)");
}

// The worker's phases of a result become spans nested inside its lane span, in order.
TEST(ChromeTrace, WorkerPhasesAreNestedInsideTheLaneSpan) {
  SessionData data = testing::sample_session();
  db::ResultRecord& r = data.results.front();
  const double span_seconds = r.finished_at_unix - r.started_at_unix;
  r.phases = {{"compile", 0.0}, {"worker_call", span_seconds * 0.5}, {"arguments", span_seconds * 0.1},
              {"run", span_seconds * 0.05}, {"measure", span_seconds * 0.3}, {"total", span_seconds * 0.45}};
  const nlohmann::json trace = chrome_trace(data);
  const auto phases = spans(trace, "phase");
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[0].at("name"), "arguments");
  EXPECT_EQ(phases[1].at("name"), "run");
  EXPECT_EQ(phases[2].at("name"), "measure");
  const double end_us = r.finished_at_unix * 1e6;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    EXPECT_LE(phases[i].at("ts").get<double>() + phases[i].at("dur").get<double>(), end_us + 1);
    if (i > 0) {
      EXPECT_NEAR(phases[i].at("ts").get<double>(),
                  phases[i - 1].at("ts").get<double>() + phases[i - 1].at("dur").get<double>(), 1);
    }
  }
}

}  // namespace
}  // namespace ktune::report
