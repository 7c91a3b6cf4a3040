#pragma once
// Compiles generated kernels on background threads while the caller does other work (the gemm
// worker measures cuBLASLt's algorithms on the GPU meanwhile), and hands each result to whoever
// asks for it by its job. Without this the NVRTC wall time of a tuning session adds to its GPU
// time instead of overlapping it.

#include <cstddef>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ktune/core/thread_pool.h"
#include "ktune/device/compile_cache.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/generated_runner.h"

namespace ktune::generated {

class BackgroundCompiler {
 public:
  // `threads` == 0: every core. The compiler and the cache must outlive this object.
  BackgroundCompiler(std::shared_ptr<const ktune::cuda::NvrtcCompiler> nvrtc, device::CompileCache cache,
                     unsigned threads = 0);
  // Waits for the compiles already running; drops the queued ones.
  ~BackgroundCompiler();
  BackgroundCompiler(const BackgroundCompiler&) = delete;
  BackgroundCompiler& operator=(const BackgroundCompiler&) = delete;

  // Queues `job` (first come, first compiled) unless the same source and target were already
  // submitted. Returns false for such a repeat.
  bool submit(const CompileJob& job);

  struct Result {
    CompiledKernel kernel;
    double waited_seconds = 0;  // how long get() blocked for it
    bool background = false;    // compiled (or read from the cache) by submit()'s threads
  };
  // The job's result: from the background when it was submitted (waiting if it is not done),
  // else compiled on the calling thread. A compile that threw is a failed CompiledKernel.
  Result get(const CompileJob& job);
  // Whether `job` was submitted and its compile finishes within `seconds` (waiting that long at
  // most): callers that would rather skip a kernel than wait for NVRTC ask this before get().
  bool ready_within(const CompileJob& job, double seconds) const;

  std::size_t threads() const { return pool_.size(); }
  std::size_t submitted() const;
  std::size_t unfinished() const;  // submitted jobs whose compile has not finished

 private:
  static std::string job_key(const CompileJob& job);

  std::shared_ptr<const ktune::cuda::NvrtcCompiler> nvrtc_;
  device::CompileCache cache_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_future<CompiledKernel>> jobs_;
  ThreadPool pool_;  // last: destroyed (joined) first, while the members its tasks use still live
};

}  // namespace ktune::generated
