// ktune worker (internal): the isolated process that loads and runs candidates for a tuner.
// Spec kernels are evaluated by tuner::Evaluator; IREE candidates (op "iree_evaluate") by
// iree::IreeEvaluator, which runs IREE's tools from inside this process.

#include "ktune/cli/common.h"
#include "ktune/iree/iree_evaluation.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/worker/serve.h"

namespace ktune::cli {

void add_worker_command(CLI::App& app, Handler& handler) {
  CLI::App* cmd = app.add_subcommand("worker", "Internal: serve evaluation requests from a tuning process");
  cmd->group("");  // hidden from --help
  cmd->callback([&handler] {
    handler = []() -> int {
      tuner::Evaluator evaluator;
      iree::IreeEvaluator iree_evaluator;
      return worker::serve_from_environment([&](const nlohmann::json& request) -> nlohmann::json {
        if (request.value("op", "") == iree::kIreeEvaluateOp)
          return tuner::to_json(iree_evaluator.evaluate(iree::IreeEvaluationRequest::from_json(request)));
        return evaluator.handle(request);
      });
    };
  });
}

}  // namespace ktune::cli
