// ktune record / strategies / tune --simulate: parsing and printing; the work is in simulate/.

#include "ktune/cli/simulate_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "ktune/db/database.h"
#include "ktune/report/strategy_comparison_html.h"
#include "ktune/search/strategy.h"
#include "ktune/simulate/recording_files.h"
#include "ktune/simulate/strategy_comparison.h"
#include "ktune/spec/problem.h"

namespace ktune::cli {
namespace {

using simulate::RecordedSpace;

struct RecordArgs {
  std::string db, spec, kernel, problem, device, name, output, format = "ktune", input;
  std::vector<std::string> sizes;
};

simulate::RecordSelection selection_from(const RecordArgs& a) {
  simulate::RecordSelection sel;
  if (!a.kernel.empty()) sel.kernel = a.kernel;
  if (!a.problem.empty()) sel.problem = a.problem;
  if (!a.device.empty()) sel.device = a.device;
  sel.name = a.name;
  if (!a.spec.empty()) {
    const spec::TuningProblem problem = spec::load_spec(a.spec, parse_assignments(a.sizes, "--size"));
    if (!sel.kernel) sel.kernel = problem.name;
    if (!sel.problem) sel.problem = problem.name;
    sel.parameters = problem.parameters;
    for (const auto& c : problem.constraints) sel.constraints.push_back(c.expr.text());
    sel.constants = problem.sizes;
    sel.source = a.spec;
  }
  return sel;
}

nlohmann::json recording_summary(const RecordedSpace& s) {
  const simulate::SpaceStatistics st = simulate::statistics(s);
  std::map<std::string, std::size_t> by_status;
  for (const auto& r : s.results) ++by_status[r.status];
  double best = 0, worst = 0, cost = 0;
  for (double t : st.objectives) {
    best = best == 0 ? t : std::min(best, t);
    worst = std::max(worst, t);
  }
  for (const auto& r : s.results) cost += r.cost_seconds();
  return {{"name", s.name}, {"device", s.device}, {"chip", s.chip}, {"recorded_at", s.recorded_at},
          {"membership", s.membership == RecordedSpace::Membership::Recorded ? "recorded" : "constraints"},
          {"parameters", s.parameters.size()}, {"configurations", s.results.size()}, {"by_status", by_status},
          {"optimum_s", best}, {"worst_s", worst}, {"spread", best > 0 ? worst / best : 0.0},
          {"mean_evaluation_s", st.mean_evaluation_seconds}, {"exhaustive_search_s", cost}};
}

void print_recording_summary(const nlohmann::json& j) {
  std::printf("%s: %zu configurations of %zu parameters (membership: %s), recorded on %s %s\n",
              j["name"].get<std::string>().c_str(), j["configurations"].get<std::size_t>(),
              j["parameters"].get<std::size_t>(), j["membership"].get<std::string>().c_str(),
              j["device"].get<std::string>().c_str(), j["recorded_at"].get<std::string>().c_str());
  std::string statuses;
  for (const auto& [k, v] : j["by_status"].items()) statuses += " " + k + "=" + std::to_string(v.get<std::size_t>());
  std::printf("  statuses:%s\n  optimum %s, worst %s (%.1fx); %.3f s per evaluation, %.1f s to measure all\n",
              statuses.c_str(), format_seconds(j["optimum_s"].get<double>()).c_str(),
              format_seconds(j["worst_s"].get<double>()).c_str(), j["spread"].get<double>(),
              j["mean_evaluation_s"].get<double>(), j["exhaustive_search_s"].get<double>());
}

int record_export(const GlobalOptions& global, const RecordArgs& a) {
  db::Database database(a.db.empty() ? database_path(global) : std::filesystem::path(a.db));
  const RecordedSpace s = simulate::record_from_database(database, selection_from(a));
  simulate::write_recording(s, a.output, simulate::parse_recording_format(a.format));
  nlohmann::json j = recording_summary(s);
  j["written"] = a.output;
  if (global.json) print_json(j);
  else {
    print_recording_summary(j);
    std::printf("  written to %s (%s)\n", a.output.c_str(), a.format.c_str());
  }
  return kExitOk;
}

int record_convert(const GlobalOptions& global, const RecordArgs& a, bool show_only) {
  RecordedSpace s = simulate::read_recording(a.input, selection_from(a));
  if (!a.name.empty()) s.name = a.name;
  nlohmann::json j = recording_summary(s);
  if (!show_only) {
    simulate::write_recording(s, a.output, simulate::parse_recording_format(a.format));
    j["written"] = a.output;
  }
  if (global.json) print_json(j);
  else print_recording_summary(j);
  return kExitOk;
}

void add_selection_options(CLI::App* cmd, RecordArgs& a) {
  cmd->add_option("--spec", a.spec, "The spec the results belong to: its space (parameters, constraints) is the recording's")
      ->check(CLI::ExistingFile);
  cmd->add_option("--size", a.sizes, "Override a problem size of --spec: NAME=VALUE");
  cmd->add_option("--kernel", a.kernel, "Kernel name in the database (default: the spec's name)");
  cmd->add_option("--problem", a.problem, "Problem name in the database (default: the spec's name)");
  cmd->add_option("--device", a.device, "Device name or fingerprint, when the database holds several");
  cmd->add_option("--name", a.name, "The recording's name (default: the kernel's)");
}

}  // namespace

nlohmann::json parse_strategy_params(const std::string& text) {
  if (text.empty()) return nlohmann::json::object();
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object()) throw CLI::ValidationError("--strategy-params", "must be a JSON object, e.g. '{\"population\": 30}'");
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    throw CLI::ValidationError("--strategy-params", std::string("not JSON: ") + e.what());
  }
}

