#include "ktune/tuner/gemm_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>

#include "ktune/core/sha256.h"
#include "ktune/db/database.h"
#include "ktune/device/registry.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/gemm/refinement_seeds.h"
#include "ktune/tuner/confirmation_rounds.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/tuner/recorded_flush.h"
#include "ktune/tuner/result_stats.h"
#include "ktune/tuner/tuner.h"
#include "ktune/worker/worker_process.h"

namespace ktune::tuner {
namespace {

using Row = GemmRow;

// Finalists lie within this fraction of the fastest screened median (gemm_finalists).
constexpr double kGemmFinalistWindow = 0.03;
// Rounds of confirming families' fastest rows after the finalists (GemmSession::confirm).
constexpr int kFamilyConfirmRounds = 3;

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


void fill_measurement(db::ResultRecord& r, const measure::Measurement& m, const gemm::GemmProblem& problem) {
  fill_result_stats(r, m);
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
    const EvaluationReply reply = evaluation_reply_or_error(*reply_json);
    r.verification = reply.verification;
    r.error = reply.error;
    const std::string status_name = reply_json->value("status", std::string());
    if (status_name == "compile_error") r.status = db::Status::CompileError;
    else if (status_name == "resource_limit") r.status = db::Status::ResourceLimit;
    else if (reply.status == EvaluationStatus::WrongResult) r.status = db::Status::WrongResult;
    else if (reply.status == EvaluationStatus::RuntimeError) r.status = db::Status::RuntimeError;
    else r.status = db::Status::Ok;
    if (reply.measurement) fill_measurement(r, *reply.measurement, problem);
    for (const char* key :
         {"workspace_bytes", "waves", "timing", "rebuilt_from_config", "compile", "kernel_resources", "launch", "sm_clock_mhz"})
      if (reply_json->contains(key)) r.resources[key] = reply_json->at(key);
    if (reply_json->contains("phases") && reply_json->at("phases").is_object()) r.phases = reply_json->at("phases");
  } else if (const auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
    r.status = crashed->exit_code == kContextPoisonedExitCode ? db::Status::RuntimeError : db::Status::Crashed;
    r.error = crashed->description + (crashed->stderr_tail.empty() ? "" : "\n" + crashed->stderr_tail);
  } else {
    const auto& timed_out = std::get<worker::WorkerProcess::TimedOut>(outcome);
    r.status = db::Status::Timeout;
    r.error = "no answer within " + std::to_string(timed_out.seconds) + " s; the worker was killed" +
              (timed_out.stderr_tail.empty() ? "" : "\n" + timed_out.stderr_tail);
  }
}

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Two-stage measuring (--confirm N > 0): every candidate but the baseline is screened this
// briefly, then the finalists are measured again at the full policy (GemmSession::confirm).
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

// One kernel record (and session) per family: results are per (device, kernel, problem).
struct FamilyRecord {
  db::KernelRecord kernel;
  std::int64_t session = 0;
  std::map<std::string, db::ResultRecord> prior;
};

class GemmSession {
 public:
  explicit GemmSession(const GemmSessionOptions& o)
      : o_(o),
        problem_(o.setup.problem),
        worker_({o.worker_executable, {"gemm-worker"}, {}}),
        screening_(gemm_screening_policy(o.policy)),
        progress_(o.progress, stderr) {}

  GemmSessionResult run();

 private:
  double since_start() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  }
  void open_device_and_database();
  void take_listing(std::future<worker::WorkerProcess::Outcome>& listing_call);
  void open_family_sessions();
  db::ResultRecord measure_once(const nlohmann::json& candidate, const Row& row, bool verify, bool racing,
                                const char* note, std::optional<double> compile_deadline = std::nullopt,
                                const measure::Policy* policy = nullptr);
  struct FullMeasurement {
    db::ResultRecord result;
    double at_s = 0;  // session seconds at its middle
  };
  FullMeasurement measure_full(const nlohmann::json& candidate, const Row& row, const char* note, bool baseline,
                               bool retry_throttled = true);
  TimedStats timed(const FullMeasurement& full, const measure::Stats& stats) const;
  void note_clock(const db::ResultRecord& r);
  bool run_candidate(const nlohmann::json& entry, std::size_t i, std::optional<double> compile_deadline = std::nullopt);
  void evaluate_generated(const std::vector<std::size_t>& generated_listed);
  void list_refinement();
  void measure_cublaslt_tail(const std::vector<std::size_t>& cublaslt_rest);
  void measure_refinement();
  void evaluate_all();
  void confirm();
  void confirm_row(std::size_t i);
  void apply_confirmation(std::size_t i, const FullMeasurement& full);
  void record_baseline_beside(FullMeasurement full);
  std::vector<std::vector<FullMeasurement>> measure_in_rounds(const std::vector<std::size_t>& contenders);
  void confirm_in_rounds(const std::vector<std::size_t>& contenders);
  static std::optional<FullMeasurement> standing_round(std::vector<FullMeasurement>& rounds);
  void baseline_again_and_pick();
  void record_pick();
  void summarize_compiles();
  const nlohmann::json& entry_of(const Row& row) const {
    return candidate_entry(r_.listing.at("candidates"), refinement_listing_, row);
  }

  const GemmSessionOptions& o_;
  const gemm::GemmProblem& problem_;
  const std::chrono::steady_clock::time_point wall_start_ = std::chrono::steady_clock::now();
  // Declared before anything that calls it, the worker outlives every call.
  worker::WorkerProcess worker_;
  const measure::Policy screening_;
  std::unique_ptr<db::Database> database_;
  db::DeviceRecord device_record_;
  db::ProblemRecord problem_record_;
  nlohmann::json session_options_;
  std::map<std::string, FamilyRecord> families_;
  report::Progress progress_;
  report::ProgressUpdate update_;
  std::optional<measure::Stats> incumbent_;
  bool first_call_ = true;
  nlohmann::json refinement_listing_ = nlohmann::json::array();
  double refine_started_ = 0;
  std::optional<measure::Stats> baseline_beside_;  // just before the finalists' confirmation
  std::optional<measure::Stats> baseline_after_;
  std::optional<double> clock_reference_;  // the highest median SM clock of a full measurement
  double rested_s_ = 0;                    // the candidates' idle seconds so far (measure_full)
  double baseline_rested_s_ = 0;           // the baseline's
  GemmSessionResult r_;
};

