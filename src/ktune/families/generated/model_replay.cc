#include "ktune/families/generated/model_replay.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <stdexcept>

#include "ktune/core/config.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::generated {
namespace {

struct Measured {
  RankedKnobs ranked;
  double seconds = 0;
  std::string key;
};

// The measured kernels of one row, each with the model's estimate today.
std::vector<Measured> measured_kernels(const nlohmann::json& row, const ProblemTraits& traits,
                                       const DeviceTraits& device, std::size_t* skipped) {
  std::vector<Measured> out;
  for (const nlohmann::json& g : row["ktune"]["generated_measured"]) {
    if (!g.is_object()) {
      ++*skipped;  // not a measurement record
      continue;
    }
    if (g.value("status", "") != "ok" || !g.contains("median_s") || !g["median_s"].is_number()) continue;
    try {
      const Config config = config_from_json(g["config"]);
      const GeneratedKnobs knobs = knobs_from_config(config);
      out.push_back({{knobs, estimate(knobs, traits, device)}, g["median_s"].get<double>(), config_key(config)});
    } catch (const std::exception&) {
      ++*skipped;  // a knob this build no longer has
    }
  }
  return out;
}

}  // namespace

nlohmann::json ShapeReplay::to_json() const {
  return {{"name", name},
          {"source", source},
          {"measured", measured},
          {"best_s", best_seconds},
          {"model_first_s", first_seconds},
          {"regret", regret()},
          {"memory_bound", memory_bound},
          {"selected_best_s", selected_best_seconds},
          {"best_config", best_config},
          {"best_estimate_s", best_estimate_seconds},
          {"model_first_config", first_config},
          {"model_first_estimate_s", first_estimate_seconds},
          {"holdout", holdout},
          {"space_best_estimate_s", space_best_estimate_seconds}};
}

ReplayResult replay_suite(const nlohmann::json& suite_output, const std::string& source, const DeviceTraits& device,
                          std::size_t max_candidates) {
  ReplayResult result;
  const nlohmann::json rows = suite_output.is_object() ? suite_output.value("rows", nlohmann::json::array()) : suite_output;
  if (!rows.is_array()) throw std::invalid_argument("not a suite output: \"rows\" is not a list");
  for (const nlohmann::json& row : rows) {
    if (!row.is_object() || !row.contains("ktune") || !row["ktune"].is_object() ||
        !row["ktune"].contains("generated_measured") || !row["ktune"]["generated_measured"].is_array() ||
        !row["ktune"].contains("problem"))
      continue;  // a failed tuning, a peer-only row, or not a suite row at all
    ProblemTraits traits;
    try {
      traits = problem_traits(gemm::problem_from_json(row["ktune"]["problem"]));
    } catch (const std::exception&) {
      continue;  // not a problem the generated family computes
    }
    std::vector<Measured> kernels = measured_kernels(row, traits, device, &result.skipped_configs);
    if (kernels.empty()) continue;
    // The model's order, the recorded order where it ties completely (as rank_space's stable sort).
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const Measured& a, const Measured& b) { return ranks_before(a.ranked, b.ranked); });
    ShapeReplay shape;
    shape.name = row.value("name", "?");
    shape.source = source;
    shape.measured = kernels.size();
    shape.first_seconds = kernels.front().seconds;
    shape.memory_bound = kernels.front().ranked.estimate.overlap_seconds > 0;
    const Measured& best = *std::min_element(kernels.begin(), kernels.end(), [](const Measured& a, const Measured& b) {
      return a.seconds < b.seconds;
    });
    shape.best_seconds = best.seconds;
    shape.best_config = best.key;
    shape.best_estimate_seconds = best.ranked.estimate.seconds;
    shape.first_config = kernels.front().key;
    shape.first_estimate_seconds = kernels.front().ranked.estimate.seconds;
    shape.holdout = row.value("holdout", false);
    SpaceOptions options;
    options.max_candidates = max_candidates;
    const std::vector<RankedKnobs> ranked = rank_space(traits, device, options);
    shape.space_best_estimate_seconds = ranked.empty() ? 0.0 : ranked.front().estimate.seconds;
    std::map<HedgeClass, double> class_best;  // ranked is in the model's order: the first of each class
    for (const RankedKnobs& r : ranked) class_best.emplace(hedge_class(r.knobs), r.estimate.seconds);
    for (const Measured& m : kernels) {
      if (shape.space_best_estimate_seconds <= 0) break;
      const HedgeClass cls = hedge_class(m.ranked.knobs);
      const auto in_space = class_best.find(cls);
      // A class the space no longer has (the rules changed since): the kernel's own estimate.
      const double class_seconds = in_space != class_best.end() ? in_space->second : m.ranked.estimate.seconds;
      shape.kernels.push_back({m.ranked.estimate.seconds / shape.space_best_estimate_seconds, m.seconds / best.seconds,
                               cls != hedge_class(ranked.front().knobs),
                               class_seconds / shape.space_best_estimate_seconds});
    }
    const std::vector<RankedKnobs> selected = select_ranked(ranked, options);
    for (const Measured& m : kernels)
      // The selection chooses its own rasterisation (raster_group): a recorded kernel stands for
      // the same kernel in any tile order.
      if (std::any_of(selected.begin(), selected.end(),
                      [&](const RankedKnobs& s) {
                        GeneratedKnobs a = s.knobs;
                        a.swizzle_group = m.ranked.knobs.swizzle_group;
                        return a == m.ranked.knobs;
                      }) &&
          (shape.selected_best_seconds == 0 || m.seconds < shape.selected_best_seconds))
        shape.selected_best_seconds = m.seconds;
    result.shapes.push_back(shape);
  }
  return result;
}

double geomean_regret(const std::vector<ShapeReplay>& shapes, bool memory_bound_only) {
  double log_sum = 0;
  int n = 0;
  for (const ShapeReplay& s : shapes) {
    if (memory_bound_only && !s.memory_bound) continue;
    if (s.regret() <= 0) continue;
    log_sum += std::log(s.regret());
    ++n;
  }
  return n ? std::exp(log_sum / n) : 0.0;
}

DeviceTraits hopper_traits(const std::string& name) {
  DeviceTraits d;
  d.compute_capability = 90;
  d.sm_count = 132;
  d.max_shared_per_block = 232448;
  d.name = name;
  return d;
}

}  // namespace ktune::generated
