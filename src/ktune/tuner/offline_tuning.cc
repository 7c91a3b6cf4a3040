#include "ktune/tuner/offline_tuning.h"

#include <algorithm>
#include <chrono>
#include <future>

#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/core/thread_pool.h"
#include "ktune/device/hip/hip_compiler.h"
#include "ktune/search/strategy.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/tuner/tuner.h"

namespace ktune::tuner {

const char* const kOfflineRankingRule =
    "static model, not a measurement: launchable first, then more waves per SIMD (occupancy), then fewer "
    "spills and scratch bytes, then fewer ISA problems (narrow global loads or LDS accesses in loops, no MFMA "
    "in a matrix kernel), then more LDS per workgroup, then fewer VGPRs";

namespace {

double now_unix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct Job {
  OfflineCandidate candidate;
  std::optional<device::LaunchGeometry> geometry;
  std::future<device::CompileResult> compiled;
  device::CompileResult result;
  double started_unix = 0;
};

}  // namespace

OfflineTuneSummary run_offline_tuning(const OfflineTuneOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  spec::TuningProblem problem = spec::load_spec(options.spec_path, options.size_overrides);
  if (problem.language != spec::Language::Hip)
    throw TuneError("offline tuning compiles HIP kernels for AMD GPUs, but " + options.spec_path.string() + " is a " +
                    std::string(spec::language_name(problem.language)) + " kernel (kernel.language: hip)");
  const std::string processor = analysis::amdgpu_processor_name(options.target);
  if (options.target.empty() || processor.empty() || !analysis::find_amdgpu_arch(processor))
    throw TuneError("--target '" + options.target + "' is not an AMD GPU ktune knows (gfx908 gfx90a gfx940 gfx941 "
                    "gfx942 gfx950, optionally with :sramecc+/-:xnack+/-)");

  device::hip::HipCompilerOptions compiler_options;
  compiler_options.cache_directory = options.cache_directory;
  compiler_options.llvm_major = options.llvm_major;
  device::hip::HipCompiler compiler(compiler_options);
  std::string why_not;
  const auto toolchain = compiler.toolchain_for(options.target, &why_not);
  std::string compiler_name;
  if (toolchain) compiler_name = "clang " + toolchain->version_string();
  else if (compiler.hiprtc()) compiler_name = "hiprtc " + compiler.hiprtc()->version_string();
  else
    throw TuneError("no compiler for " + options.target + ": " + why_not + "; " + compiler.hiprtc().error +
                    " (install Debian's clang-19 and lld-19, or clang-22 for gfx950)");

  space::SearchSpace space = problem.make_space();
  OfflineTuneSummary summary;
  summary.target = options.target;
  summary.compiler = compiler_name;
  summary.space_size = space.size();

  // Every configuration, in the space's own order (the exhaustive strategy's).
  std::vector<Job> jobs;
  {
    auto all = search::make_strategy("exhaustive", space, {0, nlohmann::json::object()});
    while (!options.max_configs || jobs.size() < *options.max_configs) {
      std::optional<Config> config = all->ask();
      if (!config) break;
      Job job;
      job.candidate.config = *config;
      job.candidate.config_key = config_key(*config);
      jobs.push_back(std::move(job));
    }
  }

  ThreadPool pool(options.compile_jobs > 0 ? static_cast<std::size_t>(options.compile_jobs) : 0);
  for (auto& job : jobs) {
    try {
      job.geometry = launch_geometry(problem, job.candidate.config);
    } catch (const std::exception& e) {
      job.candidate.status = db::Status::RuntimeError;
      job.candidate.error = e.what();
      continue;
    }
    device::CompileRequest request = compile_request(problem, job.candidate.config, options.target);
    job.started_unix = now_unix();
    job.compiled = pool.submit([&compiler, request] { return compiler.compile(request); });
  }
  for (std::size_t done = 0; done < jobs.size(); ++done) {
    if (options.on_compiled && done > 0) options.on_compiled(done, jobs.size());
    Job& job = jobs[done];
    if (!job.compiled.valid()) continue;
    job.result = job.compiled.get();
    if (!job.result.ok) {
      job.candidate.status =
          job.result.log.find("timed out") != std::string::npos ? db::Status::Timeout : db::Status::CompileError;
      job.candidate.error = job.result.log;
      continue;
    }
    job.candidate.assessment =
        device::hip::assess_static(options.target, job.result.resources, *job.geometry, options.expect_matrix);
    if (!job.candidate.assessment->launchable) {
      job.candidate.status = db::Status::ResourceLimit;
      job.candidate.error = job.candidate.assessment->not_launchable_reason;
    }
  }

  if (options.on_compiled) options.on_compiled(jobs.size(), jobs.size());

  // Rank the launchable ones; stable, so ties keep the space's order.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].candidate.assessment && jobs[i].candidate.assessment->launchable) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return device::hip::ranks_above(*jobs[a].candidate.assessment, *jobs[b].candidate.assessment);
  });
  for (std::size_t r = 0; r < order.size(); ++r) jobs[order[r]].candidate.rank = static_cast<int>(r + 1);
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (!jobs[i].candidate.rank) order.push_back(i);

  db::Database database(options.db_path.empty() ? db::Database::default_path() : options.db_path);
  database.mark_abandoned_sessions();
  summary.kernel = {0, problem.kernel_hash(), problem.name, std::string(spec::language_name(problem.language)),
                    problem.sources.front().string()};
  summary.kernel.id = database.upsert_kernel(summary.kernel);
  summary.problem = {0, problem.problem_hash(), problem.name, config_to_json(problem.sizes), problem.to_json()};
  summary.problem.id = database.upsert_problem(summary.problem);
  summary.device = {0, "offline-" + options.target, "hip", options.target + " (offline, " + compiler_name + ")",
                    {{"target", options.target}, {"processor", processor}, {"offline", true}, {"compiler", compiler_name}}};
  summary.device.id = database.upsert_device(summary.device);
  nlohmann::json session_options = {{"spec", problem.spec_path.string()},
                                    {"sizes", config_to_json(problem.sizes)},
                                    {"target", options.target},
                                    {"compiler", compiler_name},
                                    {"offline", true},
                                    {"expect_matrix", options.expect_matrix},
                                    {"ranking_rule", kOfflineRankingRule},
                                    {"label", "tune --offline"}};
  summary.session_id =
      database.begin_session(summary.device.id, summary.kernel.id, summary.problem.id, "offline-static", session_options);

  try {
    for (std::size_t index : order) {
      Job& job = jobs[index];
      OfflineCandidate& c = job.candidate;
      db::ResultRecord r;
      r.session_id = summary.session_id;
      r.device_id = summary.device.id;
      r.kernel_id = summary.kernel.id;
      r.problem_id = summary.problem.id;
      r.config_key = c.config_key;
      r.config = config_to_json(c.config);
      r.status = c.status;
      r.compile_seconds = job.result.seconds;
      r.compile_cache_hit = job.result.cache_hit;
      r.resources = job.result.resources.is_object() ? job.result.resources : nlohmann::json::object();
      r.resources["offline"] = true;
      r.resources["target"] = options.target;
      if (c.assessment) {
        r.resources["static_model"] = device::hip::to_json(*c.assessment);
        r.resources["occupancy"] = c.assessment->occupancy;
      }
      if (c.rank) {
        r.resources["static_rank"] = *c.rank;
        r.stop_reason = "offline: static rank " + std::to_string(*c.rank) + " of " + std::to_string(order.size());
      } else {
        r.stop_reason = "offline";
      }
      r.error = c.error;
      r.started_at_unix = job.started_unix > 0 ? job.started_unix : now_unix();
      r.finished_at_unix = now_unix();
      c.result_id = database.insert_result(r);
      ++summary.by_status[std::string(db::to_string(c.status))];
      summary.candidates.push_back(c);
    }
  } catch (...) {
    database.finish_session(summary.session_id, db::kSessionFailed);
    throw;
  }
  database.finish_session(summary.session_id, db::kSessionFinished);
  summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary;
}

}  // namespace ktune::tuner
