#pragma once
// The worker side of GEMM tuning: what an isolated worker process does for
//   {"op": "gemm_candidates", ...}  set up the problem on the GPU, list every family's candidates
//   {"op": "gemm_refine", ...}      more generated candidates around the best measured ones
//   {"op": "gemm_evaluate", ...}    run one candidate: poison D, run, verify against the fp64
//                                   reference, then measure (cold L2, CUDA events) with
//                                   measure::run_measurement
// A problem's inputs, device buffers and reference stay in the worker between requests, so
// only the first request of a problem pays for them. The replies of gemm_evaluate have the
// keys of tuner::EvaluationReply (status, error, verified, verification, measurement,
// reference_seconds) plus workspace_bytes, waves and timing.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/gemm/gemm_reference.h"
#include "ktune/measure/policy.h"
#include "ktune/measure/stats.h"

namespace ktune::gemm {

// What both requests share: which problem, on which device, with which data.
struct GemmSetup {
  GemmProblem problem;
  int device = 0;
  std::uint64_t seed = 1;  // input data
  ReferenceMode reference = ReferenceMode::Auto;
  std::vector<std::string> families{"cublaslt"};
  cublaslt::EnumerationOptions cublaslt;
  int generated_max_candidates = 20;  // generated kernels compiled and measured (best model estimates)
  // The refinement round's size (tune gemm --refine): with compile threads to spare, the listing
  // compiles that many likely neighbours ahead (see GemmWorker::speculate_refinement).
  int generated_refine = 0;
  // Pingpong-scheduled wgmma kernels join the generated space (tune gemm --generated-pingpong).
  bool generated_pingpong = false;
  // Split-K kernels summed inside a cluster join the generated space (--generated-split-cluster).
  bool generated_split_cluster = false;
  // Persistent kernels splitting only their last round join it (--generated-split-tail).
  bool generated_split_tail = false;
  // Small-tile wgmma kernels built for two CTAs per SM join it (--generated-co-resident).
  bool generated_co_resident = false;
  // Operands read once load with the L2 evict-first policy (--generated-evict-first).
  bool generated_evict_first = false;
  // CTA pairs sharing A by TMA multicast join it (tune gemm --no-generated-clusters: not).
  bool generated_clusters = true;
  // Swapped kernels (D^T = B^T A^T) join it for M <= 64 (tune gemm --no-generated-swap-ab: not).
  bool generated_swap_ab = true;
};

nlohmann::json candidates_request(const GemmSetup& setup);

struct EvaluateOptions {
  measure::Policy policy;
  std::optional<measure::Stats> incumbent;  // racing
  bool cold = true;                          // flush L2 before every sample
  bool verify = true;
  bool measure = true;
  // Generated kernels: when set, a kernel whose background compile has not finished within this
  // many seconds is not evaluated; the reply says {"not_ready": true} (nothing to record).
  std::optional<double> compile_deadline;
};
// `candidate`: one entry of the candidates reply ({"family": ..., "candidate": ...,
// "library_version": ...}).
nlohmann::json evaluate_request(const GemmSetup& setup, const nlohmann::json& candidate, const EvaluateOptions& options);

// {"op": "gemm_refine"}: generated candidates one knob step from `seeds` (the best measured
// generated configs), none of `seen`, queued on the background compiler; the reply has
// "candidates" like the listing.
nlohmann::json refine_request(const GemmSetup& setup, const std::vector<Config>& seeds, const std::vector<Config>& seen,
                              std::size_t max_candidates);

// Throws std::invalid_argument for malformed requests (GemmError for a bad problem).
GemmSetup setup_from_request(const nlohmann::json& request);

class GemmWorker {
 public:
  GemmWorker();
  ~GemmWorker();
  GemmWorker(const GemmWorker&) = delete;
  GemmWorker& operator=(const GemmWorker&) = delete;

  static bool handles(const std::string& op);  // gemm_candidates, gemm_refine, gemm_evaluate
  // The worker::Handler for the ops above; anything else throws std::invalid_argument.
  // Failures of the candidate become replies with status "runtime_error"; a poisoned device
  // context (device::ContextPoisoned) propagates: the process must exit.
  nlohmann::json handle(const nlohmann::json& request);

  struct State;

 private:
  nlohmann::json candidates(const GemmSetup& setup);
  nlohmann::json evaluate(const GemmSetup& setup, const nlohmann::json& request);
  // Lists the generated family's candidates into `candidates` and starts compiling them in the
  // background; returns the family's entry of the reply's "families".
  nlohmann::json generated_candidates(const GemmSetup& setup, nlohmann::json& candidates);
  nlohmann::json evaluate_generated(const GemmSetup& setup, const nlohmann::json& request);
  nlohmann::json refine(const GemmSetup& setup, const nlohmann::json& request);
  // Queues `chosen` on the background compiler (all cores, best estimate first) and appends them
  // to `candidates` (sources `prefix`0, 1, ...); evaluations wait for their own kernel only.
  // Returns what was queued.
  nlohmann::json compile_generated(const std::vector<generated::RankedKnobs>& chosen,
                                   const generated::ProblemTraits& traits, const std::string& prefix,
                                   nlohmann::json& candidates);
  // Queues the likely refinement neighbours (of the model's two best) when compile threads are
  // to spare; returns how many were queued.
  std::size_t speculate_refinement(const std::vector<generated::RankedKnobs>& chosen,
                                   const generated::ProblemTraits& traits, const generated::DeviceTraits& device,
                                   int refine, bool clusters, bool split_tail, bool co_resident);
  std::unique_ptr<State> state_;
};

}  // namespace ktune::gemm
