#pragma once
// ktune's runtime API: what an application links to get the tuned configuration back.
//
//   ktune::TuningDatabase db;                       // $KTUNE_DB or the default per-user path
//   if (auto best = db.best("cpu_matmul", {{"M", "1024"}, {"N", "1024"}, {"K", "1024"}}))
//     tile_m = std::stoi(best->parameters.at("TILE_M"));
//
// Online tuning: ktune::Runtime answers from the database and, for a problem it has no record
// of, serves the caller's baseline while `ktune tune` runs in the background (see Runtime).
//
// Only standard types cross this boundary, so applications need none of ktune's headers.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ktune {

struct TunedConfig {
  std::map<std::string, std::string> parameters;  // name -> value as text ("64", "true", "row")
  std::map<std::string, std::string> sizes;       // the problem sizes it was tuned for
  double median_seconds = 0;
  std::optional<double> gflops, gbps;
  std::string problem;
  std::string device_name;
  std::string device_fingerprint;
  std::int64_t result_id = 0;
};

// One SQLite connection: calls on one object must not overlap (use one object per thread, or
// a mutex, as Runtime does). Objects in several threads or processes may share the file.
class TuningDatabase {
 public:
  // Opens an existing database (empty path: $KTUNE_DB, else the default per-user path).
  // Throws std::runtime_error if it does not exist or is not a ktune database.
  explicit TuningDatabase(const std::string& path = "");
  ~TuningDatabase();
  TuningDatabase(TuningDatabase&&) noexcept;
  TuningDatabase& operator=(TuningDatabase&&) noexcept;

  // Fastest verified configuration of `problem` (the spec's name). `sizes` selects the problem
  // sizes (each given size must match; omitted sizes match anything); `device_fingerprint`
  // selects a device (empty: any device). nullopt when nothing matches.
  std::optional<TunedConfig> best(const std::string& problem, const std::map<std::string, std::string>& sizes = {},
                                  const std::string& device_fingerprint = "") const;
  // Every problem's best per device, for inspection.
  std::vector<TunedConfig> all_best() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- Online tuning --------------------------------------------------------------------------
//
//   ktune::Runtime rt;  // $KTUNE_DB, online tuning when $KTUNE_ONLINE=1
//   if (auto best = rt.lookup("kernels/scale.yaml", {{"N", std::to_string(n)}}))
//     launch_tuned(best->parameters);
//   else
//     launch_baseline();  // meanwhile `ktune tune` runs for this size in the background
//
// Each (spec, sizes) key is tuned at most once per Runtime, by the `ktune` executable in a
// child process (the one tuning engine; a crashing kernel cannot take the application down),
// which commits its results to the shared database. SQLite's locking (WAL, busy timeout) lets
// any number of processes read and tune the same file.

struct RuntimeOptions {
  std::string database_path;  // empty: $KTUNE_DB, else the default per-user path
  // The CLI. Empty: $KTUNE_BIN, else `ktune` on PATH, else the installed package's bin/ktune.
  std::string ktune_path;
  double budget_seconds = 30;   // per key: `ktune tune --max-time`
  std::optional<bool> online;   // unset: true when $KTUNE_ONLINE is "1"
  int max_concurrent = 1;       // background tunings at once (they compete for the device)
  std::string device_fingerprint;        // records of this device only; empty: any device
  std::vector<std::string> tune_args;    // appended to `ktune tune` ("--strategy", "random")
  // Destructor: false waits for running tunings; true stops them (SIGTERM: the results
  // committed so far are kept, and a later tuning resumes). Queued tunings never start.
  bool terminate_on_destroy = false;
  // A key without a record re-reads the database at most this often, so misses stay cheap.
  double recheck_seconds = 1;
};

enum class TuningState { NotStarted, Queued, Tuning, Done, Failed };

struct TuningStatus {
  TuningState state = TuningState::NotStarted;
  int exit_code = -1;     // ktune's exit status once it exited (130: interrupted)
  std::string error;      // Failed: why, with the tail of ktune's stderr
  double seconds = 0;     // how long the child ran
};

// Thread-safe: any number of threads may call lookup/status/wait_idle concurrently.
class Runtime {
 public:
  explicit Runtime(RuntimeOptions options = {}) : Runtime(std::move(options), installed_ktune()) {}
  // Waits for or stops the running tunings (RuntimeOptions::terminate_on_destroy).
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // The best configuration recorded for the spec's problem at these sizes (names as in the
  // spec; omitted sizes match anything), found answers cached for the Runtime's lifetime.
  // Otherwise nullopt at once, and with online tuning a first miss queues a background tuning
  // of this key (never retried once it failed). While this Runtime tunes a key, lookups return
  // nullopt, not the partial best. `problem`: the spec's name, when the spec file's top-level
  // `name:` cannot tell it. Never throws for database trouble (see database_error()).
  std::optional<TunedConfig> lookup(const std::string& spec_path, const std::map<std::string, std::string>& sizes = {},
                                    const std::string& problem = "");
  TuningStatus status(const std::string& spec_path, const std::map<std::string, std::string>& sizes = {}) const;
  // Blocks until no tuning is queued or running, or the timeout passes; true when idle.
  bool wait_idle(double timeout_seconds);
  // The options with the defaults filled in (database path, ktune path, online).
  const RuntimeOptions& options() const;
  // The last error reading the database other than "it does not exist yet"; empty if none.
  std::string database_error() const;

 private:
  // The installed package defines KTUNE_INSTALLED_KTUNE (its bin/ktune) for its consumers;
  // evaluated here, in the application's build, because only that knows where ktune lives.
  static const char* installed_ktune() {
#ifdef KTUNE_INSTALLED_KTUNE
    return KTUNE_INSTALLED_KTUNE;
#else
    return "";
#endif
  }
  Runtime(RuntimeOptions options, const char* installed_ktune);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ktune
