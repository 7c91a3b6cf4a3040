#include "ktune/report/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "ktune/report/report_charts.h"
#include "ktune/report/report_test_data.h"

namespace ktune::report {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}

TEST(HtmlReport, SelfContainedPageWithEveryChart) {
  HtmlReportSummary summary;
  const std::string html = render_html_report(testing::sample_session(), {}, &summary);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  // No script, no external resource: the only URL is the SVG namespace.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(count(html, "http"), count(html, "http://www.w3.org/2000/svg"));
  // Sorted times, two best-so-far charts, sensitivity for BLOCK and TILE (UNROLL is constant), roofline.
  EXPECT_EQ(count(html, "<svg"), 6u);
  EXPECT_EQ(count(html, "</svg>"), 6u);
  EXPECT_EQ(summary.charts, 6u);
  EXPECT_EQ(summary.sensitivity_parameters, (std::vector<std::string>{"BLOCK", "TILE"}));
  EXPECT_NE(html.find("<code>UNROLL=1</code>"), std::string::npos);
  EXPECT_EQ(summary.results, 5u);
  EXPECT_EQ(summary.timed, 3u);
  EXPECT_EQ(summary.failed, 2u);
  EXPECT_EQ(summary.winner_result_id, 12);  // the wrong result is faster but does not count
  EXPECT_TRUE(summary.roofline_points);
  EXPECT_FALSE(summary.calibrated);
  EXPECT_NE(html.find("no calibration: run ktune calibrate"), std::string::npos);
  for (const char* id : {"times", "progress", "sensitivity", "roofline", "winner"})
    EXPECT_NE(html.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
}

TEST(HtmlReport, HeaderCountsAndWinnerDetails) {
  const std::string html = render_html_report(testing::sample_session());
  EXPECT_NE(html.find("ok: 3"), std::string::npos);
  EXPECT_NE(html.find("compile_error: 1"), std::string::npos);
  EXPECT_NE(html.find("wrong_result: 1"), std::string::npos);
  EXPECT_NE(html.find("Test CPU &lt;&amp;&gt;"), std::string::npos);
  EXPECT_NE(html.find("host&lt;1&gt;"), std::string::npos);
  EXPECT_NE(html.find("2026-01-01T00:01:00.000Z"), std::string::npos);
  // Winner: config values, resources flattened, verification.
  EXPECT_NE(html.find("<th>occupancy.limit</th><td><code>registers</code>"), std::string::npos);
  EXPECT_NE(html.find("<th>C.rel_l2</th>"), std::string::npos);
  EXPECT_NE(html.find("<th>TILE</th><td><code>128x64</code>"), std::string::npos);
  EXPECT_NE(html.find("speedup over the slowest"), std::string::npos);
  EXPECT_NE(html.find("4.00x"), std::string::npos);
}

TEST(HtmlReport, EscapesDatabaseText) {
  const std::string html = render_html_report(testing::sample_session());
  EXPECT_EQ(html.find("<script>alert(1)"), std::string::npos);
  EXPECT_EQ(html.find("<b>bold</b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;bold&lt;/b&gt; &amp;  done"), std::string::npos);  // \x01 dropped
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("<h4>compile_error (1)</h4>"), std::string::npos);
}

TEST(HtmlReport, EmptySessionStillRenders) {
  SessionData d = testing::sample_session();
  d.results.clear();
  d.session.state = "running";
  d.session.finished_at.clear();
  HtmlReportSummary summary;
  const std::string html = render_html_report(d, {}, &summary);
  EXPECT_EQ(summary.charts, 4u);  // no sensitivity charts
  EXPECT_FALSE(summary.winner_result_id);
  EXPECT_NE(html.find("nothing to plot"), std::string::npos);
  EXPECT_NE(html.find("No configuration ran correctly in this session."), std::string::npos);
  EXPECT_NE(html.find("(not finished)"), std::string::npos);
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(html.find("inf\""), std::string::npos);
}

TEST(HtmlReport, AllFailedSessionListsFailuresByStatus) {
  SessionData d = testing::sample_session();
  for (auto& r : d.results) {
    r.status = db::Status::Timeout;
    r.error = "no answer within 10 s";
  }
  HtmlReportSummary summary;
  const std::string html = render_html_report(d, {}, &summary);
  EXPECT_EQ(summary.timed, 0u);
  EXPECT_EQ(summary.failed, 5u);
  EXPECT_NE(html.find("<h4>timeout (5)</h4>"), std::string::npos);
  EXPECT_NE(html.find("no result has both GFLOP/s and GB/s"), std::string::npos);
}

