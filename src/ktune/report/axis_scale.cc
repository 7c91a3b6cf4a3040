#include "ktune/report/axis_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ktune::report {

namespace {

// The 1-2-5 step that splits `span` into about `count` intervals.
double nice_step(double span, int count) {
  const double raw = span / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

}  // namespace

AxisScale::AxisScale(AxisKind kind, double lo, double hi, double pixel_from, double pixel_to, bool nice)
    : kind_(kind), lo_(lo), hi_(hi), pixel_from_(pixel_from), pixel_to_(pixel_to) {
  if (!std::isfinite(lo_) || !std::isfinite(hi_)) lo_ = 0, hi_ = 1;
  if (lo_ > hi_) std::swap(lo_, hi_);
  if (kind_ == AxisKind::Log) {
    if (hi_ <= 0) hi_ = 1;
    if (lo_ <= 0) lo_ = hi_ / 10;
    if (!nice) {
      if (hi_ <= lo_) hi_ = lo_ * 10;
      return;
    }
    lo_ = std::pow(10.0, std::floor(std::log10(lo_) + 1e-9));
    hi_ = std::pow(10.0, std::ceil(std::log10(hi_) - 1e-9));
    if (hi_ <= lo_) hi_ = lo_ * 10;
    return;
  }
  if (hi_ == lo_) {
    const double pad = lo_ == 0 ? 1 : std::abs(lo_) * 0.1;
    lo_ -= pad;
    hi_ += pad;
  }
  linear_step_ = nice_step(hi_ - lo_, 5);
  if (!nice) return;
  lo_ = std::floor(lo_ / linear_step_ + 1e-9) * linear_step_;
  hi_ = std::ceil(hi_ / linear_step_ - 1e-9) * linear_step_;
}

AxisKind AxisScale::choose_kind(const std::vector<double>& values, double ratio) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    if (v <= 0) return AxisKind::Linear;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi > lo && hi / lo > ratio ? AxisKind::Log : AxisKind::Linear;
}

double AxisScale::to_pixel(double value) const {
  double t;
  if (kind_ == AxisKind::Log) {
    if (!(value > 0)) return pixel_from_;
    t = (std::log10(value) - std::log10(lo_)) / (std::log10(hi_) - std::log10(lo_));
  } else {
    t = (value - lo_) / (hi_ - lo_);
  }
  if (!std::isfinite(t)) t = 0;
  return pixel_from_ + t * (pixel_to_ - pixel_from_);
}

std::vector<AxisTick> AxisScale::ticks() const { return ticks(format_tick); }

std::vector<AxisTick> AxisScale::ticks(const std::function<std::string(double)>& format) const {
  std::vector<AxisTick> out;
  if (kind_ == AxisKind::Log) {
    const int first = static_cast<int>(std::lround(std::log10(lo_)));
    const int last = static_cast<int>(std::lround(std::log10(hi_)));
    const bool with_minor = last - first <= 3;
    // Many decades: label every k-th one so labels do not collide.
    const int every = std::max(1, (last - first + 6) / 7);
    for (int e = first; e <= last; ++e) {
      const double decade = std::pow(10.0, e);
      out.push_back({decade, (e - first) % every == 0 ? format(decade) : std::string(), true});
      if (with_minor && e < last) {
        for (double m : {2.0, 5.0}) out.push_back({m * decade, last - first <= 1 ? format(m * decade) : "", false});
      }
    }
    return out;
  }
  // Multiples of the step inside the domain (the domain is not a multiple when nice=false).
  const double first = std::ceil(lo_ / linear_step_ - 1e-9) * linear_step_;
  for (int i = 0; i <= 50; ++i) {
    double v = first + i * linear_step_;
    if (v > hi_ + linear_step_ * 1e-9) break;
    if (std::abs(v) < linear_step_ * 1e-9) v = 0;
    out.push_back({v, format(v), true});
  }
  return out;
}

std::string format_tick(double value) {
  char buffer[32];
  const double a = std::abs(value);
  if (a == 0) return "0";
  if (a >= 1e12 || a < 1e-3) {
    std::snprintf(buffer, sizeof buffer, "%.0e", value);
    return buffer;
  }
  struct Suffix {
    double scale;
    const char* name;
  };
  static constexpr Suffix kSuffixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  for (const auto& s : kSuffixes) {
    if (a >= s.scale || s.scale == 1) {
      std::snprintf(buffer, sizeof buffer, "%.3g%s", value / s.scale, s.name);
      return buffer;
    }
  }
  return buffer;
}

}  // namespace ktune::report
