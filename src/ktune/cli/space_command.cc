// ktune space SPEC: how big the space is, which constraints prune most, and samples from it.

#include <algorithm>
#include <cstdio>
#include <random>

#include "ktune/cli/common.h"
#include "ktune/spec/problem.h"

namespace ktune::cli {
namespace {

struct SpaceArgs {
  std::string spec;
  std::vector<std::string> sizes;
  std::size_t sample = 0;
  std::uint64_t seed = 0;
};

}  // namespace

void add_space_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<SpaceArgs>();
  CLI::App* cmd = app.add_subcommand("space", "Count a spec's valid configurations, show what prunes them, sample some");
  cmd->add_option("spec", args->spec, "Problem spec file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--size", args->sizes, "Override a problem size: NAME=VALUE");
  cmd->add_option("--sample", args->sample, "Print this many uniformly sampled valid configurations");
  cmd->add_option("--seed", args->seed, "Seed for --sample");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      spec::TuningProblem problem = spec::load_spec(args->spec, parse_assignments(args->sizes, "--size"));
      space::SearchSpace space = problem.make_space();
      auto constraints = space.constraint_stats();
      std::stable_sort(constraints.begin(), constraints.end(),
                       [](const auto& a, const auto& b) { return a.rejected > b.rejected; });
      std::vector<Config> samples;
      if (args->sample > 0 && space.size() > 0) {
        std::mt19937_64 rng(args->seed);
        for (std::uint64_t i : space.sample_indices(args->sample, rng, args->sample <= space.size()))
          samples.push_back(space.at(i));
      }
      if (global.json) {
        nlohmann::json j = {{"problem", problem.name}, {"valid", space.size()}, {"cartesian", space.cartesian_size()}};
        for (const auto& p : problem.parameters) j["parameters"][p.name] = p.values.size();
        for (const auto& g : space.group_stats())
          j["groups"].push_back({{"parameters", g.parameters}, {"cartesian", g.cartesian}, {"valid", g.valid}});
        j["constraints"] = nlohmann::json::array();
        for (const auto& c : constraints) {
          nlohmann::json cj = {{"constraint", c.text}, {"line", c.line}, {"rejected", c.rejected}, {"group", c.group}};
          if (!c.first_error.empty()) cj["first_error"] = c.first_error;
          j["constraints"].push_back(cj);
        }
        j["samples"] = nlohmann::json::array();
        for (const auto& s : samples) j["samples"].push_back(config_to_json(s));
        print_json(j);
        return kExitOk;
      }
      std::printf("%s: %llu valid configurations of %.6g in the Cartesian product (%.3g%%)\n", problem.name.c_str(),
                  static_cast<unsigned long long>(space.size()), space.cartesian_size(),
                  space.cartesian_size() > 0 ? 100.0 * static_cast<double>(space.size()) / space.cartesian_size() : 0.0);
      std::printf("\nparameters:\n");
      for (const auto& p : problem.parameters) {
        std::string values;
        for (std::size_t i = 0; i < p.values.size() && i < 12; ++i) values += (i ? ", " : "") + p.values[i].to_string();
        if (p.values.size() > 12) values += ", ...";
        std::printf("  %-16s %3zu values: %s\n", p.name.c_str(), p.values.size(), values.c_str());
      }
      std::printf("\nindependent groups (solved separately, combined lazily):\n");
      for (const auto& g : space.group_stats()) {
        std::string names;
        for (const auto& n : g.parameters) names += (names.empty() ? "" : ", ") + n;
        std::printf("  {%s}: %llu valid of %.6g\n", names.c_str(), static_cast<unsigned long long>(g.valid), g.cartesian);
      }
      if (!constraints.empty()) {
        std::printf("\nconstraints, by rejections while solving (the first failing constraint is charged; shared subtrees count once):\n");
        for (const auto& c : constraints) {
          std::printf("  %12llu  line %-4d %s\n", static_cast<unsigned long long>(c.rejected), c.line, c.text.c_str());
          if (!c.first_error.empty()) std::printf("                evaluation error: %s\n", c.first_error.c_str());
        }
      }
      if (!samples.empty()) {
        std::printf("\nsamples:\n");
        for (const auto& s : samples) std::printf("  %s\n", config_key(s).c_str());
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
