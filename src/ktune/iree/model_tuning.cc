#include "ktune/iree/model_tuning.h"

#include "ktune/iree/transform_strategy.h"

#include <algorithm>
#include <chrono>
#include <fstream>

#include "ktune/core/read_file.h"
#include "ktune/db/export.h"
#include "ktune/iree/dispatch_kind.h"
#include "ktune/iree/hal_profile.h"
#include "ktune/iree/model_build_kind.h"

namespace ktune::iree {
namespace fs = std::filesystem;

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string root_of(const DumpedDispatch& d) {
  // The JSON's "root" keeps its format ("batch_matmul 8x128x128x64"); tables use shape_label().
  if (const auto c = d.config.contraction()) {
    const auto at = [&](int loop) { return c->sizes[static_cast<std::size_t>(loop)]; };
    const std::string mnk = extents_text({at(c->m), at(c->n), at(c->k)});
    return c->batch.empty() ? "matmul " + mnk : "batch_matmul " + extent_text(c->batch_count()) + "x" + mnk;
  }
  return d.config.lowering_configs.empty() ? "?" : d.config.lowering_configs.front().op;
}

measure::Policy benchmark_policy(const ModelRunOptions& o) {
  measure::Policy p;
  p.min_samples = o.repetitions;
  p.min_seconds = 0.2;  // spread over the repetitions: ~20 ms each
  p.racing = false;     // IREE's tool runs every repetition it is asked for
  p.warmup_seconds = 0.05;
  return p;
}

// One session of `kind` evaluating exactly `configs` (no search), through the tuning loop.
tuner::TuneSummary run_fixed(tuner::CandidateKind& kind, const ModelRunOptions& o, std::vector<Config> configs,
                             const std::string& label) {
  return tuner::run_tuning(kind, fixed_tune_options(o, std::move(configs), label));
}

// The HAL profile recorded with the default build's result (fresh or resumed), if any.
std::optional<HalProfile> hal_profile_of(const tuner::TuneSummary& s) {
  const std::string key = config_key(ModelBuildKind::config_for("default"));
  for (const auto& r : s.results)
    if (r.config_key == key && r.resources.contains("hal_profile")) return HalProfile::from_json(r.resources.at("hal_profile"));
  return std::nullopt;
}

std::optional<double> ok_median(const tuner::TuneSummary& s, const Config& config) {
  const std::string key = config_key(config);
  for (const auto& r : s.results)
    if (r.config_key == key && r.status == db::Status::Ok && r.median_s) return r.median_s;
  return std::nullopt;
}

}  // namespace

// Measured again on every run, deliberately (tuner::resumes_recorded_results): the whole-model
// comparison is a ratio of two times that mean something only when taken side by side in one
// session, in one GPU state (clocks, temperature, other tenants), and its "tuned" build is
// whichever winners this run merged, which its config {"build": "tuned"} does not name; a
// recorded time could be another substitution set's. The profile is the time of the model as it
// runs now (and chooses what is tuned). Each is a few runs of one build, not a search.
tuner::TuneOptions fixed_tune_options(const ModelRunOptions& o, std::vector<Config> configs, const std::string& label) {
  tuner::TuneOptions t = o.tune;
  t.fixed_configs = std::move(configs);
  t.session_label = label;
  t.confirm = 0;
  t.max_evaluations.reset();
  t.max_seconds.reset();
  return t;
}

// The candidates are the search: resumed (unless --no-resume), so a re-run neither compiles nor
// measures a candidate the database has a result for on this device; it picks among them all.
tuner::TuneOptions dispatch_tune_options(const ModelRunOptions& o) {
  tuner::TuneOptions t = o.tune;
  t.confirm = 0;  // every candidate already gets the same repetitions
  t.session_label = "model tune";
  return t;
}

// IREE names a dispatch after the function it
// was formed in (`mm_dispatch_0`, `main$async_dispatch_3`), so one named after another exported
// function is that function's work, not to be timed or tuned for this one (it took 98% of a
// profile of `add` whose module also exports `mm`), unless IREE's in-model profile of this
// function saw it (a dispatch deduplicated across functions keeps its first function's name).
bool runs_in_function(const DumpedDispatch& d, const ModelSession& session, const std::optional<HalProfile>& hal) {
  const auto named_after = [&](const std::string& f) {
    return d.name.rfind(f + "_dispatch_", 0) == 0 || d.name.rfind(f + "$", 0) == 0;
  };
  if (named_after(session.function.name)) return true;
  if (std::none_of(session.other_functions.begin(), session.other_functions.end(), named_after)) return true;
  return hal && hal->ok() && find_dispatch(*hal, d.name) != nullptr;
}

