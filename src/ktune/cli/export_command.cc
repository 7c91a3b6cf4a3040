// ktune export: results and best configurations as JSON or CSV, one session as a Chrome/Perfetto trace,
// or the GEMM picks as a PyTorch TunableOp results file (families/gemm/tunableop_csv.h) or as the
// JSON the in-process executor runs (families/gemm/gemm_picks.h, include/ktune/ktune_gemm.h).

#include <cstdio>
#include <fstream>
#include <iostream>

#include "ktune/cli/common.h"
#include "ktune/db/database.h"
#include "ktune/db/export.h"
#include "ktune/families/gemm/gemm_picks.h"
#include "ktune/families/gemm/tunableop_csv.h"
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
  std::string tunableop;         // non-empty: write the GEMM picks as a TunableOp file instead
  std::string gemm_picks;        // non-empty: write the GEMM picks as executor JSON instead
  std::string pt_version, validators_from, device;
  std::vector<std::string> validators;  // KEY=VALUE
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

gemm::tunableop::ExportOptions tunableop_options(const ExportArgs& args) {
  gemm::tunableop::ExportOptions options;
  if (!args.validators_from.empty()) {
    const gemm::tunableop::CsvFile theirs = gemm::tunableop::read_csv(args.validators_from);
    if (theirs.validators.empty())
      throw CLI::ValidationError("--validators-from", args.validators_from + " has no Validator lines");
    options.validators = theirs.validators;
  }
  if (!args.pt_version.empty()) options.overrides["PT_VERSION"] = args.pt_version;
  for (const std::string& item : args.validators) {
    const std::size_t eq = item.find('=');
    if (eq == 0 || eq == std::string::npos) throw CLI::ValidationError("--validator", "expected KEY=VALUE, got '" + item + "'");
    options.overrides[item.substr(0, eq)] = item.substr(eq + 1);
  }
  options.device = args.device;
  return options;
}

int export_tunableop(const ExportArgs& args, const GlobalOptions& global) {
  db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
  gemm::tunableop::ExportResult result;
  try {
    result = gemm::tunableop::export_picks(database, tunableop_options(args));
  } catch (const gemm::tunableop::ExportError& e) {
    throw CLI::ValidationError("--tunableop", e.what());
  }
  GlobalOptions quiet = global;
  quiet.json = true;  // the summary below says where it went
  const bool to_file = write_output(args.tunableop, result.text(), quiet);
  if (global.json) {
    nlohmann::json j = result.to_json();
    j["output"] = to_file ? args.tunableop : "-";
    print_json(j);
    return kExitOk;
  }
  std::FILE* out = to_file ? stdout : stderr;
  std::fprintf(out, "%s: %zu TunableOp line(s) for %s, %zu pick(s) skipped\n", to_file ? args.tunableop.c_str() : "stdout",
               result.entries.size(), result.device.c_str(), result.skipped.size());
  for (const auto& p : result.replaced)
    std::fprintf(out, "  %s: ktune's pick is its generated kernel (TunableOp cannot run it); written: the fastest cuBLASLt configuration measured\n",
                 p.c_str());
  for (const auto& s : result.skipped) std::fprintf(out, "  skipped %s: %s\n", s.problem.c_str(), s.reason.c_str());
  return kExitOk;
}

int export_gemm_picks(const ExportArgs& args, const GlobalOptions& global) {
  db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
  const nlohmann::json picks = gemm::export_gemm_picks(database);
  GlobalOptions quiet = global;
  quiet.json = true;  // the summary below says where it went
  const bool to_file = write_output(args.gemm_picks, picks.dump(1) + "\n", quiet);
  if (!to_file) return kExitOk;  // standard output holds the picks themselves
  if (global.json) {
    print_json({{"output", args.gemm_picks}, {"picks", picks.at("picks").size()}, {"skipped", picks.at("skipped")}});
    return kExitOk;
  }
  std::printf("%s: %zu GEMM pick(s), %zu skipped\n", args.gemm_picks.c_str(), picks.at("picks").size(),
              picks.at("skipped").size());
  for (const auto& s : picks.at("skipped"))
    std::printf("  skipped %s: %s\n", s.at("problem_name").get<std::string>().c_str(), s.at("reason").get<std::string>().c_str());
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
  cmd->add_option("--tunableop", args->tunableop,
                  "Write the GEMM picks as a PyTorch TunableOp results file (- for standard output): cuBLASLt picks as "
                  "Gemm_Cublaslt_id_... lines, generated kernels skipped with the reason");
  cmd->add_option("--gemm-picks", args->gemm_picks,
                  "Write the GEMM picks (cuBLASLt configurations and generated kernels, per device) as the JSON that "
                  "libktune_gemm and ktune.torch run (- for standard output)");
  cmd->add_option("--pt-version", args->pt_version, "--tunableop: Validator PT_VERSION, your torch.__version__ (required "
                                                   "unless --validators-from gives it)");
  cmd->add_option("--validators-from", args->validators_from,
                  "--tunableop: copy the Validator lines of a TunableOp file your PyTorch wrote (the keys and values it checks)");
  cmd->add_option("--validator", args->validators, "--tunableop: KEY=VALUE, a Validator line to add or replace (repeatable)");
  cmd->add_option("--device", args->device, "--tunableop: the device (fingerprint or name) when picks span several");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      const bool tunableop_only = !args->pt_version.empty() || !args->validators_from.empty() || !args->validators.empty() ||
                                  !args->device.empty();
      if (tunableop_only && args->tunableop.empty())
        throw CLI::ValidationError("--tunableop", "--pt-version, --validators-from, --validator and --device need --tunableop FILE");
      if (!args->gemm_picks.empty()) {
        if (tunableop_only || !args->tunableop.empty() || !args->perfetto_session.empty() || !args->kernel.empty() ||
            !args->problem.empty() || args->session > 0 || args->best_only || args->format != "json" || !args->output.empty())
          throw CLI::ValidationError("--gemm-picks", "writes every GEMM pick to FILE; no other export option applies");
        return export_gemm_picks(*args, global);
      }
      if (!args->tunableop.empty()) {
        if (!args->perfetto_session.empty() || !args->kernel.empty() || !args->problem.empty() || args->session > 0 ||
            args->best_only || args->format != "json" || !args->output.empty())
          throw CLI::ValidationError("--tunableop", "writes the GEMM picks to FILE; --perfetto, --format, -o, --kernel, "
                                                    "--problem, --session and --best-only do not apply");
        return export_tunableop(*args, global);
      }
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
