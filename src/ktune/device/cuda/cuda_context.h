#pragma once
// One GPU's primary context inside a worker process, shared by every kernel loaded on it, with
// what timing needs: a stream, two events, the L2 flush buffer, the blocking kernel and the SM
// clock reader. Once a kernel faults, the context is poisoned for good (CUDA's sticky errors)
// and every later call throws ContextPoisoned.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/device/cuda/nvml.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/device/cuda/sm_clock_window.h"
#include "ktune/device/device.h"

namespace ktune::device::cuda {

struct TimingOptions {
  // Queue each timed launch behind a spin kernel that the host releases once the launch is
  // enqueued (nvbench's "blocking kernel"), so the events measure the kernel, not launch
  // overhead. false: plain events around the launch.
  bool blocking_kernel = true;
  double blocking_timeout_seconds = 5;  // the spin kernel gives up after this; the sample is then invalid
  // A sample whose SM clock (read with NVML right after it) is below this fraction of the
  // default SM clock is invalid (thermal or power throttling). 0 disables the check.
  double throttle_threshold = 0.75;
  std::size_t flush_bytes = 0;  // cold samples memset this many bytes first; 0 -> 2 x L2 size
};

// PTX of the blocking kernel (entry ktune_block_stream): spins until *release != 0 or the
// timeout passes (then sets *timed_out). Exposed for tests.
const char* blocking_kernel_ptx();

// PTX of the clean flush's read sweep (entry ktune_l2_sweep(buffer, vectors, sink)): a grid-stride
// loop of 16-byte loads over `vectors` of them, folded into one word that is stored to `sink`
// only if it equals a constant (so the loads cannot be dropped, and nothing is written).
// Exposed for tests.
const char* l2_sweep_kernel_ptx();

class CudaDeviceContext {
 public:
  // Retains the primary context of device `ordinal`, creates the stream and events, and sets up
  // the blocking kernel (PTX, JIT-compiled by the driver) and NVML. When
  // the blocking kernel or NVML cannot be had, timing falls back and timing_json() says why.
  // Throws DeviceError when the context itself cannot be created.
  CudaDeviceContext(std::shared_ptr<const ktune::cuda::CudaDriver> driver, int ordinal,
                    std::shared_ptr<const ktune::cuda::Nvml> nvml, std::string nvml_error, TimingOptions options);
  ~CudaDeviceContext();
  CudaDeviceContext(const CudaDeviceContext&) = delete;
  CudaDeviceContext& operator=(const CudaDeviceContext&) = delete;

  const ktune::cuda::DriverApi& api() const { return driver_->api(); }
  const ktune::cuda::CudaDriver& driver() const { return *driver_; }
  const ktune::cuda::CudaDeviceProperties& properties() const { return properties_; }
  int ordinal() const { return ordinal_; }
  ktune::cuda::CUstream stream() const { return stream_; }

  // Makes the context current on this thread; throws ContextPoisoned once poisoned.
  void enter();
  // Throws for a failed driver call: ContextPoisoned (and poisons) for sticky errors, else
  // DeviceError "<what>: CUDA_ERROR_...: text".
  void check(ktune::cuda::CUresult rc, const std::string& what);
  bool poisoned() const { return !poison_reason_.empty(); }

  // Times one launch: `enqueue` must enqueue exactly the kernel on stream() (and throw on
  // failure). cold: flush L2 first (in stream order, before the start event, not timed).
  // first_launch: the function has never run in this context. Its launch may make the driver
  // synchronize the context (growing the local-memory reservation for its stack), which would
  // wait for the blocking kernel until its timeout; so that sample is timed with plain events
  // and marked invalid (a warm-up).
  TimedRun time(const std::function<void()>& enqueue, bool cold, bool first_launch = false);
  // What a cold sample's flush leaves in L2 (measure::L2Flush): false (the default), the flush
  // buffer written, so L2 is full of dirty lines that the timed kernel writes back as it evicts
  // them; true, the buffer then read, so that L2 holds clean lines only and the write-back
  // happens before the start event.
  void set_clean_flush(bool clean) { clean_flush_ = clean; }
  bool clean_flush() const { return clean_flush_; }

  bool uses_blocking_kernel() const { return spin_function_ != nullptr; }
  // {"method": "blocking_kernel"|"cuda_events", "fallback_reason", "flush_bytes",
  //  "l2_flush": "dirty"|"clean", "throttle_detection": "nvml"|"off", "throttle_reason", "default_sm_clock_mhz",
  //  "throttle_threshold_mhz", "samples", "invalid_throttled", "invalid_blocking_timeout",
  //  "invalid_first_launch",
  //  "last_throttled_clock_mhz", "last_clock_event_reasons"}
  nlohmann::json timing_json() const;
  // The SM clocks read after each timed sample since the last call (SmClockWindow::summary();
  // null without NVML), and a new window begins: one measurement's clocks.
  nlohmann::json take_sm_clocks();

 private:
  void setup_blocking_kernel();
  void setup_throttle_detection(std::shared_ptr<const ktune::cuda::Nvml> nvml, std::string nvml_error);
  void release_spin();
  void flush_l2();
  void sweep_flush_buffer();  // the clean flush's read (loads its kernel on first use)
  void release_resources();  // safe to call twice

  std::shared_ptr<const ktune::cuda::CudaDriver> driver_;
  int ordinal_;
  TimingOptions options_;
  ktune::cuda::CudaDeviceProperties properties_;
  ktune::cuda::CUdevice device_ = 0;
  ktune::cuda::CUcontext context_ = nullptr;
  ktune::cuda::CUstream stream_ = nullptr;
  ktune::cuda::CUevent start_ = nullptr;
  ktune::cuda::CUevent stop_ = nullptr;
  std::string poison_reason_;

  // Blocking kernel: flags[0] = release, flags[1] = timed out, in host memory the GPU can read.
  ktune::cuda::CUmodule spin_module_ = nullptr;
  ktune::cuda::CUfunction spin_function_ = nullptr;
  void* host_flags_ = nullptr;
  ktune::cuda::CUdeviceptr device_flags_ = 0;
  std::string blocking_fallback_reason_;

  ktune::cuda::CUdeviceptr flush_buffer_ = 0;
  std::size_t flush_bytes_ = 0;
  unsigned char flush_round_ = 0;
  bool clean_flush_ = false;
  ktune::cuda::CUmodule sweep_module_ = nullptr;
  ktune::cuda::CUfunction sweep_function_ = nullptr;

  std::shared_ptr<const ktune::cuda::Nvml> nvml_;
  ktune::cuda::Nvml::DeviceHandle nvml_device_ = nullptr;
  unsigned default_sm_clock_mhz_ = 0;
  double throttle_threshold_mhz_ = 0;
  std::string throttle_off_reason_;

  std::uint64_t samples_ = 0;
  std::uint64_t throttled_samples_ = 0;
  std::uint64_t timed_out_samples_ = 0;
  std::uint64_t first_launch_samples_ = 0;
  unsigned last_throttled_clock_mhz_ = 0;
  std::string last_clock_event_reasons_;
  SmClockWindow sm_clocks_;
};

}  // namespace ktune::device::cuda
