#include "ktune/db/sqlite.h"

#include <sqlite3.h>

#include <cmath>
#include <utility>

namespace ktune::db {

namespace {

std::string describe(sqlite3* db, int code) {
  // sqlite3_errmsg is only meaningful when the handle recorded this error.
  if (db != nullptr && sqlite3_extended_errcode(db) == code) return sqlite3_errmsg(db);
  return sqlite3_errstr(code);
}

}  // namespace

Connection::Connection(const std::string& path, int flags) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = describe(db_, rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(rc, message);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Connection::~Connection() {
  // sqlite3_close_v2 defers the close until every statement is finalized; the RAII
  // statements guarantee that anyway.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Connection::Connection(Connection&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

void Connection::execute(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    std::string message = error != nullptr ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw SqliteError(rc, message);
  }
}

std::int64_t Connection::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

std::int64_t Connection::changes() const { return sqlite3_changes64(db_); }

void Connection::set_busy_timeout(int milliseconds) { sqlite3_busy_timeout(db_, milliseconds); }

Statement::Statement(Connection& connection, std::string_view sql) : db_(connection.handle()), sql_(sql) {
  int rc = sqlite3_prepare_v2(db_, sql_.data(), static_cast<int>(sql_.size()), &stmt_, nullptr);
  if (rc != SQLITE_OK) fail(rc, "prepare");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::fail(int code, std::string_view what) const {
  std::string first_line = sql_.substr(0, sql_.find('\n'));
  throw SqliteError(code, describe(db_, code) + " (" + std::string(what) + " of `" + first_line + "`)");
}

Statement& Statement::bind_int(int index, std::int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) fail(rc, "bind");
  return *this;
}

Statement& Statement::bind_double(int index, double value) {
  int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) fail(rc, "bind");
  return *this;
}

Statement& Statement::bind_optional_double(int index, std::optional<double> value) {
  if (!value || std::isnan(*value)) return bind_null(index);
  return bind_double(index, *value);
}

Statement& Statement::bind_text(int index, std::string_view value) {
  // SQLITE_TRANSIENT: SQLite copies the bytes, so temporaries are safe to pass.
  int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc, "bind");
  return *this;
}

Statement& Statement::bind_null(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) fail(rc, "bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // Reset so that the statement does not keep a read transaction open after the error.
  sqlite3_reset(stmt_);
  fail(rc, "step");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::column_is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::int64_t Statement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }

std::optional<double> Statement::column_optional_double(int column) const {
  if (column_is_null(column)) return std::nullopt;
  return column_double(column);
}

std::optional<std::int64_t> Statement::column_optional_int(int column) const {
  if (column_is_null(column)) return std::nullopt;
  return column_int(column);
}

std::string Statement::column_text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  int size = sqlite3_column_bytes(stmt_, column);
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

Transaction::Transaction(Connection& connection, Kind kind) : connection_(connection) {
  connection_.execute(kind == Kind::Immediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::~Transaction() {
  if (!open_) return;
  try {
    connection_.execute("ROLLBACK");
  } catch (const SqliteError&) {
    // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL); nothing is left to undo.
  }
}

void Transaction::commit() {
  connection_.execute("COMMIT");
  open_ = false;
}

}  // namespace ktune::db
