// ktune model dispatches / candidates: compile a model with IREE for a target and list its
// dispatches as IREE configured them and the candidates ktune would try (no GPU needed).
// ktune model profile / tune: time the model and its dispatches on the GPU, tune the hottest
// dispatches and write what IREE needs to apply the result (iree/model_tuning.h).

#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ktune/cli/common.h"
#include "ktune/cli/model_command_tables.h"
#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/dispatch_gemm.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/iree/transform_strategy.h"
#include "ktune/iree/model_inspection.h"
#include "ktune/iree/model_tuning.h"
#include "ktune/iree/generated_object.h"
#include "ktune/iree/object_substitution.h"
#include "ktune/iree/offline_rank.h"
#include "ktune/iree/tuning_spec.h"
#include "ktune/report/model_inspection_html.h"
#include "ktune/report/model_profile_html.h"
#include "ktune/report/progress.h"

namespace ktune::cli {
namespace {
namespace fs = std::filesystem;

struct ModelArgs {
  std::string model, target = "cuda:sm_80", iree_tools, out;
  std::vector<std::string> flags;
  int dispatch = 0, max_candidates = 32, max_objects = 8, max_transforms = 6, build = 0;
  // profile / tune
  std::string function, output, strategy, progress = "auto", object_arch = "auto", work_dir;
  int top = 5, repetitions = 10, batch = 20, device = 0, jobs = 0, hal_profile_runs = 10;
  long long seed = 0, max_evals = 0;
  double max_time = 0;
  bool no_resume = false;
  // substitute, spec
  std::vector<std::string> objects;
  std::string html;  // inspect, profile, tune --html
};

extern "C" void on_model_interrupt(int) { tuner::interrupt_flag().store(true); }

// The work directory of profile/tune: --work-dir (or --out, its older name), else beside the
// database (iree::default_work_dir): kept, so a re-run with the same database resumes with the
// candidates already built, wherever it runs from.
fs::path work_dir(const ModelArgs& args, const GlobalOptions& global) {
  if (!args.work_dir.empty() && !args.out.empty() && fs::path(args.work_dir) != fs::path(args.out))
    throw CLI::ValidationError("--work-dir", "--work-dir and --out (its older name) name different directories: give one of them");
  if (!args.work_dir.empty()) return args.work_dir;
  if (!args.out.empty()) return args.out;
  return iree::default_work_dir(database_path(global), args.model, iree::parse_target(args.target));
}

iree::ModelSession open_session(const ModelArgs& args, const GlobalOptions& global) {
  const iree::IreeLookup lookup = iree::find_iree_tools(args.iree_tools, self_executable());
  if (!lookup.tools) throw std::runtime_error(lookup.reason);
  iree::ModelSessionOptions o;
  o.function = args.function;
  o.seed = static_cast<std::uint64_t>(args.seed);
  o.extra_flags = args.flags;
  return iree::open_model_session(*lookup.tools, args.model, iree::parse_target(args.target), work_dir(args, global), o);
}

iree::ModelRunOptions run_options(const ModelArgs& args, const GlobalOptions& global) {
  iree::ModelRunOptions o;
  o.tune.db_path = database_path(global);
  o.tune.worker = {self_executable(), {"worker"}, {}};
  o.tune.devices = {args.device};
  o.tune.compile_jobs = args.jobs;
  o.tune.resume = !args.no_resume;
  o.tune.progress = report::parse_progress_style(args.progress);
  if (global.json && args.progress == "auto") o.tune.progress = report::ProgressStyle::None;
  if (!args.strategy.empty()) o.tune.strategy = args.strategy;
  if (args.max_evals > 0) o.tune.max_evaluations = static_cast<std::uint64_t>(args.max_evals);
  if (args.max_time > 0) o.tune.max_seconds = args.max_time;
  o.tune.seed = static_cast<std::uint64_t>(args.seed);
  o.top = static_cast<std::size_t>(std::max(0, args.top));
  o.max_candidates = static_cast<std::size_t>(std::max(1, args.max_candidates));
  o.max_object_candidates = static_cast<std::size_t>(std::max(0, args.max_objects));
  o.max_strategies = static_cast<std::size_t>(std::max(0, args.max_transforms));
  if (o.max_object_candidates > 0 && iree::parse_target(args.target).device == "cuda") {
    const iree::ObjectDeviceChoice choice = iree::resolve_object_device(args.object_arch, args.device);
    o.object_device = choice.device;
    if (!global.json) std::fprintf(stderr, "ktune: ktune's kernels are built for %s\n", choice.note.c_str());
  }
  o.repetitions = std::max(3, args.repetitions);
  o.batch_size = std::max(1, args.batch);
  o.hal_profile_runs = std::max(0, args.hal_profile_runs);
  std::signal(SIGINT, on_model_interrupt);
  std::signal(SIGTERM, on_model_interrupt);
  return o;
}

void add_run_options(CLI::App* cmd, ModelArgs& args) {
  cmd->add_option("--work-dir", args.work_dir,
                  "Where the default build, the inputs and every candidate are built, kept so that a re-run with the same "
                  "database resumes (default: <the database's directory>/ktune-work/<model>-<chip>-<path digest>)");
  cmd->get_option("--out")->description("The same as --work-dir (its older name)");
  cmd->add_option("--function", args.function, "The model's entry function (default: the only exported one)");
  cmd->add_option("--seed", args.seed, "Seed of the random inputs and the strategy (default 0)");
  cmd->add_option("--repetitions", args.repetitions, "iree-benchmark-module repetitions per candidate: the samples (default 10)");
  cmd->add_option("--batch", args.batch, "Dispatches per repetition of a dispatch benchmark (default 20)");
  cmd->add_option("--hal-profile-runs", args.hal_profile_runs,
                  "Runs of the default build captured with IREE's HAL profiling for in-model dispatch times, where the driver "
                  "supports it (default 10; 0: off)");
  cmd->add_option("--device", args.device, "Device ordinal (default 0)");
  cmd->add_option("--jobs", args.jobs, "iree-compile processes in parallel (default: one per core)");
  cmd->add_option("--progress", args.progress, "auto, bar, json, none");
  cmd->add_flag("--no-resume", args.no_resume, "Measure again what the database already has");
  cmd->add_option("--html", args.html, "Also write the result as a self-contained HTML page (dispatches ranked by share)");
}

// --html FILE: the rendered page, or an error naming the file.
void write_page(const std::string& path, const std::string& html) {
  std::ofstream page(path);
  page << html;
  page.close();
  if (!page) throw std::runtime_error("cannot write " + path);
}

void print_profile(const iree::ModelProfile& p) {
  std::printf("%s (%s) on %s: whole model %s\n", p.model.c_str(), p.function.c_str(), p.device.c_str(),
              p.model_median_s ? (std::to_string(*p.model_median_s * 1e6).substr(0, 8) + " us").c_str() : "not timed");
  if (p.timing == "in-model")
    std::printf("shares from inside the model (IREE's HAL profile, %s); alone: each dispatch's benchmark module\n", p.hal_profile_mode.c_str());
  else
    std::printf("shares from each dispatch's benchmark module; no in-model profile: %s\n",
                p.hal_profile_error.empty() ? "not captured" : p.hal_profile_error.substr(0, 160).c_str());
  std::fputs(profile_table(p).render().c_str(), stdout);
}

void print_tuning(const iree::ModelTuning& t) {
  print_profile(t.profile);
  if (!t.dispatches.empty()) std::fputs(tuning_table(t).render().c_str(), stdout);
  if (t.default_model_s) std::printf("whole model, default build: %.1f us\n", *t.default_model_s * 1e6);
  if (t.tuned_model_s) std::printf("whole model, tuned build:   %.1f us (%.2fx)\n", *t.tuned_model_s * 1e6, *t.default_model_s / *t.tuned_model_s);
  else if (!t.tuned_status.empty()) std::printf("tuned build: %s\n", t.tuned_status.c_str());
  std::printf("%s; %.1f s in all\n", t.tuned_kept ? "the tuned build is the answer" : "the default build stays the answer", t.wall_seconds);
}

// The model compiled for the target in --out (or a new directory under /tmp); `subdir` below
// it; link: IREE links every dispatch into one binary (its default).
iree::CompiledModel compile_for(const ModelArgs& args, iree::IreeTools& tools_out, bool link = true,
                                const std::string& subdir = "") {
  const iree::Target target = iree::parse_target(args.target);
  const iree::IreeLookup lookup = iree::find_iree_tools(args.iree_tools, self_executable());
  if (!lookup.tools) throw std::runtime_error(lookup.reason);
  tools_out = *lookup.tools;
  fs::path out = args.out;
  if (out.empty()) {
    std::string pattern = (fs::temp_directory_path() / "ktune-model-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a directory under /tmp");
    out = pattern;
  }
  iree::CompileOptions options;
  options.extra_flags = args.flags;
  options.link_executables = link;
  return iree::compile_model(tools_out, args.model, target, subdir.empty() ? out : out / subdir, options);
}

// ktune model dump: each dispatch's files as IREE wrote them, one binary per dispatch.
void print_dump(const iree::CompiledModel& c) {
  std::printf("%s for %s: %zu dispatch(es), one binary each, in %s\n", c.model.string().c_str(), c.target.text().c_str(),
              c.dispatches.size(), c.dump_dir.string().c_str());
  for (const iree::DumpedDispatch& d : c.dispatches) {
    std::printf("%s\n", d.name.c_str());
    for (const auto& [what, path] : {std::pair<const char*, const fs::path*>{"configured", &d.configured},
                                     {"benchmark", &d.benchmark}, {"object", &d.object}, {"assembly", &d.assembly}})
      if (!path->empty()) std::printf("  %-11s %s\n", what, path->filename().string().c_str());
  }
  if (!c.dispatches.empty() && !c.dispatches.front().assembly.empty())
    std::printf("edit an assembly file, then: ktune asm reassemble EDITED.rocmasm -o edited.hsaco\n"
                "and: ktune model substitute %s --target %s %s=edited.hsaco\n",
                c.model.string().c_str(), c.target.text().c_str(), c.dispatches.front().name.c_str());
}

nlohmann::json dump_json(const iree::CompiledModel& c) {
  nlohmann::json j = {{"model", c.model.string()}, {"target", c.target.text()}, {"dump_dir", c.dump_dir.string()},
                      {"vmfb", c.vmfb.string()},   {"command", c.command},      {"dispatches", nlohmann::json::array()}};
  for (const iree::DumpedDispatch& d : c.dispatches)
    j["dispatches"].push_back({{"name", d.name}, {"kernel", d.config.export_name}, {"configured", d.configured.string()},
                               {"benchmark", d.benchmark.string()}, {"object", d.object.string()},
                               {"assembly", d.assembly.string()}});
  return j;
}

void add_common_options(CLI::App* cmd, ModelArgs& args) {
  cmd->add_option("model", args.model, "The model: MLIR (linalg/tensor, or torch-mlir exported)")->required();
  cmd->add_option("--target", args.target, "cuda:sm_NN or hip:gfxNNN (default cuda:sm_80)");
  cmd->add_option("--iree-tools", args.iree_tools, "Directory of IREE's tools (default: $KTUNE_IREE_DIR, .venv/bin, PATH)");
  cmd->add_option("--out", args.out, "Where the module and the dump go (default: a new directory under /tmp)");
  cmd->add_option("--iree-flag", args.flags, "An extra iree-compile flag (repeatable)");
}

// One row per dispatch: what IREE chose and what its kernel costs on the target.
void print_inspection(const iree::CompiledModel& c, const iree::ModelInspection& in, const iree::IreeTools& tools) {
  std::printf("%s for %s with IREE %s: %zu dispatch(es); code object %s\n", c.model.string().c_str(),
              c.target.text().c_str(), tools.version.c_str(), c.dispatches.size(), in.code_object.string().c_str());
  const bool nvidia = c.target.device == "cuda";
  std::fputs(inspection_table(in).render().c_str(), stdout);
  for (const auto& n : in.notes) std::printf("note: %s\n", n.c_str());
  for (const auto& n : in.report.notes) std::printf("note: %s\n", n.c_str());
  if (nvidia)
    std::printf("(registers and static shared memory from ptxas -v on IREE's PTX for %s, dynamic shared memory from IREE's "
                "executable targets; --json for all fields)\n",
                c.target.chip.c_str());
  else
    std::printf("(VGPR: total incl. AGPRs; LDS and scratch in bytes; asm check: ktune's figures against IREE's .rocmasm; "
                "`ktune inspect %s` for every kernel in full, --json for all fields)\n",
                in.code_object.string().c_str());
}

void print_table(const iree::CompiledModel& c, const iree::IreeTools& tools) {
  std::printf("%s for %s with IREE %s: %zu dispatch(es), compiled in %.1f s; dump in %s\n", c.model.string().c_str(),
              c.target.text().c_str(), tools.version.c_str(), c.dispatches.size(), c.seconds, c.dump_dir.string().c_str());
  std::fputs(dispatches_table(c).render().c_str(), stdout);
}

int list_candidates(const ModelArgs& args, bool json) {
  iree::IreeTools tools;
  const iree::CompiledModel c = compile_for(args, tools);
  if (args.dispatch < 0 || static_cast<std::size_t>(args.dispatch) >= c.dispatches.size())
    throw std::runtime_error(args.model + " has " + std::to_string(c.dispatches.size()) + " dispatch(es); --dispatch " +
                             std::to_string(args.dispatch) + " is not one");
  const iree::DumpedDispatch& d = c.dispatches[static_cast<std::size_t>(args.dispatch)];
  iree::CandidateOptions options;
  options.max_candidates = static_cast<std::size_t>(std::max(1, args.max_candidates));
  iree::CandidateSpaceSummary summary;
  const std::vector<iree::MatmulCandidate> candidates = iree::matmul_candidates(d.config, options, &summary);
  std::vector<iree::CandidateBuild> builds;
  for (std::size_t i = 0; i < candidates.size() && static_cast<int>(i) < args.build; ++i)
    builds.push_back(iree::build_candidate(tools, d, c.target, candidates[i], c.dump_dir.parent_path() / "candidates" /
                                                                                  (d.name + "_" + std::to_string(i))));
  std::string strategies_unsupported;
  const std::vector<iree::TransformStrategy> strategies = iree::transform_strategies(
      d.config, iree::recognize_dispatch_gemm(d).gemm, static_cast<std::size_t>(std::max(0, args.max_transforms)), &strategies_unsupported);
  if (json) {
    nlohmann::json j = {{"dispatch", d.name}, {"space", summary.to_json()}, {"candidates", nlohmann::json::array()},
                        {"strategies", nlohmann::json::array()}};
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      nlohmann::json x = candidates[i].to_json();
      if (i < builds.size()) x["build"] = builds[i].to_json();
      j["candidates"].push_back(x);
    }
    for (const auto& t : strategies) j["strategies"].push_back(nlohmann::json{{"label", t.label()}, {"strategy", t.to_json()}});
    if (!strategies_unsupported.empty()) j["strategies_unsupported"] = strategies_unsupported;
    print_json(j);
    return kExitOk;
  }
  if (!summary.unsupported.empty()) {
    std::printf("%s: no candidates: %s\n", d.name.c_str(), summary.unsupported.c_str());
  } else {
    std::printf("%s: %zu candidates of %zu enumerated (%.3f s)\n", d.name.c_str(), candidates.size(), summary.enumerated,
                summary.seconds);
    for (const auto& [why, count] : summary.rejected) std::printf("  rejected %zu: %s\n", count, why.c_str());
    std::fputs(candidates_table(candidates, builds, args.build > 0).render().c_str(), stdout);
  }
  if (strategies.empty()) {
    std::printf("transform strategies: none (%s)\n", strategies_unsupported.c_str());
    return kExitOk;
  }
  std::printf("transform strategies (IREE transform-dialect codegen, `model tune --max-transforms`): %zu\n", strategies.size());
  for (const auto& t : strategies)
    std::printf("  %-24s %4d threads  %6.1f KiB shared\n", t.label().c_str(), t.threads(), static_cast<double>(t.shared_bytes()) / 1024.0);
  return kExitOk;
}

void add_dispatches_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* cmd = model->add_subcommand(
      "dispatches", "Compile MODEL.mlir with iree-compile for a target and list its dispatches with IREE's configuration");
  add_common_options(cmd, *args);
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools);
      if (global.json) {
        nlohmann::json j = {{"model", c.model.string()},     {"target", c.target.text()},
                            {"iree_version", tools.version}, {"vmfb", c.vmfb.string()},
                            {"dump_dir", c.dump_dir.string()}, {"compile_seconds", c.seconds},
                            {"command", c.command},           {"dispatches", nlohmann::json::array()}};
        for (const iree::DumpedDispatch& d : c.dispatches) {
          nlohmann::json x = d.config.to_json();
          x["name"] = d.name;
          x["benchmark_source"] = d.benchmark.string();
          const iree::DispatchGemmResult g = iree::recognize_dispatch_gemm(d);
          x["ktune_gemm"] = g.gemm ? g.gemm->to_json() : nlohmann::json{{"unsupported", g.unsupported}};
          j["dispatches"].push_back(x);
        }
        print_json(j);
      } else {
        print_table(c, tools);
      }
      return kExitOk;
    };
  });
}

