// Drives the built ktune binary: a real CPU tuning session, then `ktune report` and
// `ktune export --perfetto` on it, and (where Debian's chromium is installed) renders the report
// in headless Chromium to check that the charts are laid out and drawn.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"

namespace {

namespace fs = std::filesystem;
using ktune::testing::CommandResult;
using ktune::testing::run_command;
using ktune::testing::shell_quote;
using ktune::testing::slurp;
const fs::path kSource = ktune::testing::source_dir();
const fs::path kKtune = ktune::testing::ktune_binary();

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}

std::string chromium_binary() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (::access(candidate, X_OK) == 0) return candidate;
  return {};
}

// One tuning session shared by all tests of this file: tuning takes a while.
class ReportCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("ktune_report_" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    ::setenv("KTUNE_CACHE_DIR", (*dir_ / "cache").c_str(), 1);
    CommandResult r = ktune("--json tune " + (kSource / "examples/cpu/matmul/matmul.yaml").string() +
                            " --max-evals 10 --seed 5 --progress none");
    tune_ok_ = r.code == 0;
    if (!tune_ok_) tune_error_ = new std::string(r.err + r.out);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete tune_error_;
  }
  void SetUp() override { ASSERT_TRUE(tune_ok_) << "ktune tune failed:\n" << (tune_error_ ? *tune_error_ : ""); }

  static CommandResult ktune(const std::string& args) {
    return run_command(shell_quote(kKtune.string()) + " --db " + shell_quote((*dir_ / "t.db").string()) + " " + args,
                       *dir_);
  }
  static fs::path path(const std::string& name) { return *dir_ / name; }

  static inline fs::path* dir_ = nullptr;
  static inline bool tune_ok_ = false;
  static inline std::string* tune_error_ = nullptr;
};

TEST_F(ReportCommand, WritesASelfContainedReport) {
  const fs::path html_path = path("report.html");
  CommandResult r = ktune("--json report latest -o " + html_path.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary.at("output"), html_path.string());
  EXPECT_EQ(summary.at("results"), 10);
  EXPECT_GE(summary.at("timed").get<int>(), 1);
  EXPECT_FALSE(summary.at("winner_result_id").is_null());
  EXPECT_TRUE(summary.at("roofline_points"));  // the spec declares flops and bytes
  EXPECT_FALSE(summary.at("calibrated"));
  EXPECT_GE(summary.at("sensitivity_parameters").size(), 2u);

  const std::string html = slurp(html_path);
  EXPECT_EQ(html.size(), summary.at("bytes").get<std::size_t>());
  EXPECT_EQ(count(html, "<svg"), summary.at("charts").get<std::size_t>());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(count(html, "http"), count(html, "http://www.w3.org/2000/svg"));
  EXPECT_NE(html.find("cpu_matmul"), std::string::npos);
  EXPECT_NE(html.find("TILE_M"), std::string::npos);
  EXPECT_NE(html.find("no calibration: run ktune calibrate"), std::string::npos);
  EXPECT_NE(html.find("C.rel_l2"), std::string::npos);  // the winner's verification
  EXPECT_GE(count(html, "<circle"), 10u);
  // The winner's inspect view (what `ktune inspect --result ID` prints) is on the page.
  EXPECT_TRUE(summary.at("winner_inspected"));
  const std::string winner = "result " + std::to_string(summary.at("winner_result_id").get<std::int64_t>());
  const std::size_t inspect_at = html.find("<pre id=\"winner-inspect\">");
  ASSERT_NE(inspect_at, std::string::npos);
  EXPECT_NE(html.find(winner, inspect_at), std::string::npos);

  CommandResult plain = ktune("--json report latest --no-inspect -o " + path("plain.html").string());
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).at("winner_inspected"));
  EXPECT_EQ(slurp(path("plain.html")).find("<pre id=\"winner-inspect\">"), std::string::npos);
}

TEST_F(ReportCommand, ExportsAChromeTrace) {
  const fs::path trace_path = path("trace.json");
  CommandResult r = ktune("--json export --perfetto 1 -o " + trace_path.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary.at("results"), 10);
  EXPECT_EQ(summary.at("format"), "chrome-trace");
  const nlohmann::json trace = nlohmann::json::parse(slurp(trace_path));
  ASSERT_TRUE(trace.at("traceEvents").is_array());
  std::size_t compile = 0, measure = 0;
  for (const auto& e : trace.at("traceEvents")) {
    ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid")) << e.dump();
    if (e.at("ph") != "X") continue;
    EXPECT_GT(e.at("ts").get<double>(), 1e15);  // microseconds since 1970
    EXPECT_GE(e.at("dur").get<double>(), 0);
    if (e.at("cat") == "compile") ++compile;
    if (e.at("cat") == "measure") {
      ++measure;
      EXPECT_TRUE(e.at("args").at("config").contains("TILE_M"));
      EXPECT_TRUE(e.at("args").contains("status"));
    }
  }
  EXPECT_EQ(compile, 10u);  // every config compiles (the CPU compile cache is empty)
  EXPECT_EQ(compile, summary.at("compile_spans").get<std::size_t>());
  EXPECT_EQ(measure, summary.at("measure_spans").get<std::size_t>());
  EXPECT_GE(measure, 1u);

  // Standard output when there is no -o.
  CommandResult to_stdout = ktune("export --perfetto latest");
  ASSERT_EQ(to_stdout.code, 0) << to_stdout.err;
  EXPECT_EQ(nlohmann::json::parse(to_stdout.out).at("traceEvents").size(), trace.at("traceEvents").size());
}