void GemmSession::open_device_and_database() {
  std::unique_ptr<device::Backend> backend = device::make_backend("cuda");
  const device::Availability availability = backend->availability();
  if (!availability.available)
    throw TuneError("the cuda backend is not available on this machine: " + availability.reason);
  const std::vector<device::DeviceInfo> devices = backend->devices();
  const int ordinal = o_.setup.device;
  if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= devices.size())
    throw TuneError("no cuda device " + std::to_string(ordinal) + " (found " + std::to_string(devices.size()) + ")");
  r_.device = devices[static_cast<std::size_t>(ordinal)];
  const device::DeviceInfo& info = r_.device;

  database_ = std::make_unique<db::Database>(o_.database);
  database_->mark_abandoned_sessions();
  r_.database = database_->path();
  device_record_ = {0, info.fingerprint, info.backend, info.name, info.properties};
  device_record_.id = database_->upsert_device(device_record_);
  problem_record_ = {0, problem_.hash(), problem_.name(),
                     {{"M", problem_.m}, {"N", problem_.n}, {"K", problem_.k}, {"batch", problem_.batch}},
                     problem_.to_json()};
  problem_record_.id = database_->upsert_problem(problem_record_);
}

void GemmSession::take_listing(std::future<worker::WorkerProcess::Outcome>& listing_call) {
  // setup_s: this process's own preparation; listing_s: how much longer the listing took.
  const double listing_waited = since_start();
  const worker::WorkerProcess::Outcome listed = listing_call.get();
  r_.phases["setup_s"] = listing_waited;
  r_.phases["listing_s"] = since_start() - listing_waited;
  if (const auto* reply = std::get_if<nlohmann::json>(&listed)) {
    if (reply->contains("error") && !reply->contains("candidates"))
      throw TuneError("the gemm worker could not list candidates: " + reply->at("error").get<std::string>());
    r_.listing = *reply;
  } else if (const auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&listed)) {
    throw TuneError("the gemm worker died while listing candidates: " + crashed->description + "\n" + crashed->stderr_tail);
  } else {
    throw TuneError("the gemm worker did not list candidates within 600 s");
  }
  std::string unavailable;
  for (const auto& [family, family_info] : r_.listing.at("families").items())
    if (!family_info.value("available", false))
      unavailable += "\n  " + family + ": " + family_info.value("reason", std::string("unavailable"));
  if (r_.listing.at("candidates").empty())
    throw TuneError("no gemm family has a candidate for " + problem_.name() + ":" + unavailable);
  if (!unavailable.empty() && !o_.quiet) std::fprintf(stderr, "families without candidates:%s\n", unavailable.c_str());
}

void GemmSession::open_family_sessions() {
  session_options_ = {{"label", "tune gemm"},
                      {"problem", problem_.to_json()},
                      {"seed", o_.setup.seed},
                      {"reference", o_.reference},
                      {"policy", measure::policy_to_json(o_.policy)},
                      {"confirm_rounds", o_.confirm_rounds},
                      {"cublaslt", cublaslt::enumeration_options_to_json(o_.setup.cublaslt)}};
  for (const auto& [family, family_info] : r_.listing.at("families").items()) {
    if (!family_info.value("available", false)) continue;
    FamilyRecord f;
    const nlohmann::json library = family_info.value("library", nlohmann::json::object());
    const std::string version = library.value("version", std::string());
    // A new library version is a new kernel: its algorithms and their numbers change.
    f.kernel = {0, sha256_hex("ktune-gemm-family\n" + family + "\n" + version), family + " " + version, family,
                library.value("path", std::string())};
    f.kernel.id = database_->upsert_kernel(f.kernel);
    // A result measured after the other flush is a measurement of something else: not resumed.
    RecordedFlush flushes(*database_);
    if (!o_.no_resume)
      for (auto& r : database_->results_for(device_record_.id, f.kernel.id, problem_record_.id))
        if (flushes.of(r) == o_.policy.l2_flush) f.prior.emplace(r.config_key, r);
    f.session = database_->begin_session(device_record_.id, f.kernel.id, problem_record_.id, "gemm-candidates", session_options_);
    r_.sessions[family] = f.session;
    families_.emplace(family, std::move(f));
  }
}

