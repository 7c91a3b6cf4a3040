#include "ktune/iree/dispatch_kind.h"

#include <fstream>
#include <regex>

#include "ktune/core/read_file.h"
#include "ktune/core/sha256.h"
#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/substitution.h"

namespace ktune::iree {
namespace fs = std::filesystem;

std::string candidate_label(const MatmulKnobs& k) {
  return k.mma_kind + "/sg" + std::to_string(k.subgroup_m) + "x" + std::to_string(k.subgroup_n) + "/wg" +
         std::to_string(k.subgroups_m) + "x" + std::to_string(k.subgroups_n) + "/r" + std::to_string(k.reduction) + "/p" +
         std::to_string(k.prefetch_stages);
}

std::string candidate_label(const MatmulCandidate& c) { return c.is_default ? "default" : candidate_label(c.knobs); }

namespace {

std::vector<space::Parameter> candidate_parameter(const std::vector<MatmulCandidate>& candidates,
                                                 const std::vector<ObjectCandidate>& objects,
                                                 const std::vector<TransformStrategy>& strategies) {
  space::Parameter p{"candidate", {}, 0};
  for (const auto& c : candidates) p.values.push_back(Value::string(candidate_label(c)));
  for (const auto& o : objects) p.values.push_back(Value::string(o.label));
  for (const auto& t : strategies) p.values.push_back(Value::string(t.label()));
  return {p};
}

const DumpedDispatch& dispatch_at(const ModelSession& s, std::size_t index) {
  if (index >= s.model.dispatches.size())
    throw IreeError(s.model.model.string() + " has " + std::to_string(s.model.dispatches.size()) + " dispatches; there is no dispatch " +
                    std::to_string(index));
  return s.model.dispatches[index];
}

std::vector<MatmulCandidate> candidates_of(const DumpedDispatch& d, const DispatchKindOptions& o, CandidateSpaceSummary& summary) {
  CandidateOptions co;
  co.max_candidates = o.max_candidates;
  auto c = matmul_candidates(d.config, co, &summary);
  if (d.benchmark.empty()) throw IreeError("IREE's dump has no benchmark source for dispatch " + d.name);
  if (c.empty()) {
    MatmulCandidate only;  // IREE's configuration, timed as it is (and the objects' baseline)
    only.is_default = true;
    c.push_back(only);
  }
  return c;
}

std::string read_text(const fs::path& file) { return read_file(file).value_or(""); }

device::CompileResult failed(std::string why, double seconds) {
  device::CompileResult r;
  r.ok = false;
  r.log = std::move(why);
  r.seconds = seconds;
  return r;
}

}  // namespace

DispatchKind::DispatchKind(const ModelSession& session, std::size_t index, const DispatchKindOptions& options)
    : session_(session),
      dispatch_(dispatch_at(session, index)),
      options_(options),
      candidates_(candidates_of(dispatch_, options, summary_)) {
  const DispatchGemmResult g = recognize_dispatch_gemm(dispatch_.config, read_text(dispatch_.configured));
  gemm_ = g.gemm;
  objects_unsupported_ = g.unsupported;
  if (gemm_)
    objects_ = iree::object_candidates(*gemm_, options.object_device.value_or(object_device(dispatch_.config)),
                                       options.max_object_candidates, &objects_unsupported_);
  if (!objects_.empty()) {
    auto loaded = cuda::NvrtcCompiler::load();
    if (loaded) {
      nvrtc_ = loaded.value;
    } else {
      objects_.clear();
      objects_unsupported_ = "NVRTC is not available to compile ktune's kernels: " + loaded.error;
    }
  }
  if (dispatch_.config.backend == "cuda")
    strategies_ = transform_strategies(dispatch_.config, gemm_, options.max_strategies, &strategies_unsupported_);
  else
    strategies_unsupported_ = "transform strategies are written for CUDA";
  if (!tunable() && !options.default_only_when_untunable)
    throw IreeError("dispatch " + dispatch_.name + " has no candidates: " + summary_.unsupported + "; ktune's kernels: " + objects_unsupported_ +
                    "; transform strategies: " + strategies_unsupported_);
  space_.emplace(candidate_parameter(candidates_, objects_, strategies_), std::vector<space::Constraint>{});
  for (std::size_t i = 0; i < candidates_.size(); ++i) by_label_[candidate_label(candidates_[i])] = i;
  for (std::size_t i = 0; i < objects_.size(); ++i) by_label_[objects_[i].label] = candidates_.size() + i;
  for (std::size_t i = 0; i < strategies_.size(); ++i) by_label_[strategies_[i].label()] = candidates_.size() + objects_.size() + i;
  const auto text = read_file(dispatch_.benchmark);
  std::smatch m;
  if (!text || !std::regex_search(*text, m, std::regex(R"(util\.func public @([^\s(]+)\()")))
    throw IreeError(dispatch_.benchmark.string() + ": no exported benchmark function");
  benchmark_function_ = m[1].str();
}

const MatmulCandidate& DispatchKind::candidate(const Config& config) const {
  const auto it = config.find("candidate");
  if (it == config.end() || !it->second.is_string()) throw std::out_of_range("config has no candidate: " + config_key(config));
  return candidates_.at(by_label_.at(it->second.as_string()));
}

const ObjectCandidate* DispatchKind::object_candidate(const Config& config) const {
  const auto it = config.find("candidate");
  if (it == config.end() || !it->second.is_string()) return nullptr;
  const auto at = by_label_.find(it->second.as_string());
  if (at == by_label_.end() || at->second < candidates_.size() || at->second >= candidates_.size() + objects_.size()) return nullptr;
  return &objects_[at->second - candidates_.size()];
}

const TransformStrategy* DispatchKind::strategy_candidate(const Config& config) const {
  const auto it = config.find("candidate");
  if (it == config.end() || !it->second.is_string()) return nullptr;
  const auto at = by_label_.find(it->second.as_string());
  const std::size_t first = candidates_.size() + objects_.size();
  if (at == by_label_.end() || at->second < first) return nullptr;
  return &strategies_[at->second - first];
}

fs::path DispatchKind::candidate_dir(const std::string& label) const {
  return session_.work_dir / "candidates" / dispatch_.name / sha256_hex(label).substr(0, 16);
}

fs::path DispatchKind::substitution_file(const std::string& label) const {
  if (label == "default") return {};
  if (label.rfind("ktune/", 0) == 0) return candidate_dir(label) / "executable.mlir";
  return candidate_dir(label) / ("configured_" + dispatch_.name + ".mlir");
}

db::KernelRecord DispatchKind::kernel_record() const {
  // The dispatch as IREE configured it, by this IREE, for this target: a new IREE or a changed
  // model is a new kernel.
  const std::string configured = read_file(dispatch_.configured).value_or("");
  return {0, sha256_hex(configured + "|" + session_.tools.version + "|" + session_.model.target.text()), dispatch_.name,
          "iree-dispatch", dispatch_.configured.string()};
}

db::ProblemRecord DispatchKind::problem_record() const {
  const auto loops = dispatch_.config.contraction();
  nlohmann::json sizes = nlohmann::json::object();
  if (loops) {
    const auto at = [&](int loop) { return loops->sizes[static_cast<std::size_t>(loop)]; };
    sizes = {{"M", at(loops->m)}, {"N", at(loops->n)}, {"K", at(loops->k)}};
    if (!loops->batch.empty()) sizes["batch"] = loops->batch_count();
  }
  nlohmann::json spec = {{"model", session_.model.model.string()}, {"model_sha256", session_.model_hash},
                         {"dispatch", dispatch_.name},           {"target", session_.model.target.text()},
                         {"function", session_.function.name},  {"iree", session_.tools.version},
                         {"candidates", summary_.to_json()}};
  return {0, sha256_hex(session_.model_hash + "|" + dispatch_.name + "|" + session_.model.target.text() + "|" + session_.function.name),
          session_.model.model.stem().string() + ":" + dispatch_.name, sizes, spec};
}

std::string DispatchKind::source_label() const { return session_.model.model.string() + "#" + dispatch_.name; }

std::optional<device::CompileResult> DispatchKind::compile_reference(const std::string&) {
  if (!options_.verify) return std::nullopt;
  device::CompileResult r;  // the default build, compiled when the session opened
  r.ok = true;
  r.artifact = session_.model.vmfb;
  r.resources = {{"model_vmfb", session_.model.vmfb.string()}};
  return r;
}

device::CompileResult DispatchKind::compile(const Config& config, const std::string&) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  if (const ObjectCandidate* object = object_candidate(config)) return compile_object(*object);
  if (const TransformStrategy* strategy = strategy_candidate(config)) return compile_strategy(*strategy);
  const MatmulCandidate* c = nullptr;
  try {
    c = &candidate(config);
  } catch (const std::exception& e) {
    return failed(std::string("not a candidate of ") + dispatch_.name + ": " + e.what(), 0);
  }
  const fs::path dir = candidate_dir(candidate_label(*c));
  fs::create_directories(dir);
  device::CompileResult r;
  r.cache_key = dir.filename().string();
  r.artifact = dir;
  r.resources = {{"knobs", c->knobs.to_json()}, {"score", c->score}, {"workgroup", c->workgroup},
                 {"workgroup_size", c->workgroup_size}, {"default", c->is_default}};
  fs::path dispatch_vmfb = dir / "dispatch.vmfb", model_vmfb = session_.model.vmfb;
  if (c->is_default) {
    // IREE's own configuration as the model has it: the benchmark source compiled alone gets
    // configured anew, and may differ from the model's or fail (llvm-cpu, a 3x3 f32 conv: "large
    // vector sizes"), so the model's configured source is substituted, as a candidate's is.
    const SubstitutedCompile b = compile_substituted(session_.tools, dispatch_.benchmark, session_.model.target,
                                                     {{dispatch_.name, dispatch_.configured}}, dispatch_vmfb, dir / "dump",
                                                     session_.extra_flags);
    if (!b.ok) return failed("the default configuration's benchmark does not compile: " + b.error, elapsed());
  } else {
    const CandidateBuild b = build_candidate(session_.tools, dispatch_, session_.model.target, *c, dir);
    if (!b.ok) return failed(b.error, elapsed());
    r.resources["configured"] = b.configured.string();
    if (b.compiled_workgroup_size) r.resources["compiled_workgroup_size"] = *b.compiled_workgroup_size;
    model_vmfb = dir / "model.vmfb";
    const SubstitutedCompile m = compile_substituted(session_.tools, session_.model.model, session_.model.target,
                                                     {{dispatch_.name, b.configured}}, model_vmfb, dir / "model-dump", session_.extra_flags);
    if (!m.ok) return failed("the model does not compile with the candidate substituted: " + m.error, elapsed());
    const auto wg = compiled_workgroup_size(dir / "model-dump", dispatch_.name);
    if (wg && *wg != c->workgroup_size)
      return failed("in the whole model IREE compiled a workgroup of " + std::to_string(*wg) + " threads, the candidate asks for " +
                        std::to_string(c->workgroup_size) + ": the substitution did not take",
                    elapsed());
  }
  r.resources["dispatch_vmfb"] = dispatch_vmfb.string();
  r.resources["model_vmfb"] = model_vmfb.string();
  r.ok = true;
  r.seconds = elapsed();
  return r;
}

