#pragma once
// Pieces shared by the ktune subcommands: exit codes, options every command takes, output.

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/db/records.h"
#include "ktune/tuner/tuner.h"

namespace ktune::db {
class Database;
}

namespace ktune::cli {

// Exit codes (documented in README and `ktune --help`).
enum ExitCode : int {
  kExitOk = 0,
  kExitError = 1,           // a failure while working (I/O, database, compiler missing, ...)
  kExitUsage = 2,           // bad command line
  kExitBadInput = 3,        // a spec file (or other input) is invalid: file:line:col: message
  kExitUnavailable = 4,     // the backend the spec needs is not available here
  kExitNoValidConfig = 5,   // finished, but no configuration ran correctly
  kExitInterrupted = 130,   // SIGINT/SIGTERM: results so far are committed; re-run resumes
};

struct GlobalOptions {
  std::string db;  // empty: default path
  bool json = false;
};

// "M=1024" pairs from --size/--set; throws CLI::ValidationError on malformed text.
Config parse_assignments(const std::vector<std::string>& items, const std::string& option);
std::filesystem::path database_path(const GlobalOptions& global);
// The path of the running ktune binary, for starting workers.
std::filesystem::path self_executable();

void print_json(const nlohmann::json& j);
nlohmann::json result_to_json(const db::ResultRecord& r);
std::string format_seconds(double s);
nlohmann::json summary_to_json(const tuner::TuneSummary& s);
void print_summary(const tuner::TuneSummary& s);

using Handler = std::function<int()>;
void add_tune_command(CLI::App& app, GlobalOptions& global, Handler& handler);
void add_space_command(CLI::App& app, GlobalOptions& global, Handler& handler);
void add_bench_command(CLI::App& app, GlobalOptions& global, Handler& handler);
void add_query_commands(CLI::App& app, GlobalOptions& global, Handler& handler);  // best, results, sessions
void add_export_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // also --perfetto SESSION
void add_import_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // --tunableop FILE
void add_report_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // HTML report of a session
// A SESSION argument: a positive id, or "latest"/"last" for the newest session.
std::int64_t resolve_session_id(db::Database& database, const std::string& text);
void add_devices_command(CLI::App& app, GlobalOptions& global, Handler& handler);
void add_model_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // model dispatches (IREE)
void add_calibrate_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // calibrate_command.cc
void add_inspect_command(CLI::App& app, GlobalOptions& global, Handler& handler);  // inspect_command.cc
void add_asm_command(CLI::App& app, GlobalOptions& global, Handler& handler);      // asm dump/reassemble/diff
void add_worker_command(CLI::App& app, Handler& handler);
// `tune gemm ...` (needs add_tune_command first) and the hidden `gemm-worker` (gemm_command.cc).
void add_gemm_commands(CLI::App& app, GlobalOptions& global, Handler& handler);

}  // namespace ktune::cli