void add_dump_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* dump = model->add_subcommand(
      "dump", "Compile MODEL.mlir with one binary per dispatch and list each dispatch's files (configured source, "
              "benchmark source, code object, assembly) for reading and editing");
  add_common_options(dump, *args);
  dump->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools, false);
      if (global.json) print_json(dump_json(c));
      else print_dump(c);
      return kExitOk;
    };
  });
}

void add_substitute_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* substitute = model->add_subcommand(
      "substitute", "Recompile MODEL.mlir with dispatches' code replaced by your objects (DISPATCH=FILE.hsaco) and "
                    "check that the module carries them");
  add_common_options(substitute, *args);
  substitute->add_option("objects", args->objects, "DISPATCH=FILE (repeatable), dispatch names as `model dump` lists them")
      ->required();
  substitute->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      std::vector<iree::ObjectSubstitution> subs;
      for (const std::string& o : args->objects) subs.push_back(iree::parse_object_substitution(o));
      iree::IreeTools tools;
      const iree::CompiledModel original = compile_for(*args, tools, false, "original");
      const iree::SubstitutionResult r =
          iree::substitute_objects(tools, original, subs, original.vmfb.parent_path().parent_path() / "substituted");
      if (global.json) {
        print_json(iree::to_json(r));
      } else {
        for (const iree::SubstitutedObject& o : r.objects)
          std::printf("%s <- %s (%zu bytes): %s, IREE's own object %s\n", o.substitution.dispatch.c_str(),
                      o.substitution.file.string().c_str(), o.bytes,
                      o.carried ? "carried by the module" : "NOT FOUND in the module",
                      o.original_gone ? "gone" : "STILL PRESENT");
        std::printf("%s: %s\nktune asm diff %s %s shows the edit\n", r.build.vmfb.string().c_str(),
                    r.verified() ? "verified" : "NOT verified", r.objects.front().original.string().c_str(),
                    r.objects.front().substitution.file.string().c_str());
      }
      return r.verified() ? kExitOk : kExitError;
    };
  });
}

