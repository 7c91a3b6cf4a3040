#pragma once
// A candidate applied to IREE: the dispatch's configured source with the root op's
// lowering_config and the translation_info rewritten to the candidate's knobs, written to a
// file that `iree-compile --iree-hal-substitute-executable-configuration=NAME=FILE` compiles in
// place of IREE's own configuration (the way that works on the CUDA target in IREE 3.13, where
// a transform-dialect tuning spec is ignored; it works on HIP as well). And the check that it
// took: the workgroup size the compiled binary declares.

#include <filesystem>
#include <optional>
#include <string>

#include "ktune/iree/configured_dispatch.h"
#include "ktune/iree/matmul_candidates.h"

namespace ktune::iree {

// The configured source `text` (of `dispatch`) with `candidate`'s knobs. Throws
// DispatchParseError when the text does not hold the attributes the dispatch was parsed with.
std::string apply_candidate(const std::string& text, const ConfiguredDispatch& dispatch, const MatmulCandidate& candidate);

// "--iree-hal-substitute-executable-configuration=NAME=FILE".
std::string substitution_flag(const std::string& executable, const std::filesystem::path& file);

// The workgroup size (x) the compiled dispatch declares in IREE's dump: `.maxntid X` in the PTX
// (CUDA) or `.reqd_workgroup_size`/`.max_flat_workgroup_size` in the AMDGPU assembly; nullopt
// when the dump has neither.
std::optional<std::int64_t> compiled_workgroup_size(const std::filesystem::path& dump_dir, const std::string& executable);

}  // namespace ktune::iree
