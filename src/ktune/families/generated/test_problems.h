#pragma once
// A GemmProblem for the generated family's unit tests: M x N x K, the input type (the output is
// its default), the storage layout ("nn", "nt", "tn", "tt") and the batch.

#include <cstdint>

#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_knobs.h"

namespace ktune::generated::testing_support {

inline gemm::GemmProblem make_problem(std::int64_t m, std::int64_t n, std::int64_t k,
                                      gemm::Precision precision = gemm::Precision::BF16, const char* layout = "nn",
                                      std::int64_t batch = 1) {
  gemm::GemmProblem problem;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.batch = batch;
  problem.precision = precision;
  problem.out = gemm::default_output(precision);
  gemm::set_layout(problem, layout);
  return problem;
}

// A wgmma knob setting: tile M x N x K, consumer warpgroups, stages; the rest as GeneratedKnobs has it.
inline GeneratedKnobs wgmma_knobs(int tile_m, int tile_n, int tile_k, int subgroup_m = 1, int subgroup_n = 1,
                                  int stages = 4) {
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = tile_m;
  k.tile_n = tile_n;
  k.tile_k = tile_k;
  k.subgroup_m = subgroup_m;
  k.subgroup_n = subgroup_n;
  k.stages = stages;
  return k;
}

// An mma.sync knob setting: tile M x N x K, warps down and across, stages.
inline GeneratedKnobs mma_sync_knobs(int tile_m, int tile_n, int tile_k, int subgroup_m, int subgroup_n, int stages) {
  GeneratedKnobs k = wgmma_knobs(tile_m, tile_n, tile_k, subgroup_m, subgroup_n, stages);
  k.path = KernelPath::MmaSync;
  return k;
}

}  // namespace ktune::generated::testing_support
