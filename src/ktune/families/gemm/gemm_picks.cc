#include "ktune/families/gemm/gemm_picks.h"

#include <map>

#include "ktune/core/config.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/gemm/gemm_pick.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_space.h"

namespace ktune::gemm {
namespace {

std::string family_of(const nlohmann::json& config) {
  const auto it = config.find("family");
  return it != config.end() && it->is_string() ? it->get<std::string>() : "";
}

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json export_gemm_picks(db::Database& database) {
  db::ResultQuery q;
  q.kernel_name = std::string(kGemmPickKernel);
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;
  nlohmann::json picks = nlohmann::json::array(), skipped = nlohmann::json::array();
  std::map<std::int64_t, nlohmann::json> devices;
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;  // (device, problem) -> picks[i]
  for (const db::ResultRecord& row : database.query(q)) {
    const std::optional<db::ProblemRecord> record = database.problem(row.problem_id);
    const std::string name = record ? record->name : "problem #" + std::to_string(row.problem_id);
    try {
      if (!record) throw std::runtime_error("the problem record is missing");
      const GemmProblem problem = problem_from_json(record->spec);
      // A configuration the executor could not read is skipped here, with the reason, rather
      // than failing later in an application.
      const Config config = config_from_json(row.config);
      const std::string family = family_of(row.config);
      if (family == "cublaslt")
        cublaslt::algo_config_from(config);
      else if (family == "generated")
        generated::knobs_from_config(config);
      else
        throw std::runtime_error("unknown family '" + family + "'");
      if (!devices.contains(row.device_id)) {
        const std::optional<db::DeviceRecord> d = database.device(row.device_id);
        devices[row.device_id] = d ? nlohmann::json{{"name", d->name}, {"fingerprint", d->fingerprint}}
                                   : nlohmann::json{{"name", ""}, {"fingerprint", ""}};
      }
      nlohmann::json pick{{"problem_name", name},         {"problem", problem.to_json()},
                          {"config", row.config},         {"family", family},
                          {"device", devices[row.device_id]}, {"median_seconds", optional_number(row.median_s)},
                          {"result_id", row.id}};
      const nlohmann::json baseline = row.resources.value("baseline", nlohmann::json::object());
      const double baseline_median = baseline.is_object() ? baseline.value("median_s", 0.0) : 0.0;
      pick["baseline_median_seconds"] = baseline_median > 0 ? nlohmann::json(baseline_median) : nlohmann::json(nullptr);
      // The session's own verdict (1 when it kept the baseline) rather than a ratio of two
      // separate measurements of what may be the same configuration.
      const nlohmann::json verdict = row.resources.value("pick", nlohmann::json::object());
      if (verdict.is_object() && verdict.contains("speedup") && verdict.at("speedup").is_number())
        pick["speedup"] = verdict.at("speedup");
      else
        pick["speedup"] = baseline_median > 0 && row.median_s && *row.median_s > 0
                              ? nlohmann::json(baseline_median / *row.median_s)
                              : nlohmann::json(nullptr);
      // Two "gemm pick" kernel records (ktune versions) may both have a row for a problem: the
      // faster one stays.
      const std::pair<std::int64_t, std::int64_t> key{row.device_id, row.problem_id};
      if (const auto seen = index.find(key); seen != index.end()) {
        const nlohmann::json& old = picks[seen->second]["median_seconds"];
        if (!old.is_null() && (!row.median_s || old.get<double>() <= *row.median_s)) continue;
        picks[seen->second] = std::move(pick);
        continue;
      }
      index[key] = picks.size();
      picks.push_back(std::move(pick));
    } catch (const std::exception& e) {
      skipped.push_back({{"problem_name", name}, {"reason", e.what()}});
    }
  }
  return {{"format", kGemmPicksFormat}, {"version", 1}, {"picks", picks}, {"skipped", skipped}};
}

}  // namespace ktune::gemm
