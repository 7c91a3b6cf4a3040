#pragma once
// `ktune model inspect --html FILE`: one self-contained page of a model's dispatches as IREE
// built them for an AMD target: a table (root op, M x N x K, tiles, registers, LDS, scratch,
// occupancy and its limiter, the check against IREE's assembly, ISA findings) and per dispatch
// what would raise its occupancy and what the ISA checks found. Input: the JSON of
// iree::to_json(ModelInspection) (the report module does not depend on iree).

#include <string>

#include <nlohmann/json.hpp>

namespace ktune::report {

std::string render_model_inspection_html(const nlohmann::json& inspection);

}  // namespace ktune::report
