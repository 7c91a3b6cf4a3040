#include "ktune/simulate/strategy_comparison.h"

#include <fstream>

namespace ktune::simulate {
namespace {

using nlohmann::json;

ExternalSearch parse_search(const json& t, const std::string& where) {
  ExternalSearch s;
  if (!t.is_object() || !t.contains("space") || !t.contains("strategy") || !t.contains("configs")) {
    throw RecordingError(where + ": needs \"space\", \"strategy\" and \"configs\"");
  }
  s.space = t.at("space").get<std::string>();
  s.strategy = t.at("strategy").get<std::string>();
  s.seed = t.value("seed", std::uint64_t{0});
  const json& configs = t.at("configs");
  for (std::size_t i = 0; i < configs.size(); ++i) {
    try {
      s.configs.push_back(config_from_json(configs[i]));
    } catch (const std::exception& e) {
      throw RecordingError(where + ".configs[" + std::to_string(i) + "]: " + e.what());
    }
  }
  return s;
}

std::vector<Trace> simulated_runs(const RecordedSpace& rec, const space::SearchSpace& space,
                                  const std::map<std::string, const RecordedResult*>& answers, double budget,
                                  const ComparisonOptions& options, std::vector<StrategyOverhead>& overhead,
                                  std::size_t& unrecorded) {
  std::vector<Trace> traces;
  for (const auto& name : options.strategies) {
    StrategyOverhead o{name, 0, 0};
    double ms = 0;
    std::size_t evaluations = 0;
    for (std::size_t i = 0; i < options.repeats; ++i) {
      SimulationOptions so;
      so.strategy = name;
      so.seed = options.first_seed + i;
      so.max_seconds = budget;
      SimulationResult r = simulate(space, answers, so, rec.name);
      ms += 1e3 * r.strategy_seconds;
      evaluations += r.configs.size();
      o.ms_max = std::max(o.ms_max, 1e3 * r.max_strategy_seconds);
      unrecorded += r.unrecorded;
      traces.push_back(std::move(r.trace));
      if (options.on_run) options.on_run(rec.name, name, i);
    }
    o.ms_per_evaluation = evaluations ? ms / static_cast<double>(evaluations) : 0;
    overhead.push_back(o);
  }
  return traces;
}

// The methodology scores over its range, but the near-optimal target (95% of the optimum in a
// third of random search's evaluations) needs runs long enough to get there: random search's
// expected evaluations to reach it, charged at the mean cost. Strategies do not know the budget,
// so a longer run leaves the methodology's range of each trace unchanged.
double run_budget(const RandomBaseline& baseline, const ComparisonOptions& options) {
  const double budget = cutoff_time_range(baseline, options.methodology).budget_seconds;
  if (!options.near_optimal_runs) return budget;
  const double target = baseline.optimum() / options.methodology.near_optimal_fraction;
  const double draws = baseline.expected_draws_to_reach(target);
  return std::max(budget, draws * baseline.seconds_per_evaluation());
}

SpaceComparison compare_on(const RecordedSpace& rec, const ComparisonOptions& options) {
  const space::SearchSpace space = build_space(rec);
  const auto answers = index_results(rec);
  const SpaceStatistics stats = statistics(rec);
  const RandomBaseline baseline(stats, options.methodology.averaging, options.methodology.baseline_orders);
  SpaceComparison out;
  const double budget = run_budget(baseline, options);
  out.run_budget_seconds = budget;
  std::vector<Trace> traces = simulated_runs(rec, space, answers, budget, options, out.overhead, out.unrecorded);
  for (const auto& search : options.external) {
    if (search.space == rec.name) traces.push_back(replay(search, answers, budget));
  }
  out.result = evaluate_space(stats, traces, options.methodology);
  return out;
}

}  // namespace

std::vector<ExternalSearch> load_external_searches(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw RecordingError(path.string() + ": cannot be read");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw RecordingError(path.string() + ": not JSON: " + e.what());
  }
  if (doc.value("format", std::string()) != "ktune-search-traces" || !doc.contains("traces")) {
    throw RecordingError(path.string() + ": not a \"ktune-search-traces\" document with \"traces\"");
  }
  std::vector<ExternalSearch> out;
  try {
    for (std::size_t i = 0; i < doc.at("traces").size(); ++i) {
      out.push_back(parse_search(doc.at("traces")[i], path.string() + ": traces[" + std::to_string(i) + "]"));
    }
  } catch (const json::exception& e) {
    throw RecordingError(path.string() + ": " + e.what());
  }
  return out;
}

Trace replay(const ExternalSearch& search, const std::map<std::string, const RecordedResult*>& answers,
             double max_seconds) {
  double mean = 0;
  for (const auto& [key, r] : answers) mean += r->cost_seconds();
  mean = answers.empty() ? 0 : mean / static_cast<double>(answers.size());
  Trace t{search.space, search.strategy, search.seed, {}};
  double clock = 0;
  for (const auto& config : search.configs) {
    if (clock >= max_seconds) break;
    auto it = answers.find(config_key(config));
    clock += it == answers.end() ? mean : it->second->cost_seconds();
    t.points.push_back({clock, it == answers.end() ? std::nullopt : it->second->time_s});
  }
  return t;
}

Comparison compare_strategies(const std::vector<RecordedSpace>& recordings, const ComparisonOptions& options) {
  Comparison c;
  std::vector<SpaceResult> results;
  for (const auto& rec : recordings) {
    c.spaces.push_back(compare_on(rec, options));
    results.push_back(c.spaces.back().result);
  }
  c.aggregate = aggregate_scores(results);
  return c;
}

json to_json(const Comparison& c, const ComparisonOptions& options) {
  json spaces = json::array();
  for (const auto& s : c.spaces) {
    json j = to_json(s.result);
    for (const auto& o : s.overhead) {
      j["overhead"].push_back({{"strategy", o.strategy}, {"ms_per_evaluation", o.ms_per_evaluation}, {"ms_max", o.ms_max}});
    }
    j["unrecorded"] = s.unrecorded;
    j["run_budget_seconds"] = s.run_budget_seconds;
    spaces.push_back(std::move(j));
  }
  return {{"format", "ktune-strategy-comparison"},
          {"options", {{"strategies", options.strategies}, {"repeats", options.repeats}, {"first_seed", options.first_seed},
                       {"external_searches", options.external.size()}}},
          {"spaces", spaces},
          {"aggregate", to_json(std::span<const AggregateScore>(c.aggregate))}};
}

}  // namespace ktune::simulate
