#include "ktune/cli/common.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "ktune/db/database.h"
#include "ktune/report/progress.h"

namespace ktune::cli {

Config parse_assignments(const std::vector<std::string>& items, const std::string& option) {
  Config out;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw CLI::ValidationError(option, "expected NAME=VALUE, got '" + item + "'");
    out[item.substr(0, eq)] = Value::parse_literal(item.substr(eq + 1));
  }
  return out;
}

std::filesystem::path database_path(const GlobalOptions& global) {
  return global.db.empty() ? db::Database::default_path() : std::filesystem::path(global.db);
}

std::filesystem::path self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the ktune executable (/proc/self/exe): " + ec.message());
  return p;
}

void print_json(const nlohmann::json& j) {
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

std::string format_seconds(double s) { return report::Progress::format_time(s); }

nlohmann::json result_to_json(const db::ResultRecord& r) {
  nlohmann::json j = {{"id", r.id},
                      {"session", r.session_id},
                      {"config", r.config},
                      {"status", db::to_string(r.status)},
                      {"samples", r.samples},
                      {"stop_reason", r.stop_reason},
                      {"raced", r.raced},
                      {"compile_seconds", r.compile_seconds},
                      {"compile_cache_hit", r.compile_cache_hit},
                      {"created_at", r.created_at}};
  auto opt = [&](const char* key, const std::optional<double>& v) {
    if (v) j[key] = *v;
  };
  opt("median_s", r.median_s);
  opt("mean_s", r.mean_s);
  opt("min_s", r.min_s);
  opt("max_s", r.max_s);
  opt("q1_s", r.q1_s);
  opt("q3_s", r.q3_s);
  opt("stdev_s", r.stdev_s);
  opt("gflops", r.gflops);
  opt("gbps", r.gbps);
  if (!r.resources.empty()) j["resources"] = r.resources;
  if (!r.verification.empty()) j["verification"] = r.verification;
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.phases.empty()) j["phases"] = r.phases;
  if (!r.sanitizer.empty()) j["sanitizer"] = r.sanitizer;
  return j;
}

}  // namespace ktune::cli
