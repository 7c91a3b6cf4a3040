#include "ktune/db/database.h"

#include <sqlite3.h>
#include <unistd.h>

#include <pwd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>

#include "ktune/db/schema.h"

namespace ktune::db {

namespace {

constexpr std::string_view kNow = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

// Column order shared by every SELECT of results and by read_result().
constexpr std::string_view kResultColumns =
    "r.id, r.session_id, r.device_id, r.kernel_id, r.problem_id, r.config_key, r.config, r.status, "
    "r.median_s, r.mean_s, r.min_s, r.max_s, r.q1_s, r.q3_s, r.stdev_s, r.samples, r.stop_reason, "
    "r.raced, r.gflops, r.gbps, r.compile_seconds, r.compile_cache_hit, r.resources, r.verification, "
    "r.error, r.created_at, r.started_at_unix, r.finished_at_unix, r.phases, r.sanitizer";

std::string dump_json(const nlohmann::json& value) {
  // Compiler logs and device strings may hold invalid UTF-8; replace rather than throw.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_json(const std::string& text, std::string_view table, std::string_view column, std::int64_t id) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("malformed JSON in " + std::string(table) + "." + std::string(column) + " of row " +
                             std::to_string(id) + ": " + e.what());
  }
}

std::string sql(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (std::string_view part : parts) text += part;
  return text;
}

// Steps an INSERT ... RETURNING id to completion, so that an autocommit statement commits.
std::int64_t returned_id(Statement& statement) {
  if (!statement.step()) throw std::logic_error("INSERT ... RETURNING produced no row");
  std::int64_t id = statement.column_int(0);
  statement.run();
  return id;
}

void require_id(std::int64_t id, std::string_view what) {
  if (id <= 0) throw std::invalid_argument(std::string(what) + " must be a positive row id, got " + std::to_string(id));
}

void require_finite(double value, std::string_view what) {
  if (!std::isfinite(value)) throw std::invalid_argument(std::string(what) + " must be finite");
}

std::string this_host() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

std::string with_path(const std::filesystem::path& path, const std::string& message) {
  return "cannot open tuning database '" + path.string() + "': " + message;
}

Connection open_connection(const std::filesystem::path& path, const OpenOptions& options) {
  bool in_memory = path == ":memory:";
  if (!in_memory) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) throw std::runtime_error(with_path(path, "it is a directory"));
    if (!options.create_if_missing && !std::filesystem::exists(path, error)) {
      throw std::runtime_error(with_path(path, "no such file"));
    }
    std::filesystem::path parent = path.parent_path();
    if (options.create_if_missing && !parent.empty()) {
      std::filesystem::create_directories(parent, error);
      if (error) {
        throw std::runtime_error(with_path(path, "cannot create directory '" + parent.string() + "': " + error.message()));
      }
    }
  }
  int flags = SQLITE_OPEN_READWRITE | (options.create_if_missing ? SQLITE_OPEN_CREATE : 0);
  try {
    Connection connection(path.string(), flags);
    auto timeout_ms = std::min<std::chrono::milliseconds::rep>(options.busy_timeout.count(), INT_MAX);
    connection.set_busy_timeout(static_cast<int>(std::max<std::chrono::milliseconds::rep>(timeout_ms, 0)));
    return connection;
  } catch (const SqliteError& e) {
    throw SqliteError(e.code(), with_path(path, e.what()));
  }
}

