#pragma once
// `ktune model profile --html FILE` and `ktune model tune --html FILE`: one self-contained page
// (inline CSS, no script) of a model's dispatches ranked by share of the dispatches' summed
// time (root op, time, share with a bar, tunable or why not) under a header (model, target,
// device, function, whole-model time). For a tuning, also per tuned dispatch its candidates
// (of them ktune's kernels), evaluations, IREE's default against the best and by status; the
// whole model's default against tuned build; and the iree-compile flags that apply the answer.
// Input: the JSON of iree::ModelProfile::to_json() or of iree::ModelTuning::to_json() (told apart
// by its "profile" member; the report module does not depend on iree). Missing or null fields
// show as "-".

#include <string>

#include <nlohmann/json.hpp>

namespace ktune::report {

std::string render_model_profile_html(const nlohmann::json& profile_or_tuning);

}  // namespace ktune::report