void add_record_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* cmd = app.add_subcommand("record", "Recorded spaces: every configuration measured once, for simulation and other tools");
  cmd->require_subcommand(1);
  auto a = std::make_shared<RecordArgs>();
  CLI::App* ex = cmd->add_subcommand("export", "Write one (device, kernel, problem)'s results from the database as a recording");
  add_selection_options(ex, *a);
  ex->add_option("-o,--output", a->output, "The recording file")->required();
  ex->add_option("--format", a->format, "ktune (default), kt-cache (Kernel Tuner's cache file) or t4 (T4 results)");
  ex->callback([&global, &handler, a] { handler = [&global, a] { return record_export(global, *a); }; });
  CLI::App* im = cmd->add_subcommand("convert", "Read a recording (ktune, Kernel Tuner cache, T4 or a database) and write it in another format");
  im->add_option("input", a->input, "The recording (format told by its content)")->required()->check(CLI::ExistingFile);
  add_selection_options(im, *a);
  im->add_option("-o,--output", a->output, "The file to write")->required();
  im->add_option("--format", a->format, "ktune (default), kt-cache or t4");
  im->callback([&global, &handler, a] { handler = [&global, a] { return record_convert(global, *a, false); }; });
  CLI::App* sh = cmd->add_subcommand("show", "Summarise a recording: size, statuses, optimum, what exhaustive search costs");
  sh->add_option("input", a->input, "The recording")->required()->check(CLI::ExistingFile);
  add_selection_options(sh, *a);
  sh->callback([&global, &handler, a] { handler = [&global, a] { return record_convert(global, *a, true); }; });
}

}  // namespace ktune::cli

