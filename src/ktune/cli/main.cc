// ktune: compile, benchmark, search, verify, record, replay.

#include <CLI/CLI.hpp>

#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/cli/simulate_commands.h"
#include "ktune/core/source_error.h"
#include "ktune/simulate/recorded_space.h"
#include "ktune/tuner/tuner.h"

namespace {

constexpr const char* kFooter = R"(Exit codes:
  0    success
  1    error while working (I/O, database, compiler missing, ...)
  2    bad command line
  3    invalid input file (printed as file:line:column: message)
  4    the backend the spec needs is not available on this machine
  5    finished, but no configuration ran correctly
  130  interrupted (SIGINT/SIGTERM); committed results are kept and a re-run resumes
Database: --db PATH, else $KTUNE_DB, else $XDG_DATA_HOME/ktune/ktune.db (~/.local/share/ktune/ktune.db).)";

}  // namespace

int main(int argc, char** argv) {
  using namespace ktune::cli;
  CLI::App app{"ktune: makes kernels fast and keeps them fast (tune, inspect, record, replay)"};
  app.footer(kFooter);
  app.require_subcommand(1);
  app.set_version_flag("--version", "ktune 0.1.0");
  GlobalOptions global;
  app.add_option("--db", global.db, "Tuning database (SQLite)")->envname("KTUNE_DB");
  app.add_flag("--json", global.json, "Machine-readable output");
  Handler handler;
  add_tune_command(app, global, handler);
  add_gemm_commands(app, global, handler);
  add_space_command(app, global, handler);
  add_bench_command(app, global, handler);
  add_query_commands(app, global, handler);
  add_export_command(app, global, handler);
  add_import_command(app, global, handler);
  add_report_command(app, global, handler);
  add_devices_command(app, global, handler);
  add_model_command(app, global, handler);
  add_calibrate_command(app, global, handler);
  add_inspect_command(app, global, handler);
  add_asm_command(app, global, handler);
  add_record_command(app, global, handler);
  add_strategies_command(app, global, handler);
  add_worker_command(app, handler);
  // Options like --json are accepted after the subcommand too.
  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    return handler ? handler() : kExitUsage;
  } catch (const CLI::ValidationError& e) {
    std::cerr << "ktune: " << e.what() << "\n";
    return kExitUsage;
  } catch (const ktune::SourceError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const ktune::simulate::RecordingError& e) {
    std::cerr << "ktune: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const ktune::tuner::TuneError& e) {
    std::cerr << "ktune: " << e.what() << "\n";
    std::string what = e.what();
    return what.find("not available") != std::string::npos ? kExitUnavailable : kExitError;
  } catch (const std::exception& e) {
    std::cerr << "ktune: " << e.what() << "\n";
    return kExitError;
  }
}