void add_spec_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* spec = model->add_subcommand(
      "spec", "Write the AMD tuning spec that applies chosen candidates (DISPATCH=CANDIDATE, as `model candidates` "
              "lists them), compile the model with it and check in IREE's dump that every entry took");
  add_common_options(spec, *args);
  spec->add_option("choices", args->objects, "DISPATCH=CANDIDATE (repeatable): a candidate's index or key")->required();
  spec->add_option("-o,--output", args->output, "Where the spec goes (default tuning_spec.mlir)");
  spec->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      std::vector<iree::SpecChoice> choices;
      for (const std::string& c : args->objects) choices.push_back(iree::parse_spec_choice(c));
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools, true, "default");
      const fs::path path = args->output.empty() ? fs::path("tuning_spec.mlir") : fs::path(args->output);
      const iree::WrittenSpec w =
          iree::write_tuning_spec(tools, c, choices, path, c.vmfb.parent_path().parent_path() / "with_spec");
      if (global.json) {
        print_json(iree::to_json(w));
      } else {
        for (const iree::SpecCheck& k : w.checks)
          std::printf("%s <- %s: %s\n", k.dispatch.c_str(), k.candidate_key.c_str(),
                      k.applied ? "applied (IREE's dump shows it)" : ("NOT applied; IREE chose " + k.got).c_str());
        std::printf("wrote %s; apply with iree-compile --iree-codegen-tuning-spec-path=%s: %s\n", path.string().c_str(),
                    fs::absolute(path).string().c_str(), w.verified() ? "verified" : "NOT verified");
      }
      return w.verified() ? kExitOk : kExitError;
    };
  });
}