// One worker call; the row is not recorded (run_candidate records it).
db::ResultRecord GemmSession::measure_once(const nlohmann::json& candidate, const Row& row, bool verify, bool racing,
                                           const char* note, std::optional<double> compile_deadline,
                                           const measure::Policy* policy) {
  const bool two_stage = o_.confirm > 0;
  gemm::EvaluateOptions eval;
  eval.compile_deadline = compile_deadline;
  // Screened: a verified first measurement of any candidate but the baseline (which is the
  // bar every pick must clear, so it is measured at the full policy).
  eval.policy = policy ? *policy : two_stage && verify && row.index != 0 ? screening_ : o_.policy;
  // The baseline goes first and warms the GPU's clocks for warmup_seconds. After it, a
  // verified candidate has just run once (module load and first touch are behind it) and the
  // GPU is busy from one candidate to the next: one more warmup run is enough, and 10 ms of
  // warmup on each of ~50 candidates was a quarter of a warm session on small shapes.
  if (verify && row.index != 0) eval.policy.warmup_seconds = 0;
  eval.policy.racing = racing && o_.policy.racing;
  if (eval.policy.racing) eval.incumbent = incumbent_;
  eval.verify = verify;
  db::ResultRecord r;
  r.config_key = row.config_key;
  r.config = config_to_json(row.config);
  r.resources = {{"family", row.family}, {"source", row.source}, {"candidate", row.index}};
  if (note) r.resources["note"] = note;
  r.started_at_unix = now_unix();
  // The first call may still be computing nothing (the listing prepared everything), but a
  // worker restarted after a crash prepares inputs and reference again.
  const double timeout = o_.policy.warmup_seconds + 1.5 * o_.policy.timeout_seconds + (first_call_ ? 120.0 : 60.0);
  first_call_ = false;
  const worker::WorkerProcess::Outcome outcome = worker_.call(gemm::evaluate_request(o_.setup, candidate, eval), timeout);
  if (const auto* reply = std::get_if<nlohmann::json>(&outcome); reply && reply->value("not_ready", false)) {
    r.resources["not_ready"] = true;  // not evaluated: nothing is recorded
    return r;
  }
  fill_outcome(r, outcome, problem_);
  r.finished_at_unix = now_unix();
  r.phases["worker_call"] = r.finished_at_unix - r.started_at_unix;  // the round trip, the worker's phases inside
  const FamilyRecord& f = families_.at(row.family);
  r.session_id = f.session;
  r.device_id = device_record_.id;
  r.kernel_id = f.kernel.id;
  r.problem_id = problem_record_.id;
  return r;
}

// The clock a full measurement ran at raises the session's reference (measured_throttled).
void GemmSession::note_clock(const db::ResultRecord& r) {
  if (r.status != db::Status::Ok) return;
  if (const auto clock = median_sm_clock(r)) clock_reference_ = std::max(clock_reference_.value_or(0.0), *clock);
}

// One measurement at the full policy, unverified (the candidate was verified when screened). If
// it ran throttled, the GPU idles and it is measured again; the faster attempt counts, the other
// is kept in its resources.throttled_attempts. Not the one at the higher clock: NVML's reading
// after a sample is not the clock a multi-millisecond kernel ran at throughout (8192x8192x28672
// on an H200: a run read at 1980 MHz took 5236 us, one read at 1815 MHz 4755; session 27).
GemmSession::FullMeasurement GemmSession::measure_full(const nlohmann::json& candidate, const Row& row,
                                                       const char* note, bool baseline, bool retry_throttled) {
  double before = since_start();
  FullMeasurement best{measure_once(candidate, row, false, false, note), 0};
  best.at_s = (before + since_start()) / 2;
  nlohmann::json attempts = nlohmann::json::array();
  double rest = o_.throttle_rest;
  const int retries = retry_throttled ? o_.throttle_retries : 0;
  for (int retry = 0; retry < retries && !interrupt_flag().load(); ++retry, rest *= 2) {
    if (best.result.status != db::Status::Ok ||
        !measured_throttled(median_sm_clock(best.result), clock_reference_, o_.throttle_tolerance))
      break;
    const double idle = baseline ? rest : std::min(rest, o_.throttle_rest_budget - rested_s_);
    if (idle <= 0) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(idle));
    (baseline ? baseline_rested_s_ : rested_s_) += idle;
    before = since_start();
    FullMeasurement again{measure_once(candidate, row, false, false, note), 0};
    again.at_s = (before + since_start()) / 2;
    const bool faster = again.result.status == db::Status::Ok && again.result.median_s && best.result.median_s &&
                        *again.result.median_s < *best.result.median_s;
    FullMeasurement& dropped = faster ? best : again;
    attempts.push_back(nlohmann::json{{"median_s", dropped.result.median_s.value_or(0.0)},
                                      {"sm_clock_mhz", median_sm_clock(dropped.result).value_or(0.0)},
                                      {"rest_s_after", idle}});
    if (faster) best = std::move(again);
  }
  if (!attempts.empty()) best.result.resources["throttled_attempts"] = std::move(attempts);
  note_clock(best.result);
  r_.phases["throttle_rest_s"] = rested_s_ + baseline_rested_s_;
  return best;
}

TimedStats GemmSession::timed(const FullMeasurement& full, const measure::Stats& stats) const {
  return {full.at_s, stats, median_sm_clock(full.result), full.result.resources.value("throttled_attempts", nlohmann::json())};
}

// Evaluates (or resumes) one listed candidate; false when a compile deadline left it out.
bool GemmSession::run_candidate(const nlohmann::json& entry, std::size_t i, std::optional<double> compile_deadline) {
  Row row;
  row.index = i;
  row.family = entry.at("family").get<std::string>();
  const nlohmann::json& c = entry.at("candidate");
  row.config = config_from_json(c.at("config"));
  row.config_key = config_key(row.config);
  const int rank = c.value("heuristic_rank", -1);
  row.source = rank >= 0 ? "heuristic#" + std::to_string(rank) : c.value("source", std::string("enumerated"));
  FamilyRecord& f = families_.at(row.family);
  auto prior = f.prior.find(row.config_key);
  if (i > 0 && prior != f.prior.end()) {
    row.result = prior->second;
    row.resumed = true;
    ++update_.resumed;
    ++r_.resumed;
  } else {
    if (i == 0 && !o_.quiet && o_.progress == report::ProgressStyle::None)
      std::fprintf(stderr, "measuring the baseline (cuBLAS's default)...\n");
    const double before = since_start();
    row.result = measure_once(entry, row, true, i != 0, i == 0 ? "baseline" : nullptr, compile_deadline);
    if (row.result.resources.value("not_ready", false)) return false;
    row.measured_at_s = (before + since_start()) / 2;
    row.result.id = database_->insert_result(row.result);
  }
  row.stats = result_stats(row.result);
  if (i == 0 && row.stats && row.measured_at_s)
    r_.baseline_timeline.push_back({*row.measured_at_s, *row.stats, median_sm_clock(row.result), nullptr});
  if (i == 0 && !row.resumed) note_clock(row.result);
  if (row.stats && (!incumbent_ || row.stats->median < incumbent_->median)) incumbent_ = row.stats;
  ++update_.done;
  (row.result.status == db::Status::Ok ? update_.ok : update_.failed)++;
  update_.last_config = short_config(row.config);
  update_.last_status = std::string(db::to_string(row.result.status));
  update_.last_seconds = row.result.median_s;
  update_.best_seconds = incumbent_ ? std::optional<double>(incumbent_->median) : std::nullopt;
  progress_.update(update_);
  r_.rows.push_back(std::move(row));
  return true;
}

