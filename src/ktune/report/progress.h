#pragma once
// Progress of long work: a bar with ETA and best-so-far on a terminal, JSON lines otherwise.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ktune::report {

enum class ProgressStyle { Auto, Bar, Json, None };
ProgressStyle parse_progress_style(const std::string& text);  // throws std::invalid_argument

struct ProgressUpdate {
  std::uint64_t done = 0;                 // candidates finished (any status)
  std::optional<std::uint64_t> total;     // planned, if known
  std::uint64_t ok = 0, failed = 0, resumed = 0;
  std::optional<double> best_seconds;     // best median so far
  std::string best_config;                // its config key
  std::string last_config;
  std::string last_status;
  std::optional<double> last_seconds;
};

class Progress {
 public:
  // Auto: a bar when `stream` is a terminal, JSON lines otherwise.
  Progress(ProgressStyle style, std::FILE* stream, std::optional<double> time_budget_seconds = std::nullopt);
  void update(const ProgressUpdate& u);
  void finish(const ProgressUpdate& u);
  ProgressStyle style() const { return style_; }
  // "1.2 s", "3m04s", "2h05m": for ETA and elapsed time.
  static std::string format_duration(double seconds);
  static std::string format_time(double seconds);  // "12.3 us", "4.56 ms"

 private:
  void draw_bar(const ProgressUpdate& u, bool final);
  double elapsed() const;
  ProgressStyle style_;
  std::FILE* stream_;
  std::optional<double> budget_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace ktune::report
