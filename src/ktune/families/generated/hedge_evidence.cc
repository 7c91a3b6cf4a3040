#include "ktune/families/generated/hedge_evidence.h"

namespace ktune::generated {

nlohmann::json HedgeEvidence::to_json() const {
  return {{"min_best_estimate_s", min_best_estimate_seconds},
          {"within", within},
          {"tuned_on_only", tuned_on_only},
          {"shape_runs", shape_runs},
          {"kernels", kernels},
          {"near_kernels", near_kernels},
          {"max_estimate_ratio", max_estimate_ratio},
          {"at_shape", at_shape},
          {"at_source", at_source}};
}

HedgeEvidence hedge_evidence(const std::vector<ShapeReplay>& shapes, double min_best_estimate_seconds, double within,
                             bool tuned_on_only) {
  HedgeEvidence e;
  e.min_best_estimate_seconds = min_best_estimate_seconds;
  e.within = within;
  e.tuned_on_only = tuned_on_only;
  for (const ShapeReplay& s : shapes) {
    if ((tuned_on_only && s.holdout) || s.space_best_estimate_seconds < min_best_estimate_seconds || s.kernels.empty())
      continue;
    ++e.shape_runs;
    for (const ShapeReplay::Kernel& k : s.kernels) {
      if (!k.other_class) continue;
      ++e.kernels;
      if (k.time_ratio > within) continue;
      ++e.near_kernels;
      if (k.class_estimate_ratio > e.max_estimate_ratio) {
        e.max_estimate_ratio = k.class_estimate_ratio;
        e.at_shape = s.name;
        e.at_source = s.source;
      }
    }
  }
  return e;
}

}  // namespace ktune::generated