// Generated kernels whose compile is done go first, the rest after them in model order: the GPU
// measures while NVRTC works. The model's top compile_wait_top are always waited for; below
// them, compile_grace seconds of waiting in all, and a kernel still compiling then is left out
// (its compile finishes in the background, into the cache for the next session). At
// 8192x8192x28672 two 192x256 split-K kernels, ranked 18th and 19th, took 6 s of NVRTC each, a
// third of the session, to run 2.5x slower than the best.
void GemmSession::evaluate_generated(const std::vector<std::size_t>& generated_listed) {
  const nlohmann::json& listed = r_.listing.at("candidates");
  std::vector<std::pair<std::size_t, std::size_t>> compiling;  // (model rank, candidate)
  for (std::size_t rank = 0; rank < generated_listed.size() && !interrupt_flag().load(); ++rank)
    if (!run_candidate(listed[generated_listed[rank]], generated_listed[rank], 0.0))
      compiling.emplace_back(rank, generated_listed[rank]);
  double grace_left = o_.compile_grace;
  for (const auto& [rank, i] : compiling) {
    if (interrupt_flag().load()) break;
    if (rank < static_cast<std::size_t>(o_.compile_wait_top)) {
      run_candidate(listed[i], i);
      continue;
    }
    const double before = since_start();
    const bool done = run_candidate(listed[i], i, std::max(0.0, grace_left));
    grace_left -= done ? r_.rows.back().result.resources.value("compile", nlohmann::json::object()).value("waited_seconds", 0.0)
                       : since_start() - before;
    if (!done) {
      r_.compile_left_out.push_back(short_config(config_from_json(listed[i].at("candidate").at("config"))));
      if (update_.total) --*update_.total;
    }
  }
}

// Refinement: the model ranks, the measurements correct it. Generated settings one knob step
// from the two fastest measured generated kernels (see refinement_seeds.h), listed now so that
// they compile while cuBLASLt's tail is measured.
void GemmSession::list_refinement() {
  if (o_.refine <= 0 || !families_.count("generated") || interrupt_flag().load()) return;
  std::vector<const Row*> generated_rows;
  std::vector<gemm::SeedCandidate> timed;
  std::vector<Config> seen;
  for (const Row& row : r_.rows)
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
  if (!seeds.empty() && incumbent_ && !gemm::refinement_can_win(fastest_generated, incumbent_->median, o_.refine_window)) {
    r_.refinement_skipped = {{"reason", "the fastest generated kernel is slower than the fastest candidate by more "
                                        "than --refine-window"},
                             {"fastest_generated_s", fastest_generated},
                             {"incumbent_s", incumbent_->median},
                             {"window", o_.refine_window}};
    seeds.clear();
  }
  if (seeds.empty()) return;
  const worker::WorkerProcess::Outcome more =
      worker_.call(gemm::refine_request(o_.setup, seeds, seen, static_cast<std::size_t>(o_.refine)), 600);
  if (const auto* reply = std::get_if<nlohmann::json>(&more); reply && reply->contains("candidates")) {
    refinement_listing_ = reply->at("candidates");
    update_.total = update_.total.value_or(0) + refinement_listing_.size();
  } else if (!o_.quiet) {
    std::fprintf(stderr, "refinement skipped: the worker did not list neighbours\n");
  }
}

// cuBLASLt's enumerated algorithms, best score first, while the projected time stays within
// tail_seconds: on the H100 suite none of them was ever the pick (80 sessions: the heuristic's
// answers and the baseline won), and at 8192^3 they were half the session's measuring.
void GemmSession::measure_cublaslt_tail(const std::vector<std::size_t>& cublaslt_rest) {
  const nlohmann::json& listed = r_.listing.at("candidates");
  const double tail_started = since_start();
  for (std::size_t i : cublaslt_rest) {
    if (interrupt_flag().load()) break;
    const nlohmann::json& entry = listed[i];
    const bool resumable =
        families_.at("cublaslt").prior.count(config_key(config_from_json(entry.at("candidate").at("config")))) > 0;
    const double projected = since_start() - tail_started + mean_call_seconds(r_.rows);
    if (!resumable && o_.tail_seconds >= 0 && projected > o_.tail_seconds) {
      ++r_.tail_skipped;
      if (update_.total) --*update_.total;
      continue;
    }
    run_candidate(entry, i);
    ++r_.tail_measured;
  }
}

// The refinement's kernels compile in the background (most ahead of time, see
// GemmWorker::speculate_refinement); the round waits refine_wait seconds at most for those
// still compiling and leaves out the rest (a cold cache's cost, not a result).
void GemmSession::measure_refinement() {
  const std::size_t listed = r_.listing.at("candidates").size();
  double wait_left = o_.refine_wait;
  for (std::size_t at = 0; at < refinement_listing_.size(); ++at) {
    if (interrupt_flag().load()) break;
    const nlohmann::json& entry = refinement_listing_[at];
    const double before = since_start();
    // Numbered by its place in the refinement's list, not by how many were measured before it:
    // after a neighbour left out (its compile not ready), that count named the left-out entry,
    // and the confirmation then timed that kernel for this row (sessions 24-46: 18 of 770
    // refinement confirmations at 1.3-2.5x their screening, none of 2559 model-listed ones).
    const bool done = run_candidate(entry, listed + at, std::max(0.0, wait_left));
    if (done) {
      ++r_.refined;
      wait_left -= r_.rows.back().result.resources.value("compile", nlohmann::json::object()).value("waited_seconds", 0.0);
    } else {
      ++r_.refine_not_ready;
      if (update_.total) --*update_.total;
      wait_left -= since_start() - before;
    }
  }
}

