#include "ktune/families/generated/background_compiler.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <thread>
#include <utility>

namespace ktune::generated {
namespace {

// Background compiles yield the cores to the work on the caller's critical path (a worker's
// inputs and fp64 reference, made on all cores while NVRTC runs on all cores too: at 8192^3 they
// took 0.95 s instead of ~0.5 s). Linux keeps a nice value per thread; raising it needs no
// privilege and lasts for the pool thread's life, which only ever compiles.
void yield_to_foreground() {
  thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
}

}  // namespace

BackgroundCompiler::BackgroundCompiler(std::shared_ptr<const ktune::cuda::NvrtcCompiler> nvrtc,
                                       device::CompileCache cache, unsigned threads)
    : nvrtc_(std::move(nvrtc)),
      cache_(std::move(cache)),
      pool_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

BackgroundCompiler::~BackgroundCompiler() {
  pool_.cancel_pending();
  pool_.shutdown();
}

std::string BackgroundCompiler::job_key(const CompileJob& job) { return job.arch + '\n' + job.symbol + '\n' + job.source; }

bool BackgroundCompiler::submit(const CompileJob& job) {
  std::lock_guard lock(mutex_);
  std::string key = job_key(job);
  if (jobs_.count(key)) return false;
  std::future<CompiledKernel> future = pool_.submit([this, job] {
    yield_to_foreground();
    try {
      return compile_kernel(job.source, job.arch, job.symbol, *nvrtc_, cache_);
    } catch (const std::exception& e) {
      CompiledKernel failed;
      failed.error = std::string("the compile threw: ") + e.what();
      return failed;
    }
  });
  jobs_.emplace(std::move(key), future.share());
  return true;
}

BackgroundCompiler::Result BackgroundCompiler::get(const CompileJob& job) {
  std::shared_future<CompiledKernel> future;
  {
    std::lock_guard lock(mutex_);
    if (auto found = jobs_.find(job_key(job)); found != jobs_.end()) future = found->second;
  }
  Result result;
  if (!future.valid()) {
    result.kernel = compile_kernel(job.source, job.arch, job.symbol, *nvrtc_, cache_);
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    result.kernel = future.get();
  } catch (const std::future_error& e) {
    // Dropped from the queue (only at destruction, which no caller can race with).
    result.kernel.error = std::string("the background compile was cancelled: ") + e.what();
  }
  result.waited_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.background = true;
  return result;
}

bool BackgroundCompiler::ready_within(const CompileJob& job, double seconds) const {
  std::shared_future<CompiledKernel> future;
  {
    std::lock_guard lock(mutex_);
    if (auto found = jobs_.find(job_key(job)); found != jobs_.end()) future = found->second;
  }
  if (!future.valid()) return false;
  return future.wait_for(std::chrono::duration<double>(std::max(0.0, seconds))) == std::future_status::ready;
}

std::size_t BackgroundCompiler::submitted() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

std::size_t BackgroundCompiler::unfinished() const {
  std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& [key, future] : jobs_)
    if (future.wait_for(std::chrono::seconds(0)) != std::future_status::ready) ++count;
  return count;
}

}  // namespace ktune::generated
