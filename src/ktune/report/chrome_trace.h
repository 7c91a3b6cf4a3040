#pragma once
// A tuning session as a Chrome trace ("traceEvents" JSON, the format chrome://tracing and
// ui.perfetto.dev open): process = device, one track per compile slot and per measuring
// lane, a span per compile and per measurement, args carrying config and status.
//
// Result rows store when an evaluation started (compile submitted), how long the compile took
// and when the row was recorded. The measurement span is reconstructed as starting when both
// the compile was done and the lane was free (its previous measurement finished), which is
// exactly when the tuner dispatches; rows without a compile time (gemm candidates, compiled
// inside the worker) get one span for the whole evaluation.

#include <string>

#include <nlohmann/json.hpp>

#include "ktune/report/session_data.h"

namespace ktune::report {

struct TraceSummary {
  std::size_t compile_spans = 0, measure_spans = 0, tracks = 0;
};

nlohmann::json chrome_trace(const SessionData& data, TraceSummary* summary = nullptr);
// The JSON text; invalid UTF-8 from the database is replaced, never an exception.
std::string chrome_trace_text(const SessionData& data, TraceSummary* summary = nullptr);

}  // namespace ktune::report
