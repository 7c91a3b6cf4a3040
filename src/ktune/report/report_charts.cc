#include "ktune/report/report_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "ktune/report/progress.h"
#include "ktune/report/svg_chart.h"

namespace ktune::report {

namespace {

constexpr const char* kPointColor = "#4477aa";
constexpr const char* kWinnerColor = "#ee3377";
constexpr const char* kBestColor = "#228833";
constexpr const char* kFaintColor = "#99aabb";
constexpr const char* kRoofColor = "#cc6600";

std::string time_label(double seconds) { return Progress::format_time(seconds); }

// Axis ticks: "100 ms", "2.5 us", "0" (shorter than time_label's fixed decimals).
std::string time_tick(double seconds) {
  if (seconds == 0) return "0";
  struct Unit {
    double scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
  for (const auto& u : kUnits) {
    if (std::abs(seconds) >= u.scale * 0.9999 || u.scale == 1e-9) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.3g %s", seconds / u.scale, u.name);
      return buffer;
    }
  }
  return "";
}

std::string number(double v, const char* format = "%.3g") {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, v);
  return buffer;
}

// A y axis for times: log when wide; bounds from the data with a little room.
AxisSpec time_axis(const std::vector<double>& times, const std::string& label) {
  AxisSpec y;
  y.label = label;
  y.format = time_tick;
  y.kind = AxisScale::choose_kind(times);
  if (times.empty()) {
    y.lo = 0, y.hi = 1;
    return y;
  }
  auto [lo, hi] = std::minmax_element(times.begin(), times.end());
  y.lo = *lo, y.hi = *hi;
  if (y.kind == AxisKind::Linear) {
    // Times are positive: start at zero unless the spread is tiny, where zero hides it.
    y.lo = (*hi - *lo) > 0.2 * *hi ? 0 : *lo - 0.1 * (*hi - *lo + *hi * 0.01);
    y.hi = *hi + 0.05 * (*hi - *lo + *hi * 0.01);
  }
  return y;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string tooltip(const db::ResultRecord& r) {
  std::string t = "result " + std::to_string(r.id) + ": " + r.config_key;
  if (r.median_s) t += "\nmedian " + time_label(*r.median_s);
  if (r.q1_s && r.q3_s) t += " (q1 " + time_label(*r.q1_s) + ", q3 " + time_label(*r.q3_s) + ")";
  if (r.gflops) t += "\n" + number(*r.gflops) + " GFLOP/s";
  return t;
}

}  // namespace

bool has_time(const db::ResultRecord& r) { return r.status == db::Status::Ok && r.median_s && *r.median_s > 0; }

std::optional<std::size_t> fastest_result(const std::vector<db::ResultRecord>& results) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (has_time(results[i]) && (!best || *results[i].median_s < *results[*best].median_s)) best = i;
  return best;
}

std::string display_value(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string sorted_times_chart(const std::vector<db::ResultRecord>& results) {
  std::vector<const db::ResultRecord*> timed;
  for (const auto& r : results)
    if (has_time(r)) timed.push_back(&r);
  std::stable_sort(timed.begin(), timed.end(), [](auto* a, auto* b) { return *a->median_s < *b->median_s; });
  std::vector<double> times;
  for (auto* r : timed) {
    times.push_back(*r->median_s);
    if (r->q1_s && *r->q1_s > 0) times.push_back(*r->q1_s);
    if (r->q3_s && *r->q3_s > 0) times.push_back(*r->q3_s);
  }
  AxisSpec x;
  x.label = "configurations, fastest first";
  x.lo = timed.empty() ? 0 : 0.5;
  x.hi = timed.empty() ? 1 : static_cast<double>(timed.size()) + 0.5;
  x.nice = false;
  x.format = [](double v) { return v == std::floor(v) && v >= 1 ? number(v, "%.0f") : std::string(); };
  SvgChart chart(760, 320, "Median time of every configuration (" + std::to_string(timed.size()) + " timed)", x,
                 time_axis(times, "median time"));
  chart.draw_axes();
  if (timed.empty()) {
    chart.note("no configuration ran correctly: nothing to plot");
    return chart.str();
  }
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const auto* r = timed[i];
    if (r->q1_s && r->q3_s && *r->q1_s > 0 && *r->q3_s > 0)
      chart.segment({static_cast<double>(i + 1), *r->q1_s}, {static_cast<double>(i + 1), *r->q3_s}, kFaintColor, 1,
                    "whisker");
  }
  std::vector<ChartPoint> others;
  std::vector<std::string> tips;
  for (std::size_t i = 1; i < timed.size(); ++i) {
    others.push_back({static_cast<double>(i + 1), *timed[i]->median_s});
    tips.push_back(tooltip(*timed[i]));
  }
  const double radius = timed.size() > 400 ? 1.5 : timed.size() > 100 ? 2.2 : 3;
  chart.points(others, kPointColor, radius, tips, "point");
  chart.points({{1, *timed[0]->median_s}}, kWinnerColor, radius + 1.5, {"fastest: " + tooltip(*timed[0])}, "winner");
  chart.legend({{kWinnerColor, "fastest"}, {kPointColor, "other configurations"}, {kFaintColor, "q1-q3"}});
  return chart.str();
}

