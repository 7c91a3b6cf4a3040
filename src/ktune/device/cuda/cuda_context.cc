#include "ktune/device/cuda/cuda_context.h"

#include <algorithm>
#include <atomic>
#include <cmath>


namespace ktune::device::cuda {
namespace kc = ktune::cuda;
namespace {

constexpr const char* kSpinKernelName = "ktune_block_stream";

volatile std::uint32_t* flag_words(void* host_flags) { return static_cast<volatile std::uint32_t*>(host_flags); }

}  // namespace

const char* blocking_kernel_ptx() {
  // Hand-written PTX, loaded with cuModuleLoadData (the driver JIT-compiles it in milliseconds
  // and caches it): every worker needs this kernel before its first timed sample, and compiling
  // its CUDA C++ with NVRTC on a cold cache put ~0.3 s on the critical path of every cold
  // session. Equivalent to
  //   while (*release == 0) if (globaltimer - start > timeout_ns) { *timed_out = 1; fence; return; }
  // PTX ISA 6.0 / sm_50: any GPU the driver runs takes it.
  return R"(.version 6.0
.target sm_50
.address_size 64

.visible .entry ktune_block_stream(.param .u64 release, .param .u64 timed_out, .param .u64 timeout_ns)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [release];
  ld.param.u64 %rd2, [timed_out];
  ld.param.u64 %rd3, [timeout_ns];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u64 %rd4, %globaltimer;
$WAIT:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $DONE;
  mov.u64 %rd5, %globaltimer;
  sub.s64 %rd6, %rd5, %rd4;
  setp.le.u64 %p2, %rd6, %rd3;
  @%p2 bra $WAIT;
  mov.u32 %r2, 1;
  st.volatile.global.u32 [%rd2], %r2;
  membar.sys;
$DONE:
  ret;
}
)";
}

const char* l2_sweep_kernel_ptx() {
  // Hand-written like the blocking kernel (no NVRTC in a worker). Equivalent to
  //   for (i = global thread; i < vectors; i += all threads) acc ^= x ^ y ^ z ^ w of buffer[i];
  //   if (acc == 0x9E3779B9) *sink = acc;
  return R"(.version 6.0
.target sm_50
.address_size 64

.visible .entry ktune_l2_sweep(.param .u64 buffer, .param .u64 vectors, .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [vectors];
  ld.param.u64 %rd3, [sink];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
$LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra $END;
  shl.b64 %rd7, %rd4, 4;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd8];
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r7;
  xor.b32 %r5, %r5, %r8;
  xor.b32 %r5, %r5, %r9;
  add.u64 %rd4, %rd4, %rd6;
  bra $LOOP;
$END:
  setp.ne.u32 %p2, %r5, 0x9E3779B9;
  @%p2 bra $DONE;
  st.global.u32 [%rd3], %r5;
$DONE:
  ret;
}
)";
}