// Every candidate, the baseline (candidate 0) first, always measured afresh, in an order that
// hides NVRTC behind the GPU: the worker compiles the generated kernels in the background while
// the baseline and cuBLASLt's heuristic answers are measured; the refinement round's
// neighbours compile while the rest of cuBLASLt's algorithms are measured.
void GemmSession::evaluate_all() {
  const nlohmann::json& listed = r_.listing.at("candidates");
  update_.total = listed.size();
  std::vector<std::size_t> heuristic_first, generated_listed, cublaslt_rest;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const nlohmann::json& entry = listed[i];
    if (i == 0 || (entry.at("family") == "cublaslt" && entry.at("candidate").value("heuristic_rank", -1) >= 0))
      heuristic_first.push_back(i);
    else if (entry.at("family") == "generated")
      generated_listed.push_back(i);
    else
      cublaslt_rest.push_back(i);
  }
  const double evaluation_started = since_start();
  for (std::size_t i : heuristic_first) {
    if (interrupt_flag().load()) break;
    run_candidate(listed[i], i);
  }
  evaluate_generated(generated_listed);
  list_refinement();
  measure_cublaslt_tail(cublaslt_rest);
  refine_started_ = since_start();
  r_.phases["evaluation_s"] = refine_started_ - evaluation_started;
  measure_refinement();
  progress_.finish(update_);
  r_.phases["refinement_s"] = since_start() - refine_started_;
}

// One row measured again at the full policy; its row and the database's take that measurement
// (the screening's is kept in resources.screening). A failed measurement leaves the screening.
void GemmSession::confirm_row(std::size_t i) {
  apply_confirmation(i, measure_full(entry_of(r_.rows[i]), r_.rows[i], nullptr, false));
}

void GemmSession::apply_confirmation(std::size_t i, const FullMeasurement& full) {
  Row& row = r_.rows[i];
  const db::ResultRecord& again = full.result;
  const auto stats = result_stats(again);
  if (again.status != db::Status::Ok || !stats) return;  // the screening stands
  row.measured_at_s = full.at_s;
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
  for (const char* key : {"sm_clock_mhz", "throttled_attempts", "confirmation_rounds"}) {
    if (again.resources.contains(key)) row.result.resources[key] = again.resources.at(key);
    else row.result.resources.erase(key);
  }
  database_->update_measurement(row.result);
  row.stats = stats;
  row.confirmed = true;
  nlohmann::json& entry = r_.confirmed.emplace_back(nlohmann::json{{"candidate", row.index},
                                                                   {"config", short_config(row.config)},
                                                                   {"screening_median_s", screened},
                                                                   {"median_s", stats->median},
                                                                   {"samples", again.samples}});
  if (const auto clock = median_sm_clock(again)) entry["sm_clock_mhz"] = *clock;
  for (const char* key : {"throttled_attempts", "confirmation_rounds"})
    if (again.resources.contains(key)) entry[key] = again.resources.at(key);
}

// The baseline's run just before the finalists (or among them, in rounds) is recorded, and the
// finalists are judged against it and the run after them.
void GemmSession::record_baseline_beside(FullMeasurement full) {
  db::ResultRecord& r = full.result;
  if (r.status != db::Status::Ok || !result_stats(r)) return;
  r.id = database_->insert_result(r);
  baseline_beside_ = result_stats(r);
  r_.baseline_timeline.push_back(timed(full, *baseline_beside_));
}

// Every contender (rows of r_.rows; row 0 is the baseline) measured once per round, in
// confirmation_round_order; per contender its measurements in round order. No throttle retries:
// a rest would cool the GPU for whoever comes next, and the median round drops a throttled one.
std::vector<std::vector<GemmSession::FullMeasurement>> GemmSession::measure_in_rounds(
    const std::vector<std::size_t>& contenders) {
  const int rounds = std::max(o_.confirm_rounds, 1);
  std::vector<std::vector<FullMeasurement>> out(contenders.size());
  bool first = true;
  for (int round = 0; round < rounds; ++round)
    for (std::size_t j : confirmation_round_order(contenders.size(), round)) {
      if (interrupt_flag().load()) return out;
      const Row& row = r_.rows[contenders[j]];
      const measure::Policy policy = confirmation_round_policy(o_.policy, rounds, first);
      first = false;
      const char* note = row.index == 0 ? "baseline, measured in rounds beside the finalists" : nullptr;
      const double before = since_start();
      db::ResultRecord r = measure_once(entry_of(row), row, false, false, note, std::nullopt, &policy);
      note_clock(r);
      out[j].push_back({std::move(r), (before + since_start()) / 2});
    }
  return out;
}

// The round that stands for a contender (median_round), with every round's median, clock and
// time in its resources.confirmation_rounds; none if no round measured.
std::optional<GemmSession::FullMeasurement> GemmSession::standing_round(std::vector<FullMeasurement>& rounds) {
  std::vector<std::optional<double>> medians;
  nlohmann::json listed = nlohmann::json::array();
  for (const FullMeasurement& m : rounds) {
    const std::optional<measure::Stats> s = m.result.status == db::Status::Ok ? result_stats(m.result) : std::nullopt;
    medians.push_back(s ? std::optional<double>(s->median) : std::nullopt);
    nlohmann::json round = {{"at_s", m.at_s}, {"samples", m.result.samples}, {"status", db::to_string(m.result.status)}};
    if (s) round["median_s"] = s->median;
    if (const auto clock = median_sm_clock(m.result)) round["sm_clock_mhz"] = *clock;
    listed.push_back(std::move(round));
  }
  const std::optional<std::size_t> k = median_round(medians);
  if (!k) return std::nullopt;
  FullMeasurement m = std::move(rounds[*k]);
  m.result.resources["confirmation_rounds"] = std::move(listed);
  return m;
}

