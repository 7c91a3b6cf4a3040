// ktune bench SPEC --set NAME=VALUE ...: measure given configurations, print a table like
// Google Benchmark's, and record the results.

#include <cstdio>
#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/tuner.h"

namespace ktune::cli {
namespace {

struct BenchArgs {
  std::string spec;
  std::vector<std::string> sets;
  std::vector<std::string> configs;
  std::vector<std::string> sizes;
  bool force = false;
  bool racing = false;
  int device = 0;
  std::vector<int> devices;
};

std::vector<Config> configs_from(const BenchArgs& args, const spec::TuningProblem& problem) {
  std::vector<Config> configs;
  if (!args.sets.empty()) configs.push_back(parse_assignments(args.sets, "--set"));
  for (const auto& text : args.configs) {
    std::vector<std::string> items;
    std::size_t pos = 0;
    while (pos <= text.size()) {
      std::size_t end = text.find(',', pos);
      if (end == std::string::npos) end = text.size();
      if (end > pos) items.push_back(text.substr(pos, end - pos));
      pos = end + 1;
    }
    configs.push_back(parse_assignments(items, "--config"));
  }
  if (configs.empty() && problem.parameters.empty()) configs.push_back({});
  if (configs.empty()) throw CLI::ValidationError("--set", "give a configuration with --set NAME=VALUE (or --config A=1,B=2)");
  space::SearchSpace space = problem.make_space();
  for (const auto& c : configs) {
    for (const auto& p : problem.parameters)
      if (!c.count(p.name)) throw CLI::ValidationError("--set", "parameter '" + p.name + "' is not set in " + config_key(c));
    for (const auto& [name, value] : c) {
      bool known = false;
      for (const auto& p : problem.parameters) known = known || p.name == name;
      if (!known) throw CLI::ValidationError("--set", "'" + name + "' is not a parameter of " + problem.name);
    }
    if (!args.force) {
      auto violated = space.violated_constraints(c);
      if (!violated.empty()) {
        std::string list;
        for (const auto& v : violated) list += "\n  " + v;
        throw CLI::ValidationError("--set", config_key(c) + " violates constraints (use --force to run it anyway):" + list);
      }
    }
  }
  return configs;
}

void print_table(const tuner::TuneSummary& s) {
  std::printf("%-48s %12s %12s %12s %9s %8s %11s %10s  %s\n", "Benchmark", "Median", "Q1", "Q3", "Noise", "Samples",
              "GFLOP/s", "GB/s", "Status");
  std::printf("%s\n", std::string(140, '-').c_str());
  for (const auto& r : s.results) {
    std::string name = s.problem.name + "/" + r.config_key;
    if (name.size() > 48) name = name.substr(0, 45) + "...";
    auto t = [](const std::optional<double>& v) { return v ? format_seconds(*v) : std::string("-"); };
    char noise[16] = "-", gf[16] = "-", gb[16] = "-";
    if (r.stdev_s && r.mean_s && *r.mean_s > 0) std::snprintf(noise, sizeof noise, "%.2f%%", 100 * *r.stdev_s / *r.mean_s);
    if (r.gflops) std::snprintf(gf, sizeof gf, "%.2f", *r.gflops);
    if (r.gbps) std::snprintf(gb, sizeof gb, "%.2f", *r.gbps);
    std::printf("%-48s %12s %12s %12s %9s %8lld %11s %10s  %s\n", name.c_str(), t(r.median_s).c_str(), t(r.q1_s).c_str(),
                t(r.q3_s).c_str(), noise, static_cast<long long>(r.samples), gf, gb,
                std::string(db::to_string(r.status)).c_str());
    if (r.status != db::Status::Ok && !r.error.empty()) {
      std::string first = r.error.substr(0, r.error.find('\n'));
      std::printf("    %s\n", first.substr(0, 200).c_str());
    }
  }
  std::printf("device: %s (%s)   stop: %s\n", s.device.name.c_str(), s.device.backend.c_str(),
              s.results.empty() ? "-" : s.results.back().stop_reason.c_str());
}

}  // namespace

void add_bench_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Measure one or more configurations of a spec (table like Google Benchmark)");
  cmd->add_option("spec", args->spec, "Problem spec file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", args->sets, "Parameter value NAME=VALUE (repeat for each parameter)");
  cmd->add_option("--config", args->configs, "A whole configuration A=1,B=2 (repeatable: several configurations)");
  cmd->add_option("--size", args->sizes, "Override a problem size: NAME=VALUE");
  cmd->add_flag("--force", args->force, "Run configurations that violate the spec's constraints");
  cmd->add_flag("--racing", args->racing, "Allow racing between the given configurations (off by default)");
  cmd->add_option("--device", args->device, "Device ordinal within the backend");
  cmd->add_option("--devices", args->devices, "Several devices measured in parallel, one worker each: 0,1")->delimiter(',');
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      tuner::TuneOptions o;
      o.spec_path = args->spec;
      o.size_overrides = parse_assignments(args->sizes, "--size");
      spec::TuningProblem problem = spec::load_spec(o.spec_path, o.size_overrides);
      o.fixed_configs = configs_from(*args, problem);
      o.racing = args->racing;
      o.resume = false;
      o.devices = args->devices.empty() ? std::vector<int>{args->device} : args->devices;
      o.db_path = database_path(global);
      o.worker = {self_executable(), {"worker"}, {}};
      o.progress = report::ProgressStyle::None;
      o.session_label = "bench";
      tuner::TuneSummary s = tuner::run_tuning(o);
      if (global.json) {
        nlohmann::json j = summary_to_json(s);
        j["results"] = nlohmann::json::array();
        for (const auto& r : s.results) j["results"].push_back(result_to_json(r));
        print_json(j);
      } else {
        print_table(s);
      }
      for (const auto& r : s.results)
        if (r.status != db::Status::Ok) return kExitNoValidConfig;
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
