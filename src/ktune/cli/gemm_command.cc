// ktune tune gemm: tune a GEMM without a spec file. This file parses the flags and prints; the
// session itself (every family's candidates in an isolated worker, verified, measured and
// recorded, then the pick by the baseline rule) is tuner/gemm_session.h.

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "ktune/cli/common.h"
#include "ktune/db/status.h"
#include "ktune/families/gemm/gemm_pick.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/report/progress.h"
#include "ktune/tuner/gemm_session.h"
#include "ktune/tuner/tuner.h"
#include "ktune/worker/serve.h"

namespace ktune::cli {
namespace {

struct GemmArgs {
  std::string spec;
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  std::string dtype = "bf16", layout = "nn", out_dtype, families = "generated,cublaslt";
  double alpha = 1, beta = 0;
  bool bias = false, relu = false, gelu = false;
  int device = 0;
  int max_candidates = 32;
  int generated_candidates = 20;
  bool generated_pingpong = false;
  bool generated_split_cluster = false;
  bool generated_split_tail = false;
  bool generated_co_resident = false;
  bool generated_evict_first = false;
  bool generated_clusters = true;
  bool generated_swap_ab = true;
  int refine = 6;
  double refine_window = 0.25;
  double tail_seconds = 0.3;
  double refine_wait = 0.1;
  int compile_wait_top = 10;
  double compile_grace = 1.0;
  int heuristics = 8;
  bool cluster_variants = false;
  double workspace_mib = 32;
  std::int64_t seed = 1;
  std::string reference = "auto";
  double min_time = 0.01;
  double max_time = 0.1;
  double max_noise = 0.005;
  int max_samples = 500;
  int confirm = 3;
  int confirm_rounds = 3;
  double throttle_rest = 0.25;
  int throttle_retries = 1;
  double candidate_timeout = 5;
  bool no_racing = false;
  double racing_margin = 0.05;
  std::string l2_flush = "dirty";
  bool no_resume = false;
  bool dry_run = false;
  std::string progress = "auto";
  int show = 12;
};

// The options whose presence matters (flags override a --spec file only when given).
struct GemmOptions {
  CLI::Option *m, *n, *k, *batch, *dtype, *layout, *out_dtype, *families, *alpha, *beta, *bias, *relu, *gelu;
};

extern "C" void on_gemm_interrupt(int) { tuner::interrupt_flag().store(true); }

gemm::GemmSpec resolve(const GemmArgs& a, const GemmOptions& o) {
  std::optional<gemm::GemmSpec> base;
  if (!a.spec.empty()) base = gemm::load_gemm_spec(a.spec);
  gemm::GemmFields f;
  if (o.m->count()) f.m = a.m;
  if (o.n->count()) f.n = a.n;
  if (o.k->count()) f.k = a.k;
  if (o.batch->count()) f.batch = a.batch;
  if (o.dtype->count() || !base) f.dtype = a.dtype;
  if (o.layout->count()) f.layout = a.layout;
  if (o.out_dtype->count()) f.out_dtype = a.out_dtype;
  if (o.families->count() || !base) f.families = a.families;
  if (o.alpha->count()) f.alpha = a.alpha;
  if (o.beta->count()) f.beta = a.beta;
  if (o.bias->count()) f.bias = a.bias;
  if (o.relu->count()) f.activation = "relu";
  if (o.gelu->count()) f.activation = "gelu";
  try {
    gemm::GemmSpec spec = gemm::resolve_gemm_spec(f, base);
    if (spec.families.empty()) spec.families = gemm::parse_families(a.families);
    return spec;
  } catch (const gemm::GemmError& e) {
    throw CLI::ValidationError("tune gemm", e.what());
  }
}

measure::Policy gemm_policy(const GemmArgs& a) {
  // Tuning many candidates: less measured time per candidate than nvbench's 0.5 s, a cap on
  // samples for microsecond kernels; the baseline rule (compare_to) still needs the medians
  // apart by more than 1% and by 3 standard errors.
  measure::Policy p;
  p.warmup_seconds = 0.01;
  p.min_samples = 10;
  p.min_seconds = a.min_time;
  // A power-limited GEMM's clocks wander: at 8192^3 the 0.5% noise took up to 2.7 s of
  // confirmation (three finalists) to reach or give up on. 100 ms of samples (70 of a 1.4 ms
  // kernel) pin its median well within the baseline rule's 1% margin.
  p.max_seconds = a.max_time;
  p.max_noise = a.max_noise;
  p.max_samples = a.max_samples;
  p.timeout_seconds = a.candidate_timeout;
  p.racing = !a.no_racing;
  p.racing_margin = a.racing_margin;
  p.l2_flush = measure::l2_flush_from_string(a.l2_flush);
  measure::validate(p);
  return p;
}

std::string spread_text(const measure::Stats& s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "IQR %.1f%%", s.median > 0 ? 100.0 * (s.q3 - s.q1) / s.median : 0.0);
  return buffer;
}

using tuner::GemmRow;
using tuner::short_config;
using tuner::stats_json;

double tflops(const gemm::GemmProblem& problem, const measure::Stats& s) { return problem.flops() / s.median / 1e12; }

// --json: the session's whole record.
nlohmann::json report_json(const tuner::GemmSessionResult& r, const gemm::GemmProblem& problem, const GemmArgs& args) {
  const std::vector<GemmRow>& rows = r.rows;
  nlohmann::json out = {{"problem", problem.to_json()},
                        {"name", problem.name()},
                        {"device", {{"name", r.device.name}, {"ordinal", args.device}, {"fingerprint", r.device.fingerprint}}},
                        {"families", r.listing.at("families")},
                        {"reference", r.listing.value("reference", nlohmann::json::object())},
                        {"candidates", nlohmann::json::array()},
                        {"pick", r.pick.to_json()},
                        {"interrupted", r.interrupted},
                        {"refined", r.refined},
                        {"refinement_skipped", r.refinement_skipped},
                        {"refinement_not_ready", r.refine_not_ready},
                        {"compile_left_out", r.compile_left_out},
                        {"cublaslt_tail", {{"measured", r.tail_measured}, {"skipped", r.tail_skipped},
                                           {"budget_s", args.tail_seconds}}},
                        {"phases", r.phases},
                        {"confirmed", r.confirmed},
                        {"generated_compile", r.generated_compile},
                        {"wall_seconds", r.wall_seconds},
                        {"database", r.database.string()}};
  for (const GemmRow& row : rows) {
    nlohmann::json c = result_to_json(row.result);
    c["index"] = row.index;
    c["family"] = row.family;
    c["source"] = row.source;
    c["resumed"] = row.resumed;
    if (row.stats && r.baseline_runs) c["speedup_vs_baseline"] = r.baseline_runs->best.median / row.stats->median;
    out["candidates"].push_back(std::move(c));
  }
  if (r.baseline_runs) {
    out["baseline"] = stats_json(r.baseline_runs->best);
    out["baseline"]["drift"] = r.baseline_runs->drift;
    out["baseline"]["beside_finalists"] = r.baseline_beside_finalists;
    if (r.baseline_first) out["baseline"]["first"] = stats_json(*r.baseline_first);
    // Every run, when, and at which SM clock (a throttled run was taken again: the attempts).
    out["baseline"]["timeline"] = nlohmann::json::array();
    for (const tuner::TimedStats& t : r.baseline_timeline) {
      nlohmann::json run = {{"at_s", t.at_s}, {"median_s", t.stats.median}};
      if (t.sm_clock_mhz) run["sm_clock_mhz"] = *t.sm_clock_mhz;
      if (!t.throttled_attempts.is_null()) run["throttled_attempts"] = t.throttled_attempts;
      out["baseline"]["timeline"].push_back(std::move(run));
    }
  }
  if (r.pick.pick) {
    const GemmRow& p = rows[*r.pick.pick];
    out["pick"]["candidate"] = p.index;
    out["pick"]["config"] = config_to_json(p.config);
    out["pick"]["family"] = p.family;
    // A kept baseline is judged by the faster of its two runs, as the rule compared it.
    const std::optional<measure::Stats> pick_stats =
        r.pick.baseline_kept && r.baseline_runs ? std::optional<measure::Stats>(r.baseline_runs->best) : p.stats;
    out["pick"]["stats"] = pick_stats ? stats_json(*pick_stats) : nlohmann::json(nullptr);
    if (pick_stats) out["pick"]["tflops"] = tflops(problem, *pick_stats);
    if (r.pick_result_id) out["pick"]["result_id"] = *r.pick_result_id;
  }
  for (const auto& [name, session] : r.sessions) out["sessions"][name] = session;
  for (const auto& [family, index] : tuner::fastest_per_family(rows)) {
    const GemmRow& row = rows[index];
    nlohmann::json best = {{"candidate", row.index}, {"config", config_to_json(row.config)},
                           {"stats", stats_json(*row.stats)}, {"tflops", tflops(problem, *row.stats)}};
    if (r.baseline_runs) best["speedup_vs_baseline"] = r.baseline_runs->best.median / row.stats->median;
    // Against the baseline's run nearest in time too: the same state of a GPU that heats up.
    if (const auto nearest = tuner::baseline_nearest(r.baseline_timeline, row.measured_at_s)) {
      best["baseline_nearest"] = stats_json(*nearest);
      best["speedup_vs_baseline_nearest"] = nearest->median / row.stats->median;
    }
    out["family_best"][family] = best;
  }
  return out;
}

// The candidate table: the baseline, then the fastest others.
void print_candidates(const tuner::GemmSessionResult& r, const gemm::GemmProblem& problem, const GemmArgs& args) {
  const std::vector<GemmRow>& rows = r.rows;
  std::vector<std::size_t> order;
  for (std::size_t i = 1; i < rows.size(); ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const auto& a = rows[x].stats;
    const auto& b = rows[y].stats;
    if (a.has_value() != b.has_value()) return a.has_value();
    return a && b && a->median < b->median;
  });
  if (!rows.empty()) order.insert(order.begin(), 0);
  std::printf("%4s  %-12s  %-12s  %-10s  %8s  %8s  %-8s  %s\n", "#", "source", "median", "spread", "TFLOP/s", "vs base",
              "status", "config");
  std::size_t shown = 0;
  for (std::size_t i : order) {
    if (shown++ >= static_cast<std::size_t>(std::max(args.show, 1)) + 1) break;
    const GemmRow& row = rows[i];
    std::string median = "-", spread = "-", rate = "-", versus = "-";
    if (row.stats) {
      median = format_seconds(row.stats->median);
      spread = spread_text(*row.stats);
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.1f", tflops(problem, *row.stats));
      rate = buffer;
      if (r.baseline_runs) {
        std::snprintf(buffer, sizeof buffer, "%.3fx", r.baseline_runs->best.median / row.stats->median);
        versus = buffer;
      }
    }
    std::string status(db::to_string(row.result.status));
    if (row.resumed) status += "*";
    if (row.result.raced) status = "raced";
    std::printf("%4zu  %-12s  %-12s  %-10s  %8s  %8s  %-8s  %s\n", row.index, row.source.c_str(), median.c_str(),
                spread.c_str(), rate.c_str(), versus.c_str(), status.c_str(), short_config(row.config).c_str());
    if (row.result.status != db::Status::Ok && !row.result.error.empty())
      std::printf("      %s\n", row.result.error.substr(0, row.result.error.find('\n')).c_str());
  }
  if (r.resumed) std::printf("(* from an earlier session; --no-resume measures again)\n");
}

