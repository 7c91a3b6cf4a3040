#pragma once
// What the recorded measurements say about select_candidates' hedges (hedge_window in
// generated_space.h): among the hedges measured (kernels of another hedge_class than the model's
// best) that ran within `within` of the fastest measured on their shape, how far behind the
// model's best estimate the model put the best of their class: the window must reach that far
// for the class to be measured at all (the rest of a class enters by the model's order, and
// refinement steps from the measured one). Kernels of the best's own class are never hedges. Where the answer is
// small, a hedge further out only costs compile and measuring time; where it is large, the
// model errs and the hedges find what it ranked low. Computed from model_replay's rows, so a
// change to the model or to the window is judged on the recordings, without a GPU.

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/families/generated/model_replay.h"

namespace ktune::generated {

struct HedgeEvidence {
  double min_best_estimate_seconds = 0;  // shapes whose model's best estimate is at least this
  double within = 0;                     // "near the fastest": time / fastest at most this
  bool tuned_on_only = false;            // holdout rows left out
  std::size_t shape_runs = 0;            // rows counted
  std::size_t kernels = 0;               // their measured hedges
  std::size_t near_kernels = 0;          // of them within `within` of their row's fastest
  double max_estimate_ratio = 0;         // the largest class_estimate_ratio among those
  std::string at_shape, at_source;       // the row it came from
  nlohmann::json to_json() const;
};

HedgeEvidence hedge_evidence(const std::vector<ShapeReplay>& shapes, double min_best_estimate_seconds, double within,
                             bool tuned_on_only);

}  // namespace ktune::generated
