// ktune import --tunableop FILE: reads a PyTorch TunableOp results file into ktune's GEMM problems
// and cuBLASLt configs (families/gemm/tunableop_csv.h).
//
// What it does, honestly: it prints each line's problem, the `ktune tune gemm` command that
// tunes it, and its solution as ktune's cuBLASLt config where the file names one; lines it cannot
// map are listed with the reason, malformed lines as file:line: errors. With --record the
// entries are also stored, as results of a device "tunableop:<CUDA_DEVICE>" and a kernel
// "tunableop <PT_VERSION>" of their own: PyTorch's timings are kept next to ktune's but never
// stand in for a measurement of ktune's (resume, `ktune best` and the runtime API of a real
// device do not see them). `ktune tune gemm` measures every problem afresh; its candidate list
// starts with cuBLASLt's heuristic answers, where PyTorch's CUDA candidates come from too.

#include <cstdio>

#include "ktune/cli/common.h"
#include "ktune/db/database.h"
#include "ktune/families/gemm/tunableop_csv.h"

namespace ktune::cli {
namespace {

struct ImportArgs {
  std::string tunableop;
  bool record = false;
};

void print_mapped(const gemm::tunableop::Mapped& m) {
  const std::string time = m.entry.time_ms ? std::to_string(*m.entry.time_ms) + " ms" : "no time";
  std::printf("line %d: %s  [%s, %s]\n", m.entry.line, m.problem->name().c_str(), m.entry.solution.c_str(), time.c_str());
  std::printf("  %s\n", gemm::tunableop::tune_command(*m.problem).c_str());
  if (m.config) std::printf("  cublaslt config: %s\n", config_key(*m.config).c_str());
  for (const std::string& note : m.notes) std::printf("  note: %s\n", note.c_str());
}

void print_report(const gemm::tunableop::ImportResult& r) {
  for (const auto& [key, value] : r.file.validators) std::printf("Validator %s = %s\n", key.c_str(), value.c_str());
  for (const auto& m : r.mapped) print_mapped(m);
  for (const auto& m : r.unmapped)
    std::printf("line %d: not mapped (%s,%s,%s): %s\n", m.entry.line, m.entry.op_signature.c_str(),
                m.entry.params_signature.c_str(), m.entry.solution.c_str(), m.reason.c_str());
  for (const std::string& e : r.file.errors) std::fprintf(stderr, "%s\n", e.c_str());
  std::printf("%zu line(s) mapped, %zu not mapped, %zu malformed", r.mapped.size(), r.unmapped.size(), r.file.errors.size());
  if (r.recorded > 0) std::printf(", %d recorded", r.recorded);
  std::printf("\n");
}

int run_import(const ImportArgs& args, const GlobalOptions& global) {
  gemm::tunableop::ImportResult result = gemm::tunableop::import_file(gemm::tunableop::read_csv(args.tunableop));
  if (args.record) {
    db::Database database(database_path(global));
    result.recorded = gemm::tunableop::record_entries(database, result);
  }
  if (global.json) print_json(result.to_json());
  else print_report(result);
  // Malformed lines are bad input (exit 3); lines that are well-formed but not ktune's are not.
  return result.file.errors.empty() ? kExitOk : kExitBadInput;
}

}  // namespace

void add_import_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand("import", "Import tuning results of other tools (PyTorch TunableOp)");
  cmd->add_option("--tunableop", args->tunableop,
                  "A PyTorch TunableOp results CSV: prints each GEMM as a ktune problem with the `ktune tune gemm` command "
                  "and its cuBLASLt config")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_flag("--record", args->record,
                "Also store the entries (PyTorch's times) under the device 'tunableop:<CUDA_DEVICE>' and kernel "
                "'tunableop <PT_VERSION>', apart from ktune's own measurements");
  cmd->callback([&global, &handler, args] { handler = [&global, args]() -> int { return run_import(*args, global); }; });
}

}  // namespace ktune::cli