namespace ktune::cli {
namespace {

struct ScoreArgs {
  std::vector<std::string> recordings;
  std::vector<std::string> strategies;
  std::vector<std::string> traces;
  std::size_t repeats = 10;
  std::uint64_t seed = 1;
  std::string averaging = "rank";
  std::string html;
  std::string output;
  std::string budgets;  // write {space: budget seconds} for other tools' runs
  bool methodology_budget_only = false;
};

void print_comparison(const simulate::Comparison& c) {
  for (const auto& s : c.spaces) {
    const auto& r = s.result;
    std::printf("%s: %zu configurations (%zu ok), optimum %s; scored over %.1f-%.1f s simulated, runs of %.1f s\n",
                r.space.c_str(), r.configurations, r.successful, format_seconds(r.optimum).c_str(),
                r.range.start_seconds, r.range.end_seconds, s.run_budget_seconds);
    for (const auto& st : r.strategies) {
      const auto& n = st.near_optimal;
      std::string to95 = n.median_evaluations ? std::to_string(static_cast<long long>(*n.median_evaluations)) : "-";
      std::string frac = n.fraction ? std::to_string(*n.fraction).substr(0, 5) : "-";
      std::printf("  %-28s score %6.3f   evals to 95%% %6s (random %.0f, ratio %s)\n", st.strategy.c_str(),
                  st.curve.score, to95.c_str(), n.random_expected_evaluations, frac.c_str());
    }
  }
  std::printf("aggregate (mean over spaces; 0 = random search, 1 = the optimum from the start):\n");
  for (const auto& a : c.aggregate) {
    std::printf("  %-28s %6.3f +- %.3f  (%zu spaces)\n", a.strategy.c_str(), a.score, a.error, a.spaces);
  }
}

int strategies_score(const GlobalOptions& global, const ScoreArgs& a) {
  std::vector<RecordedSpace> recordings;
  for (const auto& path : a.recordings) recordings.push_back(simulate::read_recording(path));
  simulate::ComparisonOptions o;
  if (!a.strategies.empty()) o.strategies = a.strategies;
  for (const auto& name : o.strategies) search::make_strategy(name, simulate::build_space(recordings.front()), {});
  o.repeats = a.repeats;
  o.near_optimal_runs = !a.methodology_budget_only;
  o.first_seed = a.seed;
  if (a.averaging != "rank" && a.averaging != "objective")
    throw CLI::ValidationError("--averaging", "must be rank or objective");
  o.methodology.averaging = a.averaging == "rank" ? simulate::Averaging::rank : simulate::Averaging::objective;
  for (const auto& path : a.traces) {
    for (auto& s : simulate::load_external_searches(path)) o.external.push_back(std::move(s));
  }
  const bool progress = !global.json && isatty(fileno(stderr));
  o.on_run = [progress](const std::string& space, const std::string& strategy, std::size_t repeat) {
    if (progress) std::fprintf(stderr, "\r%s: %s #%zu        ", space.c_str(), strategy.c_str(), repeat + 1);
  };
  const simulate::Comparison c = simulate::compare_strategies(recordings, o);
  if (progress) std::fprintf(stderr, "\r%60s\r", "");
  const nlohmann::json doc = simulate::to_json(c, o);
  if (!a.output.empty()) std::ofstream(a.output) << doc.dump(1) << "\n";
  if (!a.html.empty()) std::ofstream(a.html) << report::render_strategy_comparison_html(doc);
  if (!a.budgets.empty()) {
    nlohmann::json budgets = nlohmann::json::object();
    for (const auto& s : c.spaces) budgets[s.result.space] = s.run_budget_seconds;
    std::ofstream(a.budgets) << budgets.dump(1) << "\n";
  }
  if (global.json) print_json(doc);
  else print_comparison(c);
  return kExitOk;
}

}  // namespace

void add_strategies_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* cmd = app.add_subcommand("strategies", "Search strategies: list them; score them on recorded spaces");
  cmd->require_subcommand(1);
  CLI::App* list = cmd->add_subcommand("list", "The strategies and their aliases");
  list->callback([&global, &handler] {
    handler = [&global] {
      if (global.json) print_json(search::strategy_names());
      else for (const auto& n : search::strategy_names()) std::printf("%s\n", n.c_str());
      return kExitOk;
    };
  });
  auto a = std::make_shared<ScoreArgs>();
  CLI::App* score = cmd->add_subcommand(
      "score", "Run strategies in simulation on recorded spaces and score them by the 2024 methodology (Willemsen et al.)");
  score->add_option("recordings", a->recordings, "Recorded spaces (ktune JSON, Kernel Tuner cache, T4, a database)")
      ->required()->check(CLI::ExistingFile);
  score->add_option("--strategies", a->strategies, "Comma-separated (default: random,annealing,genetic,bayes,bandit)")
      ->delimiter(',');
  score->add_option("--repeats", a->repeats, "Runs per strategy and space, seeds --seed, --seed+1, ... (default 10)");
  score->add_option("--seed", a->seed, "First seed (default 1)");
  score->add_option("--traces", a->traces, "Other tools' searches to replay and score alike (ktune-search-traces JSON)");
  score->add_option("--averaging", a->averaging, "rank (the methodology's default) or objective");
  score->add_option("--html", a->html, "Write an HTML report with the performance curves");
  score->add_option("-o,--output", a->output, "Write the comparison JSON here");
  score->add_flag("--methodology-budget-only", a->methodology_budget_only,
                  "Give each run only the methodology's budget (quicker; evaluations to 95% of the optimum then "
                  "often read 'not reached')");
  score->add_option("--write-budgets", a->budgets,
                    "Write each space's budget (simulated seconds) as JSON, for bench/strategies/kt_simulate.py --budgets");
  score->callback([&global, &handler, a] { handler = [&global, a] { return strategies_score(global, *a); }; });
}

