#pragma once
// Runs recorded GEMM picks inside the caller's process, on the caller's stream: the run-time half
// of `ktune tune gemm`. A plan is one pick (a problem and its winning configuration: a cuBLASLt
// algorithm or one of ktune's generated kernels) made ready once: descriptors built and the
// algorithm checked, or the kernel compiled (through the compile cache, so a kernel tuned on this
// machine is a cache hit) and loaded. run() then enqueues the plan on any buffers of that problem.
//
// Work goes into the device's primary context, the one the CUDA runtime (and so PyTorch) uses,
// so buffers and streams of the application are valid here; the thread's current context is
// restored after each call. Streams may be destroyed before the executor. Scratch memory (cuBLASLt's workspace,
// split-K partial sums and tile counters) is kept per stream: two streams never share it, and
// launches on one stream are ordered. libktune_gemm (gemm_capi.cc) is the C ABI of this class
// (include/ktune/ktune_gemm.h), for C, C++ and Python (ctypes) applications.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::gemm {

// Device addresses of one GEMM's operands, as the problem names them (row-major A M x K, B K x N
// in the problem's layout; C read when beta != 0; bias when the problem has one).
struct GemmBuffers {
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;
  void* d = nullptr;
  const void* bias = nullptr;
};

enum class RunResult {
  Enqueued,
  Misaligned,  // an operand is not 16-byte aligned: nothing enqueued, run the default instead
};

class GemmExecutor {
 public:
  // Loads the CUDA driver and retains device `ordinal`'s primary context; cuBLASLt and NVRTC are
  // loaded when a plan first needs them. Throws std::runtime_error saying what is missing.
  explicit GemmExecutor(int ordinal);
  ~GemmExecutor();
  GemmExecutor(const GemmExecutor&) = delete;
  GemmExecutor& operator=(const GemmExecutor&) = delete;

  // A plan from one element of `ktune export --gemm-picks` (gemm_picks.h): {"problem": ...,
  // "config": ..., optional "device": {"name"}}. Returns its id (0, 1, ...). Throws
  // std::runtime_error naming the problem and the reason when the pick cannot run here: another
  // device, a library or compiler missing, a configuration cuBLASLt no longer accepts, a kernel
  // that does not compile or load. Thread-safe. Not inside a stream capture (ktune_gemm.h).
  int add_plan(const nlohmann::json& pick);

  // Enqueues plan `id` on `stream` (0: the legacy default stream). Thread-safe; returns
  // Misaligned without enqueuing anything when an operand is not 16-byte aligned (ktune measured
  // and verified the configuration on aligned buffers only). Throws std::invalid_argument for a
  // missing operand the problem needs (A, B, D; C when beta != 0; the bias), and on a launch
  // failure. The calling thread's current context is the same afterwards.
  RunResult run(int id, const GemmBuffers& buffers, ktune::cuda::CUstream stream);

  // {"problem_name", "family", "config", "workspace_bytes", and for generated kernels "grid",
  //  "threads", "dynamic_shared_bytes", "compile_cached"}.
  nlohmann::json describe(int id) const;
  std::size_t plan_count() const;
  const std::string& device_name() const;

  struct Plan;  // gemm_executor.cc

 private:
  struct Libraries;
  struct Scratch;
  class ContextScope;
  const Plan& plan(int id) const;
  Scratch& scratch_of(ktune::cuda::CUstream stream);
  void grow_scratch(Scratch& scratch, ktune::cuda::CUstream stream, const Plan& plan);

  std::unique_ptr<Libraries> libs_;
  mutable std::shared_mutex plans_mutex_;
  std::vector<std::unique_ptr<Plan>> plans_;
  std::mutex scratch_mutex_;  // the map; each Scratch has its own mutex
  std::map<ktune::cuda::CUstream, std::unique_ptr<Scratch>> scratch_;
};

}  // namespace ktune::gemm