// The pick and what the baseline rule said.
void print_pick(const tuner::GemmSessionResult& r, const gemm::GemmProblem& problem) {
  for (const auto& [family, index] : tuner::fastest_per_family(r.rows)) {
    const GemmRow& row = r.rows[index];
    std::printf("fastest %s: #%zu %s, %.1f TFLOP/s", family.c_str(), row.index, format_seconds(row.stats->median).c_str(),
                tflops(problem, *row.stats));
    if (r.baseline_runs) std::printf(", %.3fx cuBLAS's default", r.baseline_runs->best.median / row.stats->median);
    std::printf("\n");
  }
  if (r.baseline_runs && r.baseline_measured_again) {
    std::printf("baseline measured %s: drift %.1f%%%s\n",
                r.baseline_beside_finalists ? "before and after the finalists" : "before and after the others",
                100.0 * r.baseline_runs->drift,
                r.baseline_runs->drift > 0.03 ? " (more than 3%: the machine is noisy, treat small speedups with care)" : "");
    if (r.baseline_beside_finalists && r.baseline_first && r.baseline_first->median > 0)
      std::printf("baseline's first run (before tuning warmed the GPU): %s, %.1f%% %s\n",
                  format_seconds(r.baseline_first->median).c_str(),
                  100.0 * std::fabs(r.baseline_runs->best.median / r.baseline_first->median - 1.0),
                  r.baseline_runs->best.median >= r.baseline_first->median ? "faster" : "slower");
  }
  if (!r.pick.pick) {
    std::printf("no candidate ran correctly\n");
    return;
  }
  const GemmRow& p = r.rows[*r.pick.pick];
  if (r.pick.baseline_kept) {
    std::printf("pick: #0, cuBLAS's default (%s, %s): %s\n", format_seconds(p.stats->median).c_str(),
                spread_text(r.baseline_runs->best).c_str(), r.pick.reason.c_str());
  } else if (r.baseline_runs) {
    std::printf("pick: #%zu %s (%s)\n  %.3fx faster than cuBLAS's default: %s (%s) vs %s (%s), %.1f TFLOP/s\n", p.index,
                p.source.c_str(), short_config(p.config).c_str(), r.pick.speedup, format_seconds(p.stats->median).c_str(),
                spread_text(*p.stats).c_str(), format_seconds(r.baseline_runs->best.median).c_str(),
                spread_text(r.baseline_runs->best).c_str(), tflops(problem, *p.stats));
  } else {
    std::printf("pick: #%zu %s (%s): %s\n", p.index, p.source.c_str(), short_config(p.config).c_str(), r.pick.reason.c_str());
  }
}

