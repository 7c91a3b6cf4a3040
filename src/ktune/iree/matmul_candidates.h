#pragma once
// Candidate configurations of a matmul-like dispatch for IREE's TileAndFuse GPU pipeline, in
// IREE's own knobs: workgroup / reduction / subgroup tiles of the root op's lowering_config,
// mma_kind from the target's intrinsics, the workgroup size it implies, and
// prefetch_num_stages. Constrained so that IREE rarely refuses one (tiles divide the problem,
// the workgroup fits the target, the promoted operands fit shared memory, the accumulators fit
// registers), ranked by a small model, with IREE's own choice as candidate 0.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/iree/configured_dispatch.h"

namespace ktune::iree {

// "NV_MMA_SYNC_F32_16x8x16_F16" -> accumulator F32, 16x8x16, inputs F16. nullopt for names
// that are not one intrinsic of three sizes (the blocked "4x4x4x16B" forms, for instance).
struct MmaIntrinsic {
  std::string name, accumulator, input;  // "F32", "F16" / "BF16" / "F8E4M3FNUZ" ...
  int m = 0, n = 0, k = 0;
  // The name before the accumulator type: "NV_MMA_SYNC", "NV_WMMA", "MFMA", "WMMAR3".
  std::string family() const { return name.substr(0, name.find("_" + accumulator + "_")); }
};
std::optional<MmaIntrinsic> parse_mma_intrinsic(const std::string& name);

struct MatmulKnobs {
  std::string mma_kind;
  int subgroup_m = 1, subgroup_n = 1;   // MMA tiles per subgroup (IREE's `subgroup` tile)
  int subgroups_m = 1, subgroups_n = 1; // subgroups per workgroup along M and N
  int reduction = 1;                    // MMA k-steps per reduction tile (IREE's `reduction`)
  int prefetch_stages = 2;

  // Derived, given the intrinsic and the subgroup size.
  std::int64_t workgroup_m(const MmaIntrinsic& i) const { return std::int64_t{subgroups_m} * subgroup_m * i.m; }
  std::int64_t workgroup_n(const MmaIntrinsic& i) const { return std::int64_t{subgroups_n} * subgroup_n * i.n; }
  int threads(int subgroup_size) const { return subgroups_m * subgroups_n * subgroup_size; }
  std::string key() const;  // "mma=..,sg=4x4,wg=2x2,r=2,p=2": the candidate's identity
  nlohmann::json to_json() const;
  bool operator==(const MatmulKnobs&) const = default;
};

struct MatmulCandidate {
  MatmulKnobs knobs;
  bool is_default = false;  // IREE's own configuration
  double score = 0;         // the model's estimate, relative (higher is better)
  std::vector<std::int64_t> workgroup, reduction, subgroup;  // the lowering_config tiles, one per loop of the root op
  std::int64_t workgroup_size = 0;
  nlohmann::json to_json() const;
};

struct CandidateSpaceSummary {
  std::size_t enumerated = 0, kept = 0;
  std::map<std::string, std::size_t> rejected;  // reason -> count
  double seconds = 0;
  std::string unsupported;  // why this dispatch has no candidates (empty when it has)
  nlohmann::json to_json() const;
};

struct CandidateOptions {
  std::size_t max_candidates = 32;  // including the default
  int multiprocessors = 0;          // 0: from the arch (sm_80 108, sm_90 132, gfx942 304, ...)
};

// Multiprocessors (SMs, CUs) of a target arch for the models' wave counts; 100 when unknown.
int multiprocessors_of(const std::string& arch);

// IREE's configuration as knobs, when the root op is a contraction (batch loops allowed: they
// keep IREE's tiles) IREE configured with an MMA intrinsic (TileAndFuse); nullopt otherwise.
std::optional<MatmulKnobs> default_knobs(const ConfiguredDispatch& dispatch);

// The candidates, default first, then by score. Empty with summary.unsupported set when the
// dispatch is not a matmul configured with an MMA intrinsic.
std::vector<MatmulCandidate> matmul_candidates(const ConfiguredDispatch& dispatch, const CandidateOptions& options,
                                               CandidateSpaceSummary* summary = nullptr);

}  // namespace ktune::iree
