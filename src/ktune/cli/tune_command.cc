// ktune tune SPEC: search the spec's space, record every result, report the best.

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>

#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/cli/common.h"
#include "ktune/cli/simulate_commands.h"
#include "ktune/tuner/offline_tuning.h"
#include "ktune/tuner/tuner.h"

namespace ktune::cli {
namespace {

struct TuneArgs {
  std::string spec;
  std::vector<std::string> sizes;
  std::string strategy;
  std::string strategy_params;  // JSON object text
  std::string simulate;         // a recording: answer evaluations from it instead of a GPU
  std::uint64_t max_evals = 0;
  double max_time = 0;
  std::int64_t seed = -1;
  bool no_racing = false;
  std::string l2_flush;  // empty: the spec's measure block decides (default dirty)
  bool no_resume = false;
  int jobs = 0;
  int device = 0;
  std::vector<int> devices;
  std::string progress = "auto";
  // --offline (AMD targets): compile and rank statically, measure nothing.
  std::string target;
  bool offline = false;
  int top = 10;
  bool expect_matrix = false;
  std::size_t confirm = 3;
  std::string sanitize;
  std::vector<std::string> sanitize_tools;
  std::string sanitizer;
};

extern "C" void on_interrupt(int) { tuner::interrupt_flag().store(true); }

}  // namespace

nlohmann::json summary_to_json(const tuner::TuneSummary& s) {
  nlohmann::json j = {{"session", s.session_id},
                      {"device", {{"name", s.device.name}, {"backend", s.device.backend}, {"fingerprint", s.device.fingerprint}}},
                      {"kernel", s.kernel.name},
                      {"problem", {{"name", s.problem.name}, {"sizes", s.problem.sizes}}},
                      {"strategy", s.strategy},
                      {"space_size", s.space_size},
                      {"evaluated", s.evaluated},
                      {"resumed", s.resumed},
                      {"raced", s.raced},
                      {"by_status", s.by_status},
                      {"stop_reason", s.stop_reason},
                      {"wall_seconds", s.wall_seconds},
                      {"phase_totals", s.phase_totals}};
  if (!s.sanitized.empty()) j["sanitized"] = s.sanitized;
  if (!s.confirmed.empty()) j["confirmed"] = s.confirmed;
  j["best"] = s.best ? result_to_json(*s.best) : nlohmann::json(nullptr);
  return j;
}

void print_summary(const tuner::TuneSummary& s) {
  std::printf("session %lld on %s (%s): %s, %llu configs in the space\n", static_cast<long long>(s.session_id),
              s.device.name.c_str(), s.device.backend.c_str(), s.strategy.c_str(),
              static_cast<unsigned long long>(s.space_size));
  std::printf("evaluated %llu new, %llu answered from earlier sessions; stopped: %s after %.1f s\n",
              static_cast<unsigned long long>(s.evaluated), static_cast<unsigned long long>(s.resumed),
              s.stop_reason.c_str(), s.wall_seconds);
  std::string statuses;
  for (const auto& [status, n] : s.by_status) statuses += "  " + status + " " + std::to_string(n);
  if (!statuses.empty()) std::printf("status:%s\n", statuses.c_str());
  if (s.raced) std::printf("racing stopped %llu slower candidates early (disable with --no-racing)\n", static_cast<unsigned long long>(s.raced));
  for (const auto& z : s.sanitized) {
    if (z["findings"].contains("error")) std::printf("sanitize: %s\n", z["findings"]["error"].get<std::string>().c_str());
    else std::printf("sanitize: %s: %ld compute-sanitizer error(s)\n", z["config"].dump().c_str(), z["errors"].get<long>());
  }
  if (!s.best) {
    std::printf("no configuration ran correctly\n");
    return;
  }
  const auto& b = *s.best;
  std::printf("best: %s\n", b.config.dump().c_str());
  std::printf("  median %s  (q1 %s, q3 %s, %lld samples)", format_seconds(*b.median_s).c_str(),
              format_seconds(b.q1_s.value_or(0)).c_str(), format_seconds(b.q3_s.value_or(0)).c_str(),
              static_cast<long long>(b.samples));
  if (b.gflops) std::printf("  %.2f GFLOP/s", *b.gflops);
  if (b.gbps) std::printf("  %.2f GB/s", *b.gbps);
  std::printf("\n");
}

int run_offline(const GlobalOptions& global, const TuneArgs& args) {
  if (args.target.empty()) throw CLI::ValidationError("--offline", "needs --target (gfx942, gfx90a, gfx950, ...)");
  if (!analysis::find_amdgpu_arch(analysis::amdgpu_processor_name(args.target)))
    throw CLI::ValidationError("--target", "'" + args.target + "' is not an AMD GPU ktune knows (gfx908 gfx90a gfx940 "
                                           "gfx941 gfx942 gfx950, optionally with :sramecc+/-:xnack+/-)");
  tuner::OfflineTuneOptions o;
  o.spec_path = args.spec;
  o.size_overrides = parse_assignments(args.sizes, "--size");
  o.target = args.target;
  o.compile_jobs = args.jobs;
  if (args.max_evals > 0) o.max_configs = args.max_evals;
  o.expect_matrix = args.expect_matrix;
  o.db_path = database_path(global);
  const bool show_progress = !global.json && ::isatty(2);
  if (show_progress)
    o.on_compiled = [](std::size_t done, std::size_t total) {
      if (done == total || done % 8 == 0) std::fprintf(stderr, "\rcompiling %zu/%zu", done, total);
    };
  const tuner::OfflineTuneSummary s = tuner::run_offline_tuning(o);
  if (show_progress) std::fprintf(stderr, "\n");
  const std::size_t top = static_cast<std::size_t>(std::max(args.top, 0));
  if (global.json) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const auto& c : s.candidates) {
      nlohmann::json j = {{"config", config_to_json(c.config)}, {"status", db::to_string(c.status)},
                          {"result_id", c.result_id}};
      if (c.rank) j["static_rank"] = *c.rank;
      if (c.assessment) j["static_model"] = device::hip::to_json(*c.assessment);
      if (!c.error.empty()) j["error"] = c.error;
      candidates.push_back(std::move(j));
    }
    print_json({{"session", s.session_id}, {"offline", true}, {"target", s.target}, {"compiler", s.compiler},
                {"device", {{"name", s.device.name}, {"fingerprint", s.device.fingerprint}}},
                {"space_size", s.space_size}, {"by_status", s.by_status}, {"ranking_rule", tuner::kOfflineRankingRule},
                {"wall_seconds", s.wall_seconds}, {"candidates", candidates}});
  } else {
    std::printf("offline ranking for %s (%s), session %lld: %zu configurations compiled in %.1f s\n", s.target.c_str(),
                s.compiler.c_str(), static_cast<long long>(s.session_id), s.candidates.size(), s.wall_seconds);
    std::string statuses;
    for (const auto& [status, n] : s.by_status)
      statuses += "  " + (status == "skipped" ? std::string("ranked") : status) + " " + std::to_string(n);
    std::printf("status:%s\n", statuses.c_str());
    std::printf("NOT MEASURED: %s.\nMeasure the top few on the GPU (ktune bench / ktune tune on the device).\n",
                tuner::kOfflineRankingRule);
    std::size_t shown = 0;
    for (const auto& c : s.candidates) {
      if (!c.rank || shown >= top) continue;
      ++shown;
      std::printf("%4d  %s\n      %s\n", *c.rank, c.config_key.c_str(), c.assessment->why().c_str());
    }
    for (const auto& c : s.candidates) {
      if (c.rank) continue;
      std::string first_line = c.error.substr(0, c.error.find('\n'));
      std::printf("   -  %s  %s: %s\n", c.config_key.c_str(), std::string(db::to_string(c.status)).c_str(),
                  first_line.c_str());
      if (++shown >= top + 5) break;
    }
  }
  return s.by_status.count("skipped") ? kExitOk : kExitNoValidConfig;
}

