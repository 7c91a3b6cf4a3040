#include "ktune/iree/offline_rank.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>

#include "ktune/amdgpu/code_object_inspection.h"
#include "ktune/core/read_file.h"
#include "ktune/core/sha256.h"
#include "ktune/core/thread_pool.h"
#include "ktune/db/database.h"

namespace ktune::iree {
namespace fs = std::filesystem;
namespace {

constexpr const char* kRankingRule =
    "built > launchable > fewer spills > less scratch > MFMA used > model score > waves per SIMD";

struct Selected {
  const DumpedDispatch* dispatch = nullptr;
  std::vector<MatmulCandidate> candidates;
  std::vector<std::int64_t> mnk;  // M, N, K, after the batch sizes of a batched contraction
};

std::vector<std::int64_t> batch_mnk(const ContractionLoops& c) {
  std::vector<std::int64_t> sizes;
  for (int loop : c.batch) sizes.push_back(c.sizes[static_cast<std::size_t>(loop)]);
  for (int loop : {c.m, c.n, c.k}) sizes.push_back(c.sizes[static_cast<std::size_t>(loop)]);
  return sizes;
}

// The largest matmul-like dispatches that have candidates; the others are noted.
std::vector<Selected> select_dispatches(const CompiledModel& model, const OfflineRankOptions& options,
                                        std::vector<std::string>& notes) {
  std::vector<Selected> selected;
  for (const DumpedDispatch& d : model.dispatches) {
    CandidateSpaceSummary summary;
    CandidateOptions o;
    o.max_candidates = options.max_candidates;
    std::vector<MatmulCandidate> candidates = matmul_candidates(d.config, o, &summary);
    if (candidates.empty()) {
      notes.push_back(d.name + ": left out (" + summary.unsupported + ")");
      continue;
    }
    selected.push_back({&d, std::move(candidates), batch_mnk(*d.config.contraction())});  // candidates imply a contraction
  }
  auto work = [](const Selected& s) {
    double w = 1;
    for (std::int64_t x : s.mnk) w *= static_cast<double>(x);
    return w;
  };
  std::stable_sort(selected.begin(), selected.end(), [&](const Selected& a, const Selected& b) { return work(a) > work(b); });
  if (selected.size() > options.max_dispatches) {
    for (std::size_t i = options.max_dispatches; i < selected.size(); ++i)
      notes.push_back(selected[i].dispatch->name + ": left out (--top " + std::to_string(options.max_dispatches) + ")");
    selected.resize(options.max_dispatches);
  }
  return selected;
}

// The built candidate's code object and its kernel's report, and the static assessment.
void assess(RankedCandidate& r, const DumpedDispatch& d, const fs::path& dump) {
  if (!r.build.ok) {
    r.status = "compile_error";
    return;
  }
  fs::path object;
  for (const auto& entry : fs::directory_iterator(dump))
    if (entry.path().extension() == ".hsaco") object = entry.path();
  if (object.empty()) {
    r.status = "compile_error";
    r.build.error = "no code object in the candidate's dump";
    return;
  }
  const analysis::InspectReport report = amdgpu::inspect_code_object(object.string(), {});
  for (const auto& k : report.kernels)
    if (k.name == d.config.export_name) r.kernel = k;
  if (!r.kernel) {
    r.status = "compile_error";
    r.build.error = "the code object has no kernel " + d.config.export_name;
    return;
  }
  const analysis::KernelInspection& k = *r.kernel;
  auto figure = [&](const char* key) {
    const nlohmann::json* v = k.resource(key);
    return v && v->is_number_integer() ? v->get<std::int64_t>() : 0;
  };
  const bool launchable = k.amdgpu_occupancy && k.amdgpu_occupancy->launchable;
  if (!launchable) r.status = "resource_limit";
  nlohmann::json mfma = nlohmann::json::object();
  if (k.isa)
    for (const auto& [mnemonic, count] : k.isa->matrix_instructions) mfma[mnemonic] = count;
  r.assessment = {{"launchable", launchable},
                  {"spills", figure("vgpr_spills") + figure("sgpr_spills")},
                  {"scratch_bytes_per_lane", figure("scratch_bytes_per_lane")},
                  {"mfma", mfma},
                  {"isa_read", k.isa.has_value()},
                  {"model_score", r.candidate.score},
                  {"vgprs", figure("vgprs (total, incl. AGPRs)")},
                  {"lds_bytes", figure("lds_bytes")}};
  if (k.amdgpu_occupancy) {
    r.assessment["waves_per_simd"] = k.amdgpu_occupancy->waves_per_simd;
    if (!k.amdgpu_occupancy->limiters.empty())
      r.assessment["limiter"] = analysis::to_string(k.amdgpu_occupancy->limiters.front());
    if (!launchable) r.build.error = k.amdgpu_occupancy->not_launchable_reason;
  }
}

double number(const nlohmann::json& j, const char* key) { return j.contains(key) ? j.at(key).get<double>() : 0.0; }

void record(db::Database& database, const CompiledModel& model, DispatchRanking& ranking, const DumpedDispatch& d,
            const OfflineRankOptions& options) {
  const std::string chip = model.target.chip;
  db::DeviceRecord device{0, "offline-" + chip, "hip", chip + " (offline, IREE)", {{"target", chip}, {"offline", true}}};
  device.id = database.upsert_device(device);
  db::KernelRecord kernel{0, sha256_hex(read_file(d.configured).value_or(d.name)), model.model.stem().string() + ":" + d.name,
                          "iree-dispatch", d.configured.string()};
  kernel.id = database.upsert_kernel(kernel);
  nlohmann::json sizes = nlohmann::json::object();
  if (const std::size_t n = ranking.mnk.size(); n >= 3) {
    sizes = {{"M", ranking.mnk[n - 3]}, {"N", ranking.mnk[n - 2]}, {"K", ranking.mnk[n - 1]}};
    if (n > 3) sizes["batch"] = std::vector<std::int64_t>(ranking.mnk.begin(), ranking.mnk.end() - 3);
  }
  db::ProblemRecord problem{0, sha256_hex(model.model.string() + "\n" + d.name + "\n" + model.target.text()), d.name, sizes,
                            {{"model", model.model.string()}, {"dispatch", d.name}, {"target", model.target.text()}}};
  problem.id = database.upsert_problem(problem);
  ranking.session_id = database.begin_session(device.id, kernel.id, problem.id, "offline-static",
                                              {{"label", "model rank"}, {"target", model.target.text()},
                                               {"offline", true}, {"ranking_rule", kRankingRule},
                                               {"max_candidates", options.max_candidates}});
  for (const RankedCandidate& c : ranking.candidates) {
    db::ResultRecord r;
    r.session_id = ranking.session_id;
    r.device_id = device.id, r.kernel_id = kernel.id, r.problem_id = problem.id;
    r.config_key = c.candidate.knobs.key();
    r.config = c.candidate.knobs.to_json();
    r.status = c.status == "ok" ? db::Status::Skipped
                                : (c.status == "resource_limit" ? db::Status::ResourceLimit : db::Status::CompileError);
    r.compile_seconds = c.build.seconds;
    r.resources = {{"offline", true}, {"target", chip}, {"static_model", c.assessment}, {"default", c.candidate.is_default}};
    if (c.rank > 0) r.resources["static_rank"] = c.rank;
    r.stop_reason = c.rank > 0 ? "offline: static rank " + std::to_string(c.rank) : "offline";
    r.error = c.build.error;
    r.started_at_unix = r.finished_at_unix = static_cast<double>(std::time(nullptr));
    database.insert_result(r);
  }
  database.finish_session(ranking.session_id, db::kSessionFinished);
}

}  // namespace

bool ranks_above(const RankedCandidate& a, const RankedCandidate& b) {
  const bool a_built = a.status != "compile_error", b_built = b.status != "compile_error";
  if (a_built != b_built) return a_built;
  const bool a_runs = a.status == "ok", b_runs = b.status == "ok";
  if (a_runs != b_runs) return a_runs;
  if (!a_built) return false;
  const nlohmann::json &x = a.assessment, &y = b.assessment;
  if (number(x, "spills") != number(y, "spills")) return number(x, "spills") < number(y, "spills");
  if (number(x, "scratch_bytes_per_lane") != number(y, "scratch_bytes_per_lane"))
    return number(x, "scratch_bytes_per_lane") < number(y, "scratch_bytes_per_lane");
  const bool a_mfma = !x.value("mfma", nlohmann::json::object()).empty(), b_mfma = !y.value("mfma", nlohmann::json::object()).empty();
  if (a_mfma != b_mfma) return a_mfma;
  if (a.candidate.score != b.candidate.score) return a.candidate.score > b.candidate.score;
  return number(x, "waves_per_simd") > number(y, "waves_per_simd");
}

OfflineRanking rank_dispatches_offline(const IreeTools& tools, const CompiledModel& model, const OfflineRankOptions& options) {
  if (model.target.device != "hip")
    throw IreeError("offline ranking reads AMD code objects: target '" + model.target.text() + "' is not hip:gfx*");
  const auto start = std::chrono::steady_clock::now();
  OfflineRanking out;
  out.target = model.target.text();
  const std::vector<Selected> selected = select_dispatches(model, options, out.notes);
  if (selected.empty()) throw IreeError(model.model.string() + ": no dispatch has candidates to rank");

  // Every candidate of every dispatch compiles on the pool; results come back per dispatch.
  ThreadPool pool(options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : 0);
  std::vector<std::vector<std::future<RankedCandidate>>> futures(selected.size());
  for (std::size_t s = 0; s < selected.size(); ++s)
    for (std::size_t i = 0; i < selected[s].candidates.size(); ++i)
      futures[s].push_back(pool.submit([&, s, i] {
        const DumpedDispatch& d = *selected[s].dispatch;
        RankedCandidate r;
        r.candidate = selected[s].candidates[i];
        const fs::path dir = options.work_dir / d.name / std::to_string(i);
        r.build = build_candidate(tools, d, model.target, r.candidate, dir);
        assess(r, d, dir / "dump");
        return r;
      }));
  db::Database database(options.db_path.empty() ? db::Database::default_path() : options.db_path);
  std::vector<SpecChoice> choices;
  for (std::size_t s = 0; s < selected.size(); ++s) {
    DispatchRanking ranking;
    ranking.dispatch = selected[s].dispatch->name;
    ranking.mnk = selected[s].mnk;
    for (auto& f : futures[s]) ranking.candidates.push_back(f.get());
    std::stable_sort(ranking.candidates.begin(), ranking.candidates.end(),
                     [](const RankedCandidate& a, const RankedCandidate& b) { return ranks_above(a, b); });
    int rank = 0;
    for (RankedCandidate& c : ranking.candidates)
      if (c.status == "ok") c.rank = ++rank;
    record(database, model, ranking, *selected[s].dispatch, options);
    if (!ranking.candidates.empty() && ranking.candidates.front().rank == 1)
      choices.push_back({ranking.dispatch, ranking.candidates.front().candidate.knobs.key()});
    out.dispatches.push_back(std::move(ranking));
  }
  if (!options.spec_path.empty() && !choices.empty())
    out.spec = write_tuning_spec(tools, model, choices, options.spec_path, options.work_dir / "with_spec");
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

nlohmann::json to_json(const OfflineRanking& ranking) {
  nlohmann::json dispatches = nlohmann::json::array();
  for (const DispatchRanking& d : ranking.dispatches) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const RankedCandidate& c : d.candidates) {
      nlohmann::json j = {{"key", c.candidate.knobs.key()}, {"default", c.candidate.is_default},
                          {"status", c.status},            {"static_model", c.assessment},
                          {"compile_seconds", c.build.seconds}};
      if (c.rank > 0) j["static_rank"] = c.rank;
      if (!c.build.error.empty()) j["error"] = c.build.error.substr(0, 2000);
      candidates.push_back(std::move(j));
    }
    dispatches.push_back({{"dispatch", d.dispatch}, {"mnk", d.mnk}, {"session", d.session_id}, {"candidates", candidates}});
  }
  nlohmann::json j = {{"target", ranking.target}, {"ranking_rule", kRankingRule}, {"dispatches", dispatches},
                      {"notes", ranking.notes}, {"seconds", ranking.seconds}, {"measured", false}};
  if (ranking.spec) j["spec"] = to_json(*ranking.spec);
  return j;
}

}  // namespace ktune::iree
