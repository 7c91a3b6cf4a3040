#pragma once
// Exports of the tuning database for other tools: one JSON document, or CSV with one row per
// result and one column per tunable parameter.

#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ktune/db/database.h"
#include "ktune/db/records.h"

namespace ktune::db {

nlohmann::json to_json(const DeviceRecord& device);
nlohmann::json to_json(const KernelRecord& kernel);
nlohmann::json to_json(const ProblemRecord& problem);
nlohmann::json to_json(const SessionRecord& session);
// Times in seconds, absent statistics as null, status as its string name.
nlohmann::json to_json(const ResultRecord& result);

// {"format": "ktune-results", "version": 1, "devices": [...], "kernels": [...], "problems": [...],
//  "best": [per (device, kernel, problem): ids, names, result_id, config, median_s],
//  "results": [...]}. The query selects the results; "best" uses the same filters without the
// limit; devices, kernels and problems are those the results and best entries refer to.
nlohmann::json export_json(Database& db, const ResultQuery& query = {});

// Header, then one row per result selected by the query. Columns: id, session_id, device,
// kernel, problem, then one column per parameter name appearing in any selected config (sorted;
// a name that collides with a fixed column gets a "config." prefix), then status, median_ms,
// mean_ms, min_ms, max_ms, q1_ms, q3_ms, stdev_ms, samples, stop_reason, raced, gflops, gbps,
// compile_s, compile_cache_hit, created_at, error. Empty cells for absent values; lines end in
// "\n".
void export_csv(Database& db, std::ostream& out, const ResultQuery& query = {});
std::string export_csv(Database& db, const ResultQuery& query = {});

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, or begins or ends
// with a space; quotes doubled.
std::string csv_field(std::string_view text);

}  // namespace ktune::db
