#pragma once
// The worker side of every IREE candidate (a dispatch configuration, a model build): IREE's own
// runtime tools run as subprocesses inside ktune's isolated worker, so a crash, hang or wrong
// answer is recorded like any candidate's.
//   verify:    iree-run-module runs the candidate's whole model on the session's random inputs;
//              each output is compared with the default build's output on the same inputs (the
//              default's outputs are computed once per worker and reused);
//   benchmark: iree-benchmark-module times either the dispatch's standalone benchmark module
//              (--batch_size dispatches per repetition; IREE reports the time per dispatch) or
//              the whole model on the inputs; each repetition is one sample.
// The reply is a tuner::EvaluationReply, so the tuning loop records it like any other.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/measure/policy.h"
#include "ktune/tuner/evaluation_job.h"
#include "ktune/verify/tolerance.h"

namespace ktune::iree {

inline constexpr const char* kIreeEvaluateOp = "iree_evaluate";

struct IreeEvaluationRequest {
  std::string run_module, benchmark_module;  // the tools' paths
  std::string device = "cuda";               // IREE's --device (e.g. "cuda", "cuda://1", "hip")
  std::string function;                      // the model's entry function
  std::vector<std::string> inputs;           // .npy files, in argument order
  std::vector<std::string> output_types;     // "f16", "f32" ... per result (tolerances)
  std::string work_dir;                      // where outputs are written
  // Verification: the candidate's model against the reference build (empty: not verified).
  std::string model_vmfb, reference_vmfb;
  // Measurement (empty vmfb: verify only).
  std::string benchmark_vmfb, benchmark_function;
  int batch_size = 0;             // > 0: a dispatch benchmark (takes the batch size argument)
  bool benchmark_with_inputs = false;  // the model's inputs (a whole-model benchmark)
  measure::Policy policy;
  double tool_timeout_seconds = 120;
  // > 0 (whole-model benchmarks): afterwards, this many runs captured with IREE's HAL profiling
  // and read with `profile_tool` (iree-profile): the reply's details["hal_profile"].
  int profile_runs = 0;
  std::string profile_tool;

  nlohmann::json to_json() const;  // with "op": kIreeEvaluateOp
  static IreeEvaluationRequest from_json(const nlohmann::json& j);
};

// Worker-side state: the reference outputs already computed (by reference vmfb + inputs).
class IreeEvaluator {
 public:
  tuner::EvaluationReply evaluate(const IreeEvaluationRequest& request);

 private:
  std::map<std::string, std::vector<std::string>> reference_outputs_;
};

// `iree-benchmark-module --benchmark_format=json` output -> seconds per repetition (real_time of
// the "iteration" runs). Throws std::runtime_error when the text holds no benchmark.
std::vector<double> parse_benchmark_json(const std::string& output);

// Tolerance for comparing a candidate's output with the default build's: both reduce in
// different orders, so f16/bf16 outputs differ by rounding; relative L2 bounds the whole.
verify::Tolerance output_tolerance(ElementType type);

}  // namespace ktune::iree