nlohmann::json ModelProfile::to_json() const {
  nlohmann::json d = nlohmann::json::array();
  for (const auto& p : dispatches) {
    nlohmann::json j = {{"name", p.name}, {"root", p.root}, {"tunable", p.tunable}, {"status", p.status},
                        {"share", p.share}, {"result_id", p.result_id}};
    j["median_s"] = p.median_s ? nlohmann::json(*p.median_s) : nlohmann::json(nullptr);
    j["in_model_s"] = p.in_model_s ? nlohmann::json(*p.in_model_s) : nlohmann::json(nullptr);
    if (p.in_model_s) j["in_model_calls_per_run"] = p.in_model_calls_per_run;
    if (!p.why_not.empty()) j["why_not_tunable"] = p.why_not;
    d.push_back(j);
  }
  return {{"model", model}, {"target", target}, {"function", function}, {"device", device},
          {"model_median_s", model_median_s ? nlohmann::json(*model_median_s) : nlohmann::json(nullptr)},
          {"model_error", model_error},
          {"dispatches", d}, {"timing", timing}, {"hal_profile_mode", hal_profile_mode},
          {"hal_profile_error", hal_profile_error}, {"wall_seconds", wall_seconds}};
}

ModelProfile profile_model(const ModelSession& session, const ModelRunOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  ModelProfile p;
  p.model = session.model.model.string();
  p.target = session.model.target.text();
  p.function = session.function.name;
  ModelBuildKind builds(session, {{"default", {}}}, benchmark_policy(o));
  builds.set_hal_profile_runs(o.hal_profile_runs);
  const tuner::TuneSummary whole = run_fixed(builds, o, {ModelBuildKind::config_for("default")}, "model profile");
  p.device = whole.device.name;
  p.model_median_s = ok_median(whole, ModelBuildKind::config_for("default"));
  if (!p.model_median_s && !whole.results.empty()) p.model_error = whole.results.front().error;
  const std::optional<HalProfile> hal = hal_profile_of(whole);
  if (hal) {
    p.hal_profile_mode = hal->mode;
    p.hal_profile_error = hal->error;
  }
  // A failed whole-model run also has no profile; say why where the profile's reason is shown.
  if (!p.model_error.empty() && p.hal_profile_error.empty()) p.hal_profile_error = "the whole model did not run: " + p.model_error;
  double total = 0;
  for (std::size_t i = 0; i < session.model.dispatches.size(); ++i) {
    const DumpedDispatch& d = session.model.dispatches[i];
    if (!runs_in_function(d, session, hal)) continue;
    DispatchProfile dp;
    dp.name = d.name;
    dp.root = root_of(d);
    if (d.benchmark.empty()) {
      dp.status = "no benchmark source in IREE's dump";
      p.dispatches.push_back(dp);
      continue;
    }
    DispatchKindOptions ko;
    ko.max_candidates = o.max_candidates;
    ko.max_object_candidates = o.max_object_candidates;
    ko.max_strategies = o.max_strategies;
    ko.object_device = o.object_device;
    ko.batch_size = o.batch_size;
    ko.policy = benchmark_policy(o);
    ko.verify = false;  // IREE's own configuration: nothing to compare it with
    ko.default_only_when_untunable = true;
    DispatchKind kind(session, i, ko);
    dp.tunable = kind.tunable();
    if (!dp.tunable) {
      dp.why_not = kind.space_summary().unsupported;
      if (!kind.objects_unsupported().empty()) dp.why_not += "; ktune's kernels: " + kind.objects_unsupported();
      if (!kind.strategies_unsupported().empty()) dp.why_not += "; transform strategies: " + kind.strategies_unsupported();
    }
    const tuner::TuneSummary s = run_fixed(kind, o, {{{"candidate", Value::string("default")}}}, "model profile");
    if (!s.results.empty()) {
      dp.status = std::string(db::to_string(s.results.front().status));
      dp.result_id = s.results.front().id;
      if (s.results.front().status != db::Status::Ok) dp.why_not = s.results.front().error;
    }
    dp.median_s = ok_median(s, {{"candidate", Value::string("default")}});
    if (dp.median_s) total += *dp.median_s;
    if (hal && hal->ok())
      if (const HalDispatchTime* t = find_dispatch(*hal, d.name)) {
        dp.in_model_s = t->per_run_s();
        dp.in_model_calls_per_run = t->calls_per_run;
      }
    p.dispatches.push_back(dp);
  }
  // Shares from inside the model where IREE profiled every dispatch that was timed alone, else
  // from the dispatches alone: a dispatch missing from the profile must not fall to share 0 and
  // out of the tuning order.
  double in_model_total = 0;
  std::string missing;
  for (const auto& d : p.dispatches) {
    in_model_total += d.in_model_s.value_or(0);
    if (d.median_s && !d.in_model_s) missing += (missing.empty() ? "" : ", ") + d.name;
  }
  if (in_model_total > 0 && missing.empty()) p.timing = "in-model";
  else if (in_model_total > 0) p.hal_profile_error = "IREE's profile has no events of " + missing;
  auto basis = [&](const DispatchProfile& d) { return p.timing == "in-model" ? d.in_model_s : d.median_s; };
  const double basis_total = p.timing == "in-model" ? in_model_total : total;
  for (auto& d : p.dispatches)
    if (basis(d) && basis_total > 0) d.share = *basis(d) / basis_total;
  std::stable_sort(p.dispatches.begin(), p.dispatches.end(),
                   [&](const DispatchProfile& a, const DispatchProfile& b) { return basis(a).value_or(-1) > basis(b).value_or(-1); });
  p.wall_seconds = since(start);
  return p;
}