// What the search left out or skipped, and where the time went.
void print_search_notes(const tuner::GemmSessionResult& r, const GemmArgs& args) {
  if (!r.confirmed.empty())
    std::printf("screened every candidate (3 ms, 2%% noise); %zu finalist(s) within 3%% measured again at the full "
                "policy%s\n",
                r.confirmed.size(), args.confirm_rounds > 1 ? ", beside the baseline in interleaved rounds" : "");
  if (!r.compile_left_out.empty())
    std::printf("generated: %zu kernel(s) below the model's top %d left out, their compiles not done within "
                "--compile-grace %.2f s\n",
                r.compile_left_out.size(), args.compile_wait_top, args.compile_grace);
  if (r.refine_not_ready)
    std::printf("refinement: %zu kernel(s) left out, their compiles not done within --refine-wait %.2f s\n",
                r.refine_not_ready, args.refine_wait);
  if (r.tail_skipped)
    std::printf("cuBLASLt: %zu enumerated algorithm(s) not measured (--tail-seconds %.2f; %zu measured)\n", r.tail_skipped,
                args.tail_seconds, r.tail_measured);
  if (!r.refinement_skipped.is_null())
    std::printf("refinement skipped: the fastest generated kernel (%s) trails the fastest candidate (%s) by more than "
                "%.0f%%\n",
                format_seconds(r.refinement_skipped.at("fastest_generated_s").get<double>()).c_str(),
                format_seconds(r.refinement_skipped.at("incumbent_s").get<double>()).c_str(), 100.0 * args.refine_window);
  std::printf("%zu candidates (%zu from refinement) in %.1f s; results in %s", r.rows.size(), r.refined, r.wall_seconds,
              r.database.c_str());
  for (const auto& [name, session] : r.sessions) std::printf(" (session %lld)", static_cast<long long>(session));
  std::printf("\n");
  const nlohmann::json& phases = r.phases;
  const nlohmann::json& compile = r.generated_compile;
  std::printf("time: start %.2f s, listing %.2f s (reference %.2f, cuBLASLt enumeration %.2f), evaluation %.2f s, "
              "refinement %.2f s, baseline again %.2f s; generated kernels: %d compiled, %d from the cache, "
              "%.2f s of NVRTC in the background, %.2f s waited for\n",
              phases.value("setup_s", 0.0), phases.value("listing_s", 0.0), phases.value("reference_s", 0.0),
              phases.value("cublaslt_enumeration_s", 0.0), phases.value("evaluation_s", 0.0),
              phases.value("refinement_s", 0.0), phases.value("baseline_again_and_pick_s", 0.0),
              compile.value("compiled", 0), compile.value("cached", 0), compile.value("nvrtc_seconds", 0.0),
              compile.value("waited_seconds", 0.0));
}