CudaDeviceContext::CudaDeviceContext(std::shared_ptr<const kc::CudaDriver> driver, int ordinal,
                                     std::shared_ptr<const kc::Nvml> nvml, std::string nvml_error,
                                     TimingOptions options)
    : driver_(std::move(driver)), ordinal_(ordinal), options_(options) {
  const kc::DriverApi& api = driver_->api();
  try {
    properties_ = kc::query_device_properties(*driver_, ordinal);
    driver_->check(api.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
    driver_->check(api.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
    driver_->check(api.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    // A blocking stream: it waits for the synchronous copies (legacy default stream) that
    // upload() issues, so a launch never races an upload.
    driver_->check(api.cuStreamCreate(&stream_, kc::cu::kStreamDefault), "cuStreamCreate");
    driver_->check(api.cuEventCreate(&start_, kc::cu::kEventDefault), "cuEventCreate");
    driver_->check(api.cuEventCreate(&stop_, kc::cu::kEventDefault), "cuEventCreate");
  } catch (const kc::CudaError& e) {
    release_resources();
    if (kc::is_sticky_error(e.code())) throw ContextPoisoned("CUDA device " + std::to_string(ordinal) + ": " + e.what());
    throw DeviceError("cannot open CUDA device " + std::to_string(ordinal) + ": " + e.what());
  }
  flush_bytes_ = options_.flush_bytes > 0 ? options_.flush_bytes
                                          : static_cast<std::size_t>(std::max<std::int64_t>(properties_.l2_cache_bytes, 32 << 20)) * 2;
  setup_blocking_kernel();
  setup_throttle_detection(std::move(nvml), std::move(nvml_error));
}

CudaDeviceContext::~CudaDeviceContext() { release_resources(); }

void CudaDeviceContext::release_resources() {
  if (!context_) return;
  // After a sticky error these calls fail; there is nothing left to do about it.
  const kc::DriverApi& api = driver_->api();
  api.cuCtxSetCurrent(context_);
  if (host_flags_) {
    flag_words(host_flags_)[0] = 1;  // never leave a spin kernel waiting
    api.cuMemFreeHost(host_flags_);
    host_flags_ = nullptr;
  }
  if (flush_buffer_) api.cuMemFree(flush_buffer_);
  flush_buffer_ = 0;
  if (sweep_module_) api.cuModuleUnload(sweep_module_);
  sweep_module_ = nullptr;
  sweep_function_ = nullptr;
  if (spin_module_) api.cuModuleUnload(spin_module_);
  spin_module_ = nullptr;
  if (start_) api.cuEventDestroy(start_);
  if (stop_) api.cuEventDestroy(stop_);
  if (stream_) api.cuStreamDestroy(stream_);
  start_ = stop_ = nullptr;
  stream_ = nullptr;
  api.cuDevicePrimaryCtxRelease(device_);
  context_ = nullptr;
}

void CudaDeviceContext::setup_blocking_kernel() {
  if (!options_.blocking_kernel) {
    blocking_fallback_reason_ = "disabled by the backend options";
    return;
  }
  if (!properties_.can_map_host_memory) {
    blocking_fallback_reason_ = "the device cannot map host memory";
    return;
  }
  const kc::DriverApi& api = driver_->api();
  try {
    driver_->check(api.cuModuleLoadData(&spin_module_, blocking_kernel_ptx()), "cuModuleLoadData(blocking kernel PTX)");
    driver_->check(api.cuModuleGetFunction(&spin_function_, spin_module_, kSpinKernelName), "cuModuleGetFunction");
    driver_->check(api.cuMemHostAlloc(&host_flags_, 64, kc::cu::kMemHostAllocPortable | kc::cu::kMemHostAllocDeviceMap),
                   "cuMemHostAlloc");
    driver_->check(api.cuMemHostGetDevicePointer(&device_flags_, host_flags_, 0), "cuMemHostGetDevicePointer");
    flag_words(host_flags_)[0] = 1;
    flag_words(host_flags_)[1] = 0;
  } catch (const kc::CudaError& e) {
    blocking_fallback_reason_ = std::string("setting up the blocking kernel failed: ") + e.what();
    if (host_flags_) api.cuMemFreeHost(host_flags_);
    if (spin_module_) api.cuModuleUnload(spin_module_);
    host_flags_ = nullptr;
    spin_module_ = nullptr;
    spin_function_ = nullptr;
    if (kc::is_sticky_error(e.code())) poison_reason_ = e.what();
  }
}

void CudaDeviceContext::setup_throttle_detection(std::shared_ptr<const kc::Nvml> nvml, std::string nvml_error) {
  if (options_.throttle_threshold <= 0) {
    throttle_off_reason_ = "disabled by the backend options";
    return;
  }
  if (!nvml) {
    throttle_off_reason_ = nvml_error.empty() ? "NVML not available" : nvml_error;
    return;
  }
  try {
    nvml_device_ = nvml->device_by_uuid(properties_.uuid);
  } catch (const std::exception& e) {
    throttle_off_reason_ = e.what();
    return;
  }
  // nvbench compares with the default clock; the default applications clock is that clock
  // where NVML reports it, else the maximum boost clock.
  unsigned reference = nvml->default_sm_clock_mhz(nvml_device_).value_or(0);
  if (reference == 0) reference = nvml->max_sm_clock_mhz(nvml_device_).value_or(0);
  if (reference == 0) reference = static_cast<unsigned>(properties_.clock_khz / 1000);
  if (reference == 0 || !nvml->sm_clock_mhz(nvml_device_)) {
    throttle_off_reason_ = "NVML reports no SM clock for " + properties_.name;
    nvml_device_ = nullptr;
    return;
  }
  default_sm_clock_mhz_ = reference;
  throttle_threshold_mhz_ = options_.throttle_threshold * reference;
  nvml_ = std::move(nvml);
}

void CudaDeviceContext::enter() {
  if (poisoned())
    throw ContextPoisoned("the CUDA context of device " + std::to_string(ordinal_) +
                          " is unusable after an earlier error (" + poison_reason_ +
                          "); this process must exit and a new one take over");
  check(driver_->api().cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

void CudaDeviceContext::check(kc::CUresult rc, const std::string& what) {
  if (rc == kc::cu::kSuccess) return;
  const std::string text = what + ": " + driver_->error_text(rc);
  if (kc::is_sticky_error(rc)) {
    if (!poisoned()) poison_reason_ = text;
    throw ContextPoisoned("the CUDA context of device " + std::to_string(ordinal_) + " is poisoned: " + text +
                          " (a kernel faulted; CUDA keeps this error for the life of the process, which must exit "
                          "and be replaced)");
  }
  throw DeviceError(text);
}

void CudaDeviceContext::release_spin() {
  flag_words(host_flags_)[0] = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

TimedRun CudaDeviceContext::time(const std::function<void()>& enqueue, bool cold, bool first_launch) {
  enter();
  const kc::DriverApi& api = driver_->api();
  if (cold) flush_l2();

  bool blocked = false;
  if (spin_function_ && !first_launch) {
    volatile std::uint32_t* flags = flag_words(host_flags_);
    flags[0] = 0;
    flags[1] = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    kc::CUdeviceptr release = device_flags_;
    kc::CUdeviceptr timed_out = device_flags_ + sizeof(std::uint32_t);
    unsigned long long timeout_ns =
        static_cast<unsigned long long>(std::llround(options_.blocking_timeout_seconds * 1e9));
    void* params[] = {&release, &timed_out, &timeout_ns};
    const kc::CUresult rc = api.cuLaunchKernel(spin_function_, 1, 1, 1, 1, 1, 1, 0, stream_, params, nullptr);
    if (rc == kc::cu::kSuccess) {
      blocked = true;
    } else {
      release_spin();
      check(rc, "cuLaunchKernel(blocking kernel)");
    }
  }
  // Whatever happens below, the spin kernel must not wait for its timeout.
  struct Release {
    CudaDeviceContext* self;
    bool armed;
    void now() {
      if (armed) self->release_spin();
      armed = false;
    }
    ~Release() { now(); }
  } release{this, blocked};

  check(api.cuEventRecord(start_, stream_), "cuEventRecord(start)");
  enqueue();
  check(api.cuEventRecord(stop_, stream_), "cuEventRecord(stop)");
  release.now();
  check(api.cuEventSynchronize(stop_), "the timed kernel (cuEventSynchronize)");
  float milliseconds = 0;
  check(api.cuEventElapsedTime(&milliseconds, start_, stop_), "cuEventElapsedTime");

  TimedRun run{static_cast<double>(milliseconds) * 1e-3, true};
  ++samples_;
  if (first_launch) {
    run.valid = false;
    ++first_launch_samples_;
  }
  if (blocked && flag_words(host_flags_)[1] != 0) {
    // The host took longer than the timeout to enqueue the launch: the start event may have
    // fired before the launch was queued, so launch overhead is in the sample.
    run.valid = false;
    ++timed_out_samples_;
  }
  if (nvml_) {
    const std::optional<unsigned> clock = nvml_->sm_clock_mhz(nvml_device_);
    if (clock) sm_clocks_.add(*clock);
    if (clock && *clock < throttle_threshold_mhz_) {
      run.valid = false;
      ++throttled_samples_;
      last_throttled_clock_mhz_ = *clock;
      if (auto reasons = nvml_->clock_event_reasons(nvml_device_))
        last_clock_event_reasons_ = kc::describe_clock_event_reasons(*reasons);
    }
  }
  return run;
}

nlohmann::json CudaDeviceContext::take_sm_clocks() {
  nlohmann::json j = sm_clocks_.summary();
  sm_clocks_.clear();
  return j;
}

void CudaDeviceContext::flush_l2() {
  const kc::DriverApi& api = driver_->api();
  if (!flush_buffer_) check(api.cuMemAlloc(&flush_buffer_, flush_bytes_), "cuMemAlloc(L2 flush buffer)");
  // A new value each time: no write is redundant, so every line really goes through L2.
  check(api.cuMemsetD8Async(flush_buffer_, ++flush_round_, flush_bytes_, stream_), "cuMemsetD8Async(L2 flush)");
  // Reading the buffer (twice L2's size) after writing it evicts its dirty lines: their write-back
  // happens here, untimed, and L2 is left holding clean lines that the kernel evicts for free.
  if (clean_flush_) sweep_flush_buffer();
}

void CudaDeviceContext::sweep_flush_buffer() {
  const kc::DriverApi& api = driver_->api();
  if (!sweep_function_) {
    check(api.cuModuleLoadData(&sweep_module_, l2_sweep_kernel_ptx()), "cuModuleLoadData(L2 sweep kernel PTX)");
    check(api.cuModuleGetFunction(&sweep_function_, sweep_module_, "ktune_l2_sweep"), "cuModuleGetFunction(ktune_l2_sweep)");
  }
  kc::CUdeviceptr buffer = flush_buffer_;
  unsigned long long vectors = flush_bytes_ / 16;
  void* params[] = {&buffer, &vectors, &buffer};
  // Four 256-thread blocks per SM keep enough loads in flight to read at HBM rate.
  const unsigned blocks = static_cast<unsigned>(std::max(1, properties_.multiprocessors) * 4);
  check(api.cuLaunchKernel(sweep_function_, blocks, 1, 1, 256, 1, 1, 0, stream_, params, nullptr),
        "cuLaunchKernel(L2 sweep)");
}

nlohmann::json CudaDeviceContext::timing_json() const {
  nlohmann::json j = {{"method", spin_function_ ? "blocking_kernel" : "cuda_events"},
                      {"flush_bytes", flush_bytes_},
                      {"l2_flush", clean_flush_ ? "clean" : "dirty"},
                      {"throttle_detection", nvml_ ? "nvml" : "off"},
                      {"samples", samples_},
                      {"invalid_throttled", throttled_samples_},
                      {"invalid_blocking_timeout", timed_out_samples_},
                      {"invalid_first_launch", first_launch_samples_}};
  if (!spin_function_) j["fallback_reason"] = blocking_fallback_reason_;
  if (nvml_) {
    j["default_sm_clock_mhz"] = default_sm_clock_mhz_;
    j["throttle_threshold_mhz"] = throttle_threshold_mhz_;
  } else {
    j["throttle_reason"] = throttle_off_reason_;
  }
  if (throttled_samples_ > 0) {
    j["last_throttled_clock_mhz"] = last_throttled_clock_mhz_;
    if (!last_clock_event_reasons_.empty()) j["last_clock_event_reasons"] = last_clock_event_reasons_;
  }
  return j;
}

}  // namespace ktune::device::cuda
