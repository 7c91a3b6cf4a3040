#pragma once
// One dispatch of an IREE model as a kind of candidate for ktune's tuning loop. Its space is the
// dispatch's ranked candidate configurations (matmul_candidates.h, IREE's default first) as one
// parameter, "candidate", whose values read like "NV_MMA_SYNC_F32_16x8x16_F16/sg4x4/wg2x2/r2/p2"
// ("default" for IREE's own), then, for a dispatch that is a GEMM ktune's generated kernels
// compute (dispatch_gemm.h), those kernels as the dispatch's executable object
// ("ktune/128x128x32/w2x2/s3/g8/b1", generated_object.h), and, for a plain f16 matmul on
// CUDA, IREE transform-dialect strategies ("td/128x128x64/w2x2/d3", transform_strategy.h): one
// space, one loop, three families; every strategy of search/ walks it. A candidate compiles (on the tuner's compile pool) to two
// modules: the dispatch's standalone benchmark with the candidate substituted (what is timed)
// and the whole model with it substituted (what is verified against the default build on the
// session's random inputs). Both builds must show the candidate's workgroup size.

#include <map>
#include <memory>
#include <optional>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/iree/dispatch_gemm.h"
#include "ktune/iree/generated_object.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/iree/model_session.h"
#include "ktune/iree/transform_strategy.h"
#include "ktune/tuner/candidate_kind.h"

namespace ktune::iree {

struct DispatchKindOptions {
  std::size_t max_candidates = 32;  // IREE's knobs, including the default
  std::size_t max_object_candidates = 8;  // ktune's generated kernels (0: none)
  std::size_t max_strategies = 6;         // IREE transform-dialect strategies (0: none)
  // The GPU ktune's kernels are planned and compiled for (resolve_object_device); unset: the
  // dispatch's target (mma.sync PTX the driver JITs).
  std::optional<generated::DeviceTraits> object_device;
  int batch_size = 20;              // dispatches per benchmark repetition
  spec::TuneSettings tune;          // strategy "exhaustive" by default (ranked order)
  measure::Policy policy;           // min_samples = repetitions; min_seconds spread over them
  bool verify = true;               // false: timed only (a profile of the defaults)
  // A dispatch without candidates (not a matmul IREE configured with an MMA intrinsic) gets a
  // space of its default alone instead of an error (a profile times every dispatch).
  bool default_only_when_untunable = false;
};

// The label of a candidate: its knobs, without characters config keys use; IREE's own
// configuration is "default".
std::string candidate_label(const MatmulKnobs& knobs);
std::string candidate_label(const MatmulCandidate& candidate);

class DispatchKind : public tuner::CandidateKind {
 public:
  // Throws IreeError when the dispatch is not one ktune has candidates for (why, from
  // matmul_candidates) or has no benchmark source in the dump.
  DispatchKind(const ModelSession& session, std::size_t dispatch_index, const DispatchKindOptions& options);

  const space::SearchSpace& space() const override { return *space_; }
  db::KernelRecord kernel_record() const override;
  db::ProblemRecord problem_record() const override;
  spec::TuneSettings settings() const override { return options_.tune; }
  measure::Policy policy() const override { return options_.policy; }
  std::string source_label() const override;
  std::string backend_name() const override { return session_.model.target.device; }

  std::optional<device::CompileResult> compile_reference(const std::string& target) override;
  device::CompileResult compile(const Config& config, const std::string& target) override;
  // The two builds of a candidate: the dispatch's benchmark and the whole model, substituted.
  device::CompileResult compile_object(const ObjectCandidate& candidate);
  device::CompileResult compile_strategy(const TransformStrategy& strategy);
  device::ScreenResult screen(device::Backend&, int, const Config&, const device::CompileResult&) override { return {}; }
  nlohmann::json evaluation_request(const Request& request) const override;
  double call_timeout(const measure::Policy& policy, bool computes_reference) const override;
  std::optional<double> flop_count(const Config& config) const override;
  std::optional<double> byte_count(const Config&) const override { return std::nullopt; }

  const DumpedDispatch& dispatch() const { return dispatch_; }
  const std::vector<MatmulCandidate>& candidates() const { return candidates_; }
  const std::vector<ObjectCandidate>& object_candidates() const { return objects_; }
  // Why the dispatch has no object candidates ("" when it has).
  const std::string& objects_unsupported() const { return objects_unsupported_; }
  const std::vector<TransformStrategy>& strategies() const { return strategies_; }
  // Why the dispatch has no transform strategies ("" when it has).
  const std::string& strategies_unsupported() const { return strategies_unsupported_; }
  const std::optional<DispatchGemm>& gemm() const { return gemm_; }
  const CandidateSpaceSummary& space_summary() const { return summary_; }
  // The candidate a config names (std::out_of_range for one not in the space, or for an object
  // candidate: see object_candidate).
  const MatmulCandidate& candidate(const Config& config) const;
  // The object candidate a config names, or null when it names another family's candidate.
  const ObjectCandidate* object_candidate(const Config& config) const;
  // The transform strategy a config names, or null.
  const TransformStrategy* strategy_candidate(const Config& config) const;
  // Where a candidate is built (its configured source is configured_<dispatch>.mlir there).
  std::filesystem::path candidate_dir(const std::string& label) const;
  // The file that substitutes the candidate a label names into a build (empty for "default").
  std::filesystem::path substitution_file(const std::string& label) const;
  std::string benchmark_function() const { return benchmark_function_; }
  bool tunable() const { return candidates_.size() + objects_.size() + strategies_.size() > 1; }

 private:
  // Compiles the dispatch's benchmark and the whole model with `file` substituted into `dir`;
  // both must have `threads` per workgroup. "" when they do (the modules set in r.resources),
  // else why not.
  std::string build_dispatch_and_model(const std::filesystem::path& file, const std::filesystem::path& dir, int threads,
                                       device::CompileResult& r);

  const ModelSession& session_;
  DumpedDispatch dispatch_;
  DispatchKindOptions options_;
  CandidateSpaceSummary summary_;
  std::vector<MatmulCandidate> candidates_;
  std::optional<DispatchGemm> gemm_;
  std::vector<ObjectCandidate> objects_;
  std::string objects_unsupported_;
  std::vector<TransformStrategy> strategies_;
  std::string strategies_unsupported_;
  std::shared_ptr<const cuda::NvrtcCompiler> nvrtc_;
  std::map<std::string, std::size_t> by_label_;  // IREE candidates 0..n-1, objects n.., strategies after
  std::optional<space::SearchSpace> space_;  // built once the families are known
  std::string benchmark_function_;
};

}  // namespace ktune::iree
