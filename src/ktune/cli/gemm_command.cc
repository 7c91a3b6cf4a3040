// ktune tune gemm: tune a GEMM without a spec file. Every family's candidates (cuBLASLt's
// heuristic answers and enumerated algorithm configurations today) run in an isolated worker
// (`ktune gemm-worker`), each verified against an fp64 reference and measured; every result
// is recorded in the database. The pick is the fastest candidate that beats candidate 0
// (cuBLAS's default) beyond noise, else candidate 0 itself.

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <future>
#include <iostream>
#include <map>

#include "ktune/cli/common.h"
#include "ktune/tuner/result_stats.h"
#include "ktune/core/sha256.h"
#include "ktune/db/database.h"
#include "ktune/device/registry.h"
#include "ktune/families/gemm/gemm_pick.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/families/gemm/refinement_seeds.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/report/progress.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/worker/serve.h"
#include "ktune/worker/worker_process.h"

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
  bool generated_clusters = true;
  bool generated_swap_ab = true;
  int refine = 6;
  double refine_window = 0.10;
  double tail_seconds = 0.3;
  double refine_wait = 0.1;
  int compile_wait_top = 10;
  double compile_grace = 1.0;
  int heuristics = 8;
  double workspace_mib = 32;
  std::int64_t seed = 1;
  std::string reference = "auto";
  double min_time = 0.01;
  double max_time = 0.1;
  double max_noise = 0.005;
  int max_samples = 500;
  int confirm = 3;
  double candidate_timeout = 5;
  bool no_racing = false;
  double racing_margin = 0.05;
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
  measure::validate(p);
  return p;
}

// Two-stage measuring (--confirm N > 0): every candidate but the baseline is screened this
// briefly, then the finalists are measured again at the full policy (confirm_finalists below).
// Most candidates are no contender; the full policy spent 40 ms on each of ~50 at 8192^3.
// Five samples suffice to screen (the finalists are measured again), and 10 ms of measured time
// at most: a 1.4 ms GEMM at 8192^3, whose clocks wander with its power draw, spent 23 ms
// measuring per candidate reaching 2% noise; microsecond kernels still run for the 3 ms.
measure::Policy gemm_screening_policy(measure::Policy p) {
  p.min_seconds = std::min(p.min_seconds, 0.003);
  p.min_samples = std::min(p.min_samples, 5);
  p.max_seconds = p.max_seconds > 0 ? std::min(p.max_seconds, 0.01) : 0.01;
  p.max_noise = std::max(p.max_noise, 0.02);
  p.max_samples = std::min(p.max_samples, 200);
  return p;
}

std::string spread_text(const measure::Stats& s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "IQR %.1f%%", s.median > 0 ? 100.0 * (s.q3 - s.q1) / s.median : 0.0);
  return buffer;
}

std::string short_config(const Config& config) {
  std::string s;
  for (const char* key : {"algo", "tile", "stages", "splitk", "reduction", "swizzle", "custom", "cluster", "path",
                          "workgroup", "subgroup_m_count", "subgroup_n_count", "pipeline_stages",
                          "split_k", "persistent", "b_panel", "pingpong"}) {
    auto it = config.find(key);
    if (it == config.end()) continue;
    const std::string value = it->second.to_string();
    // Leave out the defaults so the table stays narrow.
    if ((std::string(key) == "splitk" && value == "1") || (std::string(key) == "reduction" && value == "none") ||
        (std::string(key) == "swizzle" && value == "0") || (std::string(key) == "custom" && value == "0") ||
        (std::string(key) == "cluster" && value == "auto") || (std::string(key) == "split_k" && value == "1") ||
        (std::string(key) == "persistent" && value == "false"))
      continue;
    if (!s.empty()) s += " ";
    s += std::string(key) + "=" + value;
  }
  return s;
}

struct Row {
  std::size_t index = 0;
  std::string family;
  std::string source;  // "heuristic#0", "enumerated"
  Config config;
  std::string config_key;
  db::ResultRecord result;
  std::optional<measure::Stats> stats;  // ok and measured
  bool resumed = false;
};

// The mean worker round trip of the rows measured in this session, the baseline left out (it is
// measured at the full policy); 0 before any.
double mean_call_seconds(const std::vector<Row>& rows) {
  double sum = 0;
  int n = 0;
  for (const Row& row : rows) {
    if (row.index == 0 || row.resumed || !row.result.phases.contains("worker_call")) continue;
    sum += row.result.phases.at("worker_call").get<double>();
    ++n;
  }
  return n ? sum / n : 0.0;
}

// Finalists: the fastest screened rows (not resumed, not the baseline) within this fraction of
// the fastest screened median, at most --confirm of them.
constexpr double kGemmFinalistWindow = 0.03;

std::vector<std::size_t> gemm_finalists(const std::vector<Row>& rows, std::size_t confirm) {
  std::vector<std::size_t> ok;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (!rows[i].resumed && rows[i].stats && rows[i].result.status == db::Status::Ok) ok.push_back(i);
  std::sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) { return rows[a].stats->median < rows[b].stats->median; });
  std::vector<std::size_t> out;
  for (std::size_t i : ok) {
    if (out.size() >= confirm || rows[i].stats->median > rows[ok.front()].stats->median * (1 + kGemmFinalistWindow)) break;
    out.push_back(i);
  }
  return out;
}