TEST(HtmlReport, CalibratedRooflineDrawsRoofs) {
  SessionData d = testing::sample_session();
  Ceilings c;
  c.memory_gbps = 50;
  c.compute_gflops = {{"fp32", 500}};
  c.source = "table calibrations";
  d.ceilings = c;
  HtmlReportSummary summary;
  const std::string html = render_html_report(d, {}, &summary);
  EXPECT_TRUE(summary.calibrated);
  EXPECT_EQ(html.find("no calibration"), std::string::npos);
  EXPECT_NE(html.find("Ceilings from table calibrations"), std::string::npos);
  EXPECT_NE(html.find("fp32: 500 GFLOP/s"), std::string::npos);
  // The roof bends at the ridge (10 FLOP/byte): three vertices.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(html, m, std::regex("class=\"roof\"[^>]* d=\"([^\"]*)\"")));
  EXPECT_EQ(count(m[1].str(), "L"), 2u);
}

TEST(HtmlReport, GemmStringValuesSortAsText) {
  std::vector<std::string> constant;
  SessionData d = testing::sample_session();
  auto charts = sensitivity_charts(d.results, &constant);
  ASSERT_EQ(charts.size(), 2u);
  EXPECT_EQ(charts[1].parameter, "TILE");
  EXPECT_EQ(charts[1].values, 2u);  // timed only: 64x64 and 128x64
  EXPECT_LT(charts[1].svg.find(">128x64<"), charts[1].svg.find(">64x64<"));
  EXPECT_EQ(charts[0].values, 3u);
  EXPECT_LT(charts[0].svg.find(">16<"), charts[0].svg.find(">32<"));
  EXPECT_LT(charts[0].svg.find(">32<"), charts[0].svg.find(">64<"));
}

TEST(HtmlReport, BestSoFarIsMonotone) {
  SessionData d = testing::sample_session();
  const std::string svg = best_so_far_chart(d.results, ProgressAxis::Evaluation);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("class=\"best\"[^>]* d=\"([^\"]*)\"")));
  // y pixels never go down the page (larger y) as x grows: the best only improves.
  std::regex vertex("([0-9.]+) ([0-9.]+)");
  const std::string d_attr = m[1].str();
  double last_y = -1;
  int vertices = 0;
  for (auto it = std::sregex_iterator(d_attr.begin(), d_attr.end(), vertex); it != std::sregex_iterator(); ++it) {
    const double y = std::stod((*it)[2]);
    if (last_y >= 0) {
      EXPECT_GE(y, last_y);
    }
    last_y = y;
    ++vertices;
  }
  EXPECT_EQ(vertices, 6);  // 3 improvements as steps, then extended to the last evaluation
}

TEST(HtmlReport, FlattensJson) {
  auto rows = flatten_json({{"a", {{"b", 1}, {"c", "x"}}}, {"list", {1, 2}}, {"objs", {{{"k", true}}}}, {"empty", nlohmann::json::object()}});
  std::vector<std::pair<std::string, std::string>> expected = {
      {"a.b", "1"}, {"a.c", "x"}, {"empty", "{}"}, {"list", "[1,2]"}, {"objs[0].k", "true"}};
  EXPECT_EQ(rows, expected);
}

TEST(HtmlReport, PhasesTableSumsWhereTheTimeWent) {
  SessionData data = testing::sample_session();
  EXPECT_EQ(render_html_report(data, {}).find("Where the time went"), std::string::npos) << "no phases, no table";
  for (auto& r : data.results) r.phases = {{"worker_call", 0.5}, {"measure", 0.25}, {"compile", 1.0}};
  const std::string html = render_html_report(data, {});
  ASSERT_NE(html.find("Where the time went"), std::string::npos);
  const double n = static_cast<double>(data.results.size());
  char expected[64];
  std::snprintf(expected, sizeof expected, "<tr><th>measure</th><td>%.4g</td>", 0.25 * n);
  EXPECT_NE(html.find(expected), std::string::npos) << expected;
  EXPECT_NE(html.find("<td>50.0%</td>"), std::string::npos);
}

}  // namespace
}  // namespace ktune::report
