#pragma once
// One chart axis: maps data values onto pixels, linearly or logarithmically, and picks the
// tick positions a reader expects (1-2-5 steps, or decades on a log axis).

#include <functional>
#include <string>
#include <vector>

namespace ktune::report {

enum class AxisKind { Linear, Log };

struct AxisTick {
  double value = 0;
  std::string label;
  bool major = true;  // log axes: decades are major, 2x and 5x minor
};

class AxisScale {
 public:
  // The domain is widened to "nice" bounds (and to a non-empty interval when lo == hi).
  // A log axis needs lo > 0; non-finite or non-positive bounds are replaced by a
  // sensible default instead of failing, so an odd data set still draws.
  // nice=false keeps the bounds exactly (categorical axes: -0.5 .. n-0.5).
  AxisScale(AxisKind kind, double lo, double hi, double pixel_from, double pixel_to, bool nice = true);

  // Log when every value is positive and max/min exceeds `ratio`, otherwise linear.
  static AxisKind choose_kind(const std::vector<double>& values, double ratio = 20.0);

  AxisKind kind() const { return kind_; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  // Values outside the domain map outside the pixel range; non-positive values on a log
  // axis map to the low end.
  double to_pixel(double value) const;
  std::vector<AxisTick> ticks(const std::function<std::string(double)>& format) const;
  std::vector<AxisTick> ticks() const;

 private:
  AxisKind kind_;
  double lo_, hi_;
  double pixel_from_, pixel_to_;
  double linear_step_ = 1;
};

// Short number for axis labels: 0.5, 12, 1.5k, 2M, 1e-07.
std::string format_tick(double value);

}  // namespace ktune::report
