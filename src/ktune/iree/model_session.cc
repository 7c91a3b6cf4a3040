#include "ktune/iree/model_session.h"

#include "ktune/core/read_file.h"
#include "ktune/core/sha256.h"
#include "ktune/iree/npy.h"
#include "ktune/verify/data_init.h"

namespace ktune::iree {
namespace fs = std::filesystem;

IreeEvaluationRequest ModelSession::request_base(int ordinal) const {
  IreeEvaluationRequest r;
  r.run_module = tools.run_module.string();
  r.benchmark_module = tools.benchmark_module.string();
  r.device = model.target.runtime_device(ordinal);
  r.function = function.name;
  for (const auto& in : inputs) r.inputs.push_back(in.string());
  for (const auto& out : function.outputs) {
    const std::string& text = out.text;  // "tensor<...xf16>"
    r.output_types.push_back(text.substr(text.rfind('x') + 1, text.size() - text.rfind('x') - 2));
  }
  return r;
}

fs::path default_work_dir(const fs::path& db_path, const fs::path& model, const Target& target) {
  const fs::path db_dir = fs::absolute(db_path).parent_path();
  const std::string digest = sha256_hex(fs::absolute(model).lexically_normal().string()).substr(0, 8);
  return db_dir / "ktune-work" / (model.stem().string() + "-" + target.chip + "-" + digest);
}

ModelSession open_model_session(const IreeTools& tools, const fs::path& model, const Target& target,
                                const fs::path& work_dir, const ModelSessionOptions& options) {
  if (tools.run_module.empty() || tools.benchmark_module.empty())
    throw IreeError("IREE's runtime tools (iree-run-module, iree-benchmark-module) are not in " + tools.dir.string() +
                    ": install iree-base-runtime==" + std::string(kPinnedVersion));
  ModelSession s;
  s.tools = tools;
  s.work_dir = fs::absolute(work_dir);
  s.extra_flags = options.extra_flags;
  const auto text = read_file(model);
  if (!text) throw IreeError(model.string() + ": cannot be read");
  s.model_hash = sha256_hex(*text);
  CompileOptions co;
  co.extra_flags = options.extra_flags;
  s.model = compile_model(tools, model, target, s.work_dir / "default", co);
  const std::vector<FunctionSignature> functions = module_signatures(tools, s.model.vmfb);
  s.function = select_function(functions, options.function, model);
  for (const FunctionSignature& f : functions)
    if (f.name != s.function.name) s.other_functions.push_back(f.name);
  const fs::path dir = s.work_dir / "inputs";
  fs::create_directories(dir);
  for (std::size_t i = 0; i < s.function.inputs.size(); ++i) {
    const TensorType& t = s.function.inputs[i];
    NpyArray a;
    a.shape = t.shape;
    a.type = t.type;
    a.data.resize(t.element_count() * element_size(t.type));
    const bool floating = is_floating(t.type);
    verify::initialize(a.data, t.type, verify::Init::random(floating ? -1.0 : -4.0, floating ? 1.0 : 4.0, options.seed + i));
    s.inputs.push_back(dir / ("input" + std::to_string(i) + ".npy"));
    write_npy(s.inputs.back(), a);
  }
  return s;
}

}  // namespace ktune::iree
