#include "ktune/iree/iree_evaluation.h"

#include <chrono>
#include <filesystem>

#include "ktune/device/subprocess.h"
#include "ktune/iree/hal_profile.h"
#include "ktune/iree/model_signature.h"
#include "ktune/iree/npy.h"
#include "ktune/measure/stats.h"
#include "ktune/verify/compare.h"

namespace ktune::iree {
namespace fs = std::filesystem;

nlohmann::json IreeEvaluationRequest::to_json() const {
  return {{"op", kIreeEvaluateOp},
          {"run_module", run_module},
          {"benchmark_module", benchmark_module},
          {"device", device},
          {"function", function},
          {"inputs", inputs},
          {"output_types", output_types},
          {"work_dir", work_dir},
          {"model_vmfb", model_vmfb},
          {"reference_vmfb", reference_vmfb},
          {"benchmark_vmfb", benchmark_vmfb},
          {"benchmark_function", benchmark_function},
          {"batch_size", batch_size},
          {"benchmark_with_inputs", benchmark_with_inputs},
          {"policy", measure::policy_to_json(policy)},
          {"tool_timeout_seconds", tool_timeout_seconds},
          {"profile_runs", profile_runs},
          {"profile_tool", profile_tool}};
}

IreeEvaluationRequest IreeEvaluationRequest::from_json(const nlohmann::json& j) {
  IreeEvaluationRequest r;
  r.run_module = j.at("run_module").get<std::string>();
  r.benchmark_module = j.at("benchmark_module").get<std::string>();
  r.device = j.at("device").get<std::string>();
  r.function = j.at("function").get<std::string>();
  r.inputs = j.at("inputs").get<std::vector<std::string>>();
  r.output_types = j.at("output_types").get<std::vector<std::string>>();
  r.work_dir = j.at("work_dir").get<std::string>();
  r.model_vmfb = j.at("model_vmfb").get<std::string>();
  r.reference_vmfb = j.at("reference_vmfb").get<std::string>();
  r.benchmark_vmfb = j.at("benchmark_vmfb").get<std::string>();
  r.benchmark_function = j.at("benchmark_function").get<std::string>();
  r.batch_size = j.at("batch_size").get<int>();
  r.benchmark_with_inputs = j.at("benchmark_with_inputs").get<bool>();
  r.policy = measure::policy_from_json(j.at("policy"));
  r.tool_timeout_seconds = j.at("tool_timeout_seconds").get<double>();
  r.profile_runs = j.value("profile_runs", 0);
  r.profile_tool = j.value("profile_tool", "");
  return r;
}

namespace {

device::SubprocessOptions tool_options(double timeout_seconds) {
  device::SubprocessOptions o;
  o.timeout_seconds = timeout_seconds;
  return o;
}

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string tail(const std::string& text, std::size_t n = 3000) {
  return text.size() > n ? "..." + text.substr(text.size() - n) : text;
}

// iree-run-module on `vmfb`; the outputs written raw to `dir`/outN.bin (its .npy writer
// refuses bf16: "unsupported data encoding"). Returns "" or why it failed.
std::string run_model(const IreeEvaluationRequest& r, const std::string& vmfb, const fs::path& dir,
                      std::vector<std::string>& outputs) {
  fs::create_directories(dir);
  std::vector<std::string> argv = {r.run_module, "--device=" + r.device, "--module=" + vmfb, "--function=" + r.function};
  for (const auto& in : r.inputs) argv.push_back("--input=@" + in);
  outputs.clear();
  for (std::size_t i = 0; i < r.output_types.size(); ++i) {
    outputs.push_back((dir / ("out" + std::to_string(i) + ".bin")).string());
    std::error_code ec;
    fs::remove(outputs.back(), ec);  // never compare a stale file
    argv.push_back("--output=@" + outputs.back());
  }
  const device::SubprocessResult p = device::run_subprocess(argv, tool_options(r.tool_timeout_seconds));
  if (!p.succeeded()) return "iree-run-module " + p.describe() + ":\n" + tail(p.output);
  for (const auto& out : outputs)
    if (!fs::exists(out)) return "iree-run-module wrote no " + out;
  return "";
}

// The whole-model benchmark again, `profile_runs` runs under IREE's HAL profiling.
HalProfileRequest hal_profile_request(const IreeEvaluationRequest& r) {
  HalProfileRequest q;
  q.benchmark_module = r.benchmark_module;
  q.profile_tool = r.profile_tool;
  q.device = r.device;
  q.module = r.benchmark_vmfb;
  q.function = r.benchmark_function;
  q.inputs = r.inputs;
  q.output = (fs::path(r.work_dir) / "model.ireeprof").string();
  q.runs = r.profile_runs;
  q.timeout_seconds = r.tool_timeout_seconds;
  return q;
}

ElementType output_type(const std::string& name) {
  return parse_tensor_type("tensor<1x" + name + ">").type;
}

}  // namespace

verify::Tolerance output_tolerance(ElementType type) {
  verify::Tolerance t;
  switch (type) {
    case ElementType::F16: t = {1e-2, 1e-2, 1e-2}; break;
    case ElementType::BF16: t = {2e-2, 4e-2, 2e-2}; break;
    case ElementType::F32: t = {1e-4, 1e-3, 1e-4}; break;
    case ElementType::F64: t = {1e-10, 1e-9, 1e-10}; break;
    default: t = {0, 0, std::nullopt}; break;  // integers: exact
  }
  return t;
}

std::vector<double> parse_benchmark_json(const std::string& output) {
  const auto start = output.find('{');
  if (start == std::string::npos) throw std::runtime_error("iree-benchmark-module printed no JSON:\n" + tail(output));
  const nlohmann::json j = nlohmann::json::parse(output.substr(start), nullptr, false);
  if (j.is_discarded() || !j.contains("benchmarks")) throw std::runtime_error("iree-benchmark-module's JSON has no benchmarks:\n" + tail(output));
  static const std::map<std::string, double> unit = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  std::vector<double> seconds;
  for (const auto& b : j["benchmarks"]) {
    if (b.value("run_type", "") != "iteration") continue;
    const auto u = unit.find(b.value("time_unit", "ns"));
    seconds.push_back(b.at("real_time").get<double>() * (u == unit.end() ? 1e-9 : u->second));
  }
  if (seconds.empty()) throw std::runtime_error("iree-benchmark-module reported no repetition:\n" + tail(output));
  return seconds;
}

tuner::EvaluationReply IreeEvaluator::evaluate(const IreeEvaluationRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  tuner::EvaluationReply reply;
  auto fail = [&](tuner::EvaluationStatus status, std::string why) {
    reply.status = status;
    reply.error = std::move(why);
    reply.phases["total"] = since(start);
    return reply;
  };
  if (!r.reference_vmfb.empty()) {
    // The default build's outputs, once per worker.
    auto phase = std::chrono::steady_clock::now();
    std::string key = r.reference_vmfb;
    for (const auto& in : r.inputs) key += "|" + in;
    if (!reference_outputs_.count(key)) {
      std::vector<std::string> outs;
      const std::string error = run_model(r, r.reference_vmfb, fs::path(r.work_dir).parent_path() / "reference-outputs", outs);
      if (!error.empty()) return fail(tuner::EvaluationStatus::RuntimeError, "the default build does not run, so nothing can be verified: " + error);
      reference_outputs_[key] = outs;
      reply.reference_seconds = since(phase);
    }
    reply.phases["reference"] = since(phase);
    phase = std::chrono::steady_clock::now();
    const std::vector<std::string>& refs = reference_outputs_[key];
    std::vector<std::string> outs = refs;
    if (r.model_vmfb != r.reference_vmfb) {  // the default build is its own reference
      const std::string error = run_model(r, r.model_vmfb, fs::path(r.work_dir) / "outputs", outs);
      if (!error.empty()) return fail(tuner::EvaluationStatus::RuntimeError, error);
    }
    reply.phases["run"] = since(phase);
    phase = std::chrono::steady_clock::now();
    bool pass = true;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const ElementType type = output_type(r.output_types[i]);
      NpyArray ref, out;
      try {
        ref = read_raw(refs[i], type), out = read_raw(outs[i], type);
      } catch (const NpyError& e) {
        return fail(tuner::EvaluationStatus::RuntimeError, std::string("iree-run-module's output cannot be read: ") + e.what());
      }
      if (out.data.size() != ref.data.size())
        return fail(tuner::EvaluationStatus::WrongResult, "output " + std::to_string(i) + " has " + std::to_string(out.element_count()) +
                                                              " elements, the default's " + std::to_string(ref.element_count()));
      const verify::Comparison c = verify::compare(out.data, ref.data, type, output_tolerance(type));
      reply.verification["output" + std::to_string(i)] = verify::comparison_to_json(c);
      if (!c.pass) {
        pass = false;
        reply.error += "output " + std::to_string(i) + " differs from IREE's default build: " + c.summary() + "\n";
      }
    }
    reply.verified = true;
    reply.phases["check"] = since(phase);
    if (!pass) return fail(tuner::EvaluationStatus::WrongResult, reply.error);
  }
  if (!r.benchmark_vmfb.empty()) {
    const auto phase = std::chrono::steady_clock::now();
    // Each repetition is one sample; a short minimum time per repetition keeps the tool's own
    // start-up (device, module load) the dominant cost, paid once per candidate.
    const int repetitions = std::clamp(r.policy.min_samples, 3, 100);
    std::vector<std::string> argv = {r.benchmark_module, "--device=" + r.device, "--module=" + r.benchmark_vmfb,
                                     "--function=" + r.benchmark_function, "--benchmark_format=json",
                                     "--benchmark_repetitions=" + std::to_string(repetitions),
                                     "--benchmark_min_warmup_time=" + std::to_string(std::max(0.02, r.policy.warmup_seconds)),
                                     "--benchmark_min_time=" + std::to_string(std::max(0.02, r.policy.min_seconds / repetitions)) + "s"};
    if (r.batch_size > 0) argv.push_back("--batch_size=" + std::to_string(r.batch_size));
    if (r.benchmark_with_inputs)
      for (const auto& in : r.inputs) argv.push_back("--input=@" + in);
    const device::SubprocessResult p = device::run_subprocess(argv, tool_options(r.tool_timeout_seconds));
    if (!p.succeeded()) return fail(tuner::EvaluationStatus::RuntimeError, "iree-benchmark-module " + p.describe() + ":\n" + tail(p.output));
    std::vector<double> samples;
    try {
      samples = parse_benchmark_json(p.output);
    } catch (const std::exception& e) {
      return fail(tuner::EvaluationStatus::RuntimeError, e.what());
    }
    measure::Measurement m;
    m.samples = samples;
    m.stats = measure::summarize(samples);
    m.stop = measure::StopReason::MaxSamples;
    for (double s : samples) m.measured_seconds += s;
    m.wall_seconds = p.seconds;
    reply.measurement = m;
    reply.cache_mode = "warm";  // IREE's benchmark runs back to back: operands may sit in L2
    reply.phases["measure"] = since(phase);
    if (r.profile_runs > 0 && r.benchmark_with_inputs) {
      const auto profile_phase = std::chrono::steady_clock::now();
      reply.details["hal_profile"] = capture_hal_profile(hal_profile_request(r)).to_json();
      reply.phases["profile"] = since(profile_phase);
    }
  }
  reply.phases["total"] = since(start);
  return reply;
}

}  // namespace ktune::iree