void add_rank_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* rank = model->add_subcommand(
      "rank", "Rank the IREE-knob candidates of a model's largest matmul dispatches for an AMD target without its GPU: "
              "each compiled and its code object inspected, ordered by a static rule, recorded as offline ranks "
              "(never as times); -o writes the top candidates' tuning spec and checks IREE applies it");
  add_common_options(rank, *args);
  rank->add_option("--top", args->top, "How many dispatches, largest M x N x K first (default 5)");
  rank->add_option("--max-candidates", args->max_candidates, "Candidates per dispatch, IREE's own included (default 32)");
  rank->add_option("--jobs", args->jobs, "Parallel iree-compile (default: one per core)");
  rank->add_option("-o,--output", args->output, "Write the top candidates' tuning spec here and verify it applies");
  rank->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools, true, "default");
      iree::OfflineRankOptions o;
      o.max_dispatches = static_cast<std::size_t>(std::max(args->top, 1));
      o.max_candidates = static_cast<std::size_t>(std::max(args->max_candidates, 1));
      o.jobs = args->jobs;
      o.work_dir = c.vmfb.parent_path().parent_path() / "candidates";
      o.db_path = database_path(global);
      o.spec_path = args->output;
      const iree::OfflineRanking r = iree::rank_dispatches_offline(tools, c, o);
      if (global.json) {
        print_json(iree::to_json(r));
      } else {
        for (const iree::DispatchRanking& d : r.dispatches) {
          std::printf("%s (%s): %zu candidates, static ranks (not times):\n", d.dispatch.c_str(),
                      iree::find_dispatch(c, d.dispatch).config.shape_label().c_str(),
                      d.candidates.size());
          std::fputs(ranking_table(d, 8).render().c_str(), stdout);
        }
        for (const auto& n : r.notes) std::printf("note: %s\n", n.c_str());
        if (r.spec)
          std::printf("tuning spec %s: %s\n", r.spec->path.string().c_str(),
                      r.spec->verified() ? "applied by iree-compile (IREE's dump shows every entry)" : "NOT applied");
        std::printf("%.1f s; ranks recorded in %s (device offline-%s, status skipped: a rank is not a time)\n", r.seconds,
                    database_path(global).string().c_str(), c.target.chip.c_str());
      }
      return !r.spec || r.spec->verified() ? kExitOk : kExitError;
    };
  });
}

