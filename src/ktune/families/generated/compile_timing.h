#pragma once
// How long NVRTC takes for each kernel `tune gemm` would list for a problem, without a GPU.
//
// A tuning session waits for its slowest compile (the model's top kernels are always waited for,
// the rest for a short grace, gemm_session.h), so one kernel whose code is three times the others'
// sets the session's time. This compiles the listed kernels one after the other on the calling
// thread (no pool: each time is the kernel's own, not a share of a busy machine) and reports each
// kernel's seconds and cubin size, to find those kernels and to measure a change to their code.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_kernel.h"

namespace ktune::generated {

struct CompileTime {
  std::size_t rank = 0;         // the model's order, as select_candidates lists it
  std::string config_key;       // config_key(to_config(knobs, traits))
  nlohmann::json config;        // the same, as JSON
  double seconds = 0;           // NVRTC's create + compile + fetch
  std::size_t cubin_bytes = 0;  // 0 when the compile failed
  bool ok = false;
  std::string error;            // NVRTC's first error line when !ok
  nlohmann::json to_json() const;
};

// The kernels select_candidates lists for `problem` on `device` with the worker's space options
// (clusters and swapped kernels on, pingpong, in-cluster split-K, split tails and evict-first off)
// and at most `max_candidates` of them, each compiled for its path's target. Throws
// std::invalid_argument when the family cannot express the problem. With a non-empty
// `cubin_dir`, each compiled kernel is also written there as rank<N>.cubin (for cuobjdump or
// nvdisasm: the SASS a GPU would run, read on a machine without one).
std::vector<CompileTime> time_listed_compiles(const cuda::NvrtcCompiler& nvrtc, const gemm::GemmProblem& problem,
                                              const DeviceTraits& device, std::size_t max_candidates,
                                              const std::filesystem::path& cubin_dir = {});

}  // namespace ktune::generated