TEST_F(ReportCommand, BadSessionsAreClearErrors) {
  CommandResult missing = ktune("report 999 -o " + path("x.html").string());
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("no session 999"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(path("x.html")));
  CommandResult garbage = ktune("report 12abc");
  EXPECT_EQ(garbage.code, 2);
  EXPECT_NE(garbage.err.find("expected a session id"), std::string::npos) << garbage.err;
  CommandResult mixed = ktune("export --perfetto 1 --format csv");
  EXPECT_EQ(mixed.code, 2) << mixed.err;
  CommandResult no_db = run_command(
      shell_quote(kKtune.string()) + " --db " + shell_quote(path("absent.db").string()) + " report 1", *dir_);
  EXPECT_EQ(no_db.code, 1);
  EXPECT_FALSE(fs::exists(path("absent.db")));
}

// Headless Chromium: the page parses into the same number of SVG charts, and every chart has
// marks with a non-empty layout box (getBBox), i.e. they are drawn.
TEST_F(ReportCommand, ChromiumDrawsTheCharts) {
  const std::string chromium = chromium_binary();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): rendering not checked";
  const fs::path html_path = path("render.html");
  CommandResult r = ktune("--json report 1 -o " + html_path.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t charts = nlohmann::json::parse(r.out).at("charts");
  const std::string flags = " --headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run"
                            " --user-data-dir=" + path("chromium-profile").string();

  CommandResult dom =
      run_command("timeout 120 " + chromium + flags + " --dump-dom file://" + html_path.string(), *dir_);
  ASSERT_EQ(dom.code, 0) << dom.err;
  EXPECT_EQ(count(dom.out, "<svg"), charts) << dom.out.substr(0, 2000);
  EXPECT_NE(dom.out.find("<circle"), std::string::npos);
  EXPECT_NE(dom.out.find("<path"), std::string::npos);

  // The report has no script; a copy with a probe appended measures what Chromium laid out.
  std::string probe_page = slurp(html_path);
  const std::string probe = R"(<script>
const rows = [];
document.querySelectorAll('svg.chart').forEach((svg, index) => {
  const box = svg.getBoundingClientRect();
  let marks = 0, drawn = 0;
  svg.querySelectorAll('circle, path').forEach(el => {
    marks++;
    const b = el.getBBox();
    if (b.width > 0 || b.height > 0) drawn++;
  });
  rows.push({index, width: box.width, height: box.height, marks, drawn});
});
const out = document.createElement('pre');
out.id = 'ktune-probe';
out.textContent = JSON.stringify(rows);
document.body.appendChild(out);
</script>)";
  probe_page.insert(probe_page.rfind("</body>"), probe);
  const fs::path probe_path = path("probe.html");
  std::ofstream(probe_path) << probe_page;
  CommandResult measured =
      run_command("timeout 120 " + chromium + flags + " --dump-dom file://" + probe_path.string(), *dir_);
  ASSERT_EQ(measured.code, 0) << measured.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(measured.out, m, std::regex("<pre id=\"ktune-probe\">([^<]*)</pre>"))) << measured.out.substr(0, 2000);
  const nlohmann::json rows = nlohmann::json::parse(m[1].str());
  ASSERT_EQ(rows.size(), charts);
  for (const auto& row : rows) {
    EXPECT_GT(row.at("width").get<double>(), 100) << row.dump();
    EXPECT_GT(row.at("height").get<double>(), 100) << row.dump();
    EXPECT_GT(row.at("marks").get<int>(), 0) << row.dump();
    EXPECT_EQ(row.at("drawn"), row.at("marks")) << row.dump();
  }

  // And a screenshot, for people looking at CI artifacts: it must at least be a PNG.
  const fs::path png = path("report.png");
  CommandResult shot = run_command("timeout 120 " + chromium + flags + " --window-size=1280,3000 --screenshot=" +
                                       png.string() + " file://" + html_path.string(),
                                   *dir_);
  ASSERT_EQ(shot.code, 0) << shot.err;
  const std::string bytes = slurp(png);
  ASSERT_GT(bytes.size(), 10000u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

}  // namespace