void add_inspect_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* inspect = model->add_subcommand(
      "inspect", "Compile MODEL.mlir for an AMD or NVIDIA target (hip:gfx942, gfx950, gfx90a; cuda:sm_80) and inspect every dispatch's "
                 "kernel: registers, LDS, scratch, occupancy and its limiter, ISA findings, checked against IREE's "
                 "assembly");
  add_common_options(inspect, *args);
  inspect->add_option("--html", args->html, "Also write the table and each dispatch's details as an HTML page");
  inspect->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools);
      const iree::ModelInspection inspection = iree::inspect_model(tools, c);
      nlohmann::json j = iree::to_json(inspection);
      j["model"] = c.model.string();
      j["iree_version"] = tools.version;
      j["dump_dir"] = c.dump_dir.string();
      if (!args->html.empty()) write_page(args->html, report::render_model_inspection_html(j));
      if (global.json) {
        print_json(j);
      } else {
        print_inspection(c, inspection, tools);
      }
      return kExitOk;
    };
  });
}

void add_candidates_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* cand = model->add_subcommand(
      "candidates", "Compile MODEL.mlir, then list ktune's candidate configurations of one matmul dispatch (IREE's own first); "
                    "--build N compiles the first N with IREE and checks that each took");
  add_common_options(cand, *args);
  cand->add_option("--dispatch", args->dispatch, "Which dispatch (its index in `model dispatches`, default 0)");
  cand->add_option("--max", args->max_candidates, "Candidates at most, IREE's default included (default 32)");
  cand->add_option("--build", args->build, "Compile the first N candidates as dispatch benchmark modules (default 0)");
  cand->add_option("--max-transforms", args->max_transforms, "IREE transform-dialect strategies listed at most (default 6)");
  cand->callback([&global, &handler, args] {
    handler = [&global, args]() -> int { return list_candidates(*args, global.json); };
  });
}