// The text report.
void print_report(const tuner::GemmSessionResult& r, const gemm::GemmProblem& problem, const GemmArgs& args) {
  const nlohmann::json& lt = r.listing.at("families").value("cublaslt", nlohmann::json::object());
  std::printf("%s on %s (device %d)", problem.name().c_str(), r.device.name.c_str(), args.device);
  if (lt.contains("library")) std::printf(", cuBLASLt %s", lt.at("library").value("version", std::string()).c_str());
  std::printf("\n");
  if (lt.contains("enumeration")) {
    const nlohmann::json& e = lt.at("enumeration");
    std::printf("candidates: %zu (heuristic %d answers; %d algorithm ids, %zu configs checked, %zu valid%s)\n",
                r.listing.at("candidates").size(), e.value("heuristic_returned", 0), e.value("algo_ids", 0),
                e.value("checked", std::size_t{0}), e.value("valid", std::size_t{0}),
                e.value("truncated", false) ? ", check budget reached" : "");
  }
  if (r.listing.contains("reference"))
    std::printf("reference: %s, %zu elements checked per candidate, %.2f s\n",
                r.listing.at("reference").value("mode", std::string()).c_str(),
                r.listing.at("reference").value("elements", std::size_t{0}),
                r.listing.at("reference").value("seconds", 0.0));
  print_candidates(r, problem, args);
  print_pick(r, problem);
  print_search_notes(r, args);
}

