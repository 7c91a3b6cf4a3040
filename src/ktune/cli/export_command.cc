// ktune export: results and best configurations as JSON or CSV.

#include <fstream>
#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/db/database.h"
#include "ktune/db/export.h"

namespace ktune::cli {
namespace {

struct ExportArgs {
  std::string format = "json";
  std::string output;
  std::string kernel;
  std::string problem;
  std::int64_t session = 0;
  bool best_only = false;
};

}  // namespace

void add_export_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand("export", "Export results and best configurations (JSON or CSV)");
  cmd->add_option("--format", args->format, "json (devices, kernels, problems, best, results) or csv (one row per result)")
      ->check(CLI::IsMember({"json", "csv"}));
  cmd->add_option("-o,--output", args->output, "Write to this file instead of standard output");
  cmd->add_option("--kernel", args->kernel, "Only this kernel");
  cmd->add_option("--problem", args->problem, "Only this problem");
  cmd->add_option("--session", args->session, "Only this session");
  cmd->add_flag("--best-only", args->best_only, "Only the best result per device, kernel and problem");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
      db::ResultQuery q;
      if (!args->kernel.empty()) q.kernel_name = args->kernel;
      if (!args->problem.empty()) q.problem_name = args->problem;
      if (args->session > 0) q.session_id = args->session;
      if (args->best_only) {
        q.only_best_per_problem = true;
        q.status = db::Status::Ok;
      }
      std::string text = args->format == "csv" ? db::export_csv(database, q) : db::export_json(database, q).dump(2) + "\n";
      if (args->output.empty()) {
        std::cout << text;
      } else {
        std::ofstream out(args->output, std::ios::binary);
        out << text;
        if (!out) throw std::runtime_error("cannot write " + args->output);
        if (!global.json) std::cerr << "wrote " << args->output << "\n";
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
