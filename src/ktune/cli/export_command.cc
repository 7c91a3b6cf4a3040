// ktune export: results and best configurations as JSON or CSV, or one session as a Chrome/Perfetto trace.

#include <fstream>
#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/db/database.h"
#include "ktune/db/export.h"
#include "ktune/report/chrome_trace.h"
#include "ktune/report/session_data.h"

namespace ktune::cli {
namespace {

struct ExportArgs {
  std::string format = "json";
  std::string output;
  std::string kernel;
  std::string problem;
  std::int64_t session = 0;
  bool best_only = false;
  std::string perfetto_session;  // non-empty: write this session's trace instead
};

// Writes `text` to -o or standard output; returns whether it went to a file.
bool write_output(const std::string& output, const std::string& text, const GlobalOptions& global) {
  if (output.empty() || output == "-") {
    std::cout << text;
    return false;
  }
  std::ofstream out(output, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + output);
  if (!global.json) std::cerr << "wrote " << output << "\n";
  return true;
}

int export_perfetto(const ExportArgs& args, const GlobalOptions& global) {
  db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
  const std::int64_t id = resolve_session_id(database, args.perfetto_session);
  report::SessionData data = report::load_session_data(database, id);
  report::TraceSummary summary;
  const std::string text = report::chrome_trace_text(data, &summary);
  if (write_output(args.output, text, global) && global.json) {
    print_json({{"output", args.output},
                {"format", "chrome-trace"},
                {"session_id", id},
                {"results", data.results.size()},
                {"compile_spans", summary.compile_spans},
                {"measure_spans", summary.measure_spans},
                {"tracks", summary.tracks},
                {"bytes", text.size()}});
  }
  return kExitOk;
}

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
  cmd->add_option("--perfetto", args->perfetto_session,
                  "Write session SESSION (an id or 'latest') as Chrome trace JSON for ui.perfetto.dev / chrome://tracing: "
                  "compile and measure spans per device and lane");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      if (!args->perfetto_session.empty()) {
        if (!args->kernel.empty() || !args->problem.empty() || args->session > 0 || args->best_only || args->format != "json")
          throw CLI::ValidationError("--perfetto", "takes one session; --format, --kernel, --problem, --session and --best-only do not apply");
        return export_perfetto(*args, global);
      }
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
      write_output(args->output, text, global);
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