// --dry-run --json: the problem, the policy, the worker's listing request and, without a GPU,
// the generated family's candidates on a Hopper model.
nlohmann::json dry_run_json(const gemm::GemmSpec& spec, const gemm::GemmSetup& setup, const measure::Policy& policy,
                            const GemmArgs& args) {
  const gemm::GemmProblem& problem = spec.problem;
  nlohmann::json j = {{"problem", problem.to_json()},
                      {"name", problem.name()},
                      {"families", spec.families},
                      {"flops", problem.flops()},
                      {"bytes", problem.bytes()},
                      {"policy", measure::policy_to_json(policy)},
                      {"request", gemm::candidates_request(setup)}};
  // What the generated family would compile on a Hopper part (132 SMs, 227 KiB of shared
  // memory per block), without a GPU: the model's choice, for inspection and for CI.
  if (std::find(spec.families.begin(), spec.families.end(), "generated") != spec.families.end()) {
    if (auto reason = generated::unsupported_reason(problem)) {
      j["generated_preview"] = {{"available", false}, {"reason", *reason}};
    } else {
      const generated::ProblemTraits traits = generated::problem_traits(problem);
      generated::DeviceTraits device;
      device.name = "sm_90 model (132 SMs)";
      generated::SpaceOptions space;
      space.max_candidates = static_cast<std::size_t>(args.generated_candidates);
      space.pingpong = args.generated_pingpong;
      space.split_cluster = args.generated_split_cluster;
      space.split_tail = args.generated_split_tail;
      space.co_resident = args.generated_co_resident;
      space.evict_first = args.generated_evict_first;
      space.clusters = args.generated_clusters;
      space.swap_ab = args.generated_swap_ab;
      generated::SpaceSummary summary;
      nlohmann::json list = nlohmann::json::array();
      for (const generated::RankedKnobs& r : generated::select_candidates(traits, device, space, &summary))
        list.push_back({{"config", config_to_json(generated::to_config(r.knobs, traits))},
                        {"estimate", r.estimate.to_json()}});
      j["generated_preview"] = {{"device_model", device.name}, {"space", summary.to_json()}, {"candidates", list}};
    }
  }
  return j;
}

int run_gemm_tuning(const GemmArgs& args, const GemmOptions& options, const GlobalOptions& global) {
  const gemm::GemmSpec spec = resolve(args, options);
  const gemm::GemmProblem& problem = spec.problem;
  if (args.reference != "auto" && args.reference != "full" && args.reference != "sampled")
    throw CLI::ValidationError("--reference", "must be auto, full or sampled");
  if (args.max_candidates < 1) throw CLI::ValidationError("--max-candidates", "must be at least 1");
  if (args.heuristics < 1) throw CLI::ValidationError("--heuristics", "must be at least 1");
  if (args.generated_candidates < 0) throw CLI::ValidationError("--generated-candidates", "must not be negative");
  if (args.refine < 0) throw CLI::ValidationError("--refine", "must not be negative");
  if (args.workspace_mib < 0) throw CLI::ValidationError("--workspace-mb", "must not be negative");
  if (args.seed < 0) throw CLI::ValidationError("--seed", "must not be negative");
  measure::Policy policy;
  try {
    policy = gemm_policy(args);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("tune gemm", e.what());
  }

  gemm::GemmSetup setup;
  setup.problem = problem;
  setup.device = args.device;
  setup.seed = static_cast<std::uint64_t>(args.seed);
  setup.reference = *gemm::parse_reference_mode(args.reference);
  setup.families = spec.families;
  setup.cublaslt.heuristic_count = args.heuristics;
  setup.cublaslt.max_candidates = args.max_candidates;
  setup.cublaslt.cluster_variants = args.cluster_variants;
  setup.cublaslt.workspace_bytes = static_cast<std::size_t>(args.workspace_mib * 1024 * 1024);
  setup.generated_max_candidates = args.generated_candidates;
  setup.generated_refine = args.refine;
  setup.generated_pingpong = args.generated_pingpong;
  setup.generated_split_cluster = args.generated_split_cluster;
  setup.generated_split_tail = args.generated_split_tail;
  setup.generated_co_resident = args.generated_co_resident;
  setup.generated_evict_first = args.generated_evict_first;
  setup.generated_clusters = args.generated_clusters;
  setup.generated_swap_ab = args.generated_swap_ab;

  if (args.dry_run) {
    if (global.json) print_json(dry_run_json(spec, setup, policy, args));
    else std::printf("%s (%s)\nfamilies: %s\n", problem.name().c_str(), problem.to_json().dump().c_str(), args.families.c_str());
    return kExitOk;
  }

  tuner::GemmSessionOptions session;
  session.setup = setup;
  session.policy = policy;
  session.reference = args.reference;
  session.refine = args.refine;
  session.refine_window = args.refine_window;
  session.refine_wait = args.refine_wait;
  session.compile_wait_top = args.compile_wait_top;
  session.compile_grace = args.compile_grace;
  session.tail_seconds = args.tail_seconds;
  session.confirm = args.confirm;
  session.confirm_rounds = args.confirm_rounds;
  session.throttle_rest = args.throttle_rest;
  session.throttle_retries = args.throttle_retries;
  session.no_resume = args.no_resume;
  session.database = database_path(global);
  session.worker_executable = self_executable();
  session.quiet = global.json;
  session.progress = report::parse_progress_style(args.progress);
  if (global.json && args.progress == "auto") session.progress = report::ProgressStyle::None;
  std::signal(SIGINT, on_gemm_interrupt);
  std::signal(SIGTERM, on_gemm_interrupt);
  const tuner::GemmSessionResult result = tuner::run_gemm_session(session);
  if (global.json) print_json(report_json(result, problem, args));
  else print_report(result, problem, args);
  if (result.interrupted) return kExitInterrupted;
  return result.pick.pick ? kExitOk : kExitNoValidConfig;
}

}  // namespace