device::CompileResult DispatchKind::compile_object(const ObjectCandidate& c) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const fs::path dir = candidate_dir(c.label);
  const ObjectBuild object = write_object_candidate(dispatch_, *gemm_, c, dir, *nvrtc_);
  if (!object.ok) return failed(object.error, elapsed());
  device::CompileResult r;
  r.cache_key = dir.filename().string();
  r.artifact = dir;
  r.resources = {{"object", c.to_json()}, {"build", object.resources}, {"executable", object.executable.string()}};
  const int threads = object.resources.value("threads", 0);
  if (std::string why = build_dispatch_and_model(object.executable, dir, threads, r); !why.empty())
    return failed("IREE does not take ktune's kernel as the executable of " + dispatch_.name + ": " + why, elapsed());
  r.ok = true;
  r.seconds = elapsed();
  return r;
}

std::string DispatchKind::build_dispatch_and_model(const fs::path& file, const fs::path& dir, int threads, device::CompileResult& r) {
  const fs::path dispatch_vmfb = dir / "dispatch.vmfb", model_vmfb = dir / "model.vmfb";
  for (const auto& [source, vmfb, dump] : {std::tuple{dispatch_.benchmark, dispatch_vmfb, dir / "dump"},
                                           std::tuple{session_.model.model, model_vmfb, dir / "model-dump"}}) {
    const SubstitutedCompile b =
        compile_substituted(session_.tools, source, session_.model.target, {{dispatch_.name, file}}, vmfb, dump, session_.extra_flags);
    if (!b.ok) return b.error;
    const auto wg = compiled_workgroup_size(dump, dispatch_.name);
    if (!wg || *wg != threads)
      return "the build of " + source.filename().string() + " does not have the candidate's " + std::to_string(threads) +
             " threads: the substitution did not take";
  }
  r.resources["dispatch_vmfb"] = dispatch_vmfb.string();
  r.resources["model_vmfb"] = model_vmfb.string();
  return "";
}