DispatchPick pick_dispatch_winner(const std::vector<CandidateTime>& times) {
  DispatchPick pick;
  std::optional<double> best;
  std::string best_label;
  for (const CandidateTime& t : times) {
    if (!t.ok || !t.median_s || *t.median_s <= 0) continue;
    if (t.label == "default" && (!pick.default_s || *t.median_s < *pick.default_s)) pick.default_s = t.median_s;
    if (!best || *t.median_s < *best) best = t.median_s, best_label = t.label;
  }
  pick.best_s = pick.default_s;
  // Without a measured default nothing is known to be faster than it: the default stays.
  if (pick.default_s && best && best_label != "default" && *best < *pick.default_s * 0.99) {
    pick.label = best_label;
    pick.best_s = best;
  }
  return pick;
}

nlohmann::json DispatchTuning::to_json() const {
  nlohmann::json j = {{"name", name}, {"candidates", candidates}, {"object_candidates", object_candidates}, {"best", best_label},
                      {"evaluated", summary.evaluated}, {"resumed", summary.resumed}, {"by_status", summary.by_status},
                      {"wall_seconds", summary.wall_seconds}, {"stop_reason", summary.stop_reason},
                      {"session_id", summary.session_id}, {"phase_totals", summary.phase_totals}};
  j["default_s"] = default_s ? nlohmann::json(*default_s) : nlohmann::json(nullptr);
  j["best_s"] = best_s ? nlohmann::json(*best_s) : nlohmann::json(nullptr);
  if (default_s && best_s && *best_s > 0) j["speedup"] = *default_s / *best_s;
  if (!configured.empty()) j["configured"] = configured.string();
  if (!objects_unsupported.empty()) j["objects_unsupported"] = objects_unsupported;
  j["strategies"] = strategies;
  if (!strategies_unsupported.empty()) j["strategies_unsupported"] = strategies_unsupported;
  return j;
}

