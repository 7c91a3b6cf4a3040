#pragma once
// The plots of a session report, each an inline SVG string built with SvgChart from the
// session's results: sorted times, best-so-far (by evaluation and by wall time), parameter
// sensitivity (one small chart per parameter) and the roofline.

#include <optional>
#include <string>
#include <vector>

#include "ktune/db/records.h"
#include "ktune/report/session_data.h"

namespace ktune::report {

// Results with status ok and a positive median: the ones with a time to plot.
bool has_time(const db::ResultRecord& r);
// Index into `results` of the fastest timed result (ties: the earlier one).
std::optional<std::size_t> fastest_result(const std::vector<db::ResultRecord>& results);

// Every timed configuration sorted by median (q1-q3 whiskers, winner highlighted; log scale
// when times spread over more than 20x).
std::string sorted_times_chart(const std::vector<db::ResultRecord>& results);

enum class ProgressAxis { Evaluation, WallTime };
// The running best median against the evaluation index (1-based, every status counts) or
// against seconds since the first evaluation started.
std::string best_so_far_chart(const std::vector<db::ResultRecord>& results, ProgressAxis axis);

struct SensitivityChart {
  std::string parameter;
  std::size_t values = 0;  // distinct values among timed results
  std::string svg;
};
// One chart per parameter with at least two values among timed results: median (and best)
// time per value. `constant` receives "NAME=VALUE" of parameters that never varied.
std::vector<SensitivityChart> sensitivity_charts(const std::vector<db::ResultRecord>& results,
                                                 std::vector<std::string>* constant = nullptr);

// Achieved GFLOP/s against arithmetic intensity (gflops / gbps = flops / bytes) on log-log
// axes, with roofs from `ceilings` when present; without them the chart says so.
std::string roofline_chart(const std::vector<db::ResultRecord>& results, const std::optional<Ceilings>& ceilings);

// A config value for people: strings without JSON quotes.
std::string display_value(const nlohmann::json& value);

}  // namespace ktune::report