// Interleaved confirmation (confirmation_rounds.h): the baseline, where it is a contender, and
// the rows measured in rounds; each takes its median round.
void GemmSession::confirm_in_rounds(const std::vector<std::size_t>& contenders) {
  std::vector<std::vector<FullMeasurement>> measured = measure_in_rounds(contenders);
  for (std::size_t j = 0; j < contenders.size(); ++j) {
    std::optional<FullMeasurement> m = standing_round(measured[j]);
    if (!m) continue;
    if (contenders[j] == 0) record_baseline_beside(std::move(*m));
    else apply_confirmation(contenders[j], *m);
  }
}

// Confirmation: the finalists measured again at the full policy; their rows (and the
// database's) take that measurement, the screening's is kept in resources.screening. The
// baseline is measured again beside them: the finalists are judged against it in the state the
// GPU is in by now (baseline_again_and_pick), not against its first run on a GPU that tuning had
// not yet heated. Big GEMMs run into the power limit: l70b_down_prefill (8192x8192x28672 bf16)
// on an H100 confirmed its finalists 10-15% slower than it had screened them, while the
// baseline's first run was the fastest of all (session 23). With --confirm-rounds N > 1 (the
// default, 3) the baseline and the finalists are measured in N interleaved rounds; with 1, the
// baseline just before the finalists, each at the full policy, one after the other.
void GemmSession::confirm() {
  if (o_.confirm <= 0) return;
  const double confirm_started = since_start();
  const std::vector<std::size_t> finalists = gemm_finalists(r_.rows, static_cast<std::size_t>(o_.confirm));
  const bool with_baseline = !finalists.empty() && !r_.rows.empty() && r_.rows.front().stats;
  std::set<std::size_t> tried(finalists.begin(), finalists.end());
  if (o_.confirm_rounds > 1) {
    // Each family's fastest screened row joins them: measured in a later phase, a family's best
    // would meet a GPU that the rounds had heated, and the baseline only after it.
    std::vector<std::size_t> contenders;
    if (with_baseline) contenders.push_back(0);
    contenders.insert(contenders.end(), finalists.begin(), finalists.end());
    if (with_baseline)
      for (std::size_t i : unconfirmed_family_bests(r_.rows, tried)) {
        contenders.push_back(i);
        tried.insert(i);
      }
    confirm_in_rounds(contenders);
  } else {
    if (with_baseline && !interrupt_flag().load())
      record_baseline_beside(measure_full(entry_of(r_.rows.front()), r_.rows.front(),
                                          "baseline, measured again before the finalists", true));
    for (std::size_t i : finalists) {
      if (interrupt_flag().load()) break;
      confirm_row(i);
    }
  }
  // Then each family's fastest row, until it is a full measurement (a few rounds: a confirmed
  // row may measure slower than the next one's screening), so that every family's best in the
  // report (family_best) is measured as the baseline is. A family's best by a few screening
  // samples is the luckiest of many draws, and big kernels screen before the power limit bites:
  // on an H200 the generated best of 660x3072x11008 screened 75.2 us in 3 samples and ran
  // 82.4 us in do_bench, where the confirmed cuBLASLt rows agreed with do_bench (session 25).
  for (int round = 0; round < kFamilyConfirmRounds && !interrupt_flag().load(); ++round) {
    const std::vector<std::size_t> more = unconfirmed_family_bests(r_.rows, tried);
    if (more.empty()) break;
    tried.insert(more.begin(), more.end());
    if (o_.confirm_rounds > 1) {
      confirm_in_rounds(more);
    } else {
      for (std::size_t i : more) confirm_row(i);
    }
  }
  r_.phases["confirm_s"] = since_start() - confirm_started;
}

// The baseline again, after the others: drift shows, and the candidates must beat the faster of
// its two measurements (with finalists confirmed: the one before them and this one). Then the
// pick by the baseline rule.
void GemmSession::baseline_again_and_pick() {
  std::vector<Row>& rows = r_.rows;
  if (!rows.empty() && rows.front().stats && rows.size() > 1 && !interrupt_flag().load()) {
    Row again = rows.front();
    // After interleaved rounds the contenders were measured without rests, on a GPU as warm as
    // the rounds left it; a rest before this run would judge them against a cooler baseline
    // (4096x12288x4096 f16 on an H200: 595.1 us in the rounds, 533.3 after a 0.25 s rest;
    // session 36). So no retry here then.
    const bool rounds = o_.confirm_rounds > 1 && baseline_beside_.has_value();
    FullMeasurement full = measure_full(r_.listing.at("candidates")[0], again,
                                        "baseline, measured again after the others", true, !rounds);
    db::ResultRecord& r = full.result;
    r.id = database_->insert_result(r);
    baseline_after_ = result_stats(r);
    if (baseline_after_) r_.baseline_timeline.push_back(timed(full, *baseline_after_));
  }
  r_.baseline_measured_again = baseline_after_.has_value();
  // After a confirmation only full measurements compete: a row left at its screening may look
  // faster than the confirmed finalists only because they were measured long enough to reach
  // the power limit (8192x8192x28672 bf16 on an H200: finalists screened 4757-4823 us and
  // confirmed 5332-5472, and a 4829 us screening would have been the pick; session 25).
  const bool confirmed_any = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.confirmed; });
  std::vector<gemm::MeasuredCandidate> measured;
  for (const Row& row : rows)
    measured.push_back({"#" + std::to_string(row.index) + " (" + short_config(row.config) + ")",
                        !confirmed_any || full_measurement(row) ? row.stats : std::nullopt, median_sm_clock(row.result)});
  if (!rows.empty() && rows.front().stats) {
    r_.baseline_first = rows.front().stats;
    r_.baseline_beside_finalists = baseline_beside_.has_value();
    r_.baseline_runs =
        gemm::combine_baseline_runs(baseline_beside_ ? *baseline_beside_ : *rows.front().stats, baseline_after_);
    measured.front().stats = r_.baseline_runs->best;
    // The clock a candidate measured at a faster one is judged at (choose_pick).
    const bool in_rounds = o_.confirm_rounds > 1 && baseline_beside_.has_value();
    measured.front().sm_clock_mhz = baseline_judging_clock(r_.baseline_timeline, r_.baseline_runs->best, in_rounds);
  }
  r_.pick = gemm::choose_pick(measured, 0, {}, o_.throttle_tolerance);
  r_.interrupted = interrupt_flag().load();
}

