#pragma once
// A thin RAII layer over the sqlite3 C API: one connection, prepared statements and
// transactions. Every failure throws SqliteError with SQLite's own message, so callers
// never check return codes and a statement or transaction is never leaked on an exception.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace ktune::db {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  // The extended SQLite result code (SQLITE_BUSY, SQLITE_NOTADB, SQLITE_CONSTRAINT_UNIQUE, ...).
  int code() const { return code_; }

 private:
  int code_;
};

class Connection {
 public:
  // flags are SQLITE_OPEN_* bits; SQLITE_OPEN_NOMUTEX is not added, so the sqlite library's
  // own locking stays in place.
  Connection(const std::string& path, int flags);
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* handle() const { return db_; }
  // Runs SQL text that returns no rows (may hold several statements).
  void execute(std::string_view sql);
  std::int64_t last_insert_rowid() const;
  // Rows changed by the most recent INSERT/UPDATE/DELETE.
  std::int64_t changes() const;
  void set_busy_timeout(int milliseconds);

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  Statement(Connection& connection, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameter indices start at 1, as in SQLite. Named per type so that a string literal can
  // never silently bind as a bool.
  Statement& bind_int(int index, std::int64_t value);
  Statement& bind_double(int index, double value);
  // nullopt and NaN are stored as NULL.
  Statement& bind_optional_double(int index, std::optional<double> value);
  Statement& bind_text(int index, std::string_view value);
  Statement& bind_null(int index);

  // Advances to the next row; false once the statement is done.
  bool step();
  // Steps through a statement that returns no rows (or ignores them).
  void run();
  void reset();

  bool column_is_null(int column) const;
  std::int64_t column_int(int column) const;
  double column_double(int column) const;
  std::optional<double> column_optional_double(int column) const;
  std::optional<std::int64_t> column_optional_int(int column) const;
  std::string column_text(int column) const;

 private:
  [[noreturn]] void fail(int code, std::string_view what) const;
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

// BEGIN on construction, ROLLBACK in the destructor unless commit() ran. Immediate takes the
// write lock up front, which lets the busy timeout apply instead of failing a later upgrade
// from read to write with SQLITE_BUSY.
class Transaction {
 public:
  enum class Kind { Deferred, Immediate };
  explicit Transaction(Connection& connection, Kind kind = Kind::Immediate);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

}  // namespace ktune::db