ResultRecord read_result(const Statement& s) {
  ResultRecord r;
  r.id = s.column_int(0);
  r.session_id = s.column_optional_int(1).value_or(0);
  r.device_id = s.column_int(2);
  r.kernel_id = s.column_int(3);
  r.problem_id = s.column_int(4);
  r.config_key = s.column_text(5);
  r.config = parse_json(s.column_text(6), "results", "config", r.id);
  std::string status = s.column_text(7);
  auto parsed = status_from_string(status);
  if (!parsed) throw std::runtime_error("unknown status '" + status + "' in result " + std::to_string(r.id));
  r.status = *parsed;
  r.median_s = s.column_optional_double(8);
  r.mean_s = s.column_optional_double(9);
  r.min_s = s.column_optional_double(10);
  r.max_s = s.column_optional_double(11);
  r.q1_s = s.column_optional_double(12);
  r.q3_s = s.column_optional_double(13);
  r.stdev_s = s.column_optional_double(14);
  r.samples = s.column_int(15);
  r.stop_reason = s.column_text(16);
  r.raced = s.column_int(17) != 0;
  r.gflops = s.column_optional_double(18);
  r.gbps = s.column_optional_double(19);
  r.compile_seconds = s.column_double(20);
  r.compile_cache_hit = s.column_int(21) != 0;
  r.resources = parse_json(s.column_text(22), "results", "resources", r.id);
  r.verification = parse_json(s.column_text(23), "results", "verification", r.id);
  r.error = s.column_text(24);
  r.created_at = s.column_text(25);
  r.started_at_unix = s.column_double(26);
  r.finished_at_unix = s.column_double(27);
  r.phases = parse_json(s.column_text(28), "results", "phases", r.id);
  r.sanitizer = parse_json(s.column_text(29), "results", "sanitizer", r.id);
  return r;
}

std::vector<ResultRecord> read_results(Statement& statement) {
  std::vector<ResultRecord> results;
  while (statement.step()) results.push_back(read_result(statement));
  return results;
}

constexpr std::string_view kDeviceColumns = "id, fingerprint, backend, name, properties";

DeviceRecord read_device(const Statement& s) {
  DeviceRecord d;
  d.id = s.column_int(0);
  d.fingerprint = s.column_text(1);
  d.backend = s.column_text(2);
  d.name = s.column_text(3);
  d.properties = parse_json(s.column_text(4), "devices", "properties", d.id);
  return d;
}

constexpr std::string_view kKernelColumns = "id, hash, name, language, source_path";

KernelRecord read_kernel(const Statement& s) {
  KernelRecord k;
  k.id = s.column_int(0);
  k.hash = s.column_text(1);
  k.name = s.column_text(2);
  k.language = s.column_text(3);
  k.source_path = s.column_text(4);
  return k;
}

constexpr std::string_view kProblemColumns = "id, hash, name, sizes, spec";

ProblemRecord read_problem(const Statement& s) {
  ProblemRecord p;
  p.id = s.column_int(0);
  p.hash = s.column_text(1);
  p.name = s.column_text(2);
  p.sizes = parse_json(s.column_text(3), "problems", "sizes", p.id);
  p.spec = parse_json(s.column_text(4), "problems", "spec", p.id);
  return p;
}

constexpr std::string_view kSessionColumns =
    "id, device_id, kernel_id, problem_id, strategy, options, started_at, finished_at, state, host, pid";

SessionRecord read_session(const Statement& s) {
  SessionRecord session;
  session.id = s.column_int(0);
  session.device_id = s.column_int(1);
  session.kernel_id = s.column_int(2);
  session.problem_id = s.column_int(3);
  session.strategy = s.column_text(4);
  session.options = parse_json(s.column_text(5), "sessions", "options", session.id);
  session.started_at = s.column_text(6);
  session.finished_at = s.column_text(7);
  session.state = s.column_text(8);
  session.host = s.column_text(9);
  session.pid = s.column_int(10);
  return session;
}

template <typename Record, typename Reader>
std::optional<Record> select_one(Connection& connection, std::string_view columns, std::string_view table,
                                 std::string_view key_column, const std::variant<std::int64_t, std::string_view>& key,
                                 Reader reader) {
  Statement statement(connection, sql({"SELECT ", columns, " FROM ", table, " WHERE ", key_column, " = ?1"}));
  if (std::holds_alternative<std::int64_t>(key)) {
    statement.bind_int(1, std::get<std::int64_t>(key));
  } else {
    statement.bind_text(1, std::get<std::string_view>(key));
  }
  if (!statement.step()) return std::nullopt;
  return reader(statement);
}

