#include "ktune/simulate/record_from_database.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "ktune/db/status.h"

namespace ktune::simulate {
namespace {

double number_at(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_number() ? j.at(key).get<double>() : 0.0;
}

using Identity = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // device, kernel, problem

std::vector<db::ResultRecord> select_results(db::Database& db, const RecordSelection& sel, Identity& chosen) {
  db::ResultQuery q;
  q.kernel_name = sel.kernel;
  q.problem_name = sel.problem;
  std::vector<db::ResultRecord> rows = db.query(q);
  if (sel.device) {
    std::set<std::int64_t> devices;
    for (const auto& d : db.devices()) {
      if (d.fingerprint == *sel.device || d.name == *sel.device) devices.insert(d.id);
    }
    std::erase_if(rows, [&](const db::ResultRecord& r) { return !devices.count(r.device_id); });
  }
  std::set<Identity> identities;
  for (const auto& r : rows) identities.insert({r.device_id, r.kernel_id, r.problem_id});
  if (identities.empty()) throw RecordingError("no results match the selection");
  if (identities.size() > 1) {
    std::string list;
    for (const auto& [d, k, p] : identities) {
      const auto dev = db.device(d);
      const auto ker = db.kernel(k);
      const auto pro = db.problem(p);
      list += "\n  device '" + (dev ? dev->name : "?") + "', kernel '" + (ker ? ker->name : "?") + "', problem '" +
              (pro ? pro->name : "?") + "'";
    }
    throw RecordingError("the selection matches results of " + std::to_string(identities.size()) +
                         " (device, kernel, problem); name one with --kernel, --problem, --device:" + list);
  }
  chosen = *identities.begin();
  return rows;
}

// Each parameter's values, as recorded, in ascending order (the order strategies step through).
std::vector<space::Parameter> collect_parameters(const std::vector<RecordedResult>& results) {
  std::map<std::string, std::set<Value>> values;
  for (const auto& r : results) {
    for (const auto& [name, v] : r.config) values[name].insert(v);
  }
  std::vector<space::Parameter> params;
  for (auto& [name, set] : values) params.push_back({name, std::vector<Value>(set.begin(), set.end()), 0});
  return params;
}

}  // namespace

RecordedResult recorded_result(const db::ResultRecord& r) {
  RecordedResult out;
  out.config = config_from_json(r.config);
  out.status = std::string(db::to_string(r.status));
  if (r.status == db::Status::Ok && r.median_s && *r.median_s > 0) {
    out.time_s = r.median_s;
  } else if (r.status == db::Status::Ok) {
    out.status = "runtime_error";  // an ok row without a time cannot be ranked
  }
  // The GEMM family compiles on background threads: its row says "cached" with 0 s, and the
  // NVRTC seconds the kernel took are in kernel_resources.
  out.compile_s = r.compile_seconds > 0
                      ? r.compile_seconds
                      : std::max(number_at(r.resources.value("compile", nlohmann::json::object()), "seconds"),
                                 number_at(r.resources.value("kernel_resources", nlohmann::json::object()), "nvrtc_seconds"));
  out.measure_s = number_at(r.phases, "worker_call");
  if (out.measure_s <= 0) out.measure_s = number_at(r.phases, "total");
  if (out.measure_s <= 0) out.measure_s = std::max(0.0, r.finished_at_unix - r.started_at_unix);
  return out;
}

RecordedSpace record_from_database(db::Database& db, const RecordSelection& sel) {
  Identity id;
  std::vector<db::ResultRecord> rows = select_results(db, sel, id);
  std::map<std::string, RecordedResult> latest;  // rows come oldest first: later ones replace
  for (const auto& r : rows) latest[r.config_key] = recorded_result(r);
  RecordedSpace s;
  for (auto& [key, r] : latest) s.results.push_back(std::move(r));
  const auto device = db.device(std::get<0>(id));
  const auto kernel = db.kernel(std::get<1>(id));
  const auto problem = db.problem(std::get<2>(id));
  s.device = device ? device->name : "";
  s.chip = device ? device->properties.value("target", std::string()) : "";
  s.recorded_at = rows.front().created_at;
  s.name = !sel.name.empty() ? sel.name
           : kernel && problem && kernel->name != problem->name ? kernel->name + "/" + problem->name
           : kernel ? kernel->name : "recording";
  s.source = sel.source.empty() && kernel ? kernel->source_path : sel.source;
  if (sel.parameters.empty()) {
    s.membership = RecordedSpace::Membership::Recorded;
    s.parameters = collect_parameters(s.results);
  } else {
    s.parameters = sel.parameters;
    s.constraints = sel.constraints;
    s.constants = sel.constants;
  }
  return s;
}

}  // namespace ktune::simulate