std::string best_so_far_chart(const std::vector<db::ResultRecord>& results, ProgressAxis axis) {
  const bool wall = axis == ProgressAxis::WallTime;
  double t0 = std::numeric_limits<double>::infinity();
  for (const auto& r : results)
    if (r.started_at_unix > 0) t0 = std::min(t0, r.started_at_unix);
  auto x_of = [&](std::size_t index, const db::ResultRecord& r) -> std::optional<double> {
    if (!wall) return static_cast<double>(index + 1);
    if (r.finished_at_unix <= 0 || !std::isfinite(t0)) return std::nullopt;
    return std::max(0.0, r.finished_at_unix - t0);
  };
  std::vector<ChartPoint> all, best;
  std::vector<std::string> tips;
  std::vector<double> times;
  double x_max = 0;
  std::optional<double> running;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    const auto x = x_of(i, r);
    if (!x) continue;
    x_max = std::max(x_max, *x);
    if (!has_time(r)) continue;
    all.push_back({*x, *r.median_s});
    tips.push_back(tooltip(r));
    times.push_back(*r.median_s);
    if (!running || *r.median_s < *running) {
      running = *r.median_s;
      best.push_back({*x, *running});
    }
  }
  if (!best.empty() && x_max > best.back().x) best.push_back({x_max, best.back().y});
  AxisSpec x;
  x.label = wall ? "seconds since the first evaluation started" : "evaluation (every status counts)";
  x.lo = wall ? 0 : 1;
  x.hi = std::max(x_max, x.lo + 1);
  if (!wall) x.format = [](double v) { return v == std::floor(v) ? number(v, "%.0f") : std::string(); };
  SvgChart chart(370, 260, wall ? "Best so far against wall time" : "Best so far against evaluations", x,
                 time_axis(times, "median time"));
  chart.draw_axes();
  if (all.empty()) {
    chart.note(wall && !std::isfinite(t0) ? "no timestamps recorded" : "no configuration ran correctly");
    return chart.str();
  }
  chart.points(all, kFaintColor, 2, tips, "point");
  chart.step_line(best, kBestColor, 2, "best");
  return chart.str();
}

std::vector<SensitivityChart> sensitivity_charts(const std::vector<db::ResultRecord>& results,
                                                 std::vector<std::string>* constant) {
  // parameter -> value (as JSON text) -> times; the JSON keeps 64 and "64" apart.
  std::map<std::string, std::map<std::string, std::vector<double>>> groups;
  std::map<std::string, nlohmann::json> first_value;
  for (const auto& r : results) {
    if (!has_time(r) || !r.config.is_object()) continue;
    for (const auto& [name, value] : r.config.items()) {
      groups[name][value.dump()].push_back(*r.median_s);
      first_value.emplace(name, value);
    }
  }
  constexpr std::size_t kMaxCategories = 40;
  std::vector<SensitivityChart> out;
  for (auto& [name, by_value] : groups) {
    if (by_value.size() < 2) {
      if (constant) constant->push_back(name + "=" + display_value(first_value[name]));
      continue;
    }
    struct Category {
      nlohmann::json value;
      double median = 0, best = 0;
      std::size_t count = 0;
    };
    std::vector<Category> categories;
    for (auto& [text, times] : by_value) {
      Category c;
      c.value = nlohmann::json::parse(text);
      c.median = median_of(times);
      c.best = *std::min_element(times.begin(), times.end());
      c.count = times.size();
      categories.push_back(std::move(c));
    }
    // Numbers in numeric order first, then everything else by its text (e.g. "128x256").
    std::sort(categories.begin(), categories.end(), [](const Category& a, const Category& b) {
      const bool an = a.value.is_number(), bn = b.value.is_number();
      if (an != bn) return an;
      if (an) return a.value.get<double>() < b.value.get<double>();
      return display_value(a.value) < display_value(b.value);
    });
    const std::size_t total = categories.size();
    if (categories.size() > kMaxCategories) categories.resize(kMaxCategories);
    std::vector<double> times;
    std::vector<std::string> names;
    std::vector<ChartPoint> medians, bests;
    std::vector<std::string> tips;
    for (std::size_t i = 0; i < categories.size(); ++i) {
      const auto& c = categories[i];
      times.push_back(c.median);
      times.push_back(c.best);
      names.push_back(display_value(c.value));
      medians.push_back({static_cast<double>(i), c.median});
      bests.push_back({static_cast<double>(i), c.best});
      tips.push_back(name + "=" + display_value(c.value) + ": median " + time_label(c.median) + " over " +
                     std::to_string(c.count) + " config" + (c.count == 1 ? "" : "s") + ", best " + time_label(c.best));
    }
    AxisSpec x;
    x.label = name + (total > categories.size() ? " (first " + std::to_string(categories.size()) + " of " +
                                                      std::to_string(total) + " values)"
                                                : "");
    x.lo = -0.5;
    x.hi = static_cast<double>(categories.size()) - 0.5;
    x.nice = false;
    SvgChart chart(300, 220, name, x, time_axis(times, "time"));
    chart.draw_axes(names);
    chart.polyline(medians, kPointColor, 1.5, "median-line");
    chart.points(bests, kBestColor, 2, {}, "best");
    chart.points(medians, kPointColor, 3, tips, "median");
    out.push_back({name, total, chart.str()});
  }
  return out;
}