template <typename Record, typename Reader>
std::vector<Record> select_all(Connection& connection, std::string_view columns, std::string_view table, Reader reader) {
  Statement statement(connection, sql({"SELECT ", columns, " FROM ", table, " ORDER BY id"}));
  std::vector<Record> records;
  while (statement.step()) records.push_back(reader(statement));
  return records;
}

}  // namespace

std::filesystem::path Database::default_path() {
  if (const char* explicit_path = std::getenv("KTUNE_DB"); explicit_path != nullptr && *explicit_path != '\0') {
    return explicit_path;
  }
  // The XDG spec says relative values are invalid and must be ignored.
  if (const char* data_home = std::getenv("XDG_DATA_HOME"); data_home != nullptr && *data_home != '\0') {
    std::filesystem::path base(data_home);
    if (base.is_absolute()) return base / "ktune" / "ktune.db";
  }
  std::filesystem::path home;
  if (const char* home_env = std::getenv("HOME"); home_env != nullptr && *home_env != '\0') {
    home = home_env;
  } else {
    passwd entry{};
    passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr &&
        found->pw_dir != nullptr) {
      home = found->pw_dir;
    }
  }
  if (home.empty()) {
    throw std::runtime_error("cannot find a home directory for the default tuning database; set KTUNE_DB or pass --db");
  }
  return home / ".local" / "share" / "ktune" / "ktune.db";
}