void fill_measurement(db::ResultRecord& r, const measure::Measurement& m, const gemm::GemmProblem& problem) {
  tuner::fill_result_stats(r, m);
  if (m.stats.median > 0) {
    r.gflops = problem.flops() / m.stats.median / 1e9;
    r.gbps = problem.bytes() / m.stats.median / 1e9;
  }
  if (m.discarded_samples > 0) r.resources["discarded_samples"] = m.discarded_samples;
  if (m.from_discarded) r.resources["from_discarded_samples"] = true;  // every sample throttled (or late)
}

// Turns a worker outcome into a result row (status, error, verification, measurement).
void fill_outcome(db::ResultRecord& r, const worker::WorkerProcess::Outcome& outcome, const gemm::GemmProblem& problem) {
  if (const auto* reply_json = std::get_if<nlohmann::json>(&outcome)) {
    tuner::EvaluationReply reply;
    try {
      if (reply_json->contains("error") && !reply_json->contains("status"))
        throw std::runtime_error(reply_json->at("error").get<std::string>());
      reply = tuner::evaluation_reply_from_json(*reply_json);
    } catch (const std::exception& e) {
      reply.status = tuner::EvaluationStatus::RuntimeError;
      reply.error = e.what();
    }
    r.verification = reply.verification;
    r.error = reply.error;
    const std::string status_name = reply_json->value("status", std::string());
    if (status_name == "compile_error") r.status = db::Status::CompileError;
    else if (status_name == "resource_limit") r.status = db::Status::ResourceLimit;
    else if (reply.status == tuner::EvaluationStatus::WrongResult) r.status = db::Status::WrongResult;
    else if (reply.status == tuner::EvaluationStatus::RuntimeError) r.status = db::Status::RuntimeError;
    else r.status = db::Status::Ok;
    if (reply.measurement) fill_measurement(r, *reply.measurement, problem);
    for (const char* key : {"workspace_bytes", "waves", "timing", "rebuilt_from_config", "compile", "kernel_resources", "launch"})
      if (reply_json->contains(key)) r.resources[key] = reply_json->at(key);
    if (reply_json->contains("phases") && reply_json->at("phases").is_object()) r.phases = reply_json->at("phases");
  } else if (const auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
    r.status = crashed->exit_code == tuner::kContextPoisonedExitCode ? db::Status::RuntimeError : db::Status::Crashed;
    r.error = crashed->description + (crashed->stderr_tail.empty() ? "" : "\n" + crashed->stderr_tail);
  } else {
    const auto& timed_out = std::get<worker::WorkerProcess::TimedOut>(outcome);
    r.status = db::Status::Timeout;
    r.error = "no answer within " + std::to_string(timed_out.seconds) + " s; the worker was killed" +
              (timed_out.stderr_tail.empty() ? "" : "\n" + timed_out.stderr_tail);
  }
}

// Per family, the row of its fastest correct measured candidate (the baseline counts for cublaslt).
std::map<std::string, std::size_t> fastest_per_family(const std::vector<Row>& rows) {
  std::map<std::string, std::size_t> best;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].stats || rows[i].result.status != db::Status::Ok) continue;
    auto it = best.find(rows[i].family);
    if (it == best.end() || rows[i].stats->median < rows[it->second].stats->median) best[rows[i].family] = i;
  }
  return best;
}

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

nlohmann::json stats_json(const measure::Stats& s) {
  return {{"median_s", s.median}, {"q1_s", s.q1}, {"q3_s", s.q3}, {"samples", s.count},
          {"iqr_relative", s.median > 0 ? (s.q3 - s.q1) / s.median : 0.0}};
}