nlohmann::json ModelTuning::to_json() const {
  nlohmann::json d = nlohmann::json::array();
  for (const auto& t : dispatches) d.push_back(t.to_json());
  nlohmann::json subs = nlohmann::json::object();
  for (const auto& [name, file] : substitutions) subs[name] = file.string();
  nlohmann::json j = {{"profile", profile.to_json()}, {"dispatches", d}, {"substitutions", subs},
                      {"compile_flags", compile_flags}, {"tuned_status", tuned_status}, {"tuned_kept", tuned_kept},
                      {"wall_seconds", wall_seconds}};
  j["default_model_s"] = default_model_s ? nlohmann::json(*default_model_s) : nlohmann::json(nullptr);
  j["tuned_model_s"] = tuned_model_s ? nlohmann::json(*tuned_model_s) : nlohmann::json(nullptr);
  if (default_model_s && tuned_model_s && *tuned_model_s > 0) j["model_speedup"] = *default_model_s / *tuned_model_s;
  return j;
}

namespace {

// Every verified result of the dispatch on this device, this session's and earlier ones' (the
// profile's default, a resumed run's candidates): the database holds them all.
void pick_winner(const DispatchKind& kind, db::Database& database, DispatchTuning& t) {
  std::vector<CandidateTime> times;
  for (const auto& r : database.results_for(t.summary.device.id, t.summary.kernel.id, t.summary.problem.id))
    times.push_back({r.config.value("candidate", ""), r.median_s, r.status == db::Status::Ok});
  const DispatchPick pick = pick_dispatch_winner(times);
  t.best_label = pick.label;
  t.best_s = pick.best_s;
  t.default_s = pick.default_s;
  t.configured = kind.substitution_file(pick.label);
}

}  // namespace

ModelTuning tune_model(const ModelSession& session, const ModelRunOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  ModelTuning m;
  m.profile = profile_model(session, o);
  std::size_t tuned = 0;
  for (const DispatchProfile& dp : m.profile.dispatches) {
    if (tuned >= o.top || tuner::interrupt_flag().load()) break;
    if (!dp.tunable || !dp.median_s || dp.share < o.min_share) continue;
    std::size_t index = 0;
    while (session.model.dispatches[index].name != dp.name) ++index;
    DispatchKindOptions ko;
    ko.max_candidates = o.max_candidates;
    ko.max_object_candidates = o.max_object_candidates;
    ko.max_strategies = o.max_strategies;
    ko.object_device = o.object_device;
    ko.batch_size = o.batch_size;
    ko.policy = benchmark_policy(o);
    ko.tune.strategy = "exhaustive";  // the ranked order, the default first
    DispatchKind kind(session, index, ko);
    DispatchTuning t;
    t.name = dp.name;
    t.candidates = kind.candidates().size() + kind.object_candidates().size() + kind.strategies().size();
    t.object_candidates = kind.object_candidates().size();
    t.strategies = kind.strategies().size();
    t.strategies_unsupported = kind.strategies_unsupported();
    t.objects_unsupported = kind.objects_unsupported();
    t.summary = tuner::run_tuning(kind, dispatch_tune_options(o));
    db::Database database(o.tune.db_path.empty() ? db::Database::default_path() : o.tune.db_path);
    pick_winner(kind, database, t);
    if (!t.configured.empty()) m.substitutions.push_back({t.name, t.configured});
    m.dispatches.push_back(std::move(t));
    ++tuned;
  }
  // The merged answer, rebuilt whole and timed against the default build in one session.
  std::vector<ModelBuild> builds = {{"default", {}}};
  std::vector<Config> configs = {ModelBuildKind::config_for("default")};
  if (!m.substitutions.empty()) {
    builds.push_back({"tuned", m.substitutions});
    configs.push_back(ModelBuildKind::config_for("tuned"));
  }
  ModelRunOptions final_options = o;
  final_options.repetitions = std::max(o.repetitions, 20);
  ModelBuildKind kind(session, builds, benchmark_policy(final_options));
  const tuner::TuneSummary s = run_fixed(kind, final_options, configs, "model tune: default vs tuned");
  m.default_model_s = ok_median(s, configs.front());
  if (configs.size() > 1) {
    for (const auto& r : s.results)
      if (r.config_key == config_key(configs.back())) m.tuned_status = std::string(db::to_string(r.status)) + (r.error.empty() ? "" : ": " + r.error);
    m.tuned_model_s = ok_median(s, configs.back());
    m.tuned_kept = m.tuned_model_s && m.default_model_s && *m.tuned_model_s < *m.default_model_s;
  }
  if (!m.tuned_kept) m.substitutions.clear();  // the default build stays the answer
  for (const std::string& f : session.model.target.compile_flags()) m.compile_flags.push_back(f);
  for (const auto& [name, file] : m.substitutions) m.compile_flags.push_back("--iree-hal-substitute-executable-configuration=" + name + "=" + file.string());
  if (!m.substitutions.empty()) {
    const fs::path library = session.work_dir / "builds" / "tuned" / "model.strategies.mlir";
    if (fs::exists(library)) m.compile_flags.push_back("--iree-codegen-transform-dialect-library=" + library.string());
  }
  m.wall_seconds = since(start);
  return m;
}

