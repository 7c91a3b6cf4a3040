// ktune_compile_timing: NVRTC's time for each generated kernel `tune gemm` would list for one
// problem, compiled one after the other on this machine (no GPU needed), slowest last in the
// summary. See compile_timing.h.
//
//   ktune_compile_timing --m M --n N --k K [--batch B] [--alpha 1] [--dtype bf16] [--layout nt]
//                        [--device "NVIDIA H200"] [--candidates 20] [--cubins DIR] [--json]

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "ktune/families/generated/compile_timing.h"
#include "ktune/families/generated/model_replay.h"

int main(int argc, char** argv) {
  using namespace ktune;
  CLI::App app{"NVRTC time per generated kernel that tune gemm lists for a problem (no GPU)"};
  long long m = 0, n = 0, k = 0, batch = 1;
  double alpha = 1.0;
  std::string dtype = "bf16", layout = "nn", device_name = "NVIDIA H200", cubin_dir;
  std::size_t candidates = 20;
  bool json = false;
  app.add_option("--m", m, "Rows of A and D")->required()->check(CLI::PositiveNumber);
  app.add_option("--n", n, "Columns of B and D")->required()->check(CLI::PositiveNumber);
  app.add_option("--k", k, "The reduction dimension")->required()->check(CLI::PositiveNumber);
  app.add_option("--batch", batch, "Independent GEMMs (default 1)")->check(CLI::PositiveNumber);
  app.add_option("--alpha", alpha, "D = alpha * A B (default 1: compiled in; any other is read at run time)");
  app.add_option("--dtype", dtype, "f16, bf16, f32, tf32 or fp8 (default bf16)");
  app.add_option("--layout", layout, "nn, nt, tn or tt (default nn)");
  app.add_option("--device", device_name, "The Hopper GPU whose traits the model ranks for (default NVIDIA H200)");
  app.add_option("--candidates", candidates, "Kernels listed, as tune gemm's --generated-candidates (default 20)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--cubins", cubin_dir, "Also write each listed kernel's source and cubin to DIR/rank<N>.cu and .cubin (for nvcc, cuobjdump -sass)");
  app.add_flag("--json", json, "One JSON document instead of the table");
  CLI11_PARSE(app, argc, argv);
  try {
    gemm::GemmProblem problem;
    problem.m = m;
    problem.n = n;
    problem.k = k;
    problem.batch = batch;
    problem.alpha = alpha;
    const auto precision = gemm::parse_precision(dtype);
    if (!precision) throw std::invalid_argument("--dtype: unknown type '" + dtype + "'");
    problem.precision = *precision;
    problem.out = gemm::default_output(*precision);
    gemm::set_layout(problem, layout);
    gemm::validate(problem);
    auto nvrtc = cuda::NvrtcCompiler::load();
    if (!nvrtc) throw std::runtime_error("NVRTC is not available: " + nvrtc.error);
    const auto times = generated::time_listed_compiles(*nvrtc, problem, generated::hopper_traits(device_name), candidates,
                                                      cubin_dir);
    double total = 0;
    for (const auto& t : times) total += t.seconds;
    if (json) {
      nlohmann::json out = {{"problem", problem.to_json()}, {"device", device_name},
                            {"nvrtc", nvrtc->version_string()}, {"total_seconds", total},
                            {"kernels", nlohmann::json::array()}};
      for (const auto& t : times) out["kernels"].push_back(t.to_json());
      std::printf("%s\n", out.dump(1).c_str());
      return 0;
    }
    std::printf("%4s %8s %9s  %s\n", "rank", "seconds", "cubin KB", "kernel");
    for (const auto& t : times)
      std::printf("%4zu %8.3f %9.1f  %s%s\n", t.rank, t.seconds, t.cubin_bytes / 1024.0, t.config_key.c_str(),
                  t.ok ? "" : ("  FAILED: " + t.error).c_str());
    const auto slowest = std::max_element(times.begin(), times.end(),
                                          [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
    std::printf("%zu kernels, %.2f s in all (NVRTC %s)", times.size(), total, nvrtc->version_string().c_str());
    if (slowest != times.end()) std::printf(", slowest %.2f s (rank %zu)", slowest->seconds, slowest->rank);
    std::printf("\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ktune_compile_timing: %s\n", e.what());
    return 1;
  }
  return 0;
}
