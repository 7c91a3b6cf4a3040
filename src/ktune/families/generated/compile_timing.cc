#include "ktune/families/generated/compile_timing.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <system_error>

#include "ktune/core/config.h"
#include "ktune/device/compile_cache.h"
#include "ktune/families/generated/generated_runner.h"
#include "ktune/families/generated/generated_space.h"

namespace ktune::generated {
namespace {

namespace fs = std::filesystem;

// A compile cache nobody has written to: every kernel compiles, through the worker's own path.
struct EmptyCache {
  fs::path dir;
  EmptyCache() {
    std::random_device random;
    dir = fs::temp_directory_path() / ("ktune-compile-timing-" + std::to_string(random()) + "-" +
                                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(dir);
  }
  ~EmptyCache() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

nlohmann::json CompileTime::to_json() const {
  nlohmann::json j = {{"rank", rank}, {"config_key", config_key}, {"config", config},
                      {"seconds", seconds}, {"cubin_bytes", cubin_bytes}, {"ok", ok}};
  if (!ok) j["error"] = error;
  return j;
}

std::vector<CompileTime> time_listed_compiles(const cuda::NvrtcCompiler& nvrtc, const gemm::GemmProblem& problem,
                                              const DeviceTraits& device, std::size_t max_candidates,
                                              const fs::path& cubin_dir) {
  if (auto reason = unsupported_reason(problem)) throw std::invalid_argument(*reason);
  const ProblemTraits traits = problem_traits(problem);
  SpaceOptions options;  // its defaults are the worker's (gemm_worker.h's GemmSetup)
  options.max_candidates = max_candidates;
  if (!cubin_dir.empty()) fs::create_directories(cubin_dir);
  const EmptyCache empty;
  const device::CompileCache cache(empty.dir);
  std::vector<CompileTime> out;
  const std::vector<RankedKnobs> listed = select_candidates(traits, device, options);
  for (std::size_t rank = 0; rank < listed.size(); ++rank) {
    const GeneratedKnobs& knobs = listed[rank].knobs;
    const std::string source = emit_source(knobs, traits);
    const CompiledKernel kernel =
        compile_kernel(source, compile_arch(knobs.path, device), kernel_symbol(knobs.path), nvrtc, cache);
    CompileTime t;
    t.rank = rank;
    const Config config = to_config(knobs, traits);
    t.config_key = ktune::config_key(config);
    t.config = config_to_json(config);
    t.seconds = kernel.seconds;
    t.ok = kernel.ok;
    t.cubin_bytes = kernel.ok ? kernel.cubin.size() : 0;
    t.error = kernel.ok ? "" : kernel.error.substr(0, kernel.error.find('\n'));
    if (!cubin_dir.empty()) {
      // The source beside its cubin: what NVRTC was given, to compile again by hand (nvcc, other flags).
      const std::string stem = "rank" + std::to_string(rank);
      write_file(cubin_dir / (stem + ".cu"), source);
      if (kernel.ok) write_file(cubin_dir / (stem + ".cubin"), kernel.cubin);
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ktune::generated
