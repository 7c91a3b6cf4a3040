#pragma once
// `ktune model profile` and `ktune model tune`: the SHARK Tuner workflow on ktune's one path.
// Profile: the default build timed whole (ModelBuildKind) and each dispatch's default timed
// alone (DispatchKind with its default only), every measurement a result in the database.
// Tune: the hottest tunable dispatches each tuned as a session of DispatchKind (any strategy,
// resumable, IREE's default as candidate 0), the winners merged into one substitution set, the
// model rebuilt with it and timed against the default build in one session; the pick keeps the
// default wherever a candidate did not beat it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/families/generated/generated_kernel.h"
#include "ktune/iree/hal_profile.h"
#include "ktune/iree/model_session.h"
#include "ktune/tuner/tuner.h"

namespace ktune::iree {

struct ModelRunOptions {
  tuner::TuneOptions tune;  // db, worker, devices, progress, strategy, budgets (per dispatch)
  std::size_t top = 5;                // dispatches tuned
  std::size_t max_candidates = 32;    // per dispatch, IREE's knobs, the default included
  std::size_t max_object_candidates = 8;  // per dispatch, ktune's generated kernels
  std::size_t max_strategies = 6;         // per dispatch, IREE transform-dialect strategies
  std::optional<generated::DeviceTraits> object_device;  // the GPU they run on (DispatchKindOptions)
  int batch_size = 20;
  int repetitions = 10;               // benchmark repetitions per candidate (samples)
  double min_share = 0.0;             // dispatches below this share of the profile are not tuned
  int hal_profile_runs = 10;          // model runs captured with IREE's HAL profiling (0: none)
};

struct DispatchProfile {
  std::string name, root;  // root: "matmul 2048x10240x1280" or the op
  bool tunable = false;
  std::string why_not;     // why it has no candidates
  std::optional<double> median_s;  // alone: its standalone benchmark module
  std::optional<double> in_model_s;  // inside the model, per model run (IREE's HAL profile)
  double in_model_calls_per_run = 0;
  std::string status;      // the result's status
  double share = 0;        // of the dispatches' summed time (in the model where profiled)
  std::int64_t result_id = 0;
};

struct ModelProfile {
  std::string model, target, function, device;
  std::optional<double> model_median_s;  // the whole default build, on random inputs
  std::string model_error;  // why the whole default build has no time (its result's error)
  std::vector<DispatchProfile> dispatches;  // by time, slowest first
  // How the shares were timed: "in-model" (IREE's HAL profile of the default build) or "alone"
  // (each dispatch's benchmark module: the HAL does not profile, see hal_profile_error).
  std::string timing = "alone";
  std::string hal_profile_mode, hal_profile_error;
  double wall_seconds = 0;
  nlohmann::json to_json() const;
};

// Whether the session's function runs dispatch `d` (a module may export several functions, each
// with its own dispatches): profile_model times and tunes only those.
bool runs_in_function(const DumpedDispatch& d, const ModelSession& session, const std::optional<HalProfile>& hal);

ModelProfile profile_model(const ModelSession& session, const ModelRunOptions& options);

struct DispatchTuning {
  std::string name;
  std::size_t candidates = 0;         // both families
  std::size_t object_candidates = 0;  // of them, ktune's generated kernels
  std::string objects_unsupported;    // why the dispatch has none of ktune's kernels
  std::size_t strategies = 0;         // of them, IREE transform-dialect strategies
  std::string strategies_unsupported; // why the dispatch has none
  tuner::TuneSummary summary;
  std::optional<double> default_s, best_s;
  std::string best_label;       // "default" when IREE's own won
  std::filesystem::path configured;  // the winner's substitution file (empty: default)
  nlohmann::json to_json() const;
};

// One measured candidate of a dispatch, as the pick sees it.
struct CandidateTime {
  std::string label;  // the space's value: "default", IREE knobs, "ktune/..."
  std::optional<double> median_s;
  bool ok = false;    // verified and measured
};
struct DispatchPick {
  std::string label = "default";
  std::optional<double> best_s, default_s;
};
// The fastest verified candidate, unless it is not more than 1% faster than IREE's default (or
// the default was never measured): then the default.
DispatchPick pick_dispatch_winner(const std::vector<CandidateTime>& times);

struct ModelTuning {
  ModelProfile profile;
  std::vector<DispatchTuning> dispatches;
  std::optional<double> default_model_s, tuned_model_s;
  std::string tuned_status;  // the tuned build's verification/measurement status
  bool tuned_kept = false;   // the tuned build is faster and verified: it is the answer
  std::vector<std::pair<std::string, std::filesystem::path>> substitutions;  // the answer
  std::vector<std::string> compile_flags;  // iree-compile flags that apply it (absolute paths)
  double wall_seconds = 0;
  nlohmann::json to_json() const;
};

ModelTuning tune_model(const ModelSession& session, const ModelRunOptions& options);

// The options of the sessions tune_model runs. A fixed list (the profile's default builds, the
// default-vs-tuned comparison) is measured on every run, never resumed; a dispatch's candidates
// are a search, resumed from the database unless options.tune.resume is false.
tuner::TuneOptions fixed_tune_options(const ModelRunOptions& options, std::vector<Config> configs, const std::string& label);
tuner::TuneOptions dispatch_tune_options(const ModelRunOptions& options);

// Writes the answer to `dir`: each winner's configured source (<dispatch>.mlir), flags.txt (the
// iree-compile flags, substitution paths relative to `dir`), compile.sh (cd there and compile
// the model with them), tuned.vmfb when one was built, and result.json.
void write_tuning_output(const ModelSession& session, const ModelTuning& tuning, const std::filesystem::path& dir);

}  // namespace ktune::iree
