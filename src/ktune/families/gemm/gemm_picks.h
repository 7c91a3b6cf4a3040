#pragma once
// The GEMM picks of a database in the form the run-time executor reads (`ktune export
// --gemm-picks FILE`; gemm_executor.h, include/ktune/ktune_gemm.h, python/ktune/torch.py): per
// problem and device, the problem's canonical JSON and the picked configuration (a cuBLASLt
// algorithm or a ktune generated kernel), with the pick's and the baseline's median times.
//
//   {"format": "ktune-gemm-picks", "version": 1,
//    "picks": [{"problem_name", "problem": {...}, "config": {...}, "family": "cublaslt"|"generated",
//               "device": {"name", "fingerprint"}, "median_seconds", "baseline_median_seconds",
//               "speedup", "result_id"}],
//    "skipped": [{"problem_name", "reason"}]}

#include <nlohmann/json.hpp>

#include "ktune/db/database.h"

namespace ktune::gemm {

inline constexpr const char* kGemmPicksFormat = "ktune-gemm-picks";

// Every "gemm pick" record with status ok (the best per problem and device). A record whose
// problem or configuration cannot be read is listed under "skipped" with the reason.
nlohmann::json export_gemm_picks(db::Database& database);

}  // namespace ktune::gemm