namespace {

// WAL: readers never block the writer and a commit is one append to the log. With WAL,
// synchronous=NORMAL skips the fsync per commit but never corrupts the file; a commit is durable
// against killing the process (the OS has the bytes), and only a power loss or kernel crash can
// drop the last few commits. That trade keeps per-result commits cheap.
// Switching the mode takes an exclusive lock, and SQLite can answer SQLITE_BUSY there without
// calling the busy handler (another process creating the same database at that moment: seen as
// "database is locked" in runtime_test's two-process test on a loaded machine). So a file
// already in WAL mode is left alone, and the switch is retried until the busy timeout.
void use_wal(Connection& connection, std::chrono::milliseconds busy_timeout) {
  const auto deadline = std::chrono::steady_clock::now() + busy_timeout;
  for (;;) {
    try {
      bool already = false;
      {
        // Finalized before the switch: an unfinished statement holds a read transaction.
        Statement current(connection, "PRAGMA journal_mode");
        already = current.step() && current.column_text(0) == "wal";
      }
      if (already) return;
      Statement wal(connection, "PRAGMA journal_mode = WAL");
      wal.run();
      return;
    } catch (const SqliteError& e) {
      const int primary = e.code() & 0xff;
      if ((primary != SQLITE_BUSY && primary != SQLITE_LOCKED) || std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

Database::Database(const std::filesystem::path& path, const OpenOptions& options)
    : path_(path), connection_(open_connection(path, options)) {
  try {
    use_wal(connection_, options.busy_timeout);
    connection_.execute("PRAGMA synchronous = NORMAL");
    connection_.execute("PRAGMA foreign_keys = ON");
    migrate(connection_);
  } catch (const SqliteError& e) {
    throw SqliteError(e.code(), with_path(path_, e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(with_path(path_, e.what()));
  }
}

int Database::schema_version() {
  Statement statement(connection_, "PRAGMA user_version");
  return statement.step() ? static_cast<int>(statement.column_int(0)) : 0;
}

std::string Database::journal_mode() {
  Statement statement(connection_, "PRAGMA journal_mode");
  return statement.step() ? statement.column_text(0) : std::string();
}

std::string Database::integrity_check() {
  Statement statement(connection_, "PRAGMA integrity_check");
  std::string report;
  while (statement.step()) {
    if (!report.empty()) report += '\n';
    report += statement.column_text(0);
  }
  return report;
}

std::int64_t Database::upsert_device(const DeviceRecord& device) {
  if (device.fingerprint.empty()) throw std::invalid_argument("upsert_device: empty fingerprint");
  Statement statement(connection_,
                      "INSERT INTO devices (fingerprint, backend, name, properties) VALUES (?1, ?2, ?3, ?4)\n"
                      "ON CONFLICT (fingerprint) DO UPDATE SET backend = excluded.backend, name = excluded.name,"
                      " properties = excluded.properties RETURNING id");
  statement.bind_text(1, device.fingerprint)
      .bind_text(2, device.backend)
      .bind_text(3, device.name)
      .bind_text(4, dump_json(device.properties));
  return returned_id(statement);
}

std::int64_t Database::upsert_kernel(const KernelRecord& kernel) {
  if (kernel.hash.empty()) throw std::invalid_argument("upsert_kernel: empty hash");
  Statement statement(connection_,
                      "INSERT INTO kernels (hash, name, language, source_path) VALUES (?1, ?2, ?3, ?4)\n"
                      "ON CONFLICT (hash, name) DO UPDATE SET language = excluded.language,"
                      " source_path = excluded.source_path RETURNING id");
  statement.bind_text(1, kernel.hash).bind_text(2, kernel.name).bind_text(3, kernel.language).bind_text(4, kernel.source_path);
  return returned_id(statement);
}

std::int64_t Database::upsert_problem(const ProblemRecord& problem) {
  if (problem.hash.empty()) throw std::invalid_argument("upsert_problem: empty hash");
  Statement statement(connection_,
                      "INSERT INTO problems (hash, name, sizes, spec) VALUES (?1, ?2, ?3, ?4)\n"
                      "ON CONFLICT (hash) DO UPDATE SET name = excluded.name, sizes = excluded.sizes,"
                      " spec = excluded.spec RETURNING id");
  statement.bind_text(1, problem.hash)
      .bind_text(2, problem.name)
      .bind_text(3, dump_json(problem.sizes))
      .bind_text(4, dump_json(problem.spec));
  return returned_id(statement);
}

std::optional<DeviceRecord> Database::device(std::int64_t id) {
  return select_one<DeviceRecord>(connection_, kDeviceColumns, "devices", "id", id, read_device);
}

std::optional<DeviceRecord> Database::device_by_fingerprint(std::string_view fingerprint) {
  return select_one<DeviceRecord>(connection_, kDeviceColumns, "devices", "fingerprint", fingerprint, read_device);
}

std::optional<KernelRecord> Database::kernel(std::int64_t id) {
  return select_one<KernelRecord>(connection_, kKernelColumns, "kernels", "id", id, read_kernel);
}

std::optional<ProblemRecord> Database::problem(std::int64_t id) {
  return select_one<ProblemRecord>(connection_, kProblemColumns, "problems", "id", id, read_problem);
}

std::vector<DeviceRecord> Database::devices() {
  return select_all<DeviceRecord>(connection_, kDeviceColumns, "devices", read_device);
}

std::vector<KernelRecord> Database::kernels() {
  return select_all<KernelRecord>(connection_, kKernelColumns, "kernels", read_kernel);
}

std::vector<ProblemRecord> Database::problems() {
  return select_all<ProblemRecord>(connection_, kProblemColumns, "problems", read_problem);
}

std::int64_t Database::begin_session(std::int64_t device_id, std::int64_t kernel_id, std::int64_t problem_id,
                                     std::string_view strategy, const nlohmann::json& options) {
  require_id(device_id, "begin_session: device_id");
  require_id(kernel_id, "begin_session: kernel_id");
  require_id(problem_id, "begin_session: problem_id");
  Statement statement(connection_,
                      sql({"INSERT INTO sessions (device_id, kernel_id, problem_id, strategy, options, started_at,"
                           " state, host, pid) VALUES (?1, ?2, ?3, ?4, ?5, ",
                           kNow, ", 'running', ?6, ?7) RETURNING id"}));
  statement.bind_int(1, device_id)
      .bind_int(2, kernel_id)
      .bind_int(3, problem_id)
      .bind_text(4, strategy)
      .bind_text(5, dump_json(options))
      .bind_text(6, this_host())
      .bind_int(7, getpid());
  return returned_id(statement);
}

void Database::finish_session(std::int64_t id, std::string_view state) {
  if (state != kSessionFinished && state != kSessionInterrupted && state != kSessionFailed) {
    throw std::invalid_argument("finish_session: state must be finished, interrupted or failed, got '" +
                                std::string(state) + "'");
  }
  Statement statement(connection_, sql({"UPDATE sessions SET state = ?1, finished_at = ", kNow, " WHERE id = ?2"}));
  statement.bind_text(1, state).bind_int(2, id);
  statement.run();
  if (connection_.changes() == 0) throw std::invalid_argument("finish_session: no session with id " + std::to_string(id));
}

std::optional<SessionRecord> Database::session(std::int64_t id) {
  return select_one<SessionRecord>(connection_, kSessionColumns, "sessions", "id", id, read_session);
}

std::vector<SessionRecord> Database::sessions(std::size_t limit) {
  Statement statement(connection_, sql({"SELECT ", kSessionColumns, " FROM sessions ORDER BY id DESC LIMIT ?1"}));
  // LIMIT -1 is SQLite's "no limit".
  statement.bind_int(1, limit == 0 ? -1 : static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
  std::vector<SessionRecord> records;
  while (statement.step()) records.push_back(read_session(statement));
  return records;
}

int Database::mark_abandoned_sessions() {
  Transaction transaction(connection_);
  std::vector<std::int64_t> abandoned;
  {
    Statement running(connection_, "SELECT id, pid FROM sessions WHERE state = 'running' AND host = ?1");
    running.bind_text(1, this_host());
    while (running.step()) {
      auto pid = static_cast<pid_t>(running.column_int(1));
      // EPERM means the process exists under another user: still alive.
      if (pid != getpid() && (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))) {
        abandoned.push_back(running.column_int(0));
      }
    }
  }
  Statement mark(connection_, sql({"UPDATE sessions SET state = 'interrupted', finished_at = ", kNow, " WHERE id = ?1"}));
  for (std::int64_t id : abandoned) {
    mark.bind_int(1, id);
    mark.run();
    mark.reset();
  }
  transaction.commit();
  return static_cast<int>(abandoned.size());
}

std::int64_t Database::insert_result(const ResultRecord& r) {
  require_id(r.device_id, "insert_result: device_id");
  require_id(r.kernel_id, "insert_result: kernel_id");
  require_id(r.problem_id, "insert_result: problem_id");
  if (r.session_id < 0) throw std::invalid_argument("insert_result: session_id must be 0 (none) or a row id");
  require_finite(r.compile_seconds, "insert_result: compile_seconds");
  require_finite(r.started_at_unix, "insert_result: started_at_unix");
  require_finite(r.finished_at_unix, "insert_result: finished_at_unix");
  if (!status_from_string(to_string(r.status))) throw std::invalid_argument("insert_result: invalid status");

  // A single statement in autocommit mode is its own transaction: when this returns, the
  // row is in the WAL and survives the process being killed.
  Statement statement(
      connection_,
      sql({"INSERT INTO results (session_id, device_id, kernel_id, problem_id, config_key, config, status, median_s,"
           " mean_s, min_s, max_s, q1_s, q3_s, stdev_s, samples, stop_reason, raced, gflops, gbps, compile_seconds,"
           " compile_cache_hit, resources, verification, error, created_at, started_at_unix, finished_at_unix, phases)"
           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,"
           " ?22, ?23, ?24, COALESCE(NULLIF(?25, ''), ",
           kNow, "), ?26, ?27, ?28) RETURNING id"}));
  if (r.session_id == 0) {
    statement.bind_null(1);
  } else {
    statement.bind_int(1, r.session_id);
  }
  statement.bind_int(2, r.device_id)
      .bind_int(3, r.kernel_id)
      .bind_int(4, r.problem_id)
      .bind_text(5, r.config_key)
      .bind_text(6, dump_json(r.config))
      .bind_text(7, to_string(r.status))
      .bind_optional_double(8, r.median_s)
      .bind_optional_double(9, r.mean_s)
      .bind_optional_double(10, r.min_s)
      .bind_optional_double(11, r.max_s)
      .bind_optional_double(12, r.q1_s)
      .bind_optional_double(13, r.q3_s)
      .bind_optional_double(14, r.stdev_s)
      .bind_int(15, r.samples)
      .bind_text(16, r.stop_reason)
      .bind_int(17, r.raced ? 1 : 0)
      .bind_optional_double(18, r.gflops)
      .bind_optional_double(19, r.gbps)
      .bind_double(20, r.compile_seconds)
      .bind_int(21, r.compile_cache_hit ? 1 : 0)
      .bind_text(22, dump_json(r.resources))
      .bind_text(23, dump_json(r.verification))
      .bind_text(24, r.error)
      .bind_text(25, r.created_at)
      .bind_double(26, r.started_at_unix)
      .bind_double(27, r.finished_at_unix)
      .bind_text(28, dump_json(r.phases));
  try {
    return returned_id(statement);
  } catch (const SqliteError& e) {
    if (e.code() == SQLITE_CONSTRAINT_FOREIGNKEY) {
      throw SqliteError(e.code(), "insert_result: session, device, kernel or problem id does not exist (" +
                                      std::string(e.what()) + ")");
    }
    throw;
  }
}

std::optional<ResultRecord> Database::result(std::int64_t id) {
  Statement statement(connection_, sql({"SELECT ", kResultColumns, " FROM results r WHERE r.id = ?1"}));
  statement.bind_int(1, id);
  if (!statement.step()) return std::nullopt;
  return read_result(statement);
}

std::vector<ResultRecord> Database::results_for(std::int64_t device_id, std::int64_t kernel_id,
                                                std::int64_t problem_id) {
  // SQLite returns the whole row of the MAX(id) in each group; the index on
  // (device, kernel, problem, config_key, id) makes this a single index walk.
  Statement statement(connection_,
                      sql({"SELECT ", kResultColumns,
                           " FROM results r WHERE r.id IN (SELECT MAX(id) FROM results"
                           " WHERE device_id = ?1 AND kernel_id = ?2 AND problem_id = ?3 GROUP BY config_key)"
                           " ORDER BY r.id"}));
  statement.bind_int(1, device_id).bind_int(2, kernel_id).bind_int(3, problem_id);
  return read_results(statement);
}

std::optional<ResultRecord> Database::best(std::int64_t device_id, std::int64_t kernel_id, std::int64_t problem_id) {
  ResultQuery q;
  q.device_id = device_id;
  q.kernel_id = kernel_id;
  q.problem_id = problem_id;
  q.only_best_per_problem = true;
  q.limit = 1;
  auto rows = query(q);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<ResultRecord> Database::query(const ResultQuery& q) {
  using Parameter = std::variant<std::int64_t, std::string>;
  std::vector<Parameter> parameters;
  std::string where = "1";
  auto add = [&](std::string_view condition, Parameter value) {
    parameters.push_back(std::move(value));
    where += sql({" AND ", condition, " = ?", std::to_string(parameters.size())});
  };
  if (q.session_id) add("r.session_id", *q.session_id);
  if (q.device_id) add("r.device_id", *q.device_id);
  if (q.kernel_id) add("r.kernel_id", *q.kernel_id);
  if (q.problem_id) add("r.problem_id", *q.problem_id);
  if (q.device_fingerprint) add("d.fingerprint", *q.device_fingerprint);
  if (q.kernel_name) add("k.name", *q.kernel_name);
  if (q.problem_name) add("p.name", *q.problem_name);
  if (q.status) add("r.status", std::string(to_string(*q.status)));

  constexpr std::string_view kJoins =
      " JOIN devices d ON d.id = r.device_id JOIN kernels k ON k.id = r.kernel_id"
      " JOIN problems p ON p.id = r.problem_id";
  std::string text;
  if (q.only_best_per_problem) {
    text = sql({"WITH filtered AS (SELECT r.id, r.device_id, r.kernel_id, r.problem_id, r.config_key, r.status,"
                " r.median_s FROM results r",
                kJoins, " WHERE ", where,
                "),\n"
                "latest AS (SELECT MAX(id) AS id FROM filtered GROUP BY device_id, kernel_id, problem_id, config_key),\n"
                "ranked AS (SELECT f.id, ROW_NUMBER() OVER (PARTITION BY f.device_id, f.kernel_id, f.problem_id"
                " ORDER BY f.median_s, f.id) AS place FROM filtered f JOIN latest l ON l.id = f.id"
                " WHERE f.status = 'ok' AND f.median_s IS NOT NULL)\n"
                "SELECT ",
                kResultColumns, " FROM results r WHERE r.id IN (SELECT id FROM ranked WHERE place = 1)"});
  } else {
    text = sql({"SELECT ", kResultColumns, " FROM results r", kJoins, " WHERE ", where});
  }
  switch (q.order) {
    case ResultOrder::Oldest: text += " ORDER BY r.id"; break;
    case ResultOrder::Newest: text += " ORDER BY r.id DESC"; break;
    case ResultOrder::Fastest: text += " ORDER BY r.median_s IS NULL, r.median_s, r.id"; break;
  }
  text += sql({" LIMIT ?", std::to_string(parameters.size() + 1)});

  Statement statement(connection_, text);
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    int index = static_cast<int>(i + 1);
    if (const auto* number = std::get_if<std::int64_t>(&parameters[i])) {
      statement.bind_int(index, *number);
    } else {
      statement.bind_text(index, std::get<std::string>(parameters[i]));
    }
  }
  statement.bind_int(static_cast<int>(parameters.size() + 1),
                     q.limit == 0 ? -1 : static_cast<std::int64_t>(std::min<std::size_t>(q.limit, INT64_MAX)));
  return read_results(statement);
}

void Database::record_sanitizer(std::int64_t result_id, const nlohmann::json& findings,
                                std::optional<Status> new_status, const std::string& error) {
  Statement statement(connection_,
                      "UPDATE results SET sanitizer = ?1, status = COALESCE(?2, status),"
                      " error = CASE WHEN ?3 = '' THEN error ELSE ?3 END WHERE id = ?4");
  statement.bind_text(1, dump_json(findings));
  if (new_status) statement.bind_text(2, to_string(*new_status));
  else statement.bind_null(2);
  statement.bind_text(3, error).bind_int(4, result_id);
  statement.step();
  if (connection_.changes() != 1) throw std::invalid_argument("record_sanitizer: no result " + std::to_string(result_id));
}

void Database::update_measurement(const ResultRecord& r) {
  Statement statement(connection_,
                      "UPDATE results SET median_s = ?1, mean_s = ?2, min_s = ?3, max_s = ?4, q1_s = ?5, q3_s = ?6,"
                      " stdev_s = ?7, samples = ?8, stop_reason = ?9, raced = ?10, gflops = ?11, gbps = ?12,"
                      " resources = ?13, phases = ?14 WHERE id = ?15");
  statement.bind_optional_double(1, r.median_s)
      .bind_optional_double(2, r.mean_s)
      .bind_optional_double(3, r.min_s)
      .bind_optional_double(4, r.max_s)
      .bind_optional_double(5, r.q1_s)
      .bind_optional_double(6, r.q3_s)
      .bind_optional_double(7, r.stdev_s)
      .bind_int(8, r.samples)
      .bind_text(9, r.stop_reason)
      .bind_int(10, r.raced ? 1 : 0)
      .bind_optional_double(11, r.gflops)
      .bind_optional_double(12, r.gbps)
      .bind_text(13, dump_json(r.resources))
      .bind_text(14, dump_json(r.phases))
      .bind_int(15, r.id);
  statement.step();
  if (connection_.changes() != 1) throw std::invalid_argument("update_measurement: no result " + std::to_string(r.id));
}

}  // namespace ktune::db