// The pick gets its own row under the kernel "gemm pick": `ktune best` and the runtime API then
// hand back what the baseline rule chose, not merely the fastest median of any family.
void GemmSession::record_pick() {
  if (!r_.pick.pick || r_.interrupted) return;
  const Row& p = r_.rows[*r_.pick.pick];
  db::KernelRecord pick_kernel{0, sha256_hex("ktune-gemm-pick\n"), std::string(gemm::kGemmPickKernel), "gemm-pick", ""};
  pick_kernel.id = database_->upsert_kernel(pick_kernel);
  nlohmann::json pick_options = session_options_;
  pick_options["label"] = "tune gemm: the pick";
  const std::int64_t pick_session =
      database_->begin_session(device_record_.id, pick_kernel.id, problem_record_.id, "gemm-pick", pick_options);
  db::ResultRecord r = p.result;
  r.id = 0;
  r.session_id = pick_session;
  r.kernel_id = pick_kernel.id;
  r.raced = false;
  r.resources["pick"] = r_.pick.to_json();
  r.resources["picked_from"] = {{"family", p.family}, {"result_id", p.result.id}, {"candidate", p.index}};
  if (r_.baseline_runs) r.resources["baseline"] = stats_json(r_.baseline_runs->best);
  r_.pick_result_id = database_->insert_result(r);
  database_->finish_session(pick_session, db::kSessionFinished);
}

// The generated kernels compiled in the background: what they cost and how much of it the
// evaluations still waited for.
void GemmSession::summarize_compiles() {
  int kernels = 0, cached = 0, compiled = 0, failed = 0;
  double nvrtc_seconds = 0, waited_seconds = 0;
  for (const Row& row : r_.rows) {
    if (row.family != "generated" || row.resumed) continue;
    ++kernels;
    const nlohmann::json c = row.result.resources.value("compile", nlohmann::json::object());
    if (row.result.status == db::Status::CompileError) ++failed;
    else if (!c.empty()) ++(c.value("cached", false) ? cached : compiled);
    nvrtc_seconds += c.value("seconds", 0.0);
    waited_seconds += c.value("waited_seconds", 0.0);
  }
  r_.generated_compile = {{"kernels", kernels},          {"cached", cached},
                          {"compiled", compiled},        {"failed", failed},
                          {"nvrtc_seconds", nvrtc_seconds}, {"waited_seconds", waited_seconds},
                          {"left_out", r_.compile_left_out.size()}};
  r_.phases["generated_compile_wait_s"] = waited_seconds;
  if (r_.listing.contains("reference")) r_.phases["reference_s"] = r_.listing.at("reference").value("seconds", 0.0);
  if (r_.listing.contains("steps")) r_.phases["listing_steps"] = r_.listing.at("steps");
  if (const auto& lt = r_.listing.at("families").value("cublaslt", nlohmann::json::object()); lt.contains("enumeration"))
    r_.phases["cublaslt_enumeration_s"] = lt.at("enumeration").value("seconds", 0.0);
}

GemmSessionResult GemmSession::run() {
  // 1. Candidates, from the worker (the heuristic and the algorithm list need the GPU). The
  // listing (the worker's start, its CUDA context, inputs, reference, cuBLASLt's list, the
  // generated kernels starting to compile) runs while this process checks the device and opens
  // the database.
  std::future<worker::WorkerProcess::Outcome> listing_call = std::async(
      std::launch::async, [this, request = gemm::candidates_request(o_.setup)] { return worker_.call(request, 600); });
  try {
    open_device_and_database();
  } catch (...) {
    listing_call.wait();
    throw;
  }
  if (!o_.quiet)
    std::fprintf(stderr, "%s on %s: preparing inputs, reference and candidates...\n", problem_.name().c_str(),
                 r_.device.name.c_str());
  take_listing(listing_call);
  open_family_sessions();
  auto finish_sessions = [&](std::string_view state) {
    for (auto& [name, f] : families_) database_->finish_session(f.session, state);
  };
  // 2. Every candidate, then the finalists again; 3. the baseline again and the pick.
  try {
    evaluate_all();
    confirm();
    const double baseline_again_started = since_start();
    baseline_again_and_pick();
    record_pick();
    finish_sessions(r_.interrupted ? db::kSessionInterrupted : db::kSessionFinished);
    r_.wall_seconds = since_start();
    r_.phases["baseline_again_and_pick_s"] = r_.wall_seconds - baseline_again_started;
  } catch (...) {
    finish_sessions(db::kSessionFailed);
    throw;
  }
  summarize_compiles();
  return std::move(r_);
}

}  // namespace

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

nlohmann::json stats_json(const measure::Stats& s) {
  return {{"median_s", s.median}, {"q1_s", s.q1}, {"q3_s", s.q3}, {"samples", s.count},
          {"iqr_relative", s.median > 0 ? (s.q3 - s.q1) / s.median : 0.0}};
}

std::optional<double> median_sm_clock(const db::ResultRecord& r) {
  const auto it = r.resources.find("sm_clock_mhz");
  if (it == r.resources.end() || !it->is_object() || !it->contains("median") || !it->at("median").is_number())
    return std::nullopt;
  return it->at("median").get<double>();
}

