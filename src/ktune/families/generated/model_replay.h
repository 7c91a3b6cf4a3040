#pragma once
// Replaying recorded suite runs through the cost model, offline: for every shape of a
// bench/gemm_suite40.py output, the generated kernels ktune measured there
// (rows[].ktune.generated_measured), ranked by the model as it is now. What the model would have
// put first among them, against the fastest of them (the regret), and what it would select to
// measure today. Issue 12 asks that the cost model be tuned from recorded measurements: this is
// how a change to it is judged without a GPU.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_space.h"

namespace ktune::generated {

struct ShapeReplay {
  std::string name;
  std::string source;        // the file (or label) the row came from
  std::size_t measured = 0;  // generated kernels with a time
  double best_seconds = 0;   // the fastest of them
  double first_seconds = 0;  // the one the model ranks first
  bool memory_bound = false; // the model's first choice is bound by HBM (overlap_seconds > 0)
  // Of the measured kernels, the fastest that select_candidates would measure today (0 when it
  // would measure none of them: only kernels nobody timed).
  double selected_best_seconds = 0;
  std::string best_config, first_config;  // config_key of each
  double first_estimate_seconds = 0, best_estimate_seconds = 0;  // the model's estimates of both
  bool holdout = false;  // the row's "holdout" flag (bench/gemm_suite40.py: random draws are too)
  // The model's best estimate over the whole space (rank_space's first), and every measured
  // kernel's estimate and time against it and the fastest (hedge_evidence.h reads these).
  double space_best_estimate_seconds = 0;
  struct Kernel {
    double estimate_ratio = 0;  // its estimate / space_best_estimate_seconds
    double time_ratio = 0;      // its time / best_seconds
    bool other_class = false;   // of another hedge_class than the space's best: a hedge
    // The best estimate of its hedge_class in the space / space_best_estimate_seconds: how far
    // out the window must reach for the class to be measured at all.
    double class_estimate_ratio = 0;
  };
  std::vector<Kernel> kernels;
  double regret() const { return best_seconds > 0 ? first_seconds / best_seconds : 0; }
  nlohmann::json to_json() const;
};

// Every row of a suite output with measured generated kernels. Rows whose problem the family
// cannot express are skipped. Configurations that no longer parse, and records that are not
// objects, are skipped and counted. Throws std::invalid_argument where "rows" is not a list.
struct ReplayResult {
  std::vector<ShapeReplay> shapes;
  std::size_t skipped_configs = 0;
};
ReplayResult replay_suite(const nlohmann::json& suite_output, const std::string& source, const DeviceTraits& device,
                          std::size_t max_candidates = 20);

// Geometric mean of the regrets (all shapes, or only the memory-bound ones); 0 for none.
double geomean_regret(const std::vector<ShapeReplay>& shapes, bool memory_bound_only = false);

// The device the recorded runs ran on, by name ("NVIDIA H200", "NVIDIA H100 80GB HBM3"):
// Hopper's 132 SMs and shared memory, the name deciding the HBM rate.
DeviceTraits hopper_traits(const std::string& name);

}  // namespace ktune::generated
