#pragma once
// The tuning database: devices, kernels, problems, sessions and one row per evaluated
// configuration, in one SQLite file in WAL mode. Each result is committed as soon as it is
// inserted, so killing the process loses nothing already reported, and a rerun of the same
// tuning resumes from results_for(). See README.md for the schema and durability notes.
//
// A Database is one connection: use one per thread. Several processes may share a file;
// writers wait for each other up to the busy timeout.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/db/records.h"
#include "ktune/db/sqlite.h"
#include "ktune/db/status.h"

namespace ktune::db {

struct OpenOptions {
  // false: a missing file is an error instead of a new empty database (for read-only commands).
  bool create_if_missing = true;
  // How long a statement waits for another connection's write lock before failing.
  std::chrono::milliseconds busy_timeout{30000};
};

enum class ResultOrder {
  Oldest,   // insertion order
  Newest,   // most recent first
  Fastest,  // by median time; rows without a median last
};

// Filters for Database::query. Unset fields do not filter.
struct ResultQuery {
  std::optional<std::int64_t> session_id;
  std::optional<std::int64_t> device_id, kernel_id, problem_id;
  std::optional<std::string> device_fingerprint;  // exact match
  std::optional<std::string> kernel_name;         // exact match
  std::optional<std::string> problem_name;        // exact match
  std::optional<Status> status;
  // Keep only the fastest Ok row per (device, kernel, problem), judged like Database::best
  // but among the rows the other filters keep.
  bool only_best_per_problem = false;
  ResultOrder order = ResultOrder::Oldest;
  std::size_t limit = 0;  // 0: no limit
};

class Database {
 public:
  using ResultQuery = db::ResultQuery;

  // $KTUNE_DB if set, else $XDG_DATA_HOME/ktune/ktune.db (when absolute), else
  // ~/.local/share/ktune/ktune.db. Does not touch the file system.
  static std::filesystem::path default_path();

  // Opens (creating the file and its parent directories when allowed), switches to WAL and
  // migrates the schema. Throws std::runtime_error naming the path when the file is not a
  // ktune database, is from a newer ktune, is missing (create_if_missing=false) or cannot be
  // created. ":memory:" opens a private in-memory database (tests).
  explicit Database(const std::filesystem::path& path, const OpenOptions& options = {});

  const std::filesystem::path& path() const { return path_; }
  int schema_version();
  std::string journal_mode();
  // "ok", or SQLite's list of problems.
  std::string integrity_check();

  // Insert, or update the descriptive fields of the row with the same identity; returns its id.
  std::int64_t upsert_device(const DeviceRecord& device);
  std::int64_t upsert_kernel(const KernelRecord& kernel);
  std::int64_t upsert_problem(const ProblemRecord& problem);

  std::optional<DeviceRecord> device(std::int64_t id);
  std::optional<DeviceRecord> device_by_fingerprint(std::string_view fingerprint);
  std::optional<KernelRecord> kernel(std::int64_t id);
  std::optional<ProblemRecord> problem(std::int64_t id);
  std::vector<DeviceRecord> devices();
  std::vector<KernelRecord> kernels();
  std::vector<ProblemRecord> problems();

  // Records this process (host, pid) as running a tuning session; returns the session id.
  std::int64_t begin_session(std::int64_t device_id, std::int64_t kernel_id, std::int64_t problem_id,
                             std::string_view strategy,
                             const nlohmann::json& options = nlohmann::json::object());
  // state: "finished", "interrupted" or "failed". Throws std::invalid_argument for another
  // state or an unknown session id.
  void finish_session(std::int64_t id, std::string_view state);
  std::optional<SessionRecord> session(std::int64_t id);
  // Newest first; limit 0 means all.
  std::vector<SessionRecord> sessions(std::size_t limit = 0);
  // Marks "running" sessions of this host whose process no longer exists (killed, crashed)
  // as "interrupted"; returns how many. Sessions of other hosts are left alone.
  int mark_abandoned_sessions();

  // Inserts and commits in its own transaction before returning. Throws std::invalid_argument
  // for a missing id or non-finite compile time, and SqliteError when a referenced row is
  // missing or the database stays locked past the busy timeout.
  std::int64_t insert_result(const ResultRecord& result);
  // Replaces a result's timing statistics, resources and phases with a later, longer
  // measurement of the same candidate (the tuner's confirmation of its finalists).
  void update_measurement(const ResultRecord& result);
  // Stores compute-sanitizer's findings for a result; a candidate it caught gets `new_status`
  // (memory_error) and `error` (when not empty). Results are otherwise never updated.
  void record_sanitizer(std::int64_t result_id, const nlohmann::json& findings, std::optional<Status> new_status,
                        const std::string& error);
  std::optional<ResultRecord> result(std::int64_t id);

  // The latest result for each config of (device, kernel, problem), ordered by id: what a
  // resumed tuning does not need to measure again. Which statuses count as "done" (retry
  // timeouts?) is the caller's policy.
  std::vector<ResultRecord> results_for(std::int64_t device_id, std::int64_t kernel_id, std::int64_t problem_id);
  // Fastest Ok result by median among the latest result of each config (a re-measured
  // config is judged by its newest measurement). Ties go to the earlier row.
  std::optional<ResultRecord> best(std::int64_t device_id, std::int64_t kernel_id, std::int64_t problem_id);
  std::vector<ResultRecord> query(const ResultQuery& query);

  // The underlying connection, for tests and one-off maintenance.
  Connection& connection() { return connection_; }

 private:
  std::filesystem::path path_;
  Connection connection_;
};

}  // namespace ktune::db
