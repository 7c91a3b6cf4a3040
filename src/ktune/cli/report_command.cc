// ktune report SESSION: one self-contained HTML page (inline SVG plots) for a tuning session.

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/cli/inspect_command.h"
#include "ktune/db/database.h"
#include "ktune/report/html_report.h"
#include "ktune/report/session_data.h"

namespace ktune::cli {

namespace {

struct ReportArgs {
  std::string session;
  std::string output = "report.html";
  bool no_inspect = false;
};

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace

std::int64_t resolve_session_id(db::Database& database, const std::string& text) {
  if (text == "latest" || text == "last") {
    auto newest = database.sessions(1);
    if (newest.empty()) throw std::runtime_error("the database " + database.path().string() + " has no sessions yet");
    return newest.front().id;
  }
  std::size_t used = 0;
  long long id = 0;
  try {
    id = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || id <= 0)
    throw CLI::ValidationError("SESSION", "expected a session id (a positive number, see `ktune sessions`) or 'latest', got '" + text + "'");
  return id;
}

void add_report_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write an HTML report (plots, roofline, winner) of a tuning session");
  cmd->add_option("session", args->session, "Session id (see `ktune sessions`), or 'latest'")->required();
  cmd->add_option("-o,--output", args->output, "HTML file to write; '-' for standard output")->capture_default_str();
  cmd->add_flag("--no-inspect", args->no_inspect,
                "Leave out the winner's inspect view (it compiles the winning configuration again for the ISA checks)");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
      const std::int64_t id = resolve_session_id(database, args->session);
      report::SessionData data = report::load_session_data(database, id);
      report::HtmlReportSummary summary;
      report::HtmlReportOptions options{.generated_at = utc_now(), .inspect_winner = {}};
      if (!args->no_inspect)
        options.inspect_winner = [&global](std::int64_t result_id) { return inspect_result_text(global, result_id); };
      const std::string html = report::render_html_report(data, options, &summary);
      if (args->output == "-") {
        std::cout << html;
      } else {
        std::ofstream out(args->output, std::ios::binary);
        out << html;
        out.close();
        if (!out) throw std::runtime_error("cannot write " + args->output);
      }
      if (global.json && args->output != "-") {
        nlohmann::json j = summary.to_json();
        j["output"] = args->output;
        j["bytes"] = html.size();
        j["session_id"] = id;
        j["kernel"] = data.kernel.name;
        j["problem"] = data.problem.name;
        j["device"] = data.device.name;
        j["state"] = data.session.state;
        print_json(j);
      } else if (args->output != "-") {
        std::cerr << "wrote " << args->output << " (session " << id << ", " << summary.results << " results, "
                  << summary.charts << " charts" << (summary.calibrated ? "" : ", roofline uncalibrated") << ")\n";
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
