#include "ktune/db/schema.h"

#include <array>
#include <string>
#include <string_view>

namespace ktune::db {

namespace {

// Migration i takes the schema from version i to i + 1. Never edit a released entry:
// databases in the field have already applied it.
constexpr std::array<std::string_view, kSchemaVersion> kMigrations{
    R"sql(
CREATE TABLE devices (
  id          INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL UNIQUE,
  backend     TEXT NOT NULL,
  name        TEXT NOT NULL,
  properties  TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE kernels (
  id          INTEGER PRIMARY KEY,
  hash        TEXT NOT NULL,
  name        TEXT NOT NULL,
  language    TEXT NOT NULL,
  source_path TEXT NOT NULL,
  UNIQUE (hash, name)
);
CREATE TABLE problems (
  id    INTEGER PRIMARY KEY,
  hash  TEXT NOT NULL UNIQUE,
  name  TEXT NOT NULL,
  sizes TEXT NOT NULL DEFAULT '{}',
  spec  TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE sessions (
  id          INTEGER PRIMARY KEY,
  device_id   INTEGER NOT NULL REFERENCES devices(id),
  kernel_id   INTEGER NOT NULL REFERENCES kernels(id),
  problem_id  INTEGER NOT NULL REFERENCES problems(id),
  strategy    TEXT NOT NULL,
  options     TEXT NOT NULL DEFAULT '{}',
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  state       TEXT NOT NULL,
  host        TEXT NOT NULL,
  pid         INTEGER NOT NULL
);
CREATE TABLE results (
  id                INTEGER PRIMARY KEY,
  session_id        INTEGER REFERENCES sessions(id),
  device_id         INTEGER NOT NULL REFERENCES devices(id),
  kernel_id         INTEGER NOT NULL REFERENCES kernels(id),
  problem_id        INTEGER NOT NULL REFERENCES problems(id),
  config_key        TEXT NOT NULL,
  config            TEXT NOT NULL,
  status            TEXT NOT NULL,
  median_s          REAL,
  mean_s            REAL,
  min_s             REAL,
  max_s             REAL,
  q1_s              REAL,
  q3_s              REAL,
  stdev_s           REAL,
  samples           INTEGER NOT NULL,
  stop_reason       TEXT NOT NULL,
  raced             INTEGER NOT NULL,
  gflops            REAL,
  gbps              REAL,
  compile_seconds   REAL NOT NULL,
  compile_cache_hit INTEGER NOT NULL,
  resources         TEXT NOT NULL,
  verification      TEXT NOT NULL,
  error             TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  started_at_unix   REAL NOT NULL,
  finished_at_unix  REAL NOT NULL
);
-- Resume and best-of lookups: all rows of one (device, kernel, problem), grouped by config.
CREATE INDEX results_by_target ON results (device_id, kernel_id, problem_id, config_key, id);
CREATE INDEX results_by_session ON results (session_id);
CREATE INDEX sessions_by_state ON sessions (state);
)sql",
    // 1 -> 2: device ceilings measured by `ktune calibrate` (calibrations.h). Rows are never
    // replaced: the newest per device is the one in use, older ones stay as history.
    R"sql(
CREATE TABLE device_calibrations (
  id            INTEGER PRIMARY KEY,
  device_id     INTEGER NOT NULL REFERENCES devices(id),
  created_at    TEXT NOT NULL,
  copy_gbps     REAL,
  fp32_gflops   REAL,
  tensor_tflops TEXT NOT NULL DEFAULT '{}',
  method        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX device_calibrations_by_device ON device_calibrations (device_id, id);
)sql",
    // 2 -> 3: where each evaluation's time went (phases), and compute-sanitizer's findings.
    R"sql(
ALTER TABLE results ADD COLUMN phases TEXT NOT NULL DEFAULT '{}';
ALTER TABLE results ADD COLUMN sanitizer TEXT NOT NULL DEFAULT '{}';
)sql",
};

int pragma_int(Connection& connection, std::string_view pragma) {
  Statement statement(connection, std::string("PRAGMA ") + std::string(pragma));
  return statement.step() ? static_cast<int>(statement.column_int(0)) : 0;
}

bool has_tables(Connection& connection) {
  Statement statement(connection, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'");
  return statement.step() && statement.column_int(0) > 0;
}

}  // namespace

void migrate(Connection& connection) {
  // Cheap read-only check first: an up-to-date database needs no write lock, so opening it
  // never waits for another process that is busy writing results.
  {
    int application_id = pragma_int(connection, "application_id");
    int version = pragma_int(connection, "user_version");
    if (application_id == kApplicationId && version == kSchemaVersion) return;
  }

  Transaction transaction(connection, Transaction::Kind::Immediate);
  int application_id = pragma_int(connection, "application_id");
  int version = pragma_int(connection, "user_version");
  if (application_id != kApplicationId) {
    if (application_id != 0 || version != 0 || has_tables(connection)) {
      throw std::runtime_error("it is an SQLite database, but not a ktune database");
    }
  }
  if (version > kSchemaVersion) {
    throw std::runtime_error("its schema version " + std::to_string(version) +
                             " is newer than this ktune supports (" + std::to_string(kSchemaVersion) +
                             "); use a newer ktune");
  }
  for (int step = version; step < kSchemaVersion; ++step) {
    connection.execute(kMigrations[static_cast<std::size_t>(step)]);
  }
  // PRAGMAs cannot take bound parameters; both values are integers under our control.
  connection.execute("PRAGMA application_id = " + std::to_string(kApplicationId));
  connection.execute("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  transaction.commit();
}

}  // namespace ktune::db
