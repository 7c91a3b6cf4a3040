#include "ktune/report/strategy_comparison_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

#include "ktune/report/html_escape.h"
#include "ktune/report/html_report.h"
#include "ktune/report/progress.h"
#include "ktune/report/report_charts.h"
#include "ktune/report/svg_chart.h"

namespace ktune::report {
namespace {

using nlohmann::json;

// Paul Tol's colour-blind-safe qualitative colours (the report's charts use the same family).
constexpr const char* kPalette[] = {"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
                                    "#332288", "#cc6600", "#117733", "#882255", "#44aa99", "#555555"};
constexpr const char* kReferenceColor = "#888888";
constexpr const char* kKernelTunerDash = "6 3";
// Early in the budget a strategy can be far worse than random; plotting that would squeeze the
// range that matters (0 to 1) into a sliver, so lower points are drawn at this floor and noted.
constexpr double kPerformanceFloor = -1.0;

constexpr const char* kExtraStyle = R"css(
tr.best td { background: #e9f6ec; font-weight: bold; }
td.strategy { white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; vertical-align: baseline; }
.swatch.dashed { background-clip: content-box; border: 1px dashed #444; width: 8px; height: 8px; }
)css";

using ColourMap = std::map<std::string, std::string>;

struct Named {
  std::string name;
  const json* value = nullptr;
  double score = 0;  // NaN when missing or null
};

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

const json& object_at(const json& j, const char* key) {
  static const json empty = json::object();
  const json* v = member(j, key);
  return v && v->is_object() ? *v : empty;
}

// A finite number, or NaN for absent keys, null (how simulate writes NaN) and non-numbers.
double number_at(const json& j, const char* key) {
  const json* v = member(j, key);
  const double d = v && v->is_number() ? v->get<double>() : std::numeric_limits<double>::quiet_NaN();
  return std::isfinite(d) ? d : std::numeric_limits<double>::quiet_NaN();
}

std::string fixed(double v, const char* format) {
  if (std::isnan(v)) return "-";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

std::string time_or_dash(double seconds) { return std::isnan(seconds) ? "-" : Progress::format_time(seconds); }

std::string text_at(const json& j, const char* key) {
  const json* v = member(j, key);
  return !v || v->is_null() ? "-" : display_value(*v);
}

bool is_kernel_tuner(const std::string& strategy) { return strategy.starts_with("kt:"); }

// simulate writes {name: {...}}; a list of {"strategy": name, ...} is accepted too. Best score
// first; strategies without a score (no defined point on their curve) last.
std::vector<Named> named_entries(const json* j) {
  std::vector<Named> out;
  if (j && j->is_object()) {
    for (const auto& item : j->items()) out.push_back({item.key(), &item.value(), number_at(item.value(), "score")});
  } else if (j && j->is_array()) {
    for (const json& v : *j)
      if (v.is_object()) out.push_back({text_at(v, "strategy"), &v, number_at(v, "score")});
  }
  std::stable_sort(out.begin(), out.end(), [](const Named& a, const Named& b) {
    if (std::isnan(a.score) != std::isnan(b.score)) return std::isnan(b.score);
    return a.score > b.score;
  });
  return out;
}

// One colour per strategy for the whole page, so a strategy looks the same in every chart.
ColourMap assign_colours(const std::vector<Named>& aggregate, const json* spaces) {
  ColourMap colours;
  const auto add = [&](const std::string& name) {
    if (!colours.count(name)) colours[name] = kPalette[colours.size() % std::size(kPalette)];
  };
  for (const Named& a : aggregate) add(a.name);
  if (spaces && spaces->is_array())
    for (const json& space : *spaces)
      for (const Named& s : named_entries(member(space, "strategies"))) add(s.name);
  return colours;
}

std::string colour_of(const ColourMap& colours, const std::string& name) {
  const auto it = colours.find(name);
  return it == colours.end() ? kPalette[0] : it->second;
}

std::string strategy_cell(const ColourMap& colours, const std::string& name) {
  return "<td class=\"strategy\"><span class=\"swatch" + std::string(is_kernel_tuner(name) ? " dashed" : "") + "\" style=\"background:" +
         escape_html(colour_of(colours, name)) + "\"></span>" + escape_html(name) + "</td>";
}

// Contiguous runs of defined points. A null (the baseline already at the optimum) or a
// non-finite value ends a run, so the chart leaves a gap rather than bridging it.
std::vector<std::vector<ChartPoint>> curve_runs(const json* curve) {
  std::vector<std::vector<ChartPoint>> runs(1);
  if (curve && curve->is_array()) {
    for (const json& p : *curve) {
      const bool numbers = p.is_array() && p.size() >= 2 && p[0].is_number() && p[1].is_number();
      const ChartPoint point = numbers ? ChartPoint{p[0].get<double>(), p[1].get<double>()} : ChartPoint{NAN, NAN};
      if (std::isfinite(point.x) && std::isfinite(point.y)) {
        runs.back().push_back(point);
      } else if (!runs.back().empty()) {
        runs.emplace_back();
      }
    }
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

struct Curve {
  std::string name;
  std::vector<std::vector<ChartPoint>> runs;
};

struct Bounds {
  double x_lo = NAN, x_hi = NAN;
  double y_lo = 0, y_hi = 1;  // always spans random (0) and the optimum (1)
  std::size_t floored = 0;    // points drawn at kPerformanceFloor
  std::size_t points = 0;
};

// The time range the methodology sampled, widened to every point; points below the floor are
// moved onto it.
Bounds fit_bounds(const json& space, std::vector<Curve>& curves) {
  Bounds b;
  const json& range = object_at(space, "time_range");
  b.x_lo = number_at(range, "start_seconds");
  b.x_hi = number_at(range, "end_seconds");
  for (Curve& c : curves) {
    for (auto& run : c.runs) {
      for (ChartPoint& p : run) {
        b.x_lo = std::isnan(b.x_lo) ? p.x : std::min(b.x_lo, p.x);
        b.x_hi = std::isnan(b.x_hi) ? p.x : std::max(b.x_hi, p.x);
        if (p.y < kPerformanceFloor) p.y = kPerformanceFloor, ++b.floored;
        b.y_lo = std::min(b.y_lo, p.y);
        b.y_hi = std::max(b.y_hi, p.y);
        ++b.points;
      }
    }
  }
  if (std::isnan(b.x_lo)) b.x_lo = 0, b.x_hi = 1;
  return b;
}

void draw_reference_lines(SvgChart& chart) {
  const double left = chart.x().lo(), right = chart.x().hi();
  chart.segment({left, 0}, {right, 0}, kReferenceColor, 1, "reference");
  chart.segment({left, 1}, {right, 1}, kReferenceColor, 1, "reference");
  chart.label({right, 0}, "random ", kReferenceColor, "end", 10);
  chart.label({right, 1}, "optimum ", kReferenceColor, "end", 10);
}

// The chart, then (below it, where it cannot collide with the legend) what was drawn at the floor.
void curve_chart(std::ostringstream& out, const json& space, const std::vector<Named>& strategies,
                 const ColourMap& colours) {
  std::vector<Curve> curves;
  for (const Named& s : strategies) curves.push_back({s.name, curve_runs(member(*s.value, "curve"))});
  const Bounds b = fit_bounds(space, curves);
  AxisSpec x, y;
  x.label = "seconds of the simulated clock";
  x.lo = b.x_lo, x.hi = b.x_hi;
  y.label = "performance (0 random, 1 optimum)";
  y.lo = b.y_lo - 0.05, y.hi = b.y_hi + 0.05;
  SvgChart chart(760, 340, "Performance over time: " + text_at(space, "space"), x, y);
  chart.draw_axes();
  draw_reference_lines(chart);
  std::vector<std::pair<std::string, std::string>> legend;
  for (const Curve& c : curves) {
    const std::string colour = colour_of(colours, c.name);
    const std::string_view dash = is_kernel_tuner(c.name) ? kKernelTunerDash : "";
    for (const auto& run : c.runs) {
      if (run.size() == 1) chart.points(run, colour, 2);  // a lone point has no line to draw
      else chart.polyline(run, colour, 1.8, "curve", dash);
    }
    legend.emplace_back(colour, c.name);
  }
  if (b.points == 0) {
    chart.note("no strategy has a defined point: nothing to plot");
  } else {
    chart.legend(legend);
  }
  out << chart.str() << "\n";
  if (b.floored > 0)
    out << "<p class=\"muted\">" << b.floored << " points below " << fixed(kPerformanceFloor, "%g")
        << " (far worse than random search) are drawn at " << fixed(kPerformanceFloor, "%g") << ".</p>\n";
}

std::string overhead_text(const json& space, const std::string& strategy) {
  const json* list = member(space, "overhead");
  if (!list || !list->is_array()) return "-";
  for (const json& o : *list)
    if (text_at(o, "strategy") == strategy)
      return fixed(number_at(o, "ms_per_evaluation"), "%.3g") + " (max " + fixed(number_at(o, "ms_max"), "%.3g") + ")";
  return "-";
}

// The median repeat's evaluations to reach the target, or why there is none.
std::string evaluations_text(const json& near) {
  const json* median = member(near, "median");
  if (median && median->is_null()) return "not reached";
  return fixed(number_at(near, "median"), "%.1f");
}

void space_table(std::ostringstream& out, const json& space, const std::vector<Named>& strategies,
                 const ColourMap& colours) {
  const double target = number_at(object_at(*strategies.front().value, "evaluations_to_near_optimal"),
                                   "fraction_of_optimum");
  const std::string percent = fixed(100 * (std::isnan(target) ? 0.95 : target), "%g") + "%";
  out << "<table class=\"strategies\"><tr><th>strategy</th><th>score</th><th>repeats</th><th>evaluations to "
      << percent << "</th><th>random search</th><th>fraction</th><th>reached</th><th>overhead ms/eval</th></tr>\n";
  for (const Named& s : strategies) {
    const json& near = object_at(*s.value, "evaluations_to_near_optimal");
    out << "<tr>" << strategy_cell(colours, s.name) << "<td class=\"num\">" << fixed(s.score, "%.3f")
        << "</td><td class=\"num\">" << escape_html(text_at(*s.value, "repeats")) << "</td><td class=\"num\">"
        << escape_html(evaluations_text(near)) << "</td><td class=\"num\">"
        << fixed(number_at(near, "random_expected"), "%.1f") << "</td><td class=\"num\">"
        << fixed(number_at(near, "fraction_of_random"), "%.2f") << "</td><td class=\"num\">"
        << escape_html(text_at(near, "repeats_reached")) << "</td><td class=\"num\">"
        << escape_html(overhead_text(space, s.name)) << "</td></tr>\n";
  }
  out << "</table>\n<p class=\"muted\">Evaluations to " << percent
      << ": the median over repeats of the evaluations a strategy needed to find a configuration within " << percent
      << " of the optimum's performance (a repeat that never did counts as infinite), random search's expected number, "
         "and their ratio; reached: repeats that got there. Overhead: the strategy's own time per proposal (mean, "
         "and the slowest).</p>\n";
}

void space_facts(std::ostringstream& out, const json& space) {
  const json& range = object_at(space, "time_range");
  out << "<p>" << escape_html(text_at(space, "configurations")) << " configurations ("
      << escape_html(text_at(space, "successful")) << " ran correctly); optimum "
      << time_or_dash(number_at(space, "optimum")) << ", median " << time_or_dash(number_at(space, "median"))
      << ". Performance sampled from " << fixed(number_at(range, "start_seconds"), "%.4g") << " s to "
      << fixed(number_at(range, "end_seconds"), "%.4g") << " s of the simulated clock (random search's "
      << escape_html(text_at(range, "start_evaluations")) << " to " << escape_html(text_at(range, "end_evaluations"))
      << " evaluations); each run's budget " << fixed(number_at(space, "budget_seconds"), "%.4g") << " s.";
  const double unrecorded = number_at(space, "unrecorded");
  if (unrecorded > 0)
    out << " <span class=\"muted\">" << fixed(unrecorded, "%.0f")
        << " proposals were not in the recording and cost the mean evaluation time without a result.</span>";
  out << "</p>\n";
}

void space_section(std::ostringstream& out, const json& space, const ColourMap& colours) {
  out << "<section class=\"space\"><h2>" << escape_html(text_at(space, "space")) << "</h2>\n";
  space_facts(out, space);
  const std::vector<Named> strategies = named_entries(member(space, "strategies"));
  if (strategies.empty()) {
    out << "<p class=\"muted\">No strategy ran on this space: nothing to compare.</p></section>\n";
    return;
  }
  space_table(out, space, strategies, colours);
  curve_chart(out, space, strategies, colours);
  out << "</section>\n";
}

void aggregate_section(std::ostringstream& out, const std::vector<Named>& aggregate, const ColourMap& colours) {
  out << "<section id=\"aggregate\"><h2>Aggregate over spaces</h2>\n";
  if (aggregate.empty()) {
    out << "<p class=\"muted\">No aggregate scores.</p></section>\n";
    return;
  }
  out << "<table class=\"aggregate\"><tr><th>strategy</th><th>score</th><th>error</th><th>spaces</th></tr>\n";
  for (const Named& a : aggregate) {
    // Ties with the top score are all best; a missing score never is.
    const bool best = !std::isnan(a.score) && a.score == aggregate.front().score;
    out << "<tr" << (best ? " class=\"best\"" : "") << ">" << strategy_cell(colours, a.name) << "<td class=\"num\">"
        << fixed(a.score, "%.3f") << "</td><td class=\"num\">" << fixed(number_at(*a.value, "error"), "%.3f")
        << "</td><td class=\"num\">" << escape_html(text_at(*a.value, "spaces")) << "</td></tr>\n";
  }
  out << "</table></section>\n";
}

void methodology(std::ostringstream& out, const json& comparison) {
  const json* spaces = member(comparison, "spaces");
  static const json none = json::object();
  const json& first = spaces && spaces->is_array() && !spaces->empty() ? (*spaces)[0] : none;
  const double start = number_at(first, "cutoff_percentile_start"), end = number_at(first, "cutoff_percentile");
  const json& options = object_at(comparison, "options");
  out << "<p>Every strategy searched every space repeatedly in simulation: each configuration it proposed cost the "
         "compile and measurement time recorded for it, so the clock is the recorded tuning time, not this "
         "machine's. Following Willemsen et al. (2024), the best time a strategy found by time <i>t</i> is compared "
         "with what random search is expected to have found by then: performance 0 is as good as random search, 1 "
         "is the optimum, below 0 worse than random. <i>t</i> runs over the time random search needs to get from "
      << fixed(100 * (std::isnan(start) ? 0.01 : start), "%g") << "% to "
      << fixed(100 * (std::isnan(end) ? 0.95 : end), "%g")
      << "% of the way from the median to the optimum; a strategy's score on a space is its mean performance over "
         "that time, and its aggregate score the mean over the spaces (error: the standard deviation over time of "
         "the spaces' mean curve). Kernel Tuner's strategies (names starting with <code>kt:</code>) replay its "
         "recorded searches and are drawn dashed.";
  if (member(options, "repeats"))
    out << " Repeats per strategy and space: " << escape_html(text_at(options, "repeats")) << ".";
  out << "</p>\n";
}

}  // namespace

std::string render_strategy_comparison_html(const json& comparison, const std::string& title) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" << escape_html(title)
      << "</title><style>" << report_stylesheet() << kExtraStyle << "</style></head><body>\n<header><h1>"
      << escape_html(title) << "</h1></header>\n";
  const json* spaces = member(comparison, "spaces");
  const std::vector<Named> aggregate = named_entries(member(comparison, "aggregate"));
  const bool has_spaces = spaces && spaces->is_array() && !spaces->empty();
  if (!has_spaces && aggregate.empty()) {
    out << "<p>This comparison has no search spaces and no scores: nothing to show.</p>\n</body></html>\n";
    return out.str();
  }
  methodology(out, comparison);
  const ColourMap colours = assign_colours(aggregate, spaces);
  aggregate_section(out, aggregate, colours);
  if (!has_spaces) out << "<p class=\"muted\">No search spaces in this comparison.</p>\n";
  if (has_spaces)
    for (const json& space : *spaces) space_section(out, space, colours);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace ktune::report