int run_simulated_tune(const GlobalOptions& global, const SimulatedTuneArgs& a) {
  const spec::TuningProblem problem = spec::load_spec(a.spec, parse_assignments(a.sizes, "--size"));
  simulate::RecordSelection sel;
  sel.kernel = problem.name;
  sel.problem = problem.name;
  const RecordedSpace rec = simulate::read_recording(a.recording, sel);
  const space::SearchSpace space = problem.make_space();
  std::vector<std::string> want, have;
  for (const auto& p : problem.parameters) want.push_back(p.name);
  for (const auto& p : rec.parameters) have.push_back(p.name);
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  if (want != have) {
    throw simulate::RecordingError(a.recording + ": records other parameters than " + a.spec + " declares");
  }
  simulate::SimulationOptions o;
  o.strategy = a.strategy.empty() ? problem.tune.strategy : a.strategy;
  o.params = !a.strategy_params.empty() ? parse_strategy_params(a.strategy_params)
             : o.strategy == problem.tune.strategy ? problem.tune.strategy_params : nlohmann::json::object();
  o.seed = a.seed.value_or(problem.tune.seed);
  o.max_evaluations = a.max_evaluations ? a.max_evaluations : problem.tune.max_evaluations;
  o.max_seconds = a.max_seconds ? a.max_seconds : problem.tune.max_seconds;
  const auto answers = simulate::index_results(rec);
  const simulate::SimulationResult r = simulate::simulate(space, answers, o, rec.name);
  nlohmann::json j = simulate::to_json(r);
  j["recording"] = a.recording;
  j["space_size"] = space.size();
  if (global.json) {
    print_json(j);
  } else {
    std::printf("simulated %s on %s (%s): %zu of %llu configurations, %.1f s on the recorded clock (%s)\n",
                o.strategy.c_str(), rec.name.c_str(), rec.device.c_str(), r.configs.size(),
                static_cast<unsigned long long>(space.size()), r.simulated_seconds, r.stop_reason.c_str());
    if (r.best_config) {
      std::printf("best: %s  %s\n", format_seconds(*r.best_time_s).c_str(), config_key(*r.best_config).c_str());
    }
    std::printf("strategy overhead: %.3f ms per evaluation (slowest %.3f ms)%s\n", j["strategy_ms_per_evaluation"].get<double>(),
                j["strategy_ms_max"].get<double>(),
                r.unrecorded ? (", " + std::to_string(r.unrecorded) + " configurations not in the recording").c_str() : "");
  }
  return r.best_config ? kExitOk : kExitNoValidConfig;
}

}  // namespace ktune::cli
