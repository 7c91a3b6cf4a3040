// ktune model dispatches: compile a model with IREE for a target and list its dispatches as IREE
// configured them (the knobs `model tune` varies). Compiling needs no GPU.

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "ktune/cli/common.h"
#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/matmul_candidates.h"

namespace ktune::cli {
namespace {
namespace fs = std::filesystem;

struct ModelArgs {
  std::string model, target = "cuda:sm_80", iree_tools, out;
  std::vector<std::string> flags;
  int dispatch = 0, max_candidates = 32, build = 0;
};

// The model compiled for the target in --out (or a new directory under /tmp).
iree::CompiledModel compile_for(const ModelArgs& args, iree::IreeTools& tools_out) {
  const iree::Target target = iree::parse_target(args.target);
  const iree::IreeLookup lookup = iree::find_iree_tools(args.iree_tools, self_executable());
  if (!lookup.tools) throw std::runtime_error(lookup.reason);
  tools_out = *lookup.tools;
  fs::path out = args.out;
  if (out.empty()) {
    std::string pattern = (fs::temp_directory_path() / "ktune-model-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a directory under /tmp");
    out = pattern;
  }
  iree::CompileOptions options;
  options.extra_flags = args.flags;
  return iree::compile_model(tools_out, args.model, target, out, options);
}

void add_common_options(CLI::App* cmd, ModelArgs& args) {
  cmd->add_option("model", args.model, "The model: MLIR (linalg/tensor, or torch-mlir exported)")->required();
  cmd->add_option("--target", args.target, "cuda:sm_NN or hip:gfxNNN (default cuda:sm_80)");
  cmd->add_option("--iree-tools", args.iree_tools, "Directory of IREE's tools (default: $KTUNE_IREE_DIR, .venv/bin, PATH)");
  cmd->add_option("--out", args.out, "Where the module and the dump go (default: a new directory under /tmp)");
  cmd->add_option("--iree-flag", args.flags, "An extra iree-compile flag (repeatable)");
}

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

int list_candidates(const ModelArgs& args, bool json) {
  iree::IreeTools tools;
  const iree::CompiledModel c = compile_for(args, tools);
  if (args.dispatch < 0 || static_cast<std::size_t>(args.dispatch) >= c.dispatches.size())
    throw std::runtime_error(args.model + " has " + std::to_string(c.dispatches.size()) + " dispatch(es); --dispatch " +
                             std::to_string(args.dispatch) + " is not one");
  const iree::DumpedDispatch& d = c.dispatches[static_cast<std::size_t>(args.dispatch)];
  iree::CandidateOptions options;
  options.max_candidates = static_cast<std::size_t>(std::max(1, args.max_candidates));
  iree::CandidateSpaceSummary summary;
  const std::vector<iree::MatmulCandidate> candidates = iree::matmul_candidates(d.config, options, &summary);
  std::vector<iree::CandidateBuild> builds;
  for (std::size_t i = 0; i < candidates.size() && static_cast<int>(i) < args.build; ++i)
    builds.push_back(iree::build_candidate(tools, d, c.target, candidates[i], c.dump_dir.parent_path() / "candidates" /
                                                                                  (d.name + "_" + std::to_string(i))));
  if (json) {
    nlohmann::json j = {{"dispatch", d.name}, {"space", summary.to_json()}, {"candidates", nlohmann::json::array()}};
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      nlohmann::json x = candidates[i].to_json();
      if (i < builds.size()) x["build"] = builds[i].to_json();
      j["candidates"].push_back(x);
    }
    print_json(j);
    return kExitOk;
  }
  if (!summary.unsupported.empty()) {
    std::printf("%s: no candidates: %s\n", d.name.c_str(), summary.unsupported.c_str());
    return kExitOk;
  }
  std::printf("%s: %zu candidates of %zu enumerated (%.3f s)\n", d.name.c_str(), candidates.size(), summary.enumerated,
              summary.seconds);
  for (const auto& [why, count] : summary.rejected) std::printf("  rejected %zu: %s\n", count, why.c_str());
  std::printf("%-3s %-8s %-14s %-12s %-10s %-8s %-8s %s\n", "#", "score", "workgroup", "subgroup", "reduction", "threads",
              "prefetch", args.build > 0 ? "build" : "mma_kind");
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const iree::MatmulCandidate& m = candidates[i];
    std::string build = m.knobs.mma_kind;
    if (i < builds.size())
      build = builds[i].ok ? "ok (" + std::to_string(builds[i].seconds).substr(0, 4) + " s)" : "FAILED: " + builds[i].error.substr(0, 300);
    std::printf("%-3zu %-8.3f %-14s %-12s %-10s %-8lld %-8d %s%s\n", i, m.score, join(m.workgroup, ",").c_str(),
                join(m.subgroup, ",").c_str(), join(m.reduction, ",").c_str(), static_cast<long long>(m.workgroup_size),
                m.knobs.prefetch_stages, build.c_str(), m.is_default ? "  (IREE's default)" : "");
  }
  return kExitOk;
}

}  // namespace

void add_model_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* model = app.add_subcommand("model", "Whole models compiled with IREE (needs scripts/install-deps.sh's .venv)");
  model->require_subcommand(1);
  auto args = std::make_shared<ModelArgs>();
  CLI::App* cmd = model->add_subcommand(
      "dispatches", "Compile MODEL.mlir with iree-compile for a target and list its dispatches with IREE's configuration");
  add_common_options(cmd, *args);
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      iree::IreeTools tools;
      const iree::CompiledModel c = compile_for(*args, tools);
      if (global.json) {
        nlohmann::json j = {{"model", c.model.string()},     {"target", c.target.text()},
                            {"iree_version", tools.version}, {"vmfb", c.vmfb.string()},
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
        print_table(c, tools);
      }
      return kExitOk;
    };
  });

  CLI::App* cand = model->add_subcommand(
      "candidates", "Compile MODEL.mlir, then list ktune's candidate configurations of one matmul dispatch (IREE's own first); "
                    "--build N compiles the first N with IREE and checks that each took");
  add_common_options(cand, *args);
  cand->add_option("--dispatch", args->dispatch, "Which dispatch (its index in `model dispatches`, default 0)");
  cand->add_option("--max", args->max_candidates, "Candidates at most, IREE's default included (default 32)");
  cand->add_option("--build", args->build, "Compile the first N candidates as dispatch benchmark modules (default 0)");
  cand->callback([&global, &handler, args] {
    handler = [&global, args]() -> int { return list_candidates(*args, global.json); };
  });
}

}  // namespace ktune::cli
