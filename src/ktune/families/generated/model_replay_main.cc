// ktune_model_replay: recorded suite runs (bench/gemm_suite40.py outputs) through the cost model as
// built, without a GPU. Per shape: the fastest measured generated kernel, the one the model ranks
// first among them (regret = its time / the fastest), and the fastest of those it would select to
// measure today; then the geometric mean of the regrets. With --hedges, instead: how far behind
// its best estimate the model put the kernels that ran near the fastest, by problem scale
// (hedge_evidence.h), which is what select_candidates' hedge_window stands on.
//
//   ktune_model_replay [--device NAME] [--candidates N] [--hedges] [--json] SUITE.json...
//
// The device defaults to each file's "device" (the GPU the run measured on).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "ktune/families/generated/hedge_evidence.h"
#include "ktune/families/generated/model_replay.h"

namespace {

int usage(const char* why) {
  std::fprintf(stderr, "ktune_model_replay: %s\nusage: ktune_model_replay [--device NAME] [--candidates N] [--hedges] [--json] SUITE.json...\n",
               why);
  return 2;
}

// The hedge evidence at a few problem scales, tuned-on rows alone and every row, near the
// fastest meaning within 3% and within 5%.
int print_hedges(const std::vector<ktune::generated::ShapeReplay>& shapes, bool json) {
  using namespace ktune::generated;
  nlohmann::json out = nlohmann::json::array();
  if (!json)
    std::printf("%-8s %-9s %6s %10s %8s %8s %10s  %s\n", "best >=", "rows", "within", "shape runs", "kernels", "near",
                "max ratio", "at");
  for (bool tuned_on_only : {true, false})
    for (double scale : {0.0, 30e-6, 100e-6, 200e-6, 1e-3})
      for (double within : {1.03, 1.05}) {
        const HedgeEvidence e = hedge_evidence(shapes, scale, within, tuned_on_only);
        out.push_back(e.to_json());
        if (!json)
          std::printf("%6.0fus %-9s %6.2f %10zu %8zu %8zu %10.3f  %s (%s)\n", scale * 1e6, tuned_on_only ? "tuned-on" : "all",
                      within, e.shape_runs, e.kernels, e.near_kernels, e.max_estimate_ratio, e.at_shape.c_str(),
                      e.at_source.c_str());
      }
  if (json) std::printf("%s\n", out.dump(1).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ktune::generated;
  std::string device_name;
  std::size_t candidates = 20;
  bool json = false, hedges = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--hedges") {
      hedges = true;
    } else if (arg == "--device" || arg == "--candidates") {
      if (i + 1 >= argc) return usage((arg + " needs a value").c_str());
      const std::string value = argv[++i];
      if (arg == "--device") {
        device_name = value;
      } else {
        char* end = nullptr;
        const long n = std::strtol(value.c_str(), &end, 10);
        if (!end || *end || n < 1 || n > 1000) return usage("--candidates takes a count from 1 to 1000");
        candidates = static_cast<std::size_t>(n);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown option " + arg).c_str());
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) return usage("no suite output given");

  std::vector<ShapeReplay> shapes;
  std::size_t skipped = 0;
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "ktune_model_replay: %s: cannot open\n", file.c_str());
      return 1;
    }
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
      std::fprintf(stderr, "ktune_model_replay: %s: not JSON: %s\n", file.c_str(), e.what());
      return 3;
    }
    std::string name = device_name.empty() ? "NVIDIA H100 80GB HBM3" : device_name;
    if (device_name.empty() && doc.is_object() && doc.contains("device") && doc["device"].is_string())
      name = doc["device"].get<std::string>();
    ReplayResult r;
    try {
      r = replay_suite(doc, file, hopper_traits(name), candidates);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ktune_model_replay: %s: %s\n", file.c_str(), e.what());
      return 3;
    }
    skipped += r.skipped_configs;
    shapes.insert(shapes.end(), r.shapes.begin(), r.shapes.end());
  }
  if (hedges) return print_hedges(shapes, json);
  const double all = geomean_regret(shapes), memory = geomean_regret(shapes, true);
  if (json) {
    nlohmann::json out = {{"geomean_regret", all}, {"memory_bound_geomean_regret", memory}, {"skipped_configs", skipped}};
    out["shapes"] = nlohmann::json::array();
    for (const ShapeReplay& s : shapes) out["shapes"].push_back(s.to_json());
    std::printf("%s\n", out.dump(1).c_str());
    return 0;
  }
  std::printf("%-40s %4s %10s %10s %7s %12s\n", "shape", "n", "best us", "first us", "regret", "selected us");
  for (const ShapeReplay& s : shapes)
    std::printf("%-40s %4zu %10.1f %10.1f %7.3f %12.1f %s\n", s.name.c_str(), s.measured, s.best_seconds * 1e6,
                s.first_seconds * 1e6, s.regret(), s.selected_best_seconds * 1e6, s.memory_bound ? "memory" : "");
  std::printf("geomean regret %.4f over %zu shape runs; memory-bound %.4f; %zu configurations skipped\n", all,
              shapes.size(), memory, skipped);
  return 0;
}
