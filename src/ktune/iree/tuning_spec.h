#pragma once
// The AMD answer of a tuning session: a transform-dialect tuning spec IREE applies with
// `--iree-codegen-tuning-spec-path` (CUDA 3.13 ignores it; there the answer is a substitution
// set). The shape SHARK Tuner writes: `@__kernel_config` (iree_codegen.tuning_spec_entrypoint)
// holding one `transform.foreach_match` of per-dispatch matchers to `@apply_op_config`, which
// annotates the matched root op with `compilation_info`. A matcher recognizes the dispatch's root
// contraction by IREE's own `transform.iree.match.contraction` (operand and result element types,
// indexing maps) and its M, N, K sizes (`transform.iree.match.dims_equal`), so it applies to
// that operation wherever it is, and to nothing else.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/configured_dispatch.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::iree {

// What a matcher needs of a dispatch's root op (a contraction without batch dimensions).
struct ContractionMatch {
  std::string lhs_type, rhs_type, output_type;  // element types: "f16", "bf16", "f32", ...
  std::string indexing_maps;                    // "[affine_map<...>, affine_map<...>, affine_map<...>]"
  std::vector<std::int64_t> batch, m, n, k;
};

// From the configured source's root op; throws IreeError saying why a dispatch has no such match
// (not a contraction, batch dimensions, dynamic sizes).
ContractionMatch contraction_match(const ConfiguredDispatch& dispatch, const std::string& configured_text);

// `#iree_codegen.compilation_info<lowering_config = ..., translation_info = ...>` of a configured
// source (IREE's own, or one rewritten by apply_candidate).
std::string compilation_info_of(const ConfiguredDispatch& dispatch);

struct SpecEntry {
  std::string dispatch;          // names the matcher: @match_<dispatch>
  ContractionMatch match;
  std::string compilation_info;
};

// The tuning spec text (one matcher per entry, in order).
std::string emit_tuning_spec(const std::vector<SpecEntry>& entries);

// One dispatch's chosen configuration: a candidate of `ktune model candidates` by its index or
// its key ("mma=MFMA_F32_16x16x16_F16,sg=4x4,wg=2x2,r=4,p=2").
struct SpecChoice {
  std::string dispatch, candidate;
};
// "DISPATCH=CANDIDATE"; throws IreeError naming what is wrong.
SpecChoice parse_spec_choice(const std::string& text);

// Whether IREE applied a spec entry: the dispatch's root lowering_config and translation_info
// in the dump of the model compiled with the spec, against the candidate's.
struct SpecCheck {
  std::string dispatch, candidate_key, wanted, got;  // wanted/got: the compilation_info texts
  bool applied = false;
};

struct WrittenSpec {
  std::filesystem::path path;
  std::string text;
  std::vector<SpecCheck> checks;
  CompiledModel build;  // the model compiled with the spec
  bool verified() const;
};

// Writes the spec for `choices` of `model` (compiled for an AMD target) to `spec_path`, compiles
// the model with it into `out_dir` and checks every entry took (IREE's own dump is the proof).
// Throws IreeError for an unknown dispatch or candidate, a dispatch that cannot be matched, or a
// failing iree-compile.
WrittenSpec write_tuning_spec(const IreeTools& tools, const CompiledModel& model, const std::vector<SpecChoice>& choices,
                              const std::filesystem::path& spec_path, const std::filesystem::path& out_dir);

nlohmann::json to_json(const WrittenSpec& spec);

}  // namespace ktune::iree
