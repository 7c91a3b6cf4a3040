#include "ktune/report/strategy_comparison_html.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

namespace ktune::report {
namespace {

using nlohmann::json;

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// One strategy as simulate::to_json(SpaceResult) writes it.
json strategy(double score, json curve) {
  return {{"score", score},
          {"repeats", 10},
          {"curve", std::move(curve)},
          {"evaluations_to_near_optimal",
           {{"fraction_of_optimum", 0.95},
            {"target_objective", 0.0011},
            {"median", 12.5},
            {"random_expected", 40.0},
            {"fraction_of_random", 0.3125},
            {"repeats_reached", 9}}}};
}

json space(const std::string& name, json strategies) {
  return {{"space", name},
          {"configurations", 120},
          {"successful", 100},
          {"optimum", 0.001},
          {"median", 0.004},
          {"averaging", "rank"},
          {"cutoff_percentile", 0.95},
          {"cutoff_percentile_start", 0.01},
          {"budget_seconds", 33.0},
          {"time_range", {{"start_seconds", 1.0}, {"end_seconds", 30.0}, {"start_evaluations", 2}, {"end_evaluations", 25}}},
          {"strategies", std::move(strategies)},
          {"overhead", {{{"strategy", "annealing"}, {"ms_per_evaluation", 0.042}, {"ms_max", 0.3}}}},
          {"unrecorded", 0}};
}

const json kCurve = {{1.0, -0.5}, {10.0, 0.4}, {20.0, 0.8}, {30.0, 0.9}};

json comparison() {
  return {{"format", "ktune-strategy-comparison"},
          {"options", {{"strategies", {"random", "annealing"}}, {"repeats", 10}, {"first_seed", 1}}},
          {"spaces",
           {space("gemm <f16> & co", {{"random", strategy(0.0, kCurve)},
                                       {"annealing", strategy(0.6, kCurve)},
                                       {"kt:<genetic>&", strategy(0.4, kCurve)}}),
            space("conv&2", {{"random", strategy(0.0, kCurve)}, {"annealing", strategy(0.5, kCurve)}})}},
          {"aggregate",
           {{"random", {{"score", 0.0}, {"error", 0.01}, {"spaces", 2}}},
            {"annealing", {{"score", 0.55}, {"error", 0.1}, {"spaces", 2}}},
            {"kt:<genetic>&", {{"score", 0.4}, {"error", 0.2}, {"spaces", 1}}},
            {"bayes", {{"score", nullptr}, {"error", nullptr}, {"spaces", 0}}}}}};
}

TEST(StrategyComparisonHtml, EscapesEveryStrategyAndSpaceName) {
  const std::string html = render_strategy_comparison_html(comparison(), "compare <them> & see");
  EXPECT_NE(html.find("<title>compare &lt;them&gt; &amp; see</title>"), std::string::npos);
  EXPECT_NE(html.find("<h2>gemm &lt;f16&gt; &amp; co</h2>"), std::string::npos);
  EXPECT_NE(html.find("<h2>conv&amp;2</h2>"), std::string::npos);
  EXPECT_NE(html.find("kt:&lt;genetic&gt;&amp;"), std::string::npos);
  for (const char* name : {"random", "annealing", "bayes"}) EXPECT_NE(html.find(name), std::string::npos) << name;
  EXPECT_EQ(html.find("<genetic>"), std::string::npos) << "raw name leaked";
  EXPECT_EQ(html.find("<f16>"), std::string::npos) << "raw name leaked";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("Willemsen"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(StrategyComparisonHtml, OneChartPerSpaceWithStrategiesAndNoneForAnEmptySpace) {
  json doc = comparison();
  doc["spaces"].push_back(space("idle <space>", json::object()));
  const std::string html = render_strategy_comparison_html(doc);
  EXPECT_EQ(count(html, "<svg"), 2u);
  EXPECT_EQ(count(html, "<section class=\"space\">"), 3u);
  EXPECT_NE(html.find("<h2>idle &lt;space&gt;</h2>"), std::string::npos);
  EXPECT_NE(html.find("No strategy ran on this space"), std::string::npos);
  // Reference lines at random (0) and the optimum (1) in every chart.
  EXPECT_EQ(count(html, "class=\"reference\""), 4u);
  EXPECT_EQ(count(html, ">random </text>"), 2u);
  EXPECT_EQ(count(html, ">optimum </text>"), 2u);
}

TEST(StrategyComparisonHtml, AggregateSortedByScoreDescendingWithTheBestHighlighted) {
  const std::string html = render_strategy_comparison_html(comparison());
  const std::size_t table = html.find("<table class=\"aggregate\">");
  ASSERT_NE(table, std::string::npos);
  const std::size_t end = html.find("</table>", table);
  const std::string aggregate = html.substr(table, end - table);
  const std::size_t annealing = aggregate.find("annealing"), genetic = aggregate.find("kt:&lt;genetic"),
                    random = aggregate.find("random"), bayes = aggregate.find("bayes");
  ASSERT_NE(bayes, std::string::npos);
  EXPECT_LT(annealing, genetic);
  EXPECT_LT(genetic, random);
  EXPECT_LT(random, bayes) << "a strategy without a score comes last";
  EXPECT_EQ(count(aggregate, "class=\"best\""), 1u);
  EXPECT_LT(aggregate.find("class=\"best\""), annealing);
  EXPECT_GT(aggregate.find("class=\"best\""), aggregate.find("</tr>")) << "the header row is not the best";
  EXPECT_NE(aggregate.find("<td class=\"num\">0.550</td>"), std::string::npos);
}

TEST(StrategyComparisonHtml, PerSpaceTableHasEvaluationsToNearOptimalAndOverhead) {
  const std::string html = render_strategy_comparison_html(comparison());
  EXPECT_NE(html.find("<th>evaluations to 95%</th>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">12.5</td><td class=\"num\">40.0</td><td class=\"num\">0.31</td>"),
            std::string::npos);
  EXPECT_NE(html.find("0.042 (max 0.3)"), std::string::npos);
}

TEST(StrategyComparisonHtml, KernelTunerStrategiesAreDashed) {
  const std::string html = render_strategy_comparison_html(comparison());
  // One kt: strategy in one space, one run of points: exactly one dashed line.
  EXPECT_EQ(count(html, "stroke-dasharray"), 1u);
  const std::size_t dashed = html.find("stroke-dasharray");
  const std::size_t path = html.rfind("<path", dashed);
  ASSERT_NE(path, std::string::npos);
  // kt:<genetic>& is second in the aggregate (after annealing), so it has the palette's second colour.
  EXPECT_NE(html.substr(path, dashed - path).find("#ee6677"), std::string::npos);
  EXPECT_EQ(count(html, "class=\"curve\""), 5u) << "every strategy's curve in both spaces";
}

TEST(StrategyComparisonHtml, NullAndNonFinitePointsAreSkipped) {
  const json curve = {{1.0, 0.1}, {2.0, 0.2}, {3.0, nullptr}, {4.0, 0.5},
                      {5.0, 0.6}, {6.0, std::nan("")}, {7.0, "x"}, {8.0, 0.9}};
  json doc = {{"spaces", {space("s", {{"random", strategy(0.0, curve)}})}},
              {"aggregate", {{"random", {{"score", 0.0}, {"error", 0.0}, {"spaces", 1}}}}}};
  const std::string html = render_strategy_comparison_html(doc);
  // Runs {1,2} and {4,5} are lines with one segment each; the lone point at 8 is a dot.
  EXPECT_EQ(count(html, "class=\"curve\""), 2u);
  const std::size_t first = html.find("class=\"curve\"");
  const std::string d = html.substr(first, html.find("/>", first) - first);
  EXPECT_EQ(count(d, " L"), 1u) << d;
  EXPECT_EQ(count(html, "<circle"), 1u);
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(html.find("inf\""), std::string::npos);
}

TEST(StrategyComparisonHtml, ArraysOfNamedEntriesAreAcceptedToo) {
  json doc = {{"spaces", {space("s", json::array({json{{"strategy", "b"}, {"score", 0.2}}, json{{"strategy", "a"}, {"score", 0.7}}}))}},
              {"aggregate", json::array({json{{"strategy", "b"}, {"score", 0.2}}, json{{"strategy", "a"}, {"score", 0.7}}})}};
  const std::string html = render_strategy_comparison_html(doc);
  EXPECT_EQ(count(html, "<svg"), 1u);
  EXPECT_NE(html.find("no strategy has a defined point"), std::string::npos);
  EXPECT_EQ(html.find("class=\"legend\""), std::string::npos) << "no legend over the note";
  EXPECT_LT(html.find("<td class=\"num\">0.700</td>"), html.find("<td class=\"num\">0.200</td>"));
}

TEST(StrategyComparisonHtml, AnEmptyDocumentSaysSo) {
  for (const json& doc : {json(), json::object(), json{{"spaces", json::array()}, {"aggregate", json::object()}},
                          json::array()}) {
    const std::string html = render_strategy_comparison_html(doc);
    EXPECT_EQ(html.find("<svg"), std::string::npos) << doc.dump();
    EXPECT_EQ(html.find("<table"), std::string::npos) << doc.dump();
    EXPECT_NE(html.find("nothing to show"), std::string::npos) << doc.dump();
    EXPECT_NE(html.find("</html>"), std::string::npos) << doc.dump();
  }
}

}  // namespace
}  // namespace ktune::report
