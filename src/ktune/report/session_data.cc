#include "ktune/report/session_data.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace ktune::report {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

void collect(const nlohmann::json& value, const std::string& name, Ceilings& out) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) collect(child, name.empty() ? key : name + "." + key, out);
    return;
  }
  if (!value.is_number()) return;
  const double v = value.get<double>();
  if (!(v > 0) || !std::isfinite(v)) return;
  const std::string key = lower(name);
  const bool per_second = contains(key, "per_s") || key.ends_with("/s");
  if (contains(key, "flop")) {
    double gflops = v;
    if (contains(key, "tflop")) gflops = v * 1000;
    else if (contains(key, "gflop")) gflops = v;
    else if (per_second) gflops = v / 1e9;
    out.compute_gflops.emplace_back(name, gflops);
  } else if (contains(key, "bandwidth") || contains(key, "gbps") || contains(key, "gb_s") || contains(key, "tbps") ||
             contains(key, "bytes_per_s")) {
    double gbps = v;
    if (contains(key, "tbps") || contains(key, "tb_s")) gbps = v * 1000;
    else if (contains(key, "bytes_per_s")) gbps = v / 1e9;
    // The fastest measured memory path is the roof.
    if (!out.memory_gbps || gbps > *out.memory_gbps) out.memory_gbps = gbps;
  }
}

struct FinalizeStatement {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using StatementPtr = std::unique_ptr<sqlite3_stmt, FinalizeStatement>;

StatementPtr prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    sqlite3_finalize(raw);
    return nullptr;
  }
  return StatementPtr(raw);
}

std::string quote_identifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The newest row of `table` for the device, as {column: value}; text columns holding JSON
// objects are parsed so that nested ceilings are found.
std::optional<nlohmann::json> newest_row_for_device(sqlite3* db, const std::string& table, const db::DeviceRecord& device) {
  std::vector<std::string> columns;
  if (auto info = prepare(db, "PRAGMA table_info(" + quote_identifier(table) + ")")) {
    while (sqlite3_step(info.get()) == SQLITE_ROW)
      columns.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(info.get(), 1)));
  }
  std::string where;
  const bool by_id = std::find(columns.begin(), columns.end(), "device_id") != columns.end();
  const bool by_fingerprint = std::find(columns.begin(), columns.end(), "device_fingerprint") != columns.end() ||
                              std::find(columns.begin(), columns.end(), "fingerprint") != columns.end();
  if (by_id) where = "device_id = ?1";
  else if (by_fingerprint)
    where = std::find(columns.begin(), columns.end(), "device_fingerprint") != columns.end() ? "device_fingerprint = ?1"
                                                                                               : "fingerprint = ?1";
  else return std::nullopt;  // cannot tell which device a row belongs to
  auto row = prepare(db, "SELECT * FROM " + quote_identifier(table) + " WHERE " + where + " ORDER BY rowid DESC LIMIT 1");
  if (!row) return std::nullopt;
  if (by_id) sqlite3_bind_int64(row.get(), 1, device.id);
  else sqlite3_bind_text(row.get(), 1, device.fingerprint.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(row.get()) != SQLITE_ROW) return std::nullopt;
  nlohmann::json out = nlohmann::json::object();
  for (int c = 0; c < sqlite3_column_count(row.get()); ++c) {
    const std::string name = sqlite3_column_name(row.get(), c);
    switch (sqlite3_column_type(row.get(), c)) {
      case SQLITE_INTEGER: out[name] = sqlite3_column_int64(row.get(), c); break;
      case SQLITE_FLOAT: out[name] = sqlite3_column_double(row.get(), c); break;
      case SQLITE_TEXT: {
        const std::string text = reinterpret_cast<const char*>(sqlite3_column_text(row.get(), c));
        auto parsed = nlohmann::json::parse(text, nullptr, false);
        out[name] = parsed.is_object() ? parsed : nlohmann::json(text);
        break;
      }
      default: break;
    }
  }
  // Identity columns are not ceilings even when their names look like one.
  for (const char* skip : {"id", "device_id", "rowid"}) out.erase(skip);
  return out;
}

}  // namespace

Ceilings ceilings_from_json(const nlohmann::json& fields, const std::string& source) {
  Ceilings out;
  out.source = source;
  collect(fields, "", out);
  return out;
}

std::optional<Ceilings> find_ceilings(db::Database& database, const db::DeviceRecord& device) {
  for (const char* key : {"ceilings", "calibration"}) {
    if (device.properties.is_object() && device.properties.contains(key)) {
      Ceilings c = ceilings_from_json(device.properties.at(key), std::string("device properties: ") + key);
      if (!c.empty()) return c;
    }
  }
  sqlite3* db = database.connection().handle();
  std::vector<std::string> tables;
  if (auto list = prepare(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
    while (sqlite3_step(list.get()) == SQLITE_ROW) {
      const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(list.get(), 0));
      const std::string l = lower(name);
      if (contains(l, "calibrat") || contains(l, "ceiling")) tables.push_back(name);
    }
  }
  for (const auto& table : tables) {
    if (auto row = newest_row_for_device(db, table, device)) {
      Ceilings c = ceilings_from_json(*row, "table " + table);
      if (!c.empty()) return c;
    }
  }
  return std::nullopt;
}

SessionData load_session_data(db::Database& database, std::int64_t session_id) {
  SessionData data;
  auto session = database.session(session_id);
  if (!session)
    throw std::runtime_error("no session " + std::to_string(session_id) + " in " + database.path().string() +
                             " (ktune sessions lists them)");
  data.session = *session;
  auto device = database.device(session->device_id);
  auto kernel = database.kernel(session->kernel_id);
  auto problem = database.problem(session->problem_id);
  if (!device || !kernel || !problem)
    throw std::runtime_error("session " + std::to_string(session_id) + " refers to a missing device, kernel or problem");
  data.device = *device;
  data.kernel = *kernel;
  data.problem = *problem;
  db::ResultQuery q;
  q.session_id = session_id;
  q.order = db::ResultOrder::Oldest;
  data.results = database.query(q);
  data.ceilings = find_ceilings(database, data.device);
  return data;
}

}  // namespace ktune::report
