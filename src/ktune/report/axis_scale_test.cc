#include "ktune/report/axis_scale.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ktune::report {
namespace {

TEST(AxisScale, LinearWidensToNiceBoundsAndMapsEnds) {
  AxisScale s(AxisKind::Linear, 0.3, 9.2, 100, 200);
  EXPECT_DOUBLE_EQ(s.lo(), 0);
  EXPECT_DOUBLE_EQ(s.hi(), 10);
  EXPECT_DOUBLE_EQ(s.to_pixel(0), 100);
  EXPECT_DOUBLE_EQ(s.to_pixel(10), 200);
  EXPECT_DOUBLE_EQ(s.to_pixel(5), 150);
  auto ticks = s.ticks();
  ASSERT_EQ(ticks.size(), 6u);
  EXPECT_EQ(ticks.front().label, "0");
  EXPECT_EQ(ticks[1].label, "2");
  EXPECT_EQ(ticks.back().label, "10");
}

TEST(AxisScale, InvertedPixelRangeForYAxes) {
  AxisScale s(AxisKind::Linear, 0, 1, 300, 20);
  EXPECT_DOUBLE_EQ(s.to_pixel(0), 300);
  EXPECT_DOUBLE_EQ(s.to_pixel(1), 20);
}

TEST(AxisScale, LogRoundsToDecadesWithMinorTicks) {
  AxisScale s(AxisKind::Log, 3e-6, 4e-4, 0, 300);
  EXPECT_DOUBLE_EQ(s.lo(), 1e-6);
  EXPECT_NEAR(s.hi(), 1e-3, 1e-18);
  EXPECT_NEAR(s.to_pixel(1e-5), 100, 1e-9);
  EXPECT_NEAR(s.to_pixel(1e-4), 200, 1e-9);
  int major = 0, minor = 0;
  for (const auto& t : s.ticks()) (t.major ? major : minor)++;
  EXPECT_EQ(major, 4);
  EXPECT_EQ(minor, 6);
  EXPECT_DOUBLE_EQ(s.to_pixel(-1), 0);  // non-positive values pin to the low end
}

TEST(AxisScale, DegenerateAndNonFiniteDomainsStillDraw) {
  AxisScale same(AxisKind::Linear, 5, 5, 0, 100);
  EXPECT_LT(same.lo(), 5);
  EXPECT_GT(same.hi(), 5);
  EXPECT_TRUE(std::isfinite(same.to_pixel(5)));
  AxisScale nan(AxisKind::Linear, NAN, INFINITY, 0, 100);
  EXPECT_DOUBLE_EQ(nan.lo(), 0);
  EXPECT_DOUBLE_EQ(nan.hi(), 1);
  AxisScale log_bad(AxisKind::Log, -1, 0, 0, 100);
  EXPECT_GT(log_bad.lo(), 0);
  EXPECT_GT(log_bad.hi(), log_bad.lo());
  AxisScale zero(AxisKind::Linear, 0, 0, 0, 100);
  EXPECT_TRUE(std::isfinite(zero.to_pixel(0)));
}

TEST(AxisScale, ExactBoundsForCategories) {
  AxisScale s(AxisKind::Linear, -0.5, 2.5, 0, 300, /*nice=*/false);
  EXPECT_DOUBLE_EQ(s.to_pixel(-0.5), 0);
  EXPECT_DOUBLE_EQ(s.to_pixel(1), 150);
  for (const auto& t : s.ticks()) {
    EXPECT_GE(t.value, -0.5);
    EXPECT_LE(t.value, 2.5);
  }
}

TEST(AxisScale, ChoosesLogOnlyForWidePositiveRanges) {
  EXPECT_EQ(AxisScale::choose_kind({1e-6, 2e-6, 5e-6}), AxisKind::Linear);
  EXPECT_EQ(AxisScale::choose_kind({1e-6, 1e-3}), AxisKind::Log);
  EXPECT_EQ(AxisScale::choose_kind({0, 1e-3}), AxisKind::Linear);
  EXPECT_EQ(AxisScale::choose_kind({}), AxisKind::Linear);
}

TEST(AxisScale, TickFormatting) {
  EXPECT_EQ(format_tick(0), "0");
  EXPECT_EQ(format_tick(1500), "1.5k");
  EXPECT_EQ(format_tick(2e6), "2M");
  EXPECT_EQ(format_tick(0.25), "0.25");
  EXPECT_EQ(format_tick(1e-5), "1e-05");
  AxisScale s(AxisKind::Linear, 0, 10, 0, 1);
  auto ticks = s.ticks([](double v) { return "<" + std::to_string(static_cast<int>(v)) + ">"; });
  EXPECT_EQ(ticks[1].label, "<2>");
}

}  // namespace
}  // namespace ktune::report
