#include "ktune/db/calibrations.h"

#include <sqlite3.h>

#include <cmath>
#include <stdexcept>

namespace ktune::db {

namespace {

void require_ceiling(const std::optional<double>& value, const std::string& what) {
  if (value && !(std::isfinite(*value) && *value > 0))
    throw std::invalid_argument("insert_calibration: " + what + " must be finite and positive");
}

CalibrationRecord read_row(Statement& s) {
  CalibrationRecord c;
  c.id = s.column_int(0);
  c.device_id = s.column_int(1);
  c.created_at = s.column_text(2);
  c.copy_gbps = s.column_optional_double(3);
  c.fp32_gflops = s.column_optional_double(4);
  // Rows written by this code always parse; a hand-edited row with bad JSON reads as empty.
  nlohmann::json tensor = nlohmann::json::parse(s.column_text(5), nullptr, false);
  if (tensor.is_object())
    for (const auto& [math, value] : tensor.items())
      if (value.is_number()) c.tensor_tflops[math] = value.get<double>();
  nlohmann::json method = nlohmann::json::parse(s.column_text(6), nullptr, false);
  c.method = method.is_discarded() ? nlohmann::json::object() : method;
  return c;
}

constexpr const char* kColumns = "id, device_id, created_at, copy_gbps, fp32_gflops, tensor_tflops, method";

}  // namespace

std::int64_t insert_calibration(Database& database, const CalibrationRecord& c) {
  if (c.device_id <= 0) throw std::invalid_argument("insert_calibration: device_id must be a row id");
  require_ceiling(c.copy_gbps, "copy_gbps");
  require_ceiling(c.fp32_gflops, "fp32_gflops");
  nlohmann::json tensor = nlohmann::json::object();
  for (const auto& [math, value] : c.tensor_tflops) {
    require_ceiling(value, "tensor_tflops." + math);
    tensor[math] = value;
  }
  Statement statement(database.connection(),
                      "INSERT INTO device_calibrations (device_id, created_at, copy_gbps, fp32_gflops, tensor_tflops,"
                      " method) VALUES (?1, COALESCE(NULLIF(?2, ''), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ?3, ?4,"
                      " ?5, ?6)");
  statement.bind_int(1, c.device_id)
      .bind_text(2, c.created_at)
      .bind_optional_double(3, c.copy_gbps)
      .bind_optional_double(4, c.fp32_gflops)
      .bind_text(5, tensor.dump())
      .bind_text(6, c.method.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  try {
    statement.run();
  } catch (const SqliteError& e) {
    if (e.code() == SQLITE_CONSTRAINT_FOREIGNKEY)
      throw SqliteError(e.code(), "insert_calibration: device " + std::to_string(c.device_id) + " does not exist");
    throw;
  }
  return database.connection().last_insert_rowid();
}

std::optional<CalibrationRecord> latest_calibration(Database& database, std::int64_t device_id) {
  Statement s(database.connection(), std::string("SELECT ") + kColumns +
                                         " FROM device_calibrations WHERE device_id = ?1 ORDER BY id DESC LIMIT 1");
  s.bind_int(1, device_id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

std::vector<CalibrationRecord> calibrations(Database& database, std::int64_t device_id) {
  Statement s(database.connection(),
              std::string("SELECT ") + kColumns + " FROM device_calibrations WHERE device_id = ?1 ORDER BY id DESC");
  s.bind_int(1, device_id);
  std::vector<CalibrationRecord> out;
  while (s.step()) out.push_back(read_row(s));
  return out;
}

nlohmann::json to_json(const CalibrationRecord& c) {
  nlohmann::json j = {{"id", c.id}, {"device_id", c.device_id}, {"created_at", c.created_at}};
  j["copy_gbps"] = c.copy_gbps ? nlohmann::json(*c.copy_gbps) : nlohmann::json(nullptr);
  j["fp32_gflops"] = c.fp32_gflops ? nlohmann::json(*c.fp32_gflops) : nlohmann::json(nullptr);
  j["tensor_tflops"] = nlohmann::json::object();
  for (const auto& [math, value] : c.tensor_tflops) j["tensor_tflops"][math] = value;
  j["method"] = c.method;
  return j;
}

}  // namespace ktune::db
