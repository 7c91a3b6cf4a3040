#include "ktune/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ktune/report/html_escape.h"

namespace ktune::report {

namespace {

constexpr double kLeftMargin = 64, kRightMargin = 16, kTopMargin = 28, kBottomMargin = 44;
// Keeps wildly out-of-range coordinates (a value far outside the domain) from producing
// numbers that some renderers reject.
constexpr double kCoordinateLimit = 1e6;

double clamp_coordinate(double v) {
  if (!std::isfinite(v)) return 0;
  return std::max(-kCoordinateLimit, std::min(kCoordinateLimit, v));
}

}  // namespace

std::string svg_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", clamp_coordinate(value));
  std::string s = buffer;
  if (s == "-0.0") s = "0.0";
  return s;
}

SvgChart::SvgChart(double width, double height, std::string title, const AxisSpec& x, const AxisSpec& y)
    : width_(width),
      height_(height),
      title_(std::move(title)),
      x_spec_(x),
      y_spec_(y),
      left_(kLeftMargin),
      right_(width - kRightMargin),
      top_(kTopMargin),
      bottom_(height - kBottomMargin),
      x_(x.kind, x.lo, x.hi, left_, right_, x.nice),
      y_(y.kind, y.lo, y.hi, bottom_, top_, y.nice) {}

void SvgChart::draw_axes(const std::vector<std::string>& x_categories) {
  body_ << "<g class=\"axes\" font-size=\"10\" fill=\"#444\">";
  body_ << "<rect x=\"" << svg_number(left_) << "\" y=\"" << svg_number(top_) << "\" width=\""
        << svg_number(right_ - left_) << "\" height=\"" << svg_number(bottom_ - top_)
        << "\" fill=\"#fcfcfc\" stroke=\"#999\"/>";
  const auto y_format = y_spec_.format ? y_spec_.format : std::function<std::string(double)>(format_tick);
  for (const AxisTick& t : y_.ticks(y_format)) {
    const std::string py_text = svg_number(py(t.value));
    body_ << "<line x1=\"" << svg_number(left_) << "\" x2=\"" << svg_number(right_) << "\" y1=\"" << py_text
          << "\" y2=\"" << py_text << "\" stroke=\"" << (t.major ? "#ddd" : "#eee") << "\"/>";
    if (!t.label.empty())
      body_ << "<text x=\"" << svg_number(left_ - 4) << "\" y=\"" << svg_number(py(t.value) + 3)
            << "\" text-anchor=\"end\">" << escape_html(t.label) << "</text>";
  }
  if (!x_categories.empty()) {
    const bool rotate = x_categories.size() > 6;
    for (std::size_t i = 0; i < x_categories.size(); ++i) {
      const double x = px(static_cast<double>(i));
      body_ << "<line x1=\"" << svg_number(x) << "\" x2=\"" << svg_number(x) << "\" y1=\"" << svg_number(bottom_)
            << "\" y2=\"" << svg_number(bottom_ + 4) << "\" stroke=\"#999\"/>";
      std::string text = x_categories[i];
      if (text.size() > 14) text = text.substr(0, 13) + "\xE2\x80\xA6";  // U+2026
      if (rotate) {
        body_ << "<text transform=\"translate(" << svg_number(x + 3) << "," << svg_number(bottom_ + 8)
              << ") rotate(45)\" text-anchor=\"start\">" << escape_html(text) << "</text>";
      } else {
        body_ << "<text x=\"" << svg_number(x) << "\" y=\"" << svg_number(bottom_ + 15) << "\" text-anchor=\"middle\">"
              << escape_html(text) << "</text>";
      }
    }
  } else {
    const auto x_format = x_spec_.format ? x_spec_.format : std::function<std::string(double)>(format_tick);
    for (const AxisTick& t : x_.ticks(x_format)) {
      const std::string px_text = svg_number(px(t.value));
      body_ << "<line x1=\"" << px_text << "\" x2=\"" << px_text << "\" y1=\"" << svg_number(top_) << "\" y2=\""
            << svg_number(bottom_) << "\" stroke=\"" << (t.major ? "#ddd" : "#eee") << "\"/>";
      if (!t.label.empty())
        body_ << "<text x=\"" << px_text << "\" y=\"" << svg_number(bottom_ + 14) << "\" text-anchor=\"middle\">"
              << escape_html(t.label) << "</text>";
    }
  }
  const auto scale_note = [](AxisKind kind) { return kind == AxisKind::Log ? " (log)" : ""; };
  if (!x_spec_.label.empty())
    body_ << "<text class=\"x-title\" x=\"" << svg_number((left_ + right_) / 2) << "\" y=\""
          << svg_number(height_ - 6) << "\" text-anchor=\"middle\" font-size=\"11\">"
          << escape_html(x_spec_.label + scale_note(x_.kind())) << "</text>";
  if (!y_spec_.label.empty())
    body_ << "<text class=\"y-title\" transform=\"translate(12," << svg_number((top_ + bottom_) / 2)
          << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"11\">"
          << escape_html(y_spec_.label + scale_note(y_.kind())) << "</text>";
  body_ << "</g>";
}