bool measured_throttled(std::optional<double> clock_mhz, std::optional<double> reference_mhz, double tolerance) {
  return clock_mhz && reference_mhz && *clock_mhz > 0 && *clock_mhz < (1.0 - tolerance) * *reference_mhz;
}

bool full_measurement(const GemmRow& row) { return row.index == 0 || row.confirmed || row.resumed; }

const nlohmann::json& candidate_entry(const nlohmann::json& listed, const nlohmann::json& refinement,
                                      const GemmRow& row) {
  const std::size_t at = row.index;
  if (at >= listed.size() + refinement.size())
    throw std::logic_error("candidate #" + std::to_string(at) + " is in neither the listing (" +
                           std::to_string(listed.size()) + ") nor the refinement (" +
                           std::to_string(refinement.size()) + ")");
  const nlohmann::json& entry = at < listed.size() ? listed[at] : refinement[at - listed.size()];
  const std::string key = config_key(config_from_json(entry.at("candidate").at("config")));
  if (key != row.config_key)
    throw std::logic_error("candidate #" + std::to_string(at) + " was measured as " + row.config_key +
                           " but its entry holds " + key);
  return entry;
}

std::map<std::string, std::size_t> fastest_per_family(const std::vector<GemmRow>& rows) {
  std::map<std::string, std::size_t> best, best_full;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].stats || rows[i].result.status != db::Status::Ok) continue;
    auto faster = [&](std::map<std::string, std::size_t>& m) {
      auto it = m.find(rows[i].family);
      if (it == m.end() || rows[i].stats->median < rows[it->second].stats->median) m[rows[i].family] = i;
    };
    faster(best);
    if (full_measurement(rows[i])) faster(best_full);
  }
  // Without any confirmed row (a one-stage session) every row is a full measurement.
  if (std::none_of(rows.begin(), rows.end(), [](const GemmRow& r) { return r.confirmed; })) return best;
  for (const auto& [family, i] : best_full) best[family] = i;
  return best;
}

// Finalists: the fastest screened rows (not resumed, not the baseline) within this fraction of
// the fastest screened median, at most --confirm of them.
std::vector<std::size_t> gemm_finalists(const std::vector<GemmRow>& rows, std::size_t confirm) {
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

std::vector<std::size_t> unconfirmed_family_bests(const std::vector<GemmRow>& rows, const std::set<std::size_t>& tried) {
  struct Family {
    std::optional<double> confirmed_best;  // the fastest full measurement (the baseline counts)
    std::optional<std::size_t> unconfirmed;  // the fastest row measured only by screening
  };
  // The smallest confirmed / screened ratio of any family: the GPU's drift since screening (it
  // heats up for every kernel alike). One family's own ratio let a single slow confirmation
  // stand: a 256x128 kernel screened at 55.0 us confirmed at 68.7 (do_bench: 56.3), and the
  // next one, screened at 55.5, scaled by 1.25, was never tried, while cuBLASLt's rows had
  // confirmed within 1% (655x113x696 in 40 batches, H200, session 26).
  double drift = 0;
  std::map<std::string, Family> families;
  if (!rows.empty() && rows.front().stats) families[rows.front().family].confirmed_best = rows.front().stats->median;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const GemmRow& r = rows[i];
    if (r.resumed || !r.stats || r.result.status != db::Status::Ok) continue;
    Family& f = families[r.family];
    if (tried.count(i) && !r.confirmed) continue;  // its confirmation failed: the screening is no full measurement
    if (r.confirmed) {
      f.confirmed_best = std::min(f.confirmed_best.value_or(r.stats->median), r.stats->median);
      const double screened = r.result.resources.contains("screening")
                                  ? r.result.resources["screening"].value("median_s", 0.0)
                                  : 0.0;
      if (screened > 0) drift = drift > 0 ? std::min(drift, r.stats->median / screened) : r.stats->median / screened;
    } else if (!f.unconfirmed || r.stats->median < rows[*f.unconfirmed].stats->median) {
      f.unconfirmed = i;
    }
  }
  std::vector<std::size_t> out;
  for (const auto& [name, f] : families) {
    if (!f.unconfirmed) continue;
    // Its screening, scaled as the confirmations moved (big GEMMs screen before the power
    // limit bites: all of them confirm slower), must still beat the confirmed best.
    const double expected = rows[*f.unconfirmed].stats->median * (drift > 0 ? drift : 1.0);
    if (!f.confirmed_best || expected < *f.confirmed_best) out.push_back(*f.unconfirmed);
  }
  return out;
}

GemmSessionResult run_gemm_session(const GemmSessionOptions& options) { return GemmSession(options).run(); }

std::optional<measure::Stats> baseline_nearest(const std::vector<TimedStats>& timeline, std::optional<double> at_s) {
  if (!at_s || timeline.empty()) return std::nullopt;
  const TimedStats* nearest = &timeline.front();
  for (const TimedStats& t : timeline)
    if (std::abs(t.at_s - *at_s) < std::abs(nearest->at_s - *at_s)) nearest = &t;
  return nearest->stats;
}

std::optional<double> baseline_clock(const std::vector<TimedStats>& timeline, const measure::Stats& run) {
  for (const TimedStats& t : timeline)
    if (t.stats == run) return t.sm_clock_mhz;
  return std::nullopt;
}

std::optional<double> baseline_judging_clock(const std::vector<TimedStats>& timeline, const measure::Stats& run,
                                             bool in_rounds) {
  if (!in_rounds) return baseline_clock(timeline, run);
  std::optional<double> highest;
  for (std::size_t i = 1; i < timeline.size(); ++i)
    if (timeline[i].sm_clock_mhz) highest = std::max(highest.value_or(0.0), *timeline[i].sm_clock_mhz);
  return highest;
}

}  // namespace ktune::tuner
