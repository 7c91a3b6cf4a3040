#include "ktune/db/export.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <set>
#include <sstream>

#include "ktune/core/config.h"

namespace ktune::db {

namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  if (!value) return nullptr;
  return *value;
}

// Shortest text that reads back as the same double.
std::string format_double(double value) {
  std::array<char, 64> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (error != std::errc()) return {};
  return std::string(buffer.data(), end);
}

std::string optional_ms(const std::optional<double>& seconds) {
  if (!seconds) return {};
  return format_double(*seconds * 1e3);
}

std::string optional_text(const std::optional<double>& value) { return value ? format_double(*value) : std::string(); }

// Config values as written in a config key (64, 0.5, 2.0, true, row); anything that is not a
// scalar, which ktune itself never stores, as JSON.
std::string config_cell(const nlohmann::json& value) {
  try {
    return value_from_json(value).to_string();
  } catch (const std::invalid_argument&) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

const std::vector<std::string> kLeadingColumns = {"id", "session_id", "device", "kernel", "problem"};
const std::vector<std::string> kTrailingColumns = {
    "status", "median_ms", "mean_ms", "min_ms", "max_ms", "q1_ms", "q3_ms", "stdev_ms", "samples", "stop_reason",
    "raced", "gflops", "gbps", "compile_s", "compile_cache_hit", "created_at", "error"};

// Looks up and caches the names that CSV rows and "best" entries show.
class NameCache {
 public:
  explicit NameCache(Database& db) : db_(db) {}
  const DeviceRecord& device(std::int64_t id) { return lookup(devices_, id, [&] { return db_.device(id); }); }
  const KernelRecord& kernel(std::int64_t id) { return lookup(kernels_, id, [&] { return db_.kernel(id); }); }
  const ProblemRecord& problem(std::int64_t id) { return lookup(problems_, id, [&] { return db_.problem(id); }); }
  const std::map<std::int64_t, DeviceRecord>& devices() const { return devices_; }
  const std::map<std::int64_t, KernelRecord>& kernels() const { return kernels_; }
  const std::map<std::int64_t, ProblemRecord>& problems() const { return problems_; }

 private:
  template <typename Record, typename Load>
  const Record& lookup(std::map<std::int64_t, Record>& cache, std::int64_t id, Load load) {
    auto found = cache.find(id);
    if (found != cache.end()) return found->second;
    std::optional<Record> record = load();
    if (!record) {
      // Foreign keys make this unreachable unless the file was edited by hand.
      record.emplace();
      record->id = id;
    }
    return cache.emplace(id, std::move(*record)).first->second;
  }
  Database& db_;
  std::map<std::int64_t, DeviceRecord> devices_;
  std::map<std::int64_t, KernelRecord> kernels_;
  std::map<std::int64_t, ProblemRecord> problems_;
};

}  // namespace

nlohmann::json to_json(const DeviceRecord& device) {
  return {{"id", device.id},
          {"fingerprint", device.fingerprint},
          {"backend", device.backend},
          {"name", device.name},
          {"properties", device.properties}};
}

nlohmann::json to_json(const KernelRecord& kernel) {
  return {{"id", kernel.id},
          {"hash", kernel.hash},
          {"name", kernel.name},
          {"language", kernel.language},
          {"source_path", kernel.source_path}};
}

nlohmann::json to_json(const ProblemRecord& problem) {
  return {{"id", problem.id}, {"hash", problem.hash}, {"name", problem.name}, {"sizes", problem.sizes},
          {"spec", problem.spec}};
}

nlohmann::json to_json(const SessionRecord& session) {
  return {{"id", session.id},
          {"device_id", session.device_id},
          {"kernel_id", session.kernel_id},
          {"problem_id", session.problem_id},
          {"strategy", session.strategy},
          {"options", session.options},
          {"started_at", session.started_at},
          {"finished_at", session.finished_at.empty() ? nlohmann::json(nullptr) : nlohmann::json(session.finished_at)},
          {"state", session.state},
          {"host", session.host},
          {"pid", session.pid}};
}

nlohmann::json to_json(const ResultRecord& r) {
  return {{"id", r.id},
          {"session_id", r.session_id == 0 ? nlohmann::json(nullptr) : nlohmann::json(r.session_id)},
          {"device_id", r.device_id},
          {"kernel_id", r.kernel_id},
          {"problem_id", r.problem_id},
          {"config_key", r.config_key},
          {"config", r.config},
          {"status", std::string(to_string(r.status))},
          {"median_s", optional_number(r.median_s)},
          {"mean_s", optional_number(r.mean_s)},
          {"min_s", optional_number(r.min_s)},
          {"max_s", optional_number(r.max_s)},
          {"q1_s", optional_number(r.q1_s)},
          {"q3_s", optional_number(r.q3_s)},
          {"stdev_s", optional_number(r.stdev_s)},
          {"samples", r.samples},
          {"stop_reason", r.stop_reason},
          {"raced", r.raced},
          {"gflops", optional_number(r.gflops)},
          {"gbps", optional_number(r.gbps)},
          {"compile_seconds", r.compile_seconds},
          {"compile_cache_hit", r.compile_cache_hit},
          {"resources", r.resources},
          {"verification", r.verification},
          {"error", r.error},
          {"created_at", r.created_at},
          {"started_at_unix", r.started_at_unix},
          {"finished_at_unix", r.finished_at_unix}};
}

