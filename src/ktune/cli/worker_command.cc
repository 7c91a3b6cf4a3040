// ktune worker (internal): the isolated process that loads and runs candidates for a tuner.

#include "ktune/cli/common.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/worker/serve.h"

namespace ktune::cli {

void add_worker_command(CLI::App& app, Handler& handler) {
  CLI::App* cmd = app.add_subcommand("worker", "Internal: serve evaluation requests from a tuning process");
  cmd->group("");  // hidden from --help
  cmd->callback([&handler] {
    handler = []() -> int {
      tuner::Evaluator evaluator;
      return worker::serve_from_environment([&evaluator](const nlohmann::json& request) { return evaluator.handle(request); });
    };
  });
}

}  // namespace ktune::cli
