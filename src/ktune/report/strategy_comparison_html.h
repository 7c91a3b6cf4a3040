#pragma once
// The strategy comparison as one self-contained HTML page (inline CSS and SVG, no script): the
// methodology in a paragraph, the aggregate scores, and per search space a table and a chart of
// every strategy's performance curve. Input: the JSON of simulate::to_json(Comparison,
// ComparisonOptions) ("ktune-strategy-comparison"); the report module does not depend on
// simulate, so the page is drawn from the document alone and tolerates missing keys.

#include <string>

#include <nlohmann/json.hpp>

namespace ktune::report {

// Strategies are keyed by name (objects, as simulate writes them) or listed as arrays of
// objects with a "strategy" field. Null or non-finite curve points are left out of the chart.
std::string render_strategy_comparison_html(const nlohmann::json& comparison,
                                            const std::string& title = "Strategy comparison");

}  // namespace ktune::report