void write_tuning_output(const ModelSession& session, const ModelTuning& t, const fs::path& dir) {
  fs::create_directories(dir);
  std::vector<std::string> flags = session.model.target.compile_flags();
  bool objects = false;
  for (const auto& [name, file] : t.substitutions) {
    const fs::path ptx = file.parent_path() / "kernel.ptx";
    if (file.filename() == "executable.mlir" && fs::exists(ptx)) {
      // ktune's kernel: the executable names its PTX by an absolute path; the copy names it
      // relative to the object search path (this directory).
      fs::copy_file(ptx, dir / (name + ".ptx"), fs::copy_options::overwrite_existing);
      std::string text = read_file(file).value_or("");
      const std::string absolute = "path = \"" + fs::absolute(ptx).string() + "\"";
      if (const auto at = text.find(absolute); at != std::string::npos) text.replace(at, absolute.size(), "path = \"" + name + ".ptx\"");
      std::ofstream(dir / (name + ".mlir"), std::ios::binary) << text;
      objects = true;
    } else {
      fs::copy_file(file, dir / (name + ".mlir"), fs::copy_options::overwrite_existing);
    }
    flags.push_back("--iree-hal-substitute-executable-configuration=" + name + "=" + name + ".mlir");
  }
  if (objects) flags.push_back("--iree-hal-executable-object-search-path=.");
  std::vector<fs::path> configured;
  for (const auto& [name, file] : t.substitutions) configured.push_back(file);
  if (const auto strategies = strategies_named_in(configured); !strategies.empty()) {
    // The transform strategies the chosen configurations name, in the one library IREE takes.
    std::ofstream(dir / "strategies.mlir", std::ios::binary) << emit_strategy_library(strategies);
    flags.push_back("--iree-codegen-transform-dialect-library=strategies.mlir");
  }
  for (const std::string& f : session.extra_flags) flags.push_back(f);
  std::ofstream(dir / "flags.txt") << [&] {
    std::string s;
    for (const auto& f : flags) s += f + "\n";
    return s;
  }();
  std::ofstream sh(dir / "compile.sh");
  sh << "#!/bin/sh\n# The model compiled with ktune's tuned dispatch configurations (written by ktune model tune).\n"
     << "# Usage: compile.sh MODEL.mlir OUT.vmfb   (IREE_COMPILE=path/to/iree-compile to choose the compiler)\n"
     << "set -e\nhere=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
     << "exec \"${IREE_COMPILE:-iree-compile}\" \"$1\" -o \"$2\"";
  for (const auto& f : flags) {
    const auto eq = f.rfind('=');
    if (f.rfind("--iree-hal-substitute-executable-configuration=", 0) == 0)
      sh << " \\\n  \"" << f.substr(0, eq + 1) << "$here/" << f.substr(eq + 1) << "\"";
    else if (f.rfind("--iree-codegen-transform-dialect-library=", 0) == 0)
      sh << " \\\n  \"" << f.substr(0, eq + 1) << "$here/" << f.substr(eq + 1) << "\"";
    else if (f.rfind("--iree-hal-executable-object-search-path=", 0) == 0)
      sh << " \\\n  \"" << f.substr(0, eq + 1) << "$here\"";
    else
      sh << " \\\n  '" << f << "'";
  }
  sh << "\n";
  sh.close();
  fs::permissions(dir / "compile.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add);
  const fs::path tuned = session.work_dir / "builds" / "tuned" / "model.vmfb";
  if (t.tuned_kept && fs::exists(tuned)) fs::copy_file(tuned, dir / "tuned.vmfb", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "result.json") << t.to_json().dump(1) << "\n";
}

}  // namespace ktune::iree
