#pragma once
// `ktune model rank`: IREE-knob candidates of a model's matmul dispatches ranked for an AMD
// target without an AMD GPU. Each candidate is compiled for the target (the dispatch's benchmark
// source with the candidate substituted, in parallel), its code object inspected
// (amdgpu/code_object_inspection.h), and the candidates ordered by a static rule:
//   1. built, and its kernel found, before failures (compile_error);
//   2. launchable (workgroup size and LDS within the target's limits) before not (resource_limit);
//   3. fewer spilled registers, then less scratch per lane;
//   4. MFMA in the kernel before none;
//   5. the candidate model's score (matmul_candidates.h: wave quantization, reuse per workgroup
//      and subgroup, k-loop overhead: what occupancy alone cannot see in a GEMM);
//   6. more waves per SIMD.
// A static rank is not a measurement: every candidate is recorded in the database as `skipped`
// with resources.offline = true and resources.static_rank, under the device "offline-<chip>"
// (as `ktune tune --offline` records spec kernels), so nothing takes it for a time. The top
// candidate of each dispatch can be written as a tuning spec that IREE verifiably applies.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/analysis/inspect_report.h"
#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/iree/tuning_spec.h"

namespace ktune::iree {

struct OfflineRankOptions {
  std::size_t max_dispatches = 5;   // the largest matmul-like dispatches (by M x N x K)
  std::size_t max_candidates = 16;  // per dispatch, IREE's own configuration included
  int jobs = 0;                     // parallel iree-compile; 0: one per core
  std::filesystem::path work_dir;   // candidate builds go below it
  std::filesystem::path db_path;    // the database the ranks go to
  std::filesystem::path spec_path;  // empty: no spec; else the top candidates' spec, verified
};

struct RankedCandidate {
  MatmulCandidate candidate;
  CandidateBuild build;
  std::optional<analysis::KernelInspection> kernel;
  std::string status = "ok";  // ok, compile_error, resource_limit
  nlohmann::json assessment = nlohmann::json::object();
  int rank = 0;  // 1 = best of its dispatch
};

struct DispatchRanking {
  std::string dispatch;
  std::vector<std::int64_t> mnk;  // M, N, K; a batched contraction's batch sizes first
  std::vector<RankedCandidate> candidates;  // best first
  std::int64_t session_id = 0;
};

struct OfflineRanking {
  std::string target;
  std::vector<DispatchRanking> dispatches;
  std::optional<WrittenSpec> spec;
  std::vector<std::string> notes;  // dispatches left out and why
  double seconds = 0;
};

// True when `a` ranks above `b` by the rule above.
bool ranks_above(const RankedCandidate& a, const RankedCandidate& b);

// `model`: compiled for hip:gfx*. Throws IreeError for another target or when no dispatch has
// candidates.
OfflineRanking rank_dispatches_offline(const IreeTools& tools, const CompiledModel& model, const OfflineRankOptions& options);

nlohmann::json to_json(const OfflineRanking& ranking);

}  // namespace ktune::iree