void add_profile_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* prof = model->add_subcommand(
      "profile", "Compile MODEL.mlir, time the whole model on random inputs and each dispatch alone on the GPU, ranked by "
                 "share of time; every measurement recorded in the database");
  add_common_options(prof, *args);
  add_run_options(prof, *args);
  prof->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      const iree::ModelRunOptions options = run_options(*args, global);  // bad options fail before the compile
      const iree::ModelSession session = open_session(*args, global);
      const iree::ModelProfile p = iree::profile_model(session, options);
      const nlohmann::json j = p.to_json();
      if (global.json) print_json(j);
      else print_profile(p);
      if (!args->html.empty()) write_page(args->html, report::render_model_profile_html(j));
      return p.model_median_s ? kExitOk : kExitNoValidConfig;
    };
  });
}

void add_tune_command(CLI::App* model, GlobalOptions& global, Handler& handler, const std::shared_ptr<ModelArgs>& args) {
  CLI::App* tune = model->add_subcommand(
      "tune", "Profile MODEL.mlir, tune its hottest matmul dispatches with IREE's own knobs and ktune's generated kernels "
              "as executable objects (each candidate compiled, "
              "verified against the default build and timed; resumable), rebuild the model with the winners and time "
              "it against the default build; -o DIR writes the configurations and the iree-compile flags that apply them");
  add_common_options(tune, *args);
  add_run_options(tune, *args);
  tune->add_option("--top", args->top, "Dispatches tuned, hottest first (default 5)");
  tune->add_option("--max-candidates", args->max_candidates, "Candidates per dispatch in IREE's knobs, IREE's default included (default 32)");
  tune->add_option("--max-objects", args->max_objects,
                   "Per GEMM dispatch: ktune's generated kernels substituted as the dispatch's executable object (default 8; 0: none)");
  tune->add_option("--max-transforms", args->max_transforms,
                   "Per plain f16 matmul dispatch on CUDA: IREE transform-dialect codegen strategies (ldmatrix, "
                   "cp.async, a pipelined K loop; default 6; 0: none)");
  tune->add_option("--object-arch", args->object_arch,
                   "The GPU ktune's kernels are built for: auto (the CUDA device at --device, so wgmma+TMA kernels on "
                   "Hopper; the target without one), target (mma.sync PTX for the dispatch's target), or an arch (sm_90a)");
  tune->add_option("--strategy", args->strategy, "exhaustive (default: the ranked order), random or annealing");
  tune->add_option("--max-evals", args->max_evals, "Per dispatch: stop after this many candidates");
  tune->add_option("--max-time", args->max_time, "Per dispatch: stop after this many seconds");
  tune->add_option("-o,--output", args->output, "Write the answer here: <dispatch>.mlir, flags.txt, compile.sh, tuned.vmfb, result.json");
  tune->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      const iree::ModelRunOptions options = run_options(*args, global);  // bad options fail before the compile
      const iree::ModelSession session = open_session(*args, global);
      const iree::ModelTuning t = iree::tune_model(session, options);
      if (!args->output.empty()) iree::write_tuning_output(session, t, args->output);
      const nlohmann::json j = t.to_json();
      if (global.json) print_json(j);
      else print_tuning(t);
      if (!args->html.empty()) write_page(args->html, report::render_model_profile_html(j));
      if (tuner::interrupt_flag().load()) return kExitInterrupted;
      return t.default_model_s ? kExitOk : kExitNoValidConfig;
    };
  });
}

}  // namespace

void add_model_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* model = app.add_subcommand("model", "Whole models compiled with IREE (needs scripts/install-deps.sh's .venv)");
  model->require_subcommand(1);
  // One ModelArgs for all subcommands: CLI11 parses only the one given.
  auto args = std::make_shared<ModelArgs>();
  add_dispatches_command(model, global, handler, args);
  add_dump_command(model, global, handler, args);
  add_substitute_command(model, global, handler, args);
  add_spec_command(model, global, handler, args);
  add_rank_command(model, global, handler, args);
  add_inspect_command(model, global, handler, args);
  add_candidates_command(model, global, handler, args);
  add_profile_command(model, global, handler, args);
  add_tune_command(model, global, handler, args);
}

}  // namespace ktune::cli
