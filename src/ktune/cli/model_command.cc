// ktune model dispatches: compile a model with IREE for a target and list its dispatches as IREE
// configured them (the knobs `model tune` varies). Compiling needs no GPU.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "ktune/cli/common.h"
#include "ktune/iree/compile_model.h"

namespace ktune::cli {
namespace {
namespace fs = std::filesystem;

struct ModelArgs {
  std::string model, target = "cuda:sm_80", iree_tools, out;
  std::vector<std::string> flags;
};

std::string join(const std::vector<std::int64_t>& v, const char* sep = "x") {
  std::string s;
  for (std::int64_t x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

std::string tiles(const iree::LoweringConfig* c, const char* key) {
  if (!c) return "-";
  const auto t = c->tiles(key);
  return t ? "[" + join(*t, ",") + "]" : "-";
}

void print_table(const iree::CompiledModel& c, const iree::IreeTools& tools) {
  std::printf("%s for %s with IREE %s: %zu dispatch(es), compiled in %.1f s; dump in %s\n", c.model.string().c_str(),
              c.target.text().c_str(), tools.version.c_str(), c.dispatches.size(), c.seconds, c.dump_dir.string().c_str());
  std::printf("%-3s %-44s %-15s %-16s %-12s %-14s %-12s %-12s %-8s %s\n", "#", "dispatch", "op", "MxNxK / shape",
              "pipeline", "workgroup", "wg tile", "reduction", "prefetch", "mma_kind");
  int i = 0;
  for (const iree::DumpedDispatch& d : c.dispatches) {
    const iree::ConfiguredDispatch& k = d.config;
    const iree::LoweringConfig* root = k.lowering_configs.empty() ? nullptr : &k.lowering_configs.front();
    std::string shape = "-";
    if (auto mnk = k.matmul_mnk()) shape = join(*mnk);
    else if (!k.bindings.empty()) shape = join(k.bindings.back().shape);
    std::string prefetch = "-";
    if (k.translation)
      for (const auto& o : k.translation->pipeline_options)
        if (o.key == "prefetch_num_stages") prefetch = o.value;
    std::printf("%-3d %-44s %-15s %-16s %-12s %-14s %-12s %-12s %-8s %s\n", i++, k.export_name.substr(0, 44).c_str(),
                root ? root->op.c_str() : "-", shape.c_str(), k.translation ? k.translation->pipeline.c_str() : "-",
                k.translation ? join(k.translation->workgroup_size).c_str() : "-", tiles(root, "workgroup").c_str(),
                tiles(root, "reduction").c_str(), prefetch.c_str(), root ? root->mma_kind().value_or("-").c_str() : "-");
  }
}

}  // namespace

void add_model_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* model = app.add_subcommand("model", "Whole models compiled with IREE (needs scripts/install-deps.sh's .venv)");
  model->require_subcommand(1);
  auto args = std::make_shared<ModelArgs>();
  CLI::App* cmd = model->add_subcommand(
      "dispatches", "Compile MODEL.mlir with iree-compile for a target and list its dispatches with IREE's configuration");
  cmd->add_option("model", args->model, "The model: MLIR (linalg/tensor, or torch-mlir exported)")->required();
  cmd->add_option("--target", args->target, "cuda:sm_NN or hip:gfxNNN (default cuda:sm_80)");
  cmd->add_option("--iree-tools", args->iree_tools, "Directory of IREE's tools (default: $KTUNE_IREE_DIR, .venv/bin, PATH)");
  cmd->add_option("--out", args->out, "Where the module and the dump go (default: a new directory under /tmp)");
  cmd->add_option("--iree-flag", args->flags, "An extra iree-compile flag (repeatable)");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      const iree::Target target = iree::parse_target(args->target);
      const iree::IreeLookup lookup = iree::find_iree_tools(args->iree_tools, self_executable());
      if (!lookup.tools) throw std::runtime_error(lookup.reason);
      fs::path out = args->out;
      if (out.empty()) {
        std::string pattern = (fs::temp_directory_path() / "ktune-model-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a directory under /tmp");
        out = pattern;
      }
      iree::CompileOptions options;
      options.extra_flags = args->flags;
      const iree::CompiledModel c = iree::compile_model(*lookup.tools, args->model, target, out, options);
      if (global.json) {
        nlohmann::json j = {{"model", c.model.string()},     {"target", c.target.text()},
                            {"iree_version", lookup.tools->version}, {"vmfb", c.vmfb.string()},
                            {"dump_dir", c.dump_dir.string()}, {"compile_seconds", c.seconds},
                            {"command", c.command},           {"dispatches", nlohmann::json::array()}};
        for (const iree::DumpedDispatch& d : c.dispatches) {
          nlohmann::json x = d.config.to_json();
          x["name"] = d.name;
          x["benchmark_source"] = d.benchmark.string();
          j["dispatches"].push_back(x);
        }
        print_json(j);
      } else {
        print_table(c, *lookup.tools);
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