void add_gemm_commands(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* tune = app.get_subcommand("tune");
  // `tune SPEC` and `tune gemm ...`: the spec becomes optional, and is required again below
  // unless the gemm subcommand was given. tune's own callback (which installs the spec
  // handler) moves to "parse complete", so the final callback below can replace its handler.
  CLI::Option* spec = tune->get_option("spec");
  spec->required(false);
  tune->immediate_callback();

  auto args = std::make_shared<GemmArgs>();
  auto options = std::make_shared<GemmOptions>();
  CLI::App* cmd = tune->add_subcommand(
      "gemm", "Tune a GEMM without a spec file: D = act(alpha A B + beta C + bias), row-major, cuBLAS default as baseline");
  cmd->fallthrough();
  options->m = cmd->add_option("--m", args->m, "Rows of A and D");
  options->n = cmd->add_option("--n", args->n, "Columns of B and D");
  options->k = cmd->add_option("--k", args->k, "The reduction dimension");
  options->batch = cmd->add_option("--batch", args->batch, "Independent GEMMs, stored back to back (default 1)");
  options->dtype = cmd->add_option("--dtype", args->dtype, "f16, bf16, f32, tf32 or fp8 (e4m3; needs --layout nt) (default bf16)");
  options->layout = cmd->add_option("--layout", args->layout, "nn, nt, tn, tt: storage of A and B ('t': transposed; x @ w.T is nt)");
  options->out_dtype = cmd->add_option("--out-dtype", args->out_dtype, "Output dtype (default: the input's; bf16 for fp8)");
  options->alpha = cmd->add_option("--alpha", args->alpha, "Scale of A B (fp32)");
  options->beta = cmd->add_option("--beta", args->beta, "Scale of C (fp32); 0: C is not read");
  options->bias = cmd->add_flag("--bias", args->bias, "Add a bias vector of N elements (per output column)");
  options->relu = cmd->add_flag("--relu", args->relu, "Apply ReLU after the bias");
  options->gelu = cmd->add_flag("--gelu", args->gelu, "Apply GELU (tanh approximation) after the bias");
  options->relu->excludes(options->gelu);
  options->families = cmd->add_option(
      "--families", args->families,
      "Candidate families, comma-separated: generated (ktune's kernels), cublaslt (default: generated,cublaslt)");
  cmd->add_option("--spec", args->spec, "A gemm spec file (YAML, see families/README.md); flags override it")
      ->check(CLI::ExistingFile);
  cmd->add_option("--device", args->device, "CUDA device ordinal");
  cmd->add_option("--max-candidates", args->max_candidates, "Candidates measured, baseline included (default 32)");
  cmd->add_option("--generated-candidates", args->generated_candidates,
                  "Generated kernels compiled and measured, best model estimates first (default 20)");
  cmd->add_flag("--generated-pingpong", args->generated_pingpong,
               "Also consider pingpong-scheduled wgmma kernels (two warpgroups take turns on whole tiles, so "
               "one stores while the other multiplies); off by default: on the H100 it was the fastest on 1 of 38 "
               "suite shapes");
  cmd->add_flag("--generated-split-cluster", args->generated_split_cluster,
               "Also consider split-K kernels whose 2-8 slices sum inside a thread-block cluster through "
               "distributed shared memory (no workspace, no second kernel); off by default: on the H100 they "
               "never beat the global-memory reductions");
  cmd->add_flag("--generated-evict-first", args->generated_evict_first,
               "Generated kernels load an operand that one CTA reads once (a decode GEMM's weights) with the L2 "
               "evict-first policy (config l2_evict_first); off by default: on an H200 it saved 4-14% only after the dirty "
               "flush (the write-back of the flushed lines), nothing after --l2-flush clean");
  cmd->add_flag("--generated-split-tail", args->generated_split_tail,
               "Also consider persistent kernels that split only the tiles of their last, partial round into "
               "split-K slices (stream-K's aim, in whole slices); off by default: on nine suite shapes (H200) none "
               "beat the best whole-tile kernel");
  cmd->add_flag("--generated-co-resident", args->generated_co_resident,
               "Also consider wgmma kernels of small tiles built for two CTAs per SM (a shallower ring, fewer "
               "registers), so that one CTA's stores overlap the other's loads and MMAs; off by default: on 14 "
               "short-K, small and batched suite shapes (H200) they never beat the best kernel alone on its SM");
  cmd->add_flag("--generated-clusters,!--no-generated-clusters", args->generated_clusters,
               "Consider wgmma kernels in CTA pairs that share A by TMA multicast (default on; on the H100 they "
               "ran up to 1.36x faster where rows start off 32-byte sectors)");
  cmd->add_flag("--generated-swap-ab,!--no-generated-swap-ab", args->generated_swap_ab,
               "For M <= 64, also consider wgmma kernels that compute D^T = B^T A^T, so the skinny M runs along "
               "16-64 wgmma columns instead of 64-row tiles (default on)");
  cmd->add_option("--refine", args->refine,
                  "Generated kernels measured in a second round, one knob step from the two fastest (default 6; 0: none)");
  cmd->add_option("--refine-window", args->refine_window,
                  "Refine only when the fastest generated kernel is within this fraction of the fastest candidate "
                  "(default 0.25)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--refine-wait", args->refine_wait,
                  "Seconds the refinement round waits at most for its kernels' compiles; those not ready are left out "
                  "(default 0.1)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--compile-wait-top", args->compile_wait_top,
                  "Generated kernels among the model's top N whose compiles are always waited for (default 10)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--compile-grace", args->compile_grace,
                  "Seconds of waiting in all for the compiles of generated kernels below --compile-wait-top, after the "
                  "ready ones are measured; those not ready then are left out (default 1.0; e.g. 1e9: wait for all)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--tail-seconds", args->tail_seconds,
                  "Seconds of measuring for cuBLASLt's enumerated algorithms beyond its heuristic's answers, measured "
                  "last in score order, projected from the candidates measured before (default 0.3; -1: no limit)");
  cmd->add_option("--heuristics", args->heuristics, "cuBLASLt heuristic answers to include (default 8)");
  cmd->add_flag("--cublaslt-cluster-variants", args->cluster_variants,
                "Also enumerate the heuristic's answers with every other thread-block cluster shape (sm_90+)");
  cmd->add_option("--workspace-mb", args->workspace_mib, "cuBLASLt workspace limit in MiB (default 32)");
  cmd->add_option("--seed", args->seed, "Seed of the random inputs");
  cmd->add_option("--reference", args->reference, "auto, full or sampled fp64 reference (default auto)");
  cmd->add_option("--min-time", args->min_time, "Measured seconds per candidate before it may stop (default 0.01)");
  cmd->add_option("--max-time", args->max_time,
                  "Measured seconds per candidate at most, whatever the noise (default 0.1; 0: no cap)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-noise", args->max_noise, "Relative noise at which a measurement stops (default 0.005)");
  cmd->add_option("--max-samples", args->max_samples, "Samples per candidate at most (default 500)");
  cmd->add_option("--confirm", args->confirm,
                  "Screen every candidate briefly (3 ms, 2% noise), then measure this many finalists within 3% of the "
                  "fastest again at the full policy and rank by that (default 3; 0: every candidate at the full policy)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--confirm-rounds", args->confirm_rounds,
                  "Measure the finalists and the baseline beside them in this many interleaved rounds, each round "
                  "taking every one of them once at a share of the full policy, in an order that turns by one place "
                  "per round; each keeps its median round (default 3; 1: one after the other at the full policy, "
                  "the order then favours the first on a GPU that heats up)")
      ->check(CLI::Range(1, 9));
  cmd->add_option("--throttle-rest", args->throttle_rest,
                  "Seconds the GPU idles before a full measurement that ran at a lower SM clock (NVML, median of its "
                  "samples) than the session's others is taken again; doubled per retry; the candidates' rests 0.25 s "
                  "per session at most, the baseline's outside that (default 0.25; 0: never)")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--throttle-retries", args->throttle_retries,
                  "Times a throttled full measurement is taken again at most; the fastest attempt counts (default 1)")
      ->check(CLI::Range(0, 10));
  cmd->add_option("--candidate-timeout", args->candidate_timeout, "Seconds of measuring per candidate at most (default 5)");
  cmd->add_flag("--no-racing", args->no_racing, "Measure every candidate fully, even when clearly slower than the best");
  cmd->add_option("--racing-margin", args->racing_margin,
                  "Stop measuring a candidate once even its fastest of 3+ samples is this much slower than the best "
                  "median so far (default 0.05: L2-flushed GEMM samples spread by ~1%, so 5% slower is no contender)")
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--l2-flush", args->l2_flush,
                  "What the flush before every sample leaves in L2: dirty (default; the flush buffer written, as "
                  "nvbench and triton's do_bench leave it: the kernel also writes those lines back) or clean (then "
                  "read: the kernel pays for its own traffic only; on an H200 a 30 us decode GEMM ran 6-7 us faster)")
      ->check(CLI::IsMember({"dirty", "clean"}));
  cmd->add_flag("--no-resume", args->no_resume, "Measure candidates again even if the database has them");
  cmd->add_flag("--dry-run", args->dry_run, "Print the resolved problem and exit (no GPU needed)");
  cmd->add_option("--progress", args->progress, "auto (bar on a terminal, JSON lines otherwise), bar, json, none");
  cmd->add_option("--show", args->show, "Rows of the result table besides the baseline (default 12)");
  // CLI11 runs gemm's callback before tune's (immediate) one; tune's final callback runs last,
  // so that is where the gemm handler is installed.
  tune->final_callback([spec, cmd, &global, &handler, args, options] {
    if (cmd->parsed()) {
      handler = [&global, args, options]() -> int { return run_gemm_tuning(*args, *options, global); };
      return;
    }
    if (spec->count() == 0) throw CLI::RequiredError("spec (a spec file, or `tune gemm ...`)");
    // `tune gemm.yaml`: a gemm spec runs the gemm operation, like `tune gemm --spec gemm.yaml`.
    const std::string path = spec->as<std::string>();
    if (gemm::is_gemm_spec_file(path)) {
      args->spec = path;
      handler = [&global, args, options]() -> int { return run_gemm_tuning(*args, *options, global); };
    }
  });

  CLI::App* worker_cmd = app.add_subcommand("gemm-worker", "Internal: serve gemm candidate requests for `tune gemm`");
  worker_cmd->group("");  // hidden from --help
  worker_cmd->callback([&handler] {
    handler = []() -> int {
      gemm::GemmWorker gemm_worker;
      const int code = worker::serve_from_environment([&gemm_worker](const nlohmann::json& request) -> nlohmann::json {
        if (request.value("op", std::string()) == "ping") return {{"ok", true}, {"pid", ::getpid()}};
        try {
          return gemm_worker.handle(request);
        } catch (const device::ContextPoisoned& e) {
          // Sticky CUDA error: this process can never use the GPU again. The tuner records the
          // candidate and the next call starts a fresh worker.
          std::fprintf(stderr, "ktune gemm-worker: device context poisoned: %s\n", e.what());
          std::fflush(stderr);
          ::_exit(tuner::kContextPoisonedExitCode);
        }
      });
      // Told to exit, or the parent is gone: every answer is with the parent and compile-cache
      // entries are published by rename. Leaving without tearing down saves the parent's wait
      // (it reaps this process before it returns): destroying the background compiler waits
      // for NVRTC compiles still under way (speculative ones, seconds), then the context goes.
      std::fflush(nullptr);
      ::_exit(code);
    };
  });
}

}  // namespace ktune::cli
