#pragma once
// A GemmProblem for the generated family's unit tests: M x N x K, the input type (the output is
// its default), the storage layout ("nn", "nt", "tn", "tt") and the batch.

#include <cstdint>

#include "ktune/families/gemm/gemm_problem.h"

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

}  // namespace ktune::generated::testing_support