std::string roofline_chart(const std::vector<db::ResultRecord>& results, const std::optional<Ceilings>& ceilings) {
  std::vector<ChartPoint> points;
  std::vector<std::string> tips;
  std::optional<std::size_t> winner = fastest_result(results);
  std::optional<ChartPoint> winner_point;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!has_time(r) || !r.gflops || !r.gbps || !(*r.gflops > 0) || !(*r.gbps > 0)) continue;
    const ChartPoint p{*r.gflops / *r.gbps, *r.gflops};
    if (winner && *winner == i) winner_point = p;
    points.push_back(p);
    tips.push_back(tooltip(r) + "\nintensity " + number(p.x) + " FLOP/byte, " + number(*r.gbps) + " GB/s");
  }
  const bool calibrated = ceilings && !ceilings->empty();
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = 0, y_lo = x_lo, y_hi = 0;
  for (const auto& p : points) {
    x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x);
    y_lo = std::min(y_lo, p.y), y_hi = std::max(y_hi, p.y);
  }
  if (points.empty()) x_lo = 0.1, x_hi = 100, y_lo = 1, y_hi = 1000;
  x_lo /= 4, x_hi *= 4, y_lo /= 2, y_hi *= 2;
  if (calibrated) {
    for (const auto& [name, peak] : ceilings->compute_gflops) {
      y_hi = std::max(y_hi, peak * 1.5);
      if (ceilings->memory_gbps) x_hi = std::max(x_hi, 2 * peak / *ceilings->memory_gbps);  // past the ridge
    }
    if (ceilings->memory_gbps) y_hi = std::max(y_hi, std::min(*ceilings->memory_gbps * x_hi, y_hi * 10));
  }
  AxisSpec x{AxisKind::Log, x_lo, x_hi, "arithmetic intensity (FLOP/byte)", {}, true};
  AxisSpec y{AxisKind::Log, y_lo, y_hi, "GFLOP/s achieved", {}, true};
  SvgChart chart(560, 340, "Roofline", x, y);
  chart.draw_axes();
  if (calibrated) {
    const double xa = chart.x().lo(), xb = chart.x().hi();
    const auto& mem = ceilings->memory_gbps;
    if (ceilings->compute_gflops.empty() && mem) chart.polyline({{xa, *mem * xa}, {xb, *mem * xb}}, kRoofColor, 2, "roof");
    for (const auto& [name, peak] : ceilings->compute_gflops) {
      if (mem) {
        // min(bandwidth x intensity, peak) across the axis: the slanted roof, then the flat one.
        const double ridge = peak / *mem;
        std::vector<ChartPoint> roof;
        if (ridge > xa) roof.push_back({xa, *mem * xa});
        if (ridge < xb) {
          roof.push_back({std::max(ridge, xa), peak});
          roof.push_back({xb, peak});
        } else {
          roof.push_back({xb, *mem * xb});
        }
        chart.polyline(roof, kRoofColor, 2, "roof");
      } else {
        chart.polyline({{xa, peak}, {xb, peak}}, kRoofColor, 2, "roof", "6 3");
      }
      chart.label({xb / 1.1, peak * 1.15}, name + ": " + number(peak) + " GFLOP/s", kRoofColor, "end");
    }
    if (mem) chart.label({xa * 1.2, *mem * xa * 1.4}, number(*mem) + " GB/s", kRoofColor, "start");
  }
  if (points.empty()) {
    chart.note("no result has both GFLOP/s and GB/s: the spec declares no flop/byte counts");
  } else {
    chart.points(points, kPointColor, 3, tips, "point");
    if (winner_point) chart.points({*winner_point}, kWinnerColor, 4.5, {"fastest"}, "winner");
  }
  if (!calibrated) chart.note("no calibration: run ktune calibrate");
  return chart.str();
}

}  // namespace ktune::report
