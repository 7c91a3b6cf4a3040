#include "ktune/report/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ktune::report {

ProgressStyle parse_progress_style(const std::string& text) {
  if (text == "auto") return ProgressStyle::Auto;
  if (text == "bar") return ProgressStyle::Bar;
  if (text == "json") return ProgressStyle::Json;
  if (text == "none") return ProgressStyle::None;
  throw std::invalid_argument("progress style must be auto, bar, json or none, got '" + text + "'");
}

Progress::Progress(ProgressStyle style, std::FILE* stream, std::optional<double> time_budget_seconds)
    : style_(style), stream_(stream), budget_(time_budget_seconds), start_(std::chrono::steady_clock::now()) {
  if (style_ == ProgressStyle::Auto) style_ = ::isatty(::fileno(stream_)) ? ProgressStyle::Bar : ProgressStyle::Json;
}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::format_duration(double s) {
  char buf[32];
  if (!std::isfinite(s) || s < 0) return "?";
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, (static_cast<int>(s) % 3600) / 60);
  return buf;
}

std::string Progress::format_time(double s) {
  char buf[32];
  if (s < 1e-6) std::snprintf(buf, sizeof buf, "%.1f ns", s * 1e9);
  else if (s < 1e-3) std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  else if (s < 1) std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

void Progress::draw_bar(const ProgressUpdate& u, bool final) {
  const double t = elapsed();
  double fraction = 0;
  std::optional<double> eta;
  if (u.total && *u.total > 0) {
    fraction = std::min(1.0, static_cast<double>(u.done) / static_cast<double>(*u.total));
    if (u.done > u.resumed && fraction > 0) {
      const double per = t / static_cast<double>(u.done - u.resumed);
      eta = per * static_cast<double>(*u.total - std::min(*u.total, u.done));
    }
  }
  if (budget_) {
    fraction = std::max(fraction, std::min(1.0, t / *budget_));
    const double left = std::max(0.0, *budget_ - t);
    eta = eta ? std::min(*eta, left) : left;
  }
  constexpr int kWidth = 28;
  const int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::string total = u.total ? std::to_string(*u.total) : "?";
  std::string best = u.best_seconds ? format_time(*u.best_seconds) : "-";
  std::fprintf(stream_, "\r\033[K[%s] %llu/%s  ok %llu  failed %llu  best %s  elapsed %s  ETA %s", bar.c_str(),
               static_cast<unsigned long long>(u.done), total.c_str(), static_cast<unsigned long long>(u.ok),
               static_cast<unsigned long long>(u.failed), best.c_str(), format_duration(t).c_str(),
               final ? "done" : (eta ? format_duration(*eta).c_str() : "?"));
  if (final) std::fputc('\n', stream_);
  std::fflush(stream_);
}

void Progress::update(const ProgressUpdate& u) {
  if (style_ == ProgressStyle::None) return;
  if (style_ == ProgressStyle::Bar) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    draw_bar(u, false);
    return;
  }
  nlohmann::json j = {{"event", "progress"}, {"done", u.done}, {"ok", u.ok}, {"failed", u.failed},
                      {"resumed", u.resumed}, {"elapsed_s", elapsed()}};
  if (u.total) j["total"] = *u.total;
  if (u.best_seconds) {
    j["best_s"] = *u.best_seconds;
    j["best_config"] = u.best_config;
  }
  if (!u.last_config.empty()) {
    j["config"] = u.last_config;
    j["status"] = u.last_status;
    if (u.last_seconds) j["median_s"] = *u.last_seconds;
  }
  std::fprintf(stream_, "%s\n", j.dump().c_str());
  std::fflush(stream_);
}

void Progress::finish(const ProgressUpdate& u) {
  if (style_ == ProgressStyle::None) return;
  if (style_ == ProgressStyle::Bar) {
    draw_bar(u, true);
    return;
  }
  nlohmann::json j = {{"event", "finished"}, {"done", u.done}, {"ok", u.ok}, {"failed", u.failed},
                      {"resumed", u.resumed}, {"elapsed_s", elapsed()}};
  if (u.best_seconds) {
    j["best_s"] = *u.best_seconds;
    j["best_config"] = u.best_config;
  }
  std::fprintf(stream_, "%s\n", j.dump().c_str());
  std::fflush(stream_);
}

}  // namespace ktune::report