int run_gemm_tuning(const GemmArgs& args, const GemmOptions& options, const GlobalOptions& global) {
  const auto wall_start = std::chrono::steady_clock::now();
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
  setup.cublaslt.workspace_bytes = static_cast<std::size_t>(args.workspace_mib * 1024 * 1024);
  setup.generated_max_candidates = args.generated_candidates;
  setup.generated_refine = args.refine;
  setup.generated_pingpong = args.generated_pingpong;
  setup.generated_clusters = args.generated_clusters;
  setup.generated_swap_ab = args.generated_swap_ab;

  if (args.dry_run) {
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
    if (global.json) print_json(j);
    else std::printf("%s (%s)\nfamilies: %s\n", problem.name().c_str(), problem.to_json().dump().c_str(), args.families.c_str());
    return kExitOk;
  }

  // 1. Candidates, from the worker (the heuristic and the algorithm list need the GPU). The
  // listing (the worker's start, its CUDA context, inputs, reference, cuBLASLt's list, the
  // generated kernels starting to compile) runs while this process checks the device and opens
  // the database. Declared before the future, the worker outlives the call.
  worker::WorkerProcess worker({self_executable(), {"gemm-worker"}, {}});
  std::future<worker::WorkerProcess::Outcome> listing_call =
      std::async(std::launch::async, [&worker, request = gemm::candidates_request(setup)] { return worker.call(request, 600); });

  std::unique_ptr<device::Backend> backend = device::make_backend("cuda");
  const device::Availability availability = backend->availability();
  if (!availability.available)
    throw tuner::TuneError("the cuda backend is not available on this machine: " + availability.reason);
  const std::vector<device::DeviceInfo> devices = backend->devices();
  if (args.device < 0 || static_cast<std::size_t>(args.device) >= devices.size())
    throw tuner::TuneError("no cuda device " + std::to_string(args.device) + " (found " + std::to_string(devices.size()) + ")");
  const device::DeviceInfo& info = devices[static_cast<std::size_t>(args.device)];

  db::Database database(database_path(global));
  database.mark_abandoned_sessions();
  db::DeviceRecord device_record{0, info.fingerprint, info.backend, info.name, info.properties};
  device_record.id = database.upsert_device(device_record);
  db::ProblemRecord problem_record{0, problem.hash(), problem.name(),
                                   {{"M", problem.m}, {"N", problem.n}, {"K", problem.k}, {"batch", problem.batch}},
                                   problem.to_json()};
  problem_record.id = database.upsert_problem(problem_record);

  const bool quiet = global.json;
  report::ProgressStyle style = report::parse_progress_style(args.progress);
  if (global.json && args.progress == "auto") style = report::ProgressStyle::None;
  std::signal(SIGINT, on_gemm_interrupt);
  std::signal(SIGTERM, on_gemm_interrupt);

  if (!quiet) std::fprintf(stderr, "%s on %s: preparing inputs, reference and candidates...\n", problem.name().c_str(), info.name.c_str());
  // Where the wall time goes, for the report (seconds since wall_start at each phase's end).
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };
  nlohmann::json phases = nlohmann::json::object();
  // setup_s: this process's own preparation; listing_s: how much longer the listing took.
  const double listing_waited = since_start();
  const worker::WorkerProcess::Outcome listed = listing_call.get();
  phases["setup_s"] = listing_waited;
  phases["listing_s"] = since_start() - listing_waited;
  nlohmann::json listing;
  if (const auto* reply = std::get_if<nlohmann::json>(&listed)) {
    if (reply->contains("error") && !reply->contains("candidates"))
      throw tuner::TuneError("the gemm worker could not list candidates: " + reply->at("error").get<std::string>());
    listing = *reply;
  } else if (const auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&listed)) {
    throw tuner::TuneError("the gemm worker died while listing candidates: " + crashed->description + "\n" + crashed->stderr_tail);
  } else {
    throw tuner::TuneError("the gemm worker did not list candidates within 600 s");
  }
  std::string unavailable;
  for (const auto& [family, family_info] : listing.at("families").items())
    if (!family_info.value("available", false))
      unavailable += "\n  " + family + ": " + family_info.value("reason", std::string("unavailable"));
  const nlohmann::json& listed_candidates = listing.at("candidates");
  if (listed_candidates.empty()) throw tuner::TuneError("no gemm family has a candidate for " + problem.name() + ":" + unavailable);
  if (!unavailable.empty() && !quiet) std::fprintf(stderr, "families without candidates:%s\n", unavailable.c_str());

  // One kernel record (and session) per family: results are per (device, kernel, problem).
  struct FamilyRecord {
    db::KernelRecord kernel;
    std::int64_t session = 0;
    std::map<std::string, db::ResultRecord> prior;
  };
  std::map<std::string, FamilyRecord> families;
  const nlohmann::json session_options = {{"label", "tune gemm"},
                                          {"problem", problem.to_json()},
                                          {"seed", setup.seed},
                                          {"reference", args.reference},
                                          {"policy", measure::policy_to_json(policy)},
                                          {"cublaslt", cublaslt::enumeration_options_to_json(setup.cublaslt)}};
  for (const auto& [family, family_info] : listing.at("families").items()) {
    if (!family_info.value("available", false)) continue;
    FamilyRecord f;
    const nlohmann::json library = family_info.value("library", nlohmann::json::object());
    const std::string version = library.value("version", std::string());
    // A new library version is a new kernel: its algorithms and their numbers change.
    f.kernel = {0, sha256_hex("ktune-gemm-family\n" + family + "\n" + version), family + " " + version, family,
                library.value("path", std::string())};
    f.kernel.id = database.upsert_kernel(f.kernel);
    if (!args.no_resume)
      for (auto& r : database.results_for(device_record.id, f.kernel.id, problem_record.id)) f.prior.emplace(r.config_key, r);
    f.session = database.begin_session(device_record.id, f.kernel.id, problem_record.id, "gemm-candidates", session_options);
    families.emplace(family, std::move(f));
  }
  auto finish_sessions = [&](std::string_view state) {
    for (auto& [name, f] : families) database.finish_session(f.session, state);
  };

  // 2. Evaluate every candidate: the baseline (candidate 0) first, always measured afresh.
  report::Progress progress(style, stderr);
  report::ProgressUpdate update;
  update.total = listed_candidates.size();
  std::vector<Row> rows;
  std::optional<measure::Stats> incumbent;
  bool first_call = true;
  const bool two_stage = args.confirm > 0;
  const measure::Policy screening = gemm_screening_policy(policy);
  // One worker call; the row is not recorded (evaluate records it).
  auto measure_once = [&](const nlohmann::json& candidate, const Row& row, bool verify, bool racing, const char* note,
                          std::optional<double> compile_deadline = std::nullopt) {
    gemm::EvaluateOptions eval;
    eval.compile_deadline = compile_deadline;
    // Screened: a verified first measurement of any candidate but the baseline (which is the
    // bar every pick must clear, so it is measured at the full policy).
    eval.policy = two_stage && verify && row.index != 0 ? screening : policy;
    // The baseline goes first and warms the GPU's clocks for warmup_seconds. After it, a
    // verified candidate has just run once (module load and first touch are behind it) and the
    // GPU is busy from one candidate to the next: one more warmup run is enough, and 10 ms of
    // warmup on each of ~50 candidates was a quarter of a warm session on small shapes.
    if (verify && row.index != 0) eval.policy.warmup_seconds = 0;
    eval.policy.racing = racing && policy.racing;
    if (eval.policy.racing) eval.incumbent = incumbent;
    eval.verify = verify;
    db::ResultRecord r;
    r.config_key = row.config_key;
    r.config = config_to_json(row.config);
    r.resources = {{"family", row.family}, {"source", row.source}, {"candidate", row.index}};
    if (note) r.resources["note"] = note;
    r.started_at_unix = now_unix();
    // The first call may still be computing nothing (the listing prepared everything), but a
    // worker restarted after a crash prepares inputs and reference again.
    const double timeout = policy.warmup_seconds + 1.5 * policy.timeout_seconds + (first_call ? 120.0 : 60.0);
    first_call = false;
    const worker::WorkerProcess::Outcome outcome = worker.call(gemm::evaluate_request(setup, candidate, eval), timeout);
    if (const auto* reply = std::get_if<nlohmann::json>(&outcome); reply && reply->value("not_ready", false)) {
      r.resources["not_ready"] = true;  // not evaluated: evaluate() records nothing
      return r;
    }
    fill_outcome(r, outcome, problem);
    r.finished_at_unix = now_unix();
    r.phases["worker_call"] = r.finished_at_unix - r.started_at_unix;  // the round trip, the worker's phases inside
    FamilyRecord& f = families.at(row.family);
    r.session_id = f.session;
    r.device_id = device_record.id;
    r.kernel_id = f.kernel.id;
    r.problem_id = problem_record.id;
    return r;
  };
  auto evaluate = [&](const nlohmann::json& candidate, const Row& row, bool verify, bool racing, const char* note,
                      std::optional<double> compile_deadline = std::nullopt) {
    db::ResultRecord r = measure_once(candidate, row, verify, racing, note, compile_deadline);
    if (!r.resources.value("not_ready", false)) r.id = database.insert_result(r);
    return r;
  };

  // Evaluates (or resumes) one listed candidate; false when a compile deadline left it out.
  auto run_candidate = [&](const nlohmann::json& entry, std::size_t i,
                           std::optional<double> compile_deadline = std::nullopt) -> bool {
    Row row;
    row.index = i;
    row.family = entry.at("family").get<std::string>();
    const nlohmann::json& c = entry.at("candidate");
    row.config = config_from_json(c.at("config"));
    row.config_key = config_key(row.config);
    const int rank = c.value("heuristic_rank", -1);
    row.source = rank >= 0 ? "heuristic#" + std::to_string(rank) : c.value("source", std::string("enumerated"));
    FamilyRecord& f = families.at(row.family);
    auto prior = f.prior.find(row.config_key);
    if (i > 0 && prior != f.prior.end()) {
      row.result = prior->second;
      row.resumed = true;
      ++update.resumed;
    } else {
      if (i == 0 && !quiet && style == report::ProgressStyle::None)
        std::fprintf(stderr, "measuring the baseline (cuBLAS's default)...\n");
      row.result = evaluate(entry, row, true, i != 0, i == 0 ? "baseline" : nullptr, compile_deadline);
      if (row.result.resources.value("not_ready", false)) return false;
    }
    row.stats = tuner::result_stats(row.result);
    if (row.stats && (!incumbent || row.stats->median < incumbent->median)) incumbent = row.stats;
    ++update.done;
    (row.result.status == db::Status::Ok ? update.ok : update.failed)++;
    update.last_config = short_config(row.config);
    update.last_status = std::string(db::to_string(row.result.status));
    update.last_seconds = row.result.median_s;
    update.best_seconds = incumbent ? std::optional<double>(incumbent->median) : std::nullopt;
    progress.update(update);
    rows.push_back(std::move(row));
    return true;
  };
  std::size_t refined = 0;
  const double evaluation_started = since_start();
  double refine_started = 0;
  // The order hides NVRTC behind the GPU: the worker compiles the generated kernels in the
  // background while the baseline and cuBLASLt's heuristic answers are measured; the refinement
  // round's neighbours compile while the rest of cuBLASLt's algorithms are measured.
  std::vector<std::size_t> heuristic_first, generated_listed, cublaslt_rest;
  for (std::size_t i = 0; i < listed_candidates.size(); ++i) {
    const nlohmann::json& entry = listed_candidates[i];
    if (i == 0 || (entry.at("family") == "cublaslt" && entry.at("candidate").value("heuristic_rank", -1) >= 0))
      heuristic_first.push_back(i);
    else if (entry.at("family") == "generated")
      generated_listed.push_back(i);
    else
      cublaslt_rest.push_back(i);
  }
  nlohmann::json refinement_listing;
  nlohmann::json refinement_skipped;
  std::size_t tail_measured = 0, tail_skipped = 0, refine_not_ready = 0;
  std::vector<std::string> compile_left_out;
  try {
    for (std::size_t i : heuristic_first) {
      if (tuner::interrupt_flag().load()) break;
      run_candidate(listed_candidates[i], i);
    }
    // Generated kernels whose compile is done go first, the rest after them in model order: the
    // GPU measures while NVRTC works. The model's top --compile-wait-top are always waited for;
    // below them, --compile-grace seconds of waiting in all, and a kernel still compiling then is
    // left out (its compile finishes in the background, into the cache for the next session).
    // At 8192x8192x28672 two 192x256 split-K kernels, ranked 18th and 19th, took 6 s of NVRTC
    // each, a third of the session, to run 2.5x slower than the best.
    std::vector<std::pair<std::size_t, std::size_t>> compiling;  // (model rank, candidate)
    for (std::size_t rank = 0; rank < generated_listed.size() && !tuner::interrupt_flag().load(); ++rank)
      if (!run_candidate(listed_candidates[generated_listed[rank]], generated_listed[rank], 0.0))
        compiling.emplace_back(rank, generated_listed[rank]);
    double grace_left = args.compile_grace;
    for (const auto& [rank, i] : compiling) {
      if (tuner::interrupt_flag().load()) break;
      if (rank < static_cast<std::size_t>(args.compile_wait_top)) {
        run_candidate(listed_candidates[i], i);
        continue;
      }
      const double before = since_start();
      const bool done = run_candidate(listed_candidates[i], i, std::max(0.0, grace_left));
      grace_left -= done ? rows.back().result.resources.value("compile", nlohmann::json::object()).value("waited_seconds", 0.0)
                         : since_start() - before;
      if (!done) {
        compile_left_out.push_back(short_config(config_from_json(listed_candidates[i].at("candidate").at("config"))));
        if (update.total) --*update.total;
      }
    }
    // 2b. Refinement: the model ranks, the measurements correct it. Generated settings one knob
    // step from the two fastest measured generated kernels (see refinement_seeds.h).
    if (args.refine > 0 && families.count("generated") && !tuner::interrupt_flag().load()) {
      std::vector<const Row*> generated_rows;
      std::vector<gemm::SeedCandidate> timed;
      std::vector<Config> seen;
      for (const Row& row : rows)
        if (row.family == "generated") {
          seen.push_back(row.config);
          if (row.stats && row.result.status == db::Status::Ok) {
            generated_rows.push_back(&row);
            timed.push_back({row.index, row.stats->median});
          }
        }
      std::vector<Config> seeds;
      for (std::size_t at : gemm::choose_refinement_seeds(timed, 2)) seeds.push_back(generated_rows[at]->config);
      const double fastest_generated =
          timed.empty() ? 0.0 : std::min_element(timed.begin(), timed.end(), [](const auto& x, const auto& y) {
                                  return x.median < y.median;
                                })->median;
      if (!seeds.empty() && incumbent && !gemm::refinement_can_win(fastest_generated, incumbent->median, args.refine_window)) {
        refinement_skipped = {{"reason", "the fastest generated kernel is slower than the fastest candidate by more "
                                         "than --refine-window"},
                              {"fastest_generated_s", fastest_generated},
                              {"incumbent_s", incumbent->median},
                              {"window", args.refine_window}};
        seeds.clear();
      }
      if (!seeds.empty()) {
        const worker::WorkerProcess::Outcome more =
            worker.call(gemm::refine_request(setup, seeds, seen, static_cast<std::size_t>(args.refine)), 600);
        if (const auto* reply = std::get_if<nlohmann::json>(&more); reply && reply->contains("candidates")) {
          refinement_listing = reply->at("candidates");
          update.total = update.total.value_or(0) + refinement_listing.size();
        } else if (!quiet) {
          std::fprintf(stderr, "refinement skipped: the worker did not list neighbours\n");
        }
      }
    }
    // 2c. cuBLASLt's enumerated algorithms, best score first, while the projected time stays within
    // --tail-seconds: on the H100 suite none of them was ever the pick (80 sessions: the heuristic's
    // answers and the baseline won), and at 8192^3 they were half the session's measuring.
    const double tail_started = since_start();
    for (std::size_t i : cublaslt_rest) {
      if (tuner::interrupt_flag().load()) break;
      const nlohmann::json& entry = listed_candidates[i];
      const bool resumable =
          families.at("cublaslt").prior.count(config_key(config_from_json(entry.at("candidate").at("config")))) > 0;
      const double projected = since_start() - tail_started + mean_call_seconds(rows);
      if (!resumable && args.tail_seconds >= 0 && projected > args.tail_seconds) {
        ++tail_skipped;
        if (update.total) --*update.total;
        continue;
      }
      run_candidate(entry, i);
      ++tail_measured;
    }
    refine_started = since_start();
    phases["evaluation_s"] = refine_started - evaluation_started;
    // The refinement's kernels compile in the background (most ahead of time, see
    // GemmWorker::speculate_refinement); the round waits --refine-wait seconds at most for those
    // still compiling and leaves out the rest (a cold cache's cost, not a result).
    double wait_left = args.refine_wait;
    for (const nlohmann::json& entry : refinement_listing) {
      if (tuner::interrupt_flag().load()) break;
      const double before = since_start();
      const bool done = run_candidate(entry, listed_candidates.size() + refined, std::max(0.0, wait_left));
      if (done) {
        ++refined;
        wait_left -= rows.back().result.resources.value("compile", nlohmann::json::object()).value("waited_seconds", 0.0);
      } else {
        ++refine_not_ready;
        if (update.total) --*update.total;
        wait_left -= since_start() - before;
      }
    }
    progress.finish(update);
  } catch (...) {
    finish_sessions(db::kSessionFailed);
    throw;
  }

  if (refine_started > 0) phases["refinement_s"] = since_start() - refine_started;
  // 2c. Confirmation: the finalists measured again at the full policy; their rows (and the
  // database's) take that measurement, the screening's is kept in resources.screening.
  const double confirm_started = since_start();
  nlohmann::json confirmed = nlohmann::json::array();
  if (two_stage && !tuner::interrupt_flag().load()) {
    for (std::size_t i : gemm_finalists(rows, static_cast<std::size_t>(args.confirm))) {
      if (tuner::interrupt_flag().load()) break;
      Row& row = rows[i];
      const nlohmann::json& entry = row.index < listed_candidates.size() ? listed_candidates[row.index]
                                                                          : refinement_listing[row.index - listed_candidates.size()];
      const db::ResultRecord again = measure_once(entry, row, false, false, nullptr);
      const auto stats = tuner::result_stats(again);
      if (again.status != db::Status::Ok || !stats) continue;  // the screening stands
      const double screened = row.stats->median;
      row.result.resources["screening"] = {{"median_s", screened}, {"samples", row.result.samples},
                                           {"stop_reason", row.result.stop_reason}};
      row.result.median_s = again.median_s;
      row.result.mean_s = again.mean_s;
      row.result.min_s = again.min_s;
      row.result.max_s = again.max_s;
      row.result.stdev_s = again.stdev_s;
      row.result.q1_s = again.q1_s;
      row.result.q3_s = again.q3_s;
      row.result.samples = again.samples;
      row.result.stop_reason = again.stop_reason;
      row.result.gflops = again.gflops;
      row.result.gbps = again.gbps;
      row.result.raced = false;
      database.update_measurement(row.result);
      row.stats = stats;
      confirmed.push_back({{"candidate", row.index}, {"config", short_config(row.config)},
                           {"screening_median_s", screened}, {"median_s", stats->median}, {"samples", again.samples}});
    }
  }
  if (two_stage) phases["confirm_s"] = since_start() - confirm_started;
  const double baseline_again_started = since_start();
  // 3. The baseline again, after the others: drift shows, and the candidates must beat the
  // faster of its two measurements.
  std::optional<measure::Stats> baseline_after;
  if (!rows.empty() && rows.front().stats && rows.size() > 1 && !tuner::interrupt_flag().load()) {
    Row again = rows.front();
    baseline_after = tuner::result_stats(evaluate(listed_candidates[0], again, false, false, "baseline, measured again after the others"));
  }
  std::vector<gemm::MeasuredCandidate> measured;
  for (const Row& row : rows) measured.push_back({"#" + std::to_string(row.index) + " (" + short_config(row.config) + ")", row.stats});
  std::optional<gemm::BaselineRuns> baseline_runs;
  if (!rows.empty() && rows.front().stats) {
    baseline_runs = gemm::combine_baseline_runs(*rows.front().stats, baseline_after);
    measured.front().stats = baseline_runs->best;
  }
  const gemm::GemmPick pick = gemm::choose_pick(measured, 0);
  const bool interrupted = tuner::interrupt_flag().load();
  // The pick gets its own row under the kernel "gemm pick": `ktune best` and the runtime API
  // then hand back what the baseline rule chose, not merely the fastest median of any family.
  std::optional<std::int64_t> pick_result_id;
  if (pick.pick && !interrupted) {
    const Row& p = rows[*pick.pick];
    db::KernelRecord pick_kernel{0, sha256_hex("ktune-gemm-pick\n"), std::string(gemm::kGemmPickKernel), "gemm-pick", ""};
    pick_kernel.id = database.upsert_kernel(pick_kernel);
    nlohmann::json pick_options = session_options;
    pick_options["label"] = "tune gemm: the pick";
    const std::int64_t pick_session =
        database.begin_session(device_record.id, pick_kernel.id, problem_record.id, "gemm-pick", pick_options);
    db::ResultRecord r = p.result;
    r.id = 0;
    r.session_id = pick_session;
    r.kernel_id = pick_kernel.id;
    r.raced = false;
    r.resources["pick"] = pick.to_json();
    r.resources["picked_from"] = {{"family", p.family}, {"result_id", p.result.id}, {"candidate", p.index}};
    if (baseline_runs) r.resources["baseline"] = stats_json(baseline_runs->best);
    pick_result_id = database.insert_result(r);
    database.finish_session(pick_session, db::kSessionFinished);
  }
  finish_sessions(interrupted ? db::kSessionInterrupted : db::kSessionFinished);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  phases["baseline_again_and_pick_s"] = wall - baseline_again_started;
  if (listing.contains("reference")) phases["reference_s"] = listing.at("reference").value("seconds", 0.0);
  if (listing.contains("steps")) phases["listing_steps"] = listing.at("steps");
  // The generated kernels compiled in the background: what they cost and how much of it the
  // evaluations still waited for.
  int kernels = 0, cached = 0, compiled = 0, failed = 0;
  double nvrtc_seconds = 0, waited_seconds = 0;
  for (const Row& row : rows) {
    if (row.family != "generated" || row.resumed) continue;
    ++kernels;
    const nlohmann::json c = row.result.resources.value("compile", nlohmann::json::object());
    if (row.result.status == db::Status::CompileError) ++failed;
    else if (!c.empty()) ++(c.value("cached", false) ? cached : compiled);
    nvrtc_seconds += c.value("seconds", 0.0);
    waited_seconds += c.value("waited_seconds", 0.0);
  }
  const nlohmann::json generated_compile = {{"kernels", kernels},          {"cached", cached},
                                            {"compiled", compiled},        {"failed", failed},
                                            {"nvrtc_seconds", nvrtc_seconds}, {"waited_seconds", waited_seconds},
                                            {"left_out", compile_left_out.size()}};
  phases["generated_compile_wait_s"] = waited_seconds;
  if (const auto& lt = listing.at("families").value("cublaslt", nlohmann::json::object()); lt.contains("enumeration"))
    phases["cublaslt_enumeration_s"] = lt.at("enumeration").value("seconds", 0.0);

  // 4. Report.
  auto tflops = [&](const measure::Stats& s) { return problem.flops() / s.median / 1e12; };
  if (global.json) {
    nlohmann::json out = {{"problem", problem.to_json()},
                          {"name", problem.name()},
                          {"device", {{"name", info.name}, {"ordinal", args.device}, {"fingerprint", info.fingerprint}}},
                          {"families", listing.at("families")},
                          {"reference", listing.value("reference", nlohmann::json::object())},
                          {"candidates", nlohmann::json::array()},
                          {"pick", pick.to_json()},
                          {"interrupted", interrupted},
                          {"refined", refined},
                          {"refinement_skipped", refinement_skipped},
                          {"refinement_not_ready", refine_not_ready},
                          {"compile_left_out", compile_left_out},
                          {"cublaslt_tail", {{"measured", tail_measured}, {"skipped", tail_skipped},
                                             {"budget_s", args.tail_seconds}}},
                          {"phases", phases},
                          {"confirmed", confirmed},
                          {"generated_compile", generated_compile},
                          {"wall_seconds", wall},
                          {"database", database.path().string()}};
    for (const Row& row : rows) {
      nlohmann::json c = result_to_json(row.result);
      c["index"] = row.index;
      c["family"] = row.family;
      c["source"] = row.source;
      c["resumed"] = row.resumed;
      if (row.stats && !rows.empty() && rows.front().stats)
        c["speedup_vs_baseline"] = baseline_runs->best.median / row.stats->median;
      out["candidates"].push_back(std::move(c));
    }
    if (baseline_runs) {
      out["baseline"] = stats_json(baseline_runs->best);
      out["baseline"]["drift"] = baseline_runs->drift;
    }
    if (pick.pick) {
      const Row& p = rows[*pick.pick];
      out["pick"]["candidate"] = p.index;
      out["pick"]["config"] = config_to_json(p.config);
      out["pick"]["family"] = p.family;
      // A kept baseline is judged by the faster of its two runs, as the rule compared it.
      const std::optional<measure::Stats> pick_stats =
          pick.baseline_kept && baseline_runs ? std::optional<measure::Stats>(baseline_runs->best) : p.stats;
      out["pick"]["stats"] = pick_stats ? stats_json(*pick_stats) : nlohmann::json(nullptr);
      if (pick_stats) out["pick"]["tflops"] = tflops(*pick_stats);
      if (pick_result_id) out["pick"]["result_id"] = *pick_result_id;
    }
    for (const auto& [name, f] : families) out["sessions"][name] = f.session;
    for (const auto& [family, index] : fastest_per_family(rows)) {
      const Row& r = rows[index];
      nlohmann::json best = {{"candidate", r.index}, {"config", config_to_json(r.config)}, {"stats", stats_json(*r.stats)},
                             {"tflops", tflops(*r.stats)}};
      if (baseline_runs) best["speedup_vs_baseline"] = baseline_runs->best.median / r.stats->median;
      out["family_best"][family] = best;
    }
    print_json(out);
  } else {
    const nlohmann::json& lt = listing.at("families").value("cublaslt", nlohmann::json::object());
    std::printf("%s on %s (device %d)", problem.name().c_str(), info.name.c_str(), args.device);
    if (lt.contains("library")) std::printf(", cuBLASLt %s", lt.at("library").value("version", std::string()).c_str());
    std::printf("\n");
    if (lt.contains("enumeration")) {
      const nlohmann::json& e = lt.at("enumeration");
      std::printf("candidates: %zu (heuristic %d answers; %d algorithm ids, %zu configs checked, %zu valid%s)\n",
                  listed_candidates.size(), e.value("heuristic_returned", 0), e.value("algo_ids", 0),
                  e.value("checked", std::size_t{0}), e.value("valid", std::size_t{0}),
                  e.value("truncated", false) ? ", check budget reached" : "");
    }
    if (listing.contains("reference"))
      std::printf("reference: %s, %zu elements checked per candidate, %.2f s\n",
                  listing.at("reference").value("mode", std::string()).c_str(),
                  listing.at("reference").value("elements", std::size_t{0}),
                  listing.at("reference").value("seconds", 0.0));
    // The baseline, then the fastest others.
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
      const Row& row = rows[i];
      std::string median = "-", spread = "-", rate = "-", versus = "-";
      if (row.stats) {
        median = format_seconds(row.stats->median);
        spread = spread_text(*row.stats);
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.1f", tflops(*row.stats));
        rate = buffer;
        if (baseline_runs) {
          std::snprintf(buffer, sizeof buffer, "%.3fx", baseline_runs->best.median / row.stats->median);
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
    if (update.resumed) std::printf("(* from an earlier session; --no-resume measures again)\n");
    for (const auto& [family, index] : fastest_per_family(rows)) {
      const Row& r = rows[index];
      std::printf("fastest %s: #%zu %s, %.1f TFLOP/s", family.c_str(), r.index, format_seconds(r.stats->median).c_str(),
                  tflops(*r.stats));
      if (baseline_runs) std::printf(", %.3fx cuBLAS's default", baseline_runs->best.median / r.stats->median);
      std::printf("\n");
    }
    if (baseline_runs && baseline_after) {
      std::printf("baseline measured before and after the others: drift %.1f%%%s\n", 100.0 * baseline_runs->drift,
                  baseline_runs->drift > 0.03 ? " (more than 3%: the machine is noisy, treat small speedups with care)" : "");
    }
    if (!pick.pick) {
      std::printf("no candidate ran correctly\n");
    } else {
      const Row& p = rows[*pick.pick];
      if (pick.baseline_kept) {
        std::printf("pick: #0, cuBLAS's default (%s, %s): %s\n", format_seconds(p.stats->median).c_str(),
                    spread_text(baseline_runs->best).c_str(), pick.reason.c_str());
      } else if (baseline_runs) {
        std::printf("pick: #%zu %s (%s)\n  %.3fx faster than cuBLAS's default: %s (%s) vs %s (%s), %.1f TFLOP/s\n",
                    p.index, p.source.c_str(), short_config(p.config).c_str(), pick.speedup,
                    format_seconds(p.stats->median).c_str(), spread_text(*p.stats).c_str(),
                    format_seconds(baseline_runs->best.median).c_str(), spread_text(baseline_runs->best).c_str(),
                    tflops(*p.stats));
      } else {
        std::printf("pick: #%zu %s (%s): %s\n", p.index, p.source.c_str(), short_config(p.config).c_str(), pick.reason.c_str());
      }
    }
    if (!confirmed.empty())
      std::printf("screened every candidate (3 ms, 2%% noise); %zu finalist(s) within 3%% measured again at the full "
                  "policy\n",
                  confirmed.size());
    if (!compile_left_out.empty())
      std::printf("generated: %zu kernel(s) below the model's top %d left out, their compiles not done within "
                  "--compile-grace %.2f s\n",
                  compile_left_out.size(), args.compile_wait_top, args.compile_grace);
    if (refine_not_ready)
      std::printf("refinement: %zu kernel(s) left out, their compiles not done within --refine-wait %.2f s\n",
                  refine_not_ready, args.refine_wait);
    if (tail_skipped)
      std::printf("cuBLASLt: %zu enumerated algorithm(s) not measured (--tail-seconds %.2f; %zu measured)\n",
                  tail_skipped, args.tail_seconds, tail_measured);
    if (!refinement_skipped.is_null())
      std::printf("refinement skipped: the fastest generated kernel (%s) trails the fastest candidate (%s) by more than "
                  "%.0f%%\n",
                  format_seconds(refinement_skipped.at("fastest_generated_s").get<double>()).c_str(),
                  format_seconds(refinement_skipped.at("incumbent_s").get<double>()).c_str(), 100.0 * args.refine_window);
    std::printf("%zu candidates (%zu from refinement) in %.1f s; results in %s", rows.size(), refined, wall,
                database.path().c_str());
    for (const auto& [name, f] : families) std::printf(" (session %lld)", static_cast<long long>(f.session));
    std::printf("\n");
    std::printf("time: start %.2f s, listing %.2f s (reference %.2f, cuBLASLt enumeration %.2f), evaluation %.2f s, "
                "refinement %.2f s, baseline again %.2f s; generated kernels: %d compiled, %d from the cache, "
                "%.2f s of NVRTC in the background, %.2f s waited for\n",
                phases.value("setup_s", 0.0), phases.value("listing_s", 0.0), phases.value("reference_s", 0.0),
                phases.value("cublaslt_enumeration_s", 0.0), phases.value("evaluation_s", 0.0),
                phases.value("refinement_s", 0.0), phases.value("baseline_again_and_pick_s", 0.0),
                compiled, cached, nvrtc_seconds, waited_seconds);
  }
  if (interrupted) return kExitInterrupted;
  return pick.pick ? kExitOk : kExitNoValidConfig;
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
                  "(default 0.10)")
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
  cmd->add_option("--candidate-timeout", args->candidate_timeout, "Seconds of measuring per candidate at most (default 5)");
  cmd->add_flag("--no-racing", args->no_racing, "Measure every candidate fully, even when clearly slower than the best");
  cmd->add_option("--racing-margin", args->racing_margin,
                  "Stop measuring a candidate once even its fastest of 3+ samples is this much slower than the best "
                  "median so far (default 0.05: L2-flushed GEMM samples spread by ~1%, so 5% slower is no contender)")
      ->check(CLI::Range(0.0, 10.0));
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
