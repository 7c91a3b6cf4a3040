#pragma once
// The session report: one self-contained HTML page (inline CSS and SVG, no script, no external
// resource) with the session's facts, its plots and the winner's details.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/report/session_data.h"

namespace ktune::report {

struct HtmlReportOptions {
  std::string generated_at;  // shown in the footer; empty: left out (tests stay deterministic)
  // The inspect view of the winner (registers, shared memory, occupancy and its limiter, what
  // would raise it, ISA findings) as preformatted text, given its result id; unset: no section.
  std::function<std::string(std::int64_t result_id)> inspect_winner;
};

// What went into a page, for `ktune report --json`.
struct HtmlReportSummary {
  std::size_t results = 0, timed = 0, failed = 0;
  std::size_t charts = 0;  // <svg> elements
  std::vector<std::string> sensitivity_parameters;
  bool roofline_points = false, calibrated = false;
  std::optional<std::int64_t> winner_result_id;
  bool winner_inspected = false;  // the page has the winner's inspect view
  nlohmann::json to_json() const;
};

std::string render_html_report(const SessionData& data, const HtmlReportOptions& options = {},
                               HtmlReportSummary* summary = nullptr);

// The report pages' inline CSS, so other ktune pages (the strategy comparison) look the same.
std::string_view report_stylesheet();

// Nested JSON as (dotted path, value text) rows; arrays of scalars stay on one row.
std::vector<std::pair<std::string, std::string>> flatten_json(const nlohmann::json& value);

}  // namespace ktune::report
