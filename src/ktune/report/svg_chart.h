#pragma once
// A small SVG chart builder: a plot area with two axes, and marks (points, lines, steps,
// segments, labels) placed in data coordinates. The report draws every plot with it, so the
// HTML needs no script. All text is escaped here; callers pass raw strings.

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ktune/report/axis_scale.h"

namespace ktune::report {

struct ChartPoint {
  double x = 0, y = 0;
};

struct AxisSpec {
  AxisKind kind = AxisKind::Linear;
  double lo = 0, hi = 1;
  std::string label;
  std::function<std::string(double)> format;  // tick labels; empty: format_tick
  bool nice = true;                           // widen to round bounds
};

class SvgChart {
 public:
  // `title` becomes the chart's accessible name (aria-label) and a heading inside the SVG.
  SvgChart(double width, double height, std::string title, const AxisSpec& x, const AxisSpec& y);

  const AxisScale& x() const { return x_; }
  const AxisScale& y() const { return y_; }
  double px(double x) const { return x_.to_pixel(x); }
  double py(double y) const { return y_.to_pixel(y); }

  // Grid, ticks, tick labels and axis titles. `x_categories` replaces the x tick labels with
  // names at 0, 1, 2, ... (rotated when there are many).
  void draw_axes(const std::vector<std::string>& x_categories = {});
  // Points; `tooltips` (same length, or empty) become <title> children that browsers show on hover.
  void points(const std::vector<ChartPoint>& points, const std::string& color, double radius = 3,
              const std::vector<std::string>& tooltips = {}, std::string_view css_class = "point");
  void polyline(const std::vector<ChartPoint>& points, const std::string& color, double width = 1.5,
                std::string_view css_class = "line", std::string_view dash = {});
  // Horizontal-then-vertical steps through the points (a running best).
  void step_line(const std::vector<ChartPoint>& points, const std::string& color, double width = 2,
                 std::string_view css_class = "step");
  void segment(ChartPoint from, ChartPoint to, const std::string& color, double width = 1,
               std::string_view css_class = "segment");
  void label(ChartPoint at, std::string_view text, const std::string& color, std::string_view anchor = "start",
             double font_size = 11);
  // A message near the top of the plot area (e.g. "no data"), placed in pixels, independent of scales.
  void note(std::string_view text);
  void legend(const std::vector<std::pair<std::string, std::string>>& entries);  // (color, text)

  std::string str() const;

  double plot_left() const { return left_; }
  double plot_right() const { return right_; }
  double plot_top() const { return top_; }
  double plot_bottom() const { return bottom_; }

 private:
  double width_, height_;
  std::string title_;
  AxisSpec x_spec_, y_spec_;
  double left_, right_, top_, bottom_;
  AxisScale x_, y_;
  std::ostringstream body_;
  int notes_ = 0;
};

// "12.5": SVG coordinates with one decimal, no exponent, no "-0.0".
std::string svg_number(double value);

}  // namespace ktune::report