SimulatedTuneArgs simulated_args(const TuneArgs& a) {
  SimulatedTuneArgs s{a.spec, a.sizes, a.simulate, a.strategy, a.strategy_params, {}, {}, {}};
  if (a.seed >= 0) s.seed = static_cast<std::uint64_t>(a.seed);
  if (a.max_evals > 0) s.max_evaluations = a.max_evals;
  if (a.max_time > 0) s.max_seconds = a.max_time;
  return s;
}

void add_tune_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand("tune", "Search a spec's tuning space; record every result; report the best");
  cmd->add_option("spec", args->spec, "Problem spec file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--size", args->sizes, "Override a problem size: NAME=VALUE (repeatable)");
  cmd->add_option("--strategy", args->strategy,
                  "exhaustive, random, annealing, genetic, bayes or bandit (default: the spec's tune.strategy; "
                  "`ktune strategies list`)");
  cmd->add_option("--strategy-params", args->strategy_params,
                  "The strategy's parameters as a JSON object, e.g. '{\"population\": 30}' (default: the spec's "
                  "tune.strategy_params when the strategy is the spec's)");
  cmd->add_option("--simulate", args->simulate,
                  "Answer every evaluation from a recording (ktune record export, a Kernel Tuner cache file, T4 results "
                  "or a database) on a simulated clock charged the recorded compile and measurement seconds; "
                  "--max-time is then simulated seconds. Needs no GPU and records nothing")
      ->check(CLI::ExistingFile);
  cmd->add_option("--max-evals", args->max_evals, "Stop after this many configurations (resumed ones count)");
  cmd->add_option("--max-time", args->max_time, "Stop after this many seconds");
  cmd->add_option("--seed", args->seed, "Seed for the strategy (same seed, same sequence)");
  cmd->add_flag("--no-racing", args->no_racing, "Measure every candidate fully, even when clearly slower than the best");
  cmd->add_option("--l2-flush", args->l2_flush,
                  "What the flush before every sample leaves in L2 (CUDA): dirty (the flush buffer written, as nvbench "
                  "and do_bench leave it) or clean (then read, so the kernel does not write those lines back); "
                  "default: the spec's measure.l2_flush, else dirty")
      ->check(CLI::IsMember({"dirty", "clean"}));
  cmd->add_flag("--no-resume", args->no_resume, "Measure configurations again even if the database has them");
  cmd->add_option("--jobs", args->jobs, "Compiler threads (default: one per core)");
  cmd->add_option("--device", args->device, "Device ordinal within the backend");
  cmd->add_option("--devices", args->devices, "Several devices measured in parallel, one worker each: 0,1")->delimiter(',');
  cmd->add_option("--progress", args->progress, "auto (bar on a terminal, JSON lines otherwise), bar, json, none");
  cmd->add_option("--target", args->target, "With --offline: the AMD GPU to compile for (gfx942, gfx90a, gfx950)");
  cmd->add_flag("--offline", args->offline,
                "Compile every configuration for --target and rank them by a static model (occupancy, spills, ISA "
                "checks) without a GPU; records no timings");
  cmd->add_option("--top", args->top, "With --offline: how many ranked configurations to print (default 10)");
  cmd->add_flag("--expect-matrix", args->expect_matrix, "With --offline: a matrix kernel (no MFMA counts against it)");
  cmd->add_option("--confirm", args->confirm,
                  "When the spec leaves measure.min_seconds and max_noise at their defaults: screen every candidate "
                  "briefly (1% noise), then measure this many finalists (within 3% of the best) at full precision "
                  "and pick from those (default 3; 0: every candidate at full precision)");
  cmd->add_option("--sanitize", args->sanitize,
                  "After the search, re-run 'winner' (the best; the next if it is caught) or 'all' correct candidates "
                  "under compute-sanitizer and record its findings (a caught candidate becomes memory_error)")
      ->check(CLI::IsMember({"winner", "all"}));
  cmd->add_option("--sanitize-tools", args->sanitize_tools, "compute-sanitizer tools (default memcheck): memcheck,racecheck,initcheck,synccheck")
      ->delimiter(',')
      ->check(CLI::IsMember({"memcheck", "racecheck", "initcheck", "synccheck"}));
  cmd->add_option("--sanitizer", args->sanitizer, "Path of compute-sanitizer (default: $KTUNE_COMPUTE_SANITIZER, PATH, /usr/local/cuda/bin)");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      if (args->offline) return run_offline(global, *args);
      if (!args->simulate.empty()) return run_simulated_tune(global, simulated_args(*args));
      if (!args->target.empty())
        throw CLI::ValidationError("--target", "is only used with --offline (a measured session compiles for its device)");
      tuner::TuneOptions o;
      o.spec_path = args->spec;
      o.size_overrides = parse_assignments(args->sizes, "--size");
      if (!args->strategy.empty()) o.strategy = args->strategy;
      if (!args->strategy_params.empty()) o.strategy_params = parse_strategy_params(args->strategy_params);
      if (args->max_evals > 0) o.max_evaluations = args->max_evals;
      if (args->max_time > 0) o.max_seconds = args->max_time;
      if (args->seed >= 0) o.seed = static_cast<std::uint64_t>(args->seed);
      if (args->no_racing) o.racing = false;
      if (!args->l2_flush.empty()) o.l2_flush = measure::l2_flush_from_string(args->l2_flush);
      o.resume = !args->no_resume;
      o.compile_jobs = args->jobs;
      o.devices = args->devices.empty() ? std::vector<int>{args->device} : args->devices;
      o.db_path = database_path(global);
      o.worker = {self_executable(), {"worker"}, {}};
      o.progress = report::parse_progress_style(args->progress);
      if (global.json && args->progress == "auto") o.progress = report::ProgressStyle::None;
      o.session_label = "tune";
      o.confirm = args->confirm;
      o.sanitize.scope = args->sanitize;
      if (!args->sanitize_tools.empty()) o.sanitize.tools = args->sanitize_tools;
      o.sanitize.sanitizer = args->sanitizer;
      std::signal(SIGINT, on_interrupt);
      std::signal(SIGTERM, on_interrupt);
      tuner::TuneSummary s = tuner::run_tuning(o);
      if (global.json) print_json(summary_to_json(s));
      else print_summary(s);
      if (s.stop_reason == "interrupted") return kExitInterrupted;
      return s.best ? kExitOk : kExitNoValidConfig;
    };
  });
}

}  // namespace ktune::cli