void SvgChart::points(const std::vector<ChartPoint>& pts, const std::string& color, double radius,
                      const std::vector<std::string>& tooltips, std::string_view css_class) {
  body_ << "<g class=\"" << escape_html(css_class) << "\" fill=\"" << escape_html(color) << "\">";
  for (std::size_t i = 0; i < pts.size(); ++i) {
    body_ << "<circle cx=\"" << svg_number(px(pts[i].x)) << "\" cy=\"" << svg_number(py(pts[i].y)) << "\" r=\""
          << svg_number(radius) << "\"";
    if (i < tooltips.size() && !tooltips[i].empty()) {
      body_ << "><title>" << escape_html(tooltips[i]) << "</title></circle>";
    } else {
      body_ << "/>";
    }
  }
  body_ << "</g>";
}

void SvgChart::polyline(const std::vector<ChartPoint>& pts, const std::string& color, double width,
                        std::string_view css_class, std::string_view dash) {
  if (pts.empty()) return;
  body_ << "<path class=\"" << escape_html(css_class) << "\" fill=\"none\" stroke=\"" << escape_html(color)
        << "\" stroke-width=\"" << svg_number(width) << "\"";
  if (!dash.empty()) body_ << " stroke-dasharray=\"" << escape_html(dash) << "\"";
  body_ << " d=\"";
  for (std::size_t i = 0; i < pts.size(); ++i)
    body_ << (i == 0 ? "M" : " L") << svg_number(px(pts[i].x)) << " " << svg_number(py(pts[i].y));
  body_ << "\"/>";
}

void SvgChart::step_line(const std::vector<ChartPoint>& pts, const std::string& color, double width,
                         std::string_view css_class) {
  std::vector<ChartPoint> stepped;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    if (i > 0 && pts[i].y != pts[i - 1].y) stepped.push_back({pts[i].x, pts[i - 1].y});
    stepped.push_back(pts[i]);
  }
  polyline(stepped, color, width, css_class);
}

void SvgChart::segment(ChartPoint from, ChartPoint to, const std::string& color, double width,
                       std::string_view css_class) {
  body_ << "<line class=\"" << escape_html(css_class) << "\" x1=\"" << svg_number(px(from.x)) << "\" y1=\""
        << svg_number(py(from.y)) << "\" x2=\"" << svg_number(px(to.x)) << "\" y2=\"" << svg_number(py(to.y))
        << "\" stroke=\"" << escape_html(color) << "\" stroke-width=\"" << svg_number(width) << "\"/>";
}

void SvgChart::label(ChartPoint at, std::string_view text, const std::string& color, std::string_view anchor,
                     double font_size) {
  body_ << "<text x=\"" << svg_number(px(at.x)) << "\" y=\"" << svg_number(py(at.y)) << "\" fill=\""
        << escape_html(color) << "\" text-anchor=\"" << escape_html(anchor) << "\" font-size=\"" << svg_number(font_size)
        << "\">" << escape_html(text) << "</text>";
}

void SvgChart::note(std::string_view text) {
  // Near the top of the plot, where data is sparsest in charts of times (fast is low).
  const double y = top_ + 20 + 16.0 * notes_++;
  body_ << "<text class=\"note\" x=\"" << svg_number((left_ + right_) / 2) << "\" y=\"" << svg_number(y)
        << "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#a33\">" << escape_html(text) << "</text>";
}

void SvgChart::legend(const std::vector<std::pair<std::string, std::string>>& entries) {
  double x = left_ + 6, y = top_ + 5;
  body_ << "<g class=\"legend\" font-size=\"10\">";
  for (const auto& [color, text] : entries) {
    const double entry_width = 24 + 6.0 * static_cast<double>(text.size());
    // A legend wider than the plot wraps onto another row instead of running off the chart.
    if (x > left_ + 6 && x + entry_width > right_) x = left_ + 6, y += 14;
    body_ << "<rect x=\"" << svg_number(x) << "\" y=\"" << svg_number(y) << "\" width=\"10\" height=\"10\" fill=\""
          << escape_html(color) << "\"/><text x=\"" << svg_number(x + 13) << "\" y=\"" << svg_number(y + 9)
          << "\" fill=\"#333\">" << escape_html(text) << "</text>";
    x += entry_width;
  }
  body_ << "</g>";
}

std::string SvgChart::str() const {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" viewBox=\"0 0 " << svg_number(width_)
      << " " << svg_number(height_) << "\" width=\"" << svg_number(width_) << "\" height=\"" << svg_number(height_)
      << "\" aria-label=\"" << escape_html(title_) << "\" font-family=\"sans-serif\">";
  out << "<text class=\"chart-title\" x=\"" << svg_number(left_) << "\" y=\"16\" font-size=\"12\" font-weight=\"bold\" fill=\"#222\">"
      << escape_html(title_) << "</text>";
  out << body_.str();
  out << "</svg>";
  return out.str();
}

}  // namespace ktune::report