nlohmann::json export_json(Database& db, const ResultQuery& query) {
  std::vector<ResultRecord> results = db.query(query);
  ResultQuery best_query = query;
  best_query.only_best_per_problem = true;
  best_query.limit = 0;
  std::vector<ResultRecord> best = db.query(best_query);

  NameCache names(db);
  nlohmann::json best_json = nlohmann::json::array();
  for (const ResultRecord& r : best) {
    best_json.push_back({{"device_id", r.device_id},
                         {"device", names.device(r.device_id).fingerprint},
                         {"kernel_id", r.kernel_id},
                         {"kernel", names.kernel(r.kernel_id).name},
                         {"problem_id", r.problem_id},
                         {"problem", names.problem(r.problem_id).name},
                         {"result_id", r.id},
                         {"config_key", r.config_key},
                         {"config", r.config},
                         {"median_s", optional_number(r.median_s)}});
  }
  nlohmann::json results_json = nlohmann::json::array();
  for (const ResultRecord& r : results) {
    names.device(r.device_id);
    names.kernel(r.kernel_id);
    names.problem(r.problem_id);
    results_json.push_back(to_json(r));
  }

  nlohmann::json document = {{"format", "ktune-results"}, {"version", 1}};
  nlohmann::json& devices = document["devices"] = nlohmann::json::array();
  for (const auto& [id, device] : names.devices()) devices.push_back(to_json(device));
  nlohmann::json& kernels = document["kernels"] = nlohmann::json::array();
  for (const auto& [id, kernel] : names.kernels()) kernels.push_back(to_json(kernel));
  nlohmann::json& problems = document["problems"] = nlohmann::json::array();
  for (const auto& [id, problem] : names.problems()) problems.push_back(to_json(problem));
  document["best"] = std::move(best_json);
  document["results"] = std::move(results_json);
  return document;
}

std::string csv_field(std::string_view text) {
  bool needs_quotes = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                      (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!needs_quotes) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

void export_csv(Database& db, std::ostream& out, const ResultQuery& query) {
  std::vector<ResultRecord> results = db.query(query);

  std::set<std::string> parameter_names;
  for (const ResultRecord& r : results) {
    if (!r.config.is_object()) continue;
    for (const auto& [name, value] : r.config.items()) parameter_names.insert(name);
  }
  auto is_fixed_column = [](const std::string& name) {
    return std::find(kLeadingColumns.begin(), kLeadingColumns.end(), name) != kLeadingColumns.end() ||
           std::find(kTrailingColumns.begin(), kTrailingColumns.end(), name) != kTrailingColumns.end();
  };

  auto write_row = [&out](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out << ',';
      out << csv_field(cells[i]);
    }
    out << '\n';
  };

  std::vector<std::string> header = kLeadingColumns;
  for (const std::string& name : parameter_names) {
    // "config." names cannot collide with a fixed column, whose names have no dot.
    header.push_back(is_fixed_column(name) ? "config." + name : name);
  }
  header.insert(header.end(), kTrailingColumns.begin(), kTrailingColumns.end());
  write_row(header);

  NameCache names(db);
  for (const ResultRecord& r : results) {
    std::vector<std::string> cells = {
        std::to_string(r.id), r.session_id == 0 ? std::string() : std::to_string(r.session_id),
        names.device(r.device_id).name, names.kernel(r.kernel_id).name, names.problem(r.problem_id).name};
    for (const std::string& name : parameter_names) {
      bool present = r.config.is_object() && r.config.contains(name);
      cells.push_back(present ? config_cell(r.config.at(name)) : std::string());
    }
    std::vector<std::string> trailing = {std::string(to_string(r.status)),
                                         optional_ms(r.median_s),
                                         optional_ms(r.mean_s),
                                         optional_ms(r.min_s),
                                         optional_ms(r.max_s),
                                         optional_ms(r.q1_s),
                                         optional_ms(r.q3_s),
                                         optional_ms(r.stdev_s),
                                         std::to_string(r.samples),
                                         r.stop_reason,
                                         r.raced ? "true" : "false",
                                         optional_text(r.gflops),
                                         optional_text(r.gbps),
                                         format_double(r.compile_seconds),
                                         r.compile_cache_hit ? "true" : "false",
                                         r.created_at,
                                         r.error};
    cells.insert(cells.end(), trailing.begin(), trailing.end());
    write_row(cells);
  }
}

std::string export_csv(Database& db, const ResultQuery& query) {
  std::ostringstream out;
  export_csv(db, out, query);
  return out.str();
}

}  // namespace ktune::db