device::CompileResult DispatchKind::compile_strategy(const TransformStrategy& t) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const fs::path dir = candidate_dir(t.label());
  fs::create_directories(dir);
  const fs::path configured = substitution_file(t.label());
  try {
    std::ofstream(configured, std::ios::binary) << apply_strategy(read_text(dispatch_.configured), t);
  } catch (const std::exception& e) {
    return failed(dispatch_.configured.string() + ": " + e.what(), elapsed());
  }
  device::CompileResult r;
  r.cache_key = dir.filename().string();
  r.artifact = dir;
  r.resources = {{"strategy", t.to_json()}, {"configured", configured.string()}, {"workgroup_size", t.threads()}};
  // compile_substituted writes the strategy library beside each module and passes it to IREE.
  if (std::string why = build_dispatch_and_model(configured, dir, t.threads(), r); !why.empty())
    return failed("IREE does not compile " + dispatch_.name + " with strategy " + t.label() + ": " + why, elapsed());
  r.ok = true;
  r.seconds = elapsed();
  return r;
}

nlohmann::json DispatchKind::evaluation_request(const Request& q) const {
  IreeEvaluationRequest r = session_.request_base(q.device);
  r.work_dir = q.artifact->artifact.string();
  r.model_vmfb = q.artifact->resources.value("model_vmfb", "");
  if (q.reference && *q.reference) r.reference_vmfb = (*q.reference)->artifact.string();
  r.benchmark_vmfb = q.artifact->resources.value("dispatch_vmfb", "");
  r.benchmark_function = benchmark_function_;
  r.batch_size = options_.batch_size;
  r.policy = q.policy;
  return r.to_json();
}

double DispatchKind::call_timeout(const measure::Policy& policy, bool computes_reference) const {
  // Two tool runs (verify, benchmark) of at most 120 s each, the reference's on the first call.
  return 2 * 120.0 + policy.timeout_seconds + (computes_reference ? 120.0 : 0.0);
}

std::optional<double> DispatchKind::flop_count(const Config&) const {
  const auto loops = dispatch_.config.contraction();
  if (!loops || !loops->is_static()) return std::nullopt;
  double flops = 2.0;
  for (std::int64_t size : loops->sizes) flops *= static_cast<double>(size);  // batch x M x N x K
  return flops;
}

}  // namespace ktune::iree
