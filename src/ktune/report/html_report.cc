#include "ktune/report/html_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "ktune/report/html_escape.h"
#include "ktune/report/progress.h"
#include "ktune/report/report_charts.h"

namespace ktune::report {

namespace {

constexpr std::size_t kMaxFailedRowsPerStatus = 200;
constexpr std::size_t kMaxErrorChars = 600;

constexpr const char* kStyle = R"css(
body { font-family: sans-serif; margin: 24px auto; max-width: 1180px; color: #222; padding: 0 12px; }
h1 { font-size: 1.4em; margin-bottom: 4px; } h2 { font-size: 1.15em; margin-top: 28px; border-bottom: 1px solid #ccc; }
h3 { font-size: 1em; }
table { border-collapse: collapse; font-size: 0.88em; margin: 6px 0 12px; }
td, th { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; }
th { background: #f3f3f3; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: monospace; font-size: 0.92em; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0; max-height: 9em; overflow: auto; }
#winner-inspect { max-height: 40em; }
.row { display: flex; flex-wrap: wrap; gap: 12px; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 8px; }
.counts span { display: inline-block; margin-right: 12px; padding: 2px 8px; border-radius: 3px; background: #eef; }
.counts span.bad { background: #fee; }
.muted { color: #777; }
svg.chart { background: #fff; max-width: 100%; height: auto; }
)css";

std::string esc(std::string_view s) { return escape_html(s); }

std::string fmt(double v, const char* format = "%.4g") {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

std::string time_or_dash(const std::optional<double>& s) { return s ? Progress::format_time(*s) : "-"; }

void facts_row(std::ostringstream& out, std::string_view name, std::string_view value) {
  out << "<tr><th>" << esc(name) << "</th><td>" << esc(value) << "</td></tr>";
}

void key_value_table(std::ostringstream& out, const std::vector<std::pair<std::string, std::string>>& rows,
                     const char* css_class) {
  out << "<table class=\"" << css_class << "\">";
  for (const auto& [k, v] : rows) out << "<tr><th>" << esc(k) << "</th><td><code>" << esc(v) << "</code></td></tr>";
  out << "</table>";
}

std::string truncate(const std::string& s, std::size_t n) { return s.size() > n ? s.substr(0, n) + " ..." : s; }

void flatten_into(const nlohmann::json& v, const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
  if (v.is_object() && !v.empty()) {
    for (const auto& [k, child] : v.items()) flatten_into(child, path.empty() ? k : path + "." + k, out);
    return;
  }
  if (v.is_array() && std::any_of(v.begin(), v.end(), [](const auto& e) { return e.is_structured(); })) {
    for (std::size_t i = 0; i < v.size(); ++i) flatten_into(v[i], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  out.emplace_back(path.empty() ? "(value)" : path, display_value(v));
}

void header(std::ostringstream& out, const SessionData& d, HtmlReportSummary& s) {
  out << "<header><h1>ktune report: " << esc(d.kernel.name) << " on " << esc(d.problem.name) << "</h1>";
  out << "<p class=\"muted\">session " << d.session.id << " · " << esc(d.device.name) << " · "
      << esc(d.session.state) << "</p>";
  out << "<table class=\"facts\">";
  facts_row(out, "kernel", d.kernel.name + " (" + d.kernel.language + ")" +
                               (d.kernel.source_path.empty() ? "" : ", " + d.kernel.source_path));
  facts_row(out, "kernel hash", d.kernel.hash);
  facts_row(out, "problem", d.problem.name);
  if (d.problem.sizes.is_object() && !d.problem.sizes.empty()) {
    std::string sizes;
    for (const auto& [k, v] : d.problem.sizes.items()) sizes += (sizes.empty() ? "" : ", ") + k + "=" + display_value(v);
    facts_row(out, "sizes", sizes);
  }
  facts_row(out, "device", d.device.name + " (" + d.device.backend + ")");
  facts_row(out, "device fingerprint", d.device.fingerprint);
  facts_row(out, "session", std::to_string(d.session.id) + ", strategy " + d.session.strategy);
  facts_row(out, "state", d.session.state);
  facts_row(out, "started", d.session.started_at);
  facts_row(out, "finished", d.session.finished_at.empty() ? "(not finished)" : d.session.finished_at);
  facts_row(out, "host", d.session.host + " (pid " + std::to_string(d.session.pid) + ")");
  if (d.session.options.is_object() && !d.session.options.empty())
    facts_row(out, "options", d.session.options.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  out << "</table>";
  std::map<std::string, std::size_t> by_status;
  for (const auto& r : d.results) ++by_status[std::string(db::to_string(r.status))];
  out << "<p class=\"counts\"><span>" << d.results.size() << " evaluated</span>";
  for (const auto& [status, n] : by_status)
    out << "<span class=\"" << (status == "ok" ? "ok" : "bad") << "\">" << esc(status) << ": " << n << "</span>";
  out << "</p></header>";
  s.results = d.results.size();
  s.failed = d.results.size() - (by_status.count("ok") ? by_status["ok"] : 0);
}

void failed_section(std::ostringstream& out, const SessionData& d) {
  std::map<std::string, std::vector<const db::ResultRecord*>> failed;
  for (const auto& r : d.results)
    if (r.status != db::Status::Ok) failed[std::string(db::to_string(r.status))].push_back(&r);
  out << "<h3>Configurations that did not run correctly</h3>";
  if (failed.empty()) {
    out << "<p class=\"muted\">none</p>";
    return;
  }
  for (const auto& [status, rows] : failed) {
    out << "<h4>" << esc(status) << " (" << rows.size() << ")</h4><table class=\"failed\"><tr><th>result</th><th>config</th><th>error</th></tr>";
    for (std::size_t i = 0; i < rows.size() && i < kMaxFailedRowsPerStatus; ++i)
      out << "<tr><td class=\"num\">" << rows[i]->id << "</td><td><code>" << esc(rows[i]->config_key)
          << "</code></td><td><pre>" << esc(truncate(rows[i]->error, kMaxErrorChars)) << "</pre></td></tr>";
    out << "</table>";
    if (rows.size() > kMaxFailedRowsPerStatus)
      out << "<p class=\"muted\">... and " << rows.size() - kMaxFailedRowsPerStatus << " more (ktune results --session "
          << d.session.id << " --status " << esc(status) << ")</p>";
  }
}

void winner_section(std::ostringstream& out, const SessionData& d, const HtmlReportOptions& options,
                    HtmlReportSummary& s) {
  out << "<section id=\"winner\"><h2>The winner</h2>";
  const auto index = fastest_result(d.results);
  if (!index) {
    out << "<p>No configuration ran correctly in this session.</p></section>";
    return;
  }
  const db::ResultRecord& w = d.results[*index];
  s.winner_result_id = w.id;
  out << "<p>result " << w.id << ": <code>" << esc(w.config_key) << "</code></p><div class=\"row\"><div><h3>Configuration</h3>";
  std::vector<std::pair<std::string, std::string>> config;
  if (w.config.is_object())
    for (const auto& [k, v] : w.config.items()) config.emplace_back(k, display_value(v));
  key_value_table(out, config, "config");
  out << "</div><div><h3>Measurement</h3>";
  std::vector<std::pair<std::string, std::string>> stats = {
      {"median", time_or_dash(w.median_s)}, {"mean", time_or_dash(w.mean_s)},   {"min", time_or_dash(w.min_s)},
      {"max", time_or_dash(w.max_s)},       {"q1", time_or_dash(w.q1_s)},       {"q3", time_or_dash(w.q3_s)},
      {"stdev", time_or_dash(w.stdev_s)},   {"samples", std::to_string(w.samples)}, {"stop reason", w.stop_reason}};
  if (w.median_s && w.stdev_s && *w.median_s > 0) stats.emplace_back("relative stdev", fmt(100 * *w.stdev_s / *w.median_s, "%.2f %%"));
  if (w.gflops) stats.emplace_back("GFLOP/s", fmt(*w.gflops));
  if (w.gbps) stats.emplace_back("GB/s", fmt(*w.gbps));
  if (w.gflops && w.gbps && *w.gbps > 0) stats.emplace_back("intensity (FLOP/byte)", fmt(*w.gflops / *w.gbps));
  stats.emplace_back("compile", fmt(w.compile_seconds, "%.3f s") + (w.compile_cache_hit ? " (cache hit)" : ""));
  stats.emplace_back("recorded", w.created_at);
  // How much faster than the median configuration: the payoff of tuning.
  std::vector<double> times;
  for (const auto& r : d.results)
    if (has_time(r)) times.push_back(*r.median_s);
  std::sort(times.begin(), times.end());
  if (times.size() > 1 && w.median_s) {
    stats.emplace_back("speedup over the median config", fmt(times[times.size() / 2] / *w.median_s, "%.2fx"));
    stats.emplace_back("speedup over the slowest", fmt(times.back() / *w.median_s, "%.2fx"));
  }
  key_value_table(out, stats, "stats");
  out << "</div></div><h3>Resources</h3>";
  if (w.resources.is_object() && !w.resources.empty()) key_value_table(out, flatten_json(w.resources), "resources");
  else out << "<p class=\"muted\">none recorded</p>";
  out << "<h3>Verification</h3>";
  if (w.verification.is_object() && !w.verification.empty()) key_value_table(out, flatten_json(w.verification), "verification");
  else out << "<p class=\"muted\">no verification recorded (the spec has no reference)</p>";
  if (options.inspect_winner) {
    out << "<h3>Inspect: resources, occupancy, ISA findings</h3>";
    std::string text;
    try {
      text = options.inspect_winner(w.id);
    } catch (const std::exception& e) {
      text = std::string("inspect failed: ") + e.what();
    }
    out << "<pre id=\"winner-inspect\">" << esc(text) << "</pre>";
    s.winner_inspected = true;
  }
  out << "</section>";
}

}  // namespace

nlohmann::json HtmlReportSummary::to_json() const {
  nlohmann::json j = {{"results", results},
                      {"timed", timed},
                      {"failed", failed},
                      {"charts", charts},
                      {"sensitivity_parameters", sensitivity_parameters},
                      {"roofline_points", roofline_points},
                      {"calibrated", calibrated},
                      {"winner_result_id", nullptr},
                      {"winner_inspected", winner_inspected}};
  if (winner_result_id) j["winner_result_id"] = *winner_result_id;
  return j;
}

std::vector<std::pair<std::string, std::string>> flatten_json(const nlohmann::json& value) {
  std::vector<std::pair<std::string, std::string>> out;
  flatten_into(value, "", out);
  return out;
}

// Where the session's time went: each recorded phase summed over the results, with its share of
// the worker calls (phases overlap: compiles run ahead on other threads).
void phases_section(std::ostringstream& out, const SessionData& d) {
  std::map<std::string, double> totals;
  for (const auto& r : d.results)
    if (r.phases.is_object())
      for (const auto& [phase, seconds] : r.phases.items())
        if (seconds.is_number()) totals[phase] += seconds.get<double>();
  if (totals.empty()) return;
  const double calls = totals.count("worker_call") ? totals["worker_call"] : 0;
  out << "<section id=\"phases\"><h2>Where the time went</h2><p class=\"muted\">Seconds summed over "
      << d.results.size() << " results. Compiles run ahead in a thread pool, so they overlap the worker's phases; "
      << "the share is of the worker calls.</p><table class=\"facts\"><tr><th>phase</th><th>seconds</th>"
      << "<th>per result</th><th>share</th></tr>";
  for (const auto& [phase, seconds] : totals) {
    out << "<tr><th>" << esc(phase) << "</th><td>" << fmt(seconds) << "</td><td>"
        << fmt(seconds / static_cast<double>(std::max<std::size_t>(d.results.size(), 1))) << "</td><td>"
        << (calls > 0 && phase != "compile" && phase != "compile_wait" ? fmt(100 * seconds / calls, "%.1f") + "%" : "-")
        << "</td></tr>";
  }
  out << "</table></section>\n";
}

std::string_view report_stylesheet() { return kStyle; }

std::string render_html_report(const SessionData& d, const HtmlReportOptions& options, HtmlReportSummary* summary) {
  HtmlReportSummary s;
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      << "<title>ktune report: session " << d.session.id << ", " << esc(d.kernel.name) << "</title><style>" << kStyle
      << "</style></head><body>\n";
  header(out, d, s);
  for (const auto& r : d.results)
    if (has_time(r)) ++s.timed;

  out << "\n<section id=\"times\"><h2>Every configuration</h2>" << sorted_times_chart(d.results);
  ++s.charts;
  failed_section(out, d);
  out << "</section>\n<section id=\"progress\"><h2>Best so far</h2><div class=\"row\">"
      << best_so_far_chart(d.results, ProgressAxis::Evaluation) << best_so_far_chart(d.results, ProgressAxis::WallTime)
      << "</div></section>\n";
  s.charts += 2;

  out << "<section id=\"sensitivity\"><h2>Parameter sensitivity</h2>"
      << "<p class=\"muted\">Median (blue) and best (green) time of the timed configurations having each value.</p>";
  std::vector<std::string> constant;
  const auto multiples = sensitivity_charts(d.results, &constant);
  if (multiples.empty()) out << "<p class=\"muted\">No parameter took two or more values among the timed configurations.</p>";
  out << "<div class=\"multiples\">";
  for (const auto& m : multiples) {
    out << m.svg;
    s.sensitivity_parameters.push_back(m.parameter);
    ++s.charts;
  }
  out << "</div>";
  if (!constant.empty()) {
    out << "<p class=\"muted\">Constant: ";
    for (std::size_t i = 0; i < constant.size(); ++i) out << (i ? ", " : "") << "<code>" << esc(constant[i]) << "</code>";
    out << "</p>";
  }
  out << "</section>\n<section id=\"roofline\"><h2>Roofline</h2>" << roofline_chart(d.results, d.ceilings);
  ++s.charts;
  for (const auto& r : d.results)
    if (has_time(r) && r.gflops && r.gbps) s.roofline_points = true;
  s.calibrated = d.ceilings && !d.ceilings->empty();
  if (s.calibrated) {
    out << "<p class=\"muted\">Ceilings from " << esc(d.ceilings->source) << ".</p>";
  } else {
    out << "<p>No calibration: run <code>ktune calibrate</code> to measure this device's ceilings. The points show "
           "achieved GFLOP/s against arithmetic intensity only.</p>";
  }
  out << "</section>\n";
  phases_section(out, d);
  winner_section(out, d, options, s);
  out << "\n<footer class=\"muted\"><p>ktune report";
  if (!options.generated_at.empty()) out << ", generated " << esc(options.generated_at);
  out << ". Database: session " << d.session.id << ", " << d.results.size() << " results.</p></footer></body></html>\n";
  if (summary) *summary = s;
  return out.str();
}

}  // namespace ktune::report
