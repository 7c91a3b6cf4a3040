#include "ktune/report/svg_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

namespace ktune::report {
namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t p = text.find(part); p != std::string::npos; p = text.find(part, p + 1)) ++n;
  return n;
}

AxisSpec linear(double lo, double hi, std::string label = "") {
  AxisSpec a;
  a.lo = lo, a.hi = hi, a.label = std::move(label);
  return a;
}

TEST(SvgChart, WellFormedDocumentWithAxesAndMarks) {
  SvgChart chart(400, 300, "Times", linear(0, 10, "x"), linear(0, 100, "y"));
  chart.draw_axes();
  chart.points({{1, 10}, {5, 50}}, "#123456", 3, {"first", "second"});
  chart.polyline({{0, 0}, {10, 100}}, "red");
  chart.step_line({{1, 50}, {4, 20}, {9, 10}}, "green");
  std::string svg = chart.str();
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
  EXPECT_EQ(count(svg, "<circle"), 2u);
  EXPECT_EQ(count(svg, "<title>"), 2u);
  EXPECT_NE(svg.find("aria-label=\"Times\""), std::string::npos);
  // The step line turns at (4, 50) before dropping to (4, 20): 5 vertices.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("class=\"step\"[^>]* d=\"([^\"]*)\"")));
  EXPECT_EQ(count(m[1].str(), "L"), 4u);
  // Tick labels 0..10 on x and 0..100 on y.
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">10</text>"), std::string::npos);
}

TEST(SvgChart, PlacesPointsInsideThePlotArea) {
  SvgChart chart(400, 300, "t", linear(0, 10), linear(0, 10));
  chart.points({{0, 0}, {10, 10}}, "black");
  std::string svg = chart.str();
  std::regex circle("cx=\"([0-9.]+)\" cy=\"([0-9.]+)\"");
  int found = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator(); ++it) {
    const double cx = std::stod((*it)[1]), cy = std::stod((*it)[2]);
    EXPECT_GE(cx, chart.plot_left());
    EXPECT_LE(cx, chart.plot_right());
    EXPECT_GE(cy, chart.plot_top());
    EXPECT_LE(cy, chart.plot_bottom());
    ++found;
  }
  EXPECT_EQ(found, 2);
  EXPECT_DOUBLE_EQ(chart.px(0), chart.plot_left());
  EXPECT_DOUBLE_EQ(chart.py(0), chart.plot_bottom());  // y grows upwards
}

TEST(SvgChart, LegendWiderThanThePlotWrapsOntoAnotherRow) {
  SvgChart chart(300, 200, "t", linear(0, 1), linear(0, 1));
  chart.legend({{"red", "a fairly long strategy name"}, {"blue", "another long strategy name"}});
  const std::string svg = chart.str();
  // Both swatches start at the left edge of the plot, one row apart.
  const std::string left = "<rect x=\"" + svg_number(chart.plot_left() + 6) + "\"";
  EXPECT_EQ(count(svg, left), 2u) << svg;
  EXPECT_NE(svg.find("y=\"" + svg_number(chart.plot_top() + 19) + "\" width=\"10\""), std::string::npos) << svg;
}

TEST(SvgChart, EscapesEveryPieceOfText) {
  SvgChart chart(300, 200, "a<b & \"c\"", linear(0, 1, "</svg><script>"), linear(0, 1, "y'"));
  chart.draw_axes({"<cat>", "x&y"});
  chart.points({{0.5, 0.5}}, "\"><script>", 3, {"tip </title><b>"});
  chart.label({0.5, 0.5}, "<i>label</i>", "black");
  chart.note("note <here>");
  chart.legend({{"blue", "<legend>"}});
  std::string svg = chart.str();
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<cat>"), std::string::npos);
  EXPECT_EQ(svg.find("<i>"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("<here>"), std::string::npos);
  EXPECT_EQ(svg.find("<legend>"), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(svg.find("tip &lt;/title&gt;&lt;b&gt;"), std::string::npos);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
}

TEST(SvgChart, NumbersAreFixedPointAndFinite) {
  EXPECT_EQ(svg_number(1.25), "1.2");
  EXPECT_EQ(svg_number(-0.01), "0.0");
  EXPECT_EQ(svg_number(NAN), "0.0");
  EXPECT_EQ(svg_number(1e300), "1000000.0");
  SvgChart chart(300, 200, "t", linear(0, 1), linear(0, 1));
  chart.points({{NAN, INFINITY}}, "black");
  EXPECT_EQ(chart.str().find("nan"), std::string::npos);
  EXPECT_EQ(chart.str().find("inf"), std::string::npos);
}

TEST(SvgChart, CategoricalAxisRotatesLongLists) {
  AxisSpec x = linear(-0.5, 7.5);
  x.nice = false;
  SvgChart chart(300, 200, "t", x, linear(0, 1));
  chart.draw_axes({"a", "b", "c", "d", "e", "f", "g", "a-very-long-category-name"});
  std::string svg = chart.str();
  EXPECT_EQ(count(svg, "rotate(45)"), 8u);
  EXPECT_EQ(svg.find("a-very-long-category-name"), std::string::npos);  // shortened
  EXPECT_NE(svg.find("a-very-long-c\xE2\x80\xA6"), std::string::npos);
}

}  // namespace
}  // namespace ktune::report
