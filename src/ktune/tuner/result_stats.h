#pragma once
// Moving timing statistics between a Measurement and a stored result row, both ways: every
// producer of results (tuning sessions, the gemm operation) fills rows the same way.

#include <optional>

#include "ktune/db/records.h"
#include "ktune/measure/measurement.h"
#include "ktune/measure/stats.h"

namespace ktune::tuner {

// Statistics, sample count, stop reason and the raced flag.
void fill_result_stats(db::ResultRecord& r, const measure::Measurement& m);
// The statistics of an ok, measured row (nullopt otherwise), e.g. as the incumbent for racing.
std::optional<measure::Stats> result_stats(const db::ResultRecord& r);

}  // namespace ktune::tuner
