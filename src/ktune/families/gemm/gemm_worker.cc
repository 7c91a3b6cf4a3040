#include "ktune/families/gemm/gemm_worker.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <span>
#include <stdexcept>

#include "ktune/core/config.h"
#include "ktune/device/compile_cache.h"
#include "ktune/device/cuda/check_kernels.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/device/cuda/nvml.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/background_compiler.h"
#include "ktune/families/generated/generated_runner.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/measure/measurement.h"

namespace ktune::gemm {
namespace kc = ktune::cuda;
namespace dc = ktune::device::cuda;

namespace {

constexpr const char* kCandidatesOp = "gemm_candidates";
constexpr const char* kEvaluateOp = "gemm_evaluate";
constexpr const char* kRefineOp = "gemm_refine";

std::string bytes_text(std::size_t bytes) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buffer;
}

// One device allocation in the worker's context.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void allocate(dc::CudaDeviceContext& context, std::size_t bytes, const std::string& what) {
    release();
    if (bytes == 0) return;
    context.enter();
    context.check(context.api().cuMemAlloc(&pointer_, bytes), "cuMemAlloc(" + what + ", " + bytes_text(bytes) + ")");
    context_ = &context;
    bytes_ = bytes;
  }
  void upload(std::span<const std::byte> host, const std::string& what) {
    if (host.empty()) return;
    context_->enter();
    context_->check(context_->api().cuMemcpyHtoD(pointer_, host.data(), host.size()), "cuMemcpyHtoD(" + what + ")");
  }
  void download(std::vector<std::byte>& host, const std::string& what) {
    host.resize(bytes_);
    if (bytes_ == 0) return;
    context_->enter();
    context_->check(context_->api().cuMemcpyDtoH(host.data(), pointer_, bytes_), "cuMemcpyDtoH(" + what + ")");
  }
  void release() {
    // After a sticky error the context is gone and the process is about to exit.
    if (pointer_ && context_ && !context_->poisoned()) {
      try {
        context_->enter();
        context_->api().cuMemFree(pointer_);
      } catch (const std::exception&) {
        // Nothing to free into: the context failed; the worker is on its way out.
      }
    }
    pointer_ = 0;
    bytes_ = 0;
    context_ = nullptr;
  }
  void* get() const { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(pointer_)); }
  kc::CUdeviceptr address() const { return pointer_; }
  std::size_t bytes() const { return bytes_; }

 private:
  dc::CudaDeviceContext* context_ = nullptr;
  kc::CUdeviceptr pointer_ = 0;
  std::size_t bytes_ = 0;
};

std::uint64_t invalid_blocking_timeouts(const dc::CudaDeviceContext& context) {
  return context.timing_json().value("invalid_blocking_timeout", std::uint64_t{0});
}

// Runs the measurement an evaluate request asks for (its policy, racing against its incumbent).
nlohmann::json measure_as_requested(measure::SampleSource& samples, const nlohmann::json& request,
                                    const measure::Policy& policy) {
  std::optional<measure::Stats> incumbent;
  if (request.contains("incumbent") && !request.at("incumbent").is_null())
    incumbent = measure::stats_from_json(request.at("incumbent"));
  return measure::measurement_to_json(measure::run_measurement(samples, policy, incumbent), true);
}

// The measurement into reply["measurement"], and the SM clocks read after its samples (warm-up
// runs included) into reply["sm_clock_mhz"]: the state the GPU measured it in.
void measure_into(nlohmann::json& reply, measure::SampleSource& samples, const nlohmann::json& request,
                  dc::CudaDeviceContext& context) {
  const measure::Policy policy = measure::policy_from_json(request.value("policy", nlohmann::json::object()));
  // Every family's samples go through this context, so the flush the policy asks for is set here.
  context.set_clean_flush(policy.l2_flush == measure::L2Flush::Clean);
  context.take_sm_clocks();  // the verification's launches are not this measurement's
  reply["measurement"] = measure_as_requested(samples, request, policy);
  if (nlohmann::json clocks = context.take_sm_clocks(); !clocks.is_null()) reply["sm_clock_mhz"] = std::move(clocks);
}

// Seconds spent in each step of one evaluation, named as the tuner's phases are (prepare,
// load, check for the verified run and its check of D, measure): "phases" of the reply.
class PhaseClock {
 public:
  void lap(const char* phase) {
    const auto now = std::chrono::steady_clock::now();
    phases_[phase] = phases_.value(phase, 0.0) + std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  nlohmann::json json() const {
    nlohmann::json j = phases_;
    j["total"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return j;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
  nlohmann::json phases_ = nlohmann::json::object();
};

nlohmann::json error_reply(const std::string& message) {
  return {{"status", "runtime_error"},
          {"error", message},
          {"verified", false},
          {"verification", nlohmann::json::object()},
          {"measurement", nullptr},
          {"reference_seconds", 0.0}};
}

}  // namespace

struct GemmWorker::State {
  int ordinal = -1;
  std::shared_ptr<const kc::CudaDriver> driver;
  // The device's properties from the driver alone (open_driver), before its context exists.
  std::optional<kc::CudaDeviceProperties> driver_properties;
  Loaded<kc::NvrtcCompiler> nvrtc;
  // After nvrtc: its threads use the compiler, so it goes first.
  std::unique_ptr<generated::BackgroundCompiler> compiler;
  Loaded<kc::Nvml> nvml;
  std::shared_ptr<dc::CudaDeviceContext> context;         // blocking-kernel timing
  std::shared_ptr<dc::CudaDeviceContext> events_context;  // plain events, once the blocking kernel failed
  std::string timing_note;
  std::optional<Loaded<cublaslt::CublasLt>> lt;
  cublaslt::Handle handle = nullptr;
  // Where the GPU puts thread-block clusters (probed at the first generated kernel with one).
  std::unique_ptr<generated::ClusterPlacement> cluster_placement;

  std::string problem_key;
  GemmProblem problem;
  GemmReference reference;
  DeviceBuffer a, b, c, d, bias, workspace;
  DeviceBuffer splitk_workspace, splitk_counters;  // generated split-K kernels (see gemm_params.h)
  DeviceBuffer repack_scratch;                      // operands copied to 16-byte rows (generated/repack.h)
  std::unique_ptr<cublaslt::MatmulDescriptors> descriptors;
  std::vector<std::byte> poison, output;
  // D checked on the device (sampled reference): the check kernels, compiled by NVRTC in the
  // background when the device opens (the first candidates of a cold cache check on the host);
  // the sampled elements' indices and room for their values.
  std::future<void> checks_compiled;
  std::unique_ptr<dc::CheckKernels> checks;
  bool checks_failed = false;
  DeviceBuffer sample_indices, sample_values;
  std::vector<std::byte> sampled;

  ~State() {
    if (pending_inputs.valid()) pending_inputs.wait();
    reset_problem();
    reset_device();
  }

  // The device side of the problem; host inputs still being made (pending_inputs) stay.
  void reset_problem() {
    allocated_key.clear();
    sample_indices.release();
    sample_values.release();
    descriptors.reset();
    for (DeviceBuffer* buffer : {&a, &b, &c, &d, &bias, &workspace, &splitk_workspace, &splitk_counters, &repack_scratch})
      buffer->release();
    problem_key.clear();
    reference = {};
    poison.clear();
    output.clear();
    release_pinned();
  }

  // D comes back through page-locked memory when the driver gives some: the copy then runs at
  // full PCIe speed, which matters when every candidate's 100+ MB output is checked.
  void* pinned = nullptr;
  std::size_t pinned_bytes = 0;
  void release_pinned() {
    if (pinned && context && !context->poisoned()) {
      try {
        context->enter();
        context->api().cuMemFreeHost(pinned);
      } catch (const std::exception&) {
        // The context is gone; so is the allocation.
      }
    }
    pinned = nullptr;
    pinned_bytes = 0;
  }
  std::span<const std::byte> download_d() {
    const std::size_t bytes = d.bytes();
    context->enter();
    if (pinned_bytes < bytes) {
      release_pinned();
      void* host = nullptr;
      if (context->api().cuMemHostAlloc(&host, bytes, 0) == kc::cu::kSuccess) {
        pinned = host;
        pinned_bytes = bytes;
      }
    }
    if (pinned && bytes > 0) {
      context->check(context->api().cuMemcpyDtoH(pinned, static_cast<kc::CUdeviceptr>(reinterpret_cast<std::uintptr_t>(d.get())),
                                                 bytes),
                     "cuMemcpyDtoH(D)");
      return {static_cast<const std::byte*>(pinned), bytes};
    }
    d.download(output, "D");
    return output;
  }

  void reset_device() {
    if (checks_compiled.valid()) checks_compiled.wait();
    checks_compiled = {};
    if (checks && context && context->poisoned()) (void)checks.release();  // its module went with the context
    checks.reset();
    checks_failed = false;
    compiler.reset();
    if (cluster_placement && context && !context->poisoned()) context->enter();  // its tables are freed there
    cluster_placement.reset();
    if (handle && lt && *lt && context && !context->poisoned()) {
      context->enter();
      (*lt)->api().Destroy(handle);
    }
    handle = nullptr;
    events_context.reset();
    context.reset();
    driver_properties.reset();
    ordinal = -1;
  }

  // The open device's properties: the context's, or the driver's between open_driver and
  // open_context.
  const kc::CudaDeviceProperties& properties() const {
    if (context) return context->properties();
    if (!driver_properties) throw std::logic_error("gemm worker: no device is open");
    return *driver_properties;
  }

  dc::CudaDeviceContext& timing_context() { return events_context ? *events_context : *context; }

  device::CompileCache generated_cache() const { return device::CompileCache(device::default_cache_root() / "cuda-gemm"); }

  // Generated kernels compile here, on all cores, while the GPU measures other candidates.
  generated::BackgroundCompiler& background_compiler() {
    if (!compiler) compiler = std::make_unique<generated::BackgroundCompiler>(nvrtc.value, generated_cache());
    return *compiler;
  }

  // Zeroed split-K workspace and counters large enough for `launch` (grown on demand).
  void prepare_split_k(const generated::Launch& launch) {
    const std::size_t workspace_bytes = static_cast<std::size_t>(launch.split_k_workspace_floats) * sizeof(float);
    const std::size_t counter_bytes = static_cast<std::size_t>(launch.counter_count) * sizeof(unsigned);
    if (splitk_workspace.bytes() < workspace_bytes) splitk_workspace.allocate(*context, workspace_bytes, "split-K workspace");
    if (splitk_counters.bytes() < counter_bytes) splitk_counters.allocate(*context, counter_bytes, "split-K counters");
    context->enter();
    context->check(context->api().cuMemsetD8(static_cast<kc::CUdeviceptr>(reinterpret_cast<std::uintptr_t>(splitk_workspace.get())), 0,
                                             splitk_workspace.bytes()),
                   "cuMemsetD8(split-K workspace)");
    context->check(context->api().cuMemsetD8(static_cast<kc::CUdeviceptr>(reinterpret_cast<std::uintptr_t>(splitk_counters.get())), 0,
                                             splitk_counters.bytes()),
                   "cuMemsetD8(split-K counters)");
  }

  // Fills D with the poison pattern: on the device with one memset when the pattern is one
  // repeated word (every pattern of verify/poison.h is), else by uploading a poisoned copy.
  // For large outputs the upload used to dominate a warm tuning session.
  void poison_d() {
    const std::size_t element = storage_size(problem.out);
    const std::size_t count = d.bytes() / element;
    const kc::CUdeviceptr pointer = static_cast<kc::CUdeviceptr>(reinterpret_cast<std::uintptr_t>(d.get()));
    if (poison.empty()) {
      poison.resize(std::min<std::size_t>(d.bytes(), 16));
      poison_output(problem, poison);
    }
    context->enter();
    const auto& api = context->api();
    if (element == 2 && api.cuMemsetD16 && count > 0) {
      unsigned short word = 0;
      std::memcpy(&word, poison.data(), 2);
      context->check(api.cuMemsetD16(pointer, word, count), "cuMemsetD16(D poison)");
    } else if (element == 4 && api.cuMemsetD32 && count > 0) {
      unsigned word = 0;
      std::memcpy(&word, poison.data(), 4);
      context->check(api.cuMemsetD32(pointer, word, count), "cuMemsetD32(D poison)");
    } else if (element == 1 && count > 0) {
      context->check(api.cuMemsetD8(pointer, static_cast<unsigned char>(poison[0]), count), "cuMemsetD8(D poison)");
    } else {
      std::vector<std::byte> full(d.bytes());
      poison_output(problem, full);
      d.upload(full, "D (poison)");
    }
  }

  // Scratch for the operand copies of `launch` (grown on demand; the copies overwrite it whole).
  void prepare_repack(const generated::Launch& launch) {
    const auto bytes = static_cast<std::size_t>(launch.repacks.bytes());
    if (repack_scratch.bytes() < bytes) repack_scratch.allocate(*context, bytes, "operand repack scratch");
  }

  generated::ClusterPlacement& placement() {
    if (!cluster_placement)
      cluster_placement = std::make_unique<generated::ClusterPlacement>(context->driver(), context->properties());
    return *cluster_placement;
  }

  generated::DeviceOperands generated_operands() {
    return {a.get(), b.get(), c.get(), d.get(), bias.get(), static_cast<float*>(splitk_workspace.get()),
            static_cast<unsigned*>(splitk_counters.get()), repack_scratch.get()};
  }

  std::filesystem::path cache_directory() const { return device::default_cache_root() / "cuda"; }

  bool device_open(int wanted) const { return context && ordinal == wanted; }

  void open_device(int wanted) {
    if (device_open(wanted)) return;
    open_driver(wanted);
    open_context(wanted);
  }

  // The first half of opening a device: the driver, NVRTC, NVML and the device's properties,
  // which are all the generated kernels' listing and compiles need. candidates() queues those
  // compiles here, before the context and the cluster probe (0.15-0.5 s) are made.
  void open_driver(int wanted) {
    reset_problem();
    reset_device();
    // NVRTC and NVML load (dlopen, nvmlInit) while the driver initialises: the device's opening
    // is on every cold session's critical path.
    const auto started = std::chrono::steady_clock::now();
    auto seconds_since = [&started] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    std::future<Loaded<kc::NvrtcCompiler>> nvrtc_loading = std::async(std::launch::async, [] { return kc::NvrtcCompiler::load(); });
    std::future<Loaded<kc::Nvml>> nvml_loading = std::async(std::launch::async, [] { return kc::Nvml::load(); });
    Loaded<kc::CudaDriver> loaded = kc::CudaDriver::load();
    if (!loaded) throw device::DeviceError(loaded.error);
    driver = loaded.value;
    const int count = driver->device_count();
    open_steps = {{"driver_s", seconds_since()}};
    if (wanted < 0 || wanted >= count)
      throw device::DeviceError("no CUDA device " + std::to_string(wanted) + " (this machine has " + std::to_string(count) + ")");
    nvrtc = nvrtc_loading.get();
    nvml = nvml_loading.get();
    driver_properties = kc::query_device_properties(*driver, wanted);
    open_steps["libraries_s"] = seconds_since();
    open_started = started;
    // The check kernels first: the baseline's verification wants them before any generated
    // kernel's (without them the host checks D).
    if (nvrtc)
      checks_compiled = std::async(std::launch::async, [compiler = nvrtc.value, dir = cache_directory(),
                                                        arch = driver_properties->arch()] {
        dc::cached_cubin(*compiler, dir, dc::check_kernels_source(), "ktune_check_kernels.cu", arch, ".check.cubin");
      });
  }

  // The second half (after open_driver): the context, then the cluster probe.
  void open_context(int wanted) {
    auto seconds_since = [this] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - open_started).count();
    };
    dc::TimingOptions timing;
    // cuBLASLt is enqueued behind the blocking kernel; should it ever wait for the GPU while
    // enqueueing, a short timeout costs one invalid sample before falling back to events.
    timing.blocking_timeout_seconds = 1.0;
    context = std::make_shared<dc::CudaDeviceContext>(driver, wanted, nvml.value, nvml.error, timing);
    open_steps["context_s"] = seconds_since();
    ordinal = wanted;
    // Where the GPU puts clusters, probed now, before any problem is set up: probed at the first
    // cluster kernel's load instead, that kernel measured ~2% slower than without the probe
    // (session 40: the first cluster candidate of 27 tuning runs, 1.019x against B's; the
    // other 224 cluster candidates 0.995x).
    if (context->properties().compute_major >= 9) {
      context->enter();
      placement().resident_clusters(2);
      open_steps["cluster_probe_s"] = seconds_since();
    }
  }

  // The check kernels once compiled; nullptr while NVRTC still works on them, or for good when
  // they cannot be had (the host checks D then).
  dc::CheckKernels* device_checks() {
    if (checks || checks_failed) return checks.get();
    if (!checks_compiled.valid() ||
        checks_compiled.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return nullptr;
    try {
      checks_compiled.get();
      checks = std::make_unique<dc::CheckKernels>(context, *nvrtc.value, cache_directory());
    } catch (const device::ContextPoisoned&) {
      throw;
    } catch (const std::exception&) {
      checks_failed = true;
    }
    return checks.get();
  }

  // The check of D after a verified run. With a sampled reference and 16- or 32-bit output
  // storage, on the device: a scan of all of D for elements with every exponent bit set
  // (poison, NaN, infinity), then only the sampled elements copied back (hundreds of KB, not
  // the 100+ MB of a large D, every candidate). Anything the scan finds, and every other case,
  // is checked on the host from all of D, which also names the first offending element.
  GemmCheck check_d(const CheckOptions& options) {
    const std::size_t size = storage_size(problem.out);
    std::uint32_t mask = 0;
    if (problem.out == Storage::F16) mask = 0x7C00u;
    else if (problem.out == Storage::BF16) mask = 0x7F80u;
    else if (problem.out == Storage::F32) mask = 0x7F800000u;
    dc::CheckKernels* k = reference.mode == ReferenceMode::Sampled && mask ? device_checks() : nullptr;
    if (k) {
      const std::size_t n = reference.elements.size();
      if (sample_indices.bytes() == 0 && n > 0) {
        std::vector<std::byte> indices(n * sizeof(std::int64_t));
        for (std::size_t i = 0; i < n; ++i) std::memcpy(indices.data() + i * 8, &reference.elements[i].index, 8);
        sample_indices.allocate(*context, indices.size(), "sampled indices");
        sample_indices.upload(indices, "sampled indices");
        sample_values.allocate(*context, n * size, "sampled values");
      }
      const dc::MaskedCount scan =
          k->count_masked(d.address(), static_cast<std::size_t>(problem.d_elements()), static_cast<int>(size), mask);
      if (scan.count == 0) {
        k->gather(d.address(), static_cast<int>(size), sample_indices.address(), n, sample_values.address());
        sample_values.download(sampled, "sampled values");
        GemmCheck check = check_sampled_values(problem, reference, sampled, options);
        check.on_device = true;
        return check;
      }
    }
    return check_output(problem, reference, download_d(), options);
  }

  // The cuBLASLt library and a handle in this device's context; the reason when unavailable.
  std::optional<std::string> open_cublaslt() {
    if (!lt) lt = cublaslt::CublasLt::load();
    if (!*lt) return lt->error;
    if (!handle) {
      context->enter();
      (*lt)->check((*lt)->api().Create(&handle), "cublasLtCreate");
    }
    return std::nullopt;
  }

  // Inputs, reference and device buffers for the setup's problem, in steps that let the
  // listing do other work meanwhile: start_prepare makes the inputs and the fp64 reference on a
  // host thread (it needs no device, so it starts before the device opens and before NVRTC
  // takes the cores); allocate_pending allocates the device buffers (the matmul descriptors need
  // the bias pointer before cuBLASLt enumerates); finish_prepare waits for the host thread and
  // uploads. prepare does all three.
  struct HostInputs {
    GemmOperands operands;
    GemmReference reference;
    double operands_seconds = 0;  // making the inputs (the reference's time is reference.seconds)
  };
  double last_operands_seconds = 0, last_upload_seconds = 0;
  nlohmann::json open_steps = nlohmann::json::object();  // open_device's steps (seconds since it began)
  std::chrono::steady_clock::time_point open_started;
  std::future<HostInputs> pending_inputs;
  std::string pending_key, allocated_key;
  GemmProblem pending_problem;
  std::size_t pending_workspace = 0;
  std::chrono::steady_clock::time_point pending_started;

  static std::string prepare_key(const GemmSetup& setup) {
    return setup.problem.hash() + "|" + std::to_string(setup.seed) + "|" + std::string(reference_mode_name(setup.reference)) +
           "|" + std::to_string(setup.cublaslt.workspace_bytes);
  }

  void start_prepare(const GemmSetup& setup) {
    const std::string key = prepare_key(setup);
    if (key == problem_key || (pending_inputs.valid() && key == pending_key)) return;
    if (pending_inputs.valid()) pending_inputs.wait();
    pending_started = std::chrono::steady_clock::now();
    pending_key = key;
    pending_problem = setup.problem;
    pending_workspace = setup.cublaslt.workspace_bytes;
    pending_inputs = std::async(std::launch::async, [problem = setup.problem, seed = setup.seed, mode = setup.reference] {
      HostInputs host;
      const auto t0 = std::chrono::steady_clock::now();
      host.operands = make_operands(problem, seed);
      host.operands_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      host.reference = compute_reference(problem, host.operands, {mode});
      return host;
    });
  }

  void allocate_pending() {
    if (!pending_inputs.valid() || allocated_key == pending_key) return;
    reset_problem();  // the previous problem's buffers
    problem = pending_problem;
    a.allocate(*context, static_cast<std::size_t>(problem.a_elements()) * storage_size(problem.a_storage()), "A");
    b.allocate(*context, static_cast<std::size_t>(problem.b_elements()) * storage_size(problem.b_storage()), "B");
    if (problem.reads_c()) c.allocate(*context, static_cast<std::size_t>(problem.c_elements()) * storage_size(problem.out), "C");
    if (problem.bias)
      bias.allocate(*context, static_cast<std::size_t>(problem.bias_elements()) * storage_size(problem.bias_storage()), "bias");
    d.allocate(*context, static_cast<std::size_t>(problem.d_elements()) * storage_size(problem.out), "D");
    workspace.allocate(*context, pending_workspace, "cuBLASLt workspace");
    allocated_key = pending_key;
  }

  // Seconds from start_prepare to the uploaded inputs (0 when they were already there).
  double finish_prepare() {
    if (!pending_inputs.valid()) return 0;
    allocate_pending();
    HostInputs host = pending_inputs.get();  // rethrows what making them threw
    reference = std::move(host.reference);
    last_operands_seconds = host.operands_seconds;
    const auto t0 = std::chrono::steady_clock::now();
    a.upload(host.operands.a, "A");
    b.upload(host.operands.b, "B");
    c.upload(host.operands.c, "C");
    bias.upload(host.operands.bias, "bias");
    last_upload_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    problem_key = pending_key;
    pending_key.clear();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - pending_started).count();
  }

  double prepare(const GemmSetup& setup) {
    start_prepare(setup);
    return finish_prepare();
  }

  cublaslt::MatmulDescriptors& matmul_descriptors() {
    if (!descriptors)
      descriptors = std::make_unique<cublaslt::MatmulDescriptors>(lt->value, problem, problem.bias ? bias.get() : nullptr);
    return *descriptors;
  }

  cublaslt::MatmulBuffers buffers() const {
    return {a.get(), b.get(), problem.reads_c() ? c.get() : nullptr, d.get(), workspace.get(), workspace.bytes()};
  }

  void enqueue(const cublaslt::MatmulAlgo& algo, kc::CUstream stream) {
    cublaslt::enqueue_matmul(**lt, handle, *descriptors, problem, algo, buffers(),
                             reinterpret_cast<cublaslt::Stream>(stream));
  }

  void run_once(const cublaslt::MatmulAlgo& algo) {
    context->enter();
    enqueue(algo, context->stream());
    context->check(context->api().cuStreamSynchronize(context->stream()), "the matmul (cuStreamSynchronize)");
  }

  void fall_back_to_events(const std::string& why) {
    dc::TimingOptions timing;
    timing.blocking_kernel = false;
    events_context =
        std::make_shared<dc::CudaDeviceContext>(driver, ordinal, nvml.value, nvml.error, timing);
    events_context->set_clean_flush(context->clean_flush());  // mid-measurement: the same flush
    timing_note = why;
  }
};

namespace {

class MatmulSamples : public measure::SampleSource {
 public:
  MatmulSamples(GemmWorker::State& state, const cublaslt::MatmulAlgo& algo, bool cold)
      : state_(state), algo_(algo), cold_(cold) {}

  measure::Sample sample() override {
    dc::CudaDeviceContext& context = state_.timing_context();
    const bool blocking = !state_.events_context && context.uses_blocking_kernel();
    const std::uint64_t before = blocking ? invalid_blocking_timeouts(context) : 0;
    const device::TimedRun run = context.time([&] { state_.enqueue(algo_, context.stream()); }, cold_);
    if (blocking && invalid_blocking_timeouts(context) > before)
      state_.fall_back_to_events(
          "the blocking kernel timed out behind cublasLtMatmul (the library waited for the GPU while enqueueing); "
          "timing with plain CUDA events from then on");
    return {run.seconds, run.valid};
  }

  void warmup_run() override { state_.run_once(algo_); }

 private:
  GemmWorker::State& state_;
  const cublaslt::MatmulAlgo& algo_;
  bool cold_;
};

// Samples of a generated kernel (no library in between, so the blocking kernel always works).
class GeneratedSamples : public measure::SampleSource {
 public:
  GeneratedSamples(GemmWorker::State& state, generated::LoadedGemmKernel& kernel, bool cold)
      : state_(state), kernel_(kernel), cold_(cold) {}

  measure::Sample sample() override {
    dc::CudaDeviceContext& context = state_.timing_context();
    const device::TimedRun run = context.time([&] { kernel_.enqueue(context.stream()); }, cold_);
    return {run.seconds, run.valid};
  }

  void warmup_run() override {
    state_.context->enter();
    kernel_.enqueue(state_.context->stream());
    state_.context->check(state_.context->api().cuStreamSynchronize(state_.context->stream()),
                          "the generated kernel (cuStreamSynchronize)");
  }

 private:
  GemmWorker::State& state_;
  generated::LoadedGemmKernel& kernel_;
  bool cold_;
};

}  // namespace

nlohmann::json candidates_request(const GemmSetup& setup) {
  return {{"op", kCandidatesOp},
          {"problem", setup.problem.to_json()},
          {"device", setup.device},
          {"seed", setup.seed},
          {"reference", reference_mode_name(setup.reference)},
          {"families", setup.families},
          {"cublaslt", cublaslt::enumeration_options_to_json(setup.cublaslt)},
          {"generated",
           {{"max_candidates", setup.generated_max_candidates},
            {"refine", setup.generated_refine},
            {"pingpong", setup.generated_pingpong},
            {"split_cluster", setup.generated_split_cluster},
            {"split_tail", setup.generated_split_tail},
            {"co_resident", setup.generated_co_resident},
            {"evict_first", setup.generated_evict_first},
            {"clusters", setup.generated_clusters},
            {"swap_ab", setup.generated_swap_ab}}}};
}

nlohmann::json refine_request(const GemmSetup& setup, const std::vector<Config>& seeds, const std::vector<Config>& seen,
                              std::size_t max_candidates) {
  nlohmann::json j = candidates_request(setup);
  j["op"] = kRefineOp;
  j["seeds"] = nlohmann::json::array();
  for (const Config& c : seeds) j["seeds"].push_back(config_to_json(c));
  j["seen"] = nlohmann::json::array();
  for (const Config& c : seen) j["seen"].push_back(config_to_json(c));
  j["max_candidates"] = max_candidates;
  return j;
}

nlohmann::json evaluate_request(const GemmSetup& setup, const nlohmann::json& candidate, const EvaluateOptions& options) {
  nlohmann::json j = candidates_request(setup);
  j["op"] = kEvaluateOp;
  j["family"] = candidate.at("family");
  j["candidate"] = candidate.at("candidate");
  j["library_version"] = candidate.value("library_version", std::uint64_t{0});
  j["policy"] = measure::policy_to_json(options.policy);
  j["incumbent"] = options.incumbent ? measure::stats_to_json(*options.incumbent) : nlohmann::json(nullptr);
  j["cold"] = options.cold;
  j["verify"] = options.verify;
  j["measure"] = options.measure;
  if (options.compile_deadline) j["compile_deadline"] = *options.compile_deadline;
  return j;
}

GemmSetup setup_from_request(const nlohmann::json& request) {
  try {
    GemmSetup setup;
    setup.problem = problem_from_json(request.at("problem"));
    setup.device = request.value("device", 0);
    setup.seed = request.value("seed", std::uint64_t{1});
    const std::string mode = request.value("reference", std::string("auto"));
    const auto parsed = parse_reference_mode(mode);
    if (!parsed) throw std::invalid_argument("unknown reference mode '" + mode + "'");
    setup.reference = *parsed;
    if (request.contains("families")) setup.families = request.at("families").get<std::vector<std::string>>();
    if (request.contains("cublaslt")) setup.cublaslt = cublaslt::enumeration_options_from_json(request.at("cublaslt"));
    if (request.contains("generated")) {
      setup.generated_max_candidates = request.at("generated").value("max_candidates", setup.generated_max_candidates);
      setup.generated_refine = request.at("generated").value("refine", setup.generated_refine);
      setup.generated_pingpong = request.at("generated").value("pingpong", setup.generated_pingpong);
      setup.generated_split_cluster = request.at("generated").value("split_cluster", setup.generated_split_cluster);
      setup.generated_split_tail = request.at("generated").value("split_tail", setup.generated_split_tail);
      setup.generated_co_resident = request.at("generated").value("co_resident", setup.generated_co_resident);
      setup.generated_evict_first = request.at("generated").value("evict_first", setup.generated_evict_first);
      setup.generated_clusters = request.at("generated").value("clusters", setup.generated_clusters);
      setup.generated_swap_ab = request.at("generated").value("swap_ab", setup.generated_swap_ab);
    }
    return setup;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed gemm request: ") + e.what());
  }
}

GemmWorker::GemmWorker() : state_(std::make_unique<State>()) {}
GemmWorker::~GemmWorker() = default;

bool GemmWorker::handles(const std::string& op) {
  return op == kCandidatesOp || op == kEvaluateOp || op == kRefineOp;
}

nlohmann::json GemmWorker::handle(const nlohmann::json& request) {
  const std::string op = request.value("op", "");
  if (!handles(op)) throw std::invalid_argument("unknown gemm worker operation '" + op + "'");
  const GemmSetup setup = setup_from_request(request);
  if (op == kCandidatesOp) return candidates(setup);
  if (op == kRefineOp) {
    try {
      return refine(setup, request);
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(std::string("malformed gemm_refine request: ") + e.what());
    }
  }
  return evaluate(setup, request);
}

nlohmann::json GemmWorker::candidates(const GemmSetup& setup) {
  State& s = *state_;
  // Where the listing's time goes (seconds since the request arrived, at each step's end).
  const auto started = std::chrono::steady_clock::now();
  nlohmann::json steps = nlohmann::json::object();
  auto step_done = [&](const char* name) {
    steps[name] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  s.start_prepare(setup);  // inputs and reference on a host thread from now on
  // cuBLASLt's library (hundreds of MB to map) loads while the device opens; the handle needs
  // the context and is made later (open_cublaslt).
  std::future<void> cublaslt_loading;
  if (!s.lt) cublaslt_loading = std::async(std::launch::async, [&s] { s.lt = cublaslt::CublasLt::load(); });
  nlohmann::json reply = {{"candidates", nlohmann::json::array()}, {"families", nlohmann::json::object()}};
  const auto wanted = [&](const char* name) {
    return std::find(setup.families.begin(), setup.families.end(), name) != setup.families.end();
  };
  // The generated kernels start compiling as soon as the driver knows the device, before its
  // context and before the inputs and the reference are made: those and cuBLASLt's enumeration
  // then overlap NVRTC too. They are listed after cuBLASLt's.
  nlohmann::json generated_listed = nlohmann::json::array();
  try {
    const bool opening = !s.device_open(setup.device);
    if (opening) s.open_driver(setup.device);
    if (wanted("generated")) reply["families"]["generated"] = generated_candidates(setup, generated_listed);
    step_done("generated_queued_s");
    if (opening) s.open_context(setup.device);
  } catch (...) {
    if (cublaslt_loading.valid()) cublaslt_loading.wait();
    throw;
  }
  if (cublaslt_loading.valid()) cublaslt_loading.get();
  step_done("device_opened_s");
  s.allocate_pending();
  step_done("buffers_allocated_s");
  for (const std::string& family : setup.families)
    if (family != "cublaslt" && family != "generated")
      reply["families"][family] = {{"available", false}, {"reason", "unknown family '" + family + "'"}};

  // cuBLASLt first, whichever families were asked for: its heuristic's first answer is the
  // baseline (candidate 0) every pick is measured against. Without the cublaslt family only
  // that one candidate is listed.
  {
    nlohmann::json info = {{"available", false}};
    cublaslt::EnumerationOptions options = setup.cublaslt;
    if (!wanted("cublaslt")) {
      options.heuristic_count = 1;
      options.max_candidates = 1;
      info["role"] = "baseline only";
    }
    if (auto missing = s.open_cublaslt()) {
      info["reason"] = *missing;
    } else if (auto reason = cublaslt::unsupported_reason(setup.problem)) {
      info["reason"] = *reason;
    } else {
      const cublaslt::CublasLt& lt = **s.lt;
      info["library"] = {{"path", lt.library_path()}, {"version", lt.version_string()}, {"version_number", lt.version()}};
      s.context->enter();
      const cublaslt::Enumeration e =
          cublaslt::enumerate_candidates(lt, s.handle, s.matmul_descriptors(), setup.problem, options);
      info["available"] = !e.candidates.empty();
      if (e.candidates.empty()) {
        std::string why;
        for (const std::string& note : e.notes) why += (why.empty() ? "" : "; ") + note;
        info["reason"] = why.empty() ? "cuBLASLt offered no candidate" : why;
      }
      info["enumeration"] = e.summary();
      for (const cublaslt::Candidate& c : e.candidates)
        reply["candidates"].push_back(
            {{"family", "cublaslt"}, {"library_version", lt.version()}, {"candidate", cublaslt::candidate_to_json(c)}});
    }
    reply["families"]["cublaslt"] = info;
  }
  step_done("cublaslt_listed_s");
  for (nlohmann::json& entry : generated_listed) reply["candidates"].push_back(std::move(entry));
  reply["reference_seconds"] = s.finish_prepare();
  step_done("inputs_uploaded_s");
  steps["device_open"] = s.open_steps;
  steps["operands_seconds"] = s.last_operands_seconds;  // durations, not times since the request
  steps["upload_seconds"] = s.last_upload_seconds;
  reply["steps"] = steps;

  reply["reference"] = {{"mode", reference_mode_name(s.reference.mode)},
                        {"elements", s.reference.elements.size()},
                        {"seconds", s.reference.seconds}};
  const auto& properties = s.context->properties();
  reply["device"] = {{"ordinal", s.ordinal}, {"name", properties.name}, {"arch", properties.arch()}};
  reply["timing"] = s.timing_context().timing_json();
  return reply;
}

nlohmann::json GemmWorker::generated_candidates(const GemmSetup& setup, nlohmann::json& candidates) {
  State& s = *state_;
  nlohmann::json info = {{"available", false}};
  if (auto reason = generated::unsupported_reason(setup.problem)) {
    info["reason"] = *reason;
    return info;
  }
  if (!s.nvrtc) {
    info["reason"] = "NVRTC is not available: " + s.nvrtc.error;
    return info;
  }
  const kc::NvrtcCompiler& nvrtc = *s.nvrtc;
  info["library"] = {{"path", nvrtc.library_path()},
                     {"version", generated::generator_version() + " nvrtc " + nvrtc.version_string()}};
  const generated::DeviceTraits device = generated::device_traits(s.properties());
  const generated::ProblemTraits traits = generated::problem_traits(setup.problem);
  generated::SpaceOptions options;
  options.max_candidates = static_cast<std::size_t>(std::max(0, setup.generated_max_candidates));
  options.pingpong = setup.generated_pingpong;
  options.split_cluster = setup.generated_split_cluster;
  options.split_tail = setup.generated_split_tail;
  options.co_resident = setup.generated_co_resident;
  options.evict_first = setup.generated_evict_first;
  options.clusters = setup.generated_clusters;
  options.swap_ab = setup.generated_swap_ab;
  generated::SpaceSummary summary;
  const std::vector<generated::RankedKnobs> chosen = generated::select_candidates(traits, device, options, &summary);
  info["space"] = summary.to_json();
  if (chosen.empty()) {
    info["reason"] = summary.valid == 0 ? "no knob setting passes the constraints for this problem on this device"
                                        : "no candidates requested";
    return info;
  }
  nlohmann::json compile = compile_generated(chosen, traits, "model#", candidates);
  compile["speculative"] = speculate_refinement(chosen, traits, device, setup.generated_refine, setup.generated_clusters,
                                                setup.generated_split_tail, setup.generated_co_resident);
  info["available"] = true;
  info["compile"] = compile;
  return info;
}

// The refinement round (tune gemm's step 2b) asks, after the listed kernels are measured, for
// the neighbours of the two fastest; compiling them then made cold sessions wait up to 1.3 s
// for NVRTC. The model's two best estimates are usually the two fastest, so compile threads the
// listed kernels leave idle start on those neighbours now. Nothing is listed: when the measured
// seeds agree, the refinement's compiles are already done or under way (the background
// compiler shares one job per source); when they do not, these compiles were spare time.
std::size_t GemmWorker::speculate_refinement(const std::vector<generated::RankedKnobs>& chosen,
                                             const generated::ProblemTraits& traits, const generated::DeviceTraits& device,
                                             int refine, bool clusters, bool split_tail, bool co_resident) {
  State& s = *state_;
  generated::BackgroundCompiler& compiler = s.background_compiler();
  if (refine <= 0 || chosen.size() < 2 || compiler.threads() < chosen.size()) return 0;
  std::vector<generated::GeneratedKnobs> seen;
  for (const generated::RankedKnobs& r : chosen) seen.push_back(r.knobs);
  const std::vector<generated::GeneratedKnobs> seeds{chosen[0].knobs, chosen[1].knobs};
  std::size_t queued = 0;
  for (const generated::RankedKnobs& r :
       generated::neighbours(seeds, seen, traits, device, static_cast<std::size_t>(refine), clusters, split_tail,
                             co_resident))
    queued += compiler.submit({generated::emit_source(r.knobs, traits), generated::compile_arch(r.knobs.path, device),
                               generated::kernel_symbol(r.knobs.path)})
                  ? 1
                  : 0;
  return queued;
}

nlohmann::json GemmWorker::compile_generated(const std::vector<generated::RankedKnobs>& chosen,
                                             const generated::ProblemTraits& traits, const std::string& source,
                                             nlohmann::json& candidates) {
  State& s = *state_;
  const generated::DeviceTraits device = generated::device_traits(s.properties());
  generated::BackgroundCompiler& compiler = s.background_compiler();
  std::size_t queued = 0;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const generated::RankedKnobs& r = chosen[i];
    queued += compiler.submit({generated::emit_source(r.knobs, traits), generated::compile_arch(r.knobs.path, device),
                               generated::kernel_symbol(r.knobs.path)})
                  ? 1
                  : 0;
    candidates.push_back({{"family", "generated"},
                          {"candidate",
                           {{"config", config_to_json(generated::to_config(r.knobs, traits))},
                            {"source", source + std::to_string(i)},
                            {"estimate", r.estimate.to_json()}}}});
  }
  return {{"mode", "background"}, {"kernels", chosen.size()}, {"queued", queued}, {"threads", compiler.threads()}};
}

nlohmann::json GemmWorker::refine(const GemmSetup& setup, const nlohmann::json& request) {
  State& s = *state_;
  s.open_device(setup.device);
  nlohmann::json reply = {{"candidates", nlohmann::json::array()}};
  if (generated::unsupported_reason(setup.problem) || !s.nvrtc) return reply;
  const generated::ProblemTraits traits = generated::problem_traits(setup.problem);
  const generated::DeviceTraits device = generated::device_traits(s.context->properties());
  auto knobs_of = [](const nlohmann::json& list) {
    std::vector<generated::GeneratedKnobs> out;
    for (const nlohmann::json& c : list) out.push_back(generated::knobs_from_config(config_from_json(c)));
    return out;
  };
  const std::vector<generated::GeneratedKnobs> seeds = knobs_of(request.at("seeds"));
  const std::vector<generated::GeneratedKnobs> seen = knobs_of(request.value("seen", nlohmann::json::array()));
  const auto chosen =
      generated::neighbours(seeds, seen, traits, device, request.value("max_candidates", std::size_t{6}),
                            setup.generated_clusters, setup.generated_split_tail, setup.generated_co_resident);
  reply["compile"] = compile_generated(chosen, traits, "refine#", reply["candidates"]);
  return reply;
}

nlohmann::json GemmWorker::evaluate(const GemmSetup& setup, const nlohmann::json& request) {
  State& s = *state_;
  nlohmann::json reply = error_reply("");
  reply["status"] = "ok";
  try {
    const std::string family = request.at("family").get<std::string>();
    if (family == "generated") return evaluate_generated(setup, request);
    if (family != "cublaslt") return error_reply("unknown gemm family '" + family + "'");
    PhaseClock clock;
    s.open_device(setup.device);
    reply["reference_seconds"] = s.prepare(setup);
    clock.lap("prepare");
    if (auto missing = s.open_cublaslt()) return error_reply(*missing);
    const cublaslt::CublasLt& lt = **s.lt;
    if (auto reason = cublaslt::unsupported_reason(setup.problem)) return error_reply(*reason);
    cublaslt::MatmulDescriptors& descriptors = s.matmul_descriptors();

    const cublaslt::Candidate candidate = cublaslt::candidate_from_json(request.at("candidate"));
    cublaslt::MatmulAlgo algo = candidate.algo;
    static const cublaslt::MatmulAlgo kEmpty{};
    // The descriptor bytes only mean something to the library version that wrote them.
    if (request.value("library_version", std::uint64_t{0}) != lt.version() ||
        std::memcmp(&algo, &kEmpty, sizeof algo) == 0) {
      s.context->enter();
      algo = cublaslt::build_algo(lt, s.handle, descriptors.shape(), candidate.algo_config);
      reply["rebuilt_from_config"] = true;
    }
    s.context->enter();
    const cublaslt::AlgoCheck check = cublaslt::check_algo(lt, s.handle, descriptors, algo);
    if (check.status != cublaslt::lt::kSuccess)
      return error_reply("cuBLASLt rejects this configuration: " + lt.error_text(check.status, "cublasLtMatmulAlgoCheck"));
    if (check.workspace_bytes > s.workspace.bytes())
      return error_reply("the configuration needs " + bytes_text(check.workspace_bytes) + " of workspace, more than the " +
                         bytes_text(s.workspace.bytes()) + " limit");
    reply["workspace_bytes"] = check.workspace_bytes;
    reply["waves"] = check.waves;
    clock.lap("load");

    if (request.value("verify", true)) {
      s.poison_d();
      s.run_once(algo);
      clock.lap("run");
      const GemmCheck result = s.check_d({candidate.split_partials()});
      clock.lap("check");
      reply["phases"] = clock.json();
      reply["verified"] = true;
      reply["verification"] = {{"D", result.to_json()}};
      if (!result.pass) {
        reply["status"] = "wrong_result";
        reply["error"] = "output 'D': " + result.summary();
        return reply;
      }
    }
    if (request.value("measure", true)) {
      MatmulSamples samples(s, algo, request.value("cold", true));
      measure_into(reply, samples, request, s.timing_context());
      clock.lap("measure");
    }
    reply["phases"] = clock.json();
    reply["timing"] = s.timing_context().timing_json();
    if (!s.timing_note.empty()) reply["timing"]["note"] = s.timing_note;
    return reply;
  } catch (const device::ContextPoisoned&) {
    throw;
  } catch (const std::exception& e) {
    nlohmann::json failed = error_reply(e.what());
    failed["reference_seconds"] = reply.value("reference_seconds", 0.0);
    return failed;
  }
}

nlohmann::json GemmWorker::evaluate_generated(const GemmSetup& setup, const nlohmann::json& request) {
  State& s = *state_;
  nlohmann::json reply = error_reply("");
  reply["status"] = "ok";
  try {
    PhaseClock clock;
    s.open_device(setup.device);
    reply["reference_seconds"] = s.prepare(setup);
    clock.lap("prepare");
    if (auto reason = generated::unsupported_reason(setup.problem)) return error_reply(*reason);
    if (!s.nvrtc) return error_reply("NVRTC is not available: " + s.nvrtc.error);
    const Config config = config_from_json(request.at("candidate").at("config"));
    const generated::GeneratedKnobs knobs = generated::knobs_from_config(config);
    const generated::ProblemTraits traits = generated::problem_traits(setup.problem);
    const generated::DeviceTraits device = generated::device_traits(s.context->properties());
    if (auto why = generated::rejects(knobs, traits, device)) {
      nlohmann::json rejected = error_reply("the knob setting cannot run here: " + *why);
      rejected["status"] = "resource_limit";
      return rejected;
    }
    const generated::CompileJob job{generated::emit_source(knobs, traits), generated::compile_arch(knobs.path, device),
                                    generated::kernel_symbol(knobs.path)};
    // A worker restarted after a crash knows none of the listing's compiles: submit (a no-op for a
    // known job) so that the deadline waits on a compile that is running.
    if (request.contains("compile_deadline")) {
      s.background_compiler().submit(job);
      if (!s.background_compiler().ready_within(job, request.at("compile_deadline").get<double>())) {
        nlohmann::json later = error_reply("the kernel's compile had not finished within the deadline");
        later["status"] = "not_ready";
        later["not_ready"] = true;
        return later;
      }
    }
    const generated::BackgroundCompiler::Result compile = s.background_compiler().get(job);
    const generated::CompiledKernel& compiled = compile.kernel;
    clock.lap("compile_wait");
    reply["compile"] = {{"cached", compiled.cached},
                        {"seconds", compiled.seconds},
                        {"waited_seconds", compile.waited_seconds},
                        {"background", compile.background}};
    reply["kernel_resources"] = compiled.resources;
    if (!compiled.ok) {
      reply["status"] = "compile_error";
      reply["error"] = compiled.error.substr(0, 8000);
      return reply;
    }
    const generated::Launch launch = generated::plan_launch(knobs, traits, device);
    if (launch.needs_split_k_buffers) s.prepare_split_k(launch);
    if (launch.repacks.any()) s.prepare_repack(launch);
    generated::LoadedGemmKernel kernel(*s.context, compiled.cubin, knobs, traits, setup.problem, device,
                                       s.generated_operands(), &s.placement());
    reply["launch"] = kernel.attributes();
    clock.lap("load");

    if (request.value("verify", true)) {
      // Split-K kernels leave their workspace and counters zero for the next launch; a second
      // run on a fresh poison checks that they do.
      const int runs = knobs.split_k > 1 ? 2 : 1;
      for (int run = 0; run < runs; ++run) {
        s.poison_d();
        s.context->enter();
        kernel.enqueue(s.context->stream());
        s.context->check(s.context->api().cuStreamSynchronize(s.context->stream()),
                         "the generated kernel (cuStreamSynchronize)");
        clock.lap("run");
        const GemmCheck result = s.check_d({0});
        clock.lap("check");
        reply["phases"] = clock.json();
        reply["verified"] = true;
        reply["verification"] = {{"D", result.to_json()}};
        if (run == 1) reply["verification"]["D"]["second_launch"] = true;
        if (!result.pass) {
          reply["status"] = "wrong_result";
          reply["error"] = std::string(run == 1 ? "second launch (split-K state not reset), " : "") + "output 'D': " +
                           result.summary();
          return reply;
        }
      }
    }
    if (request.value("measure", true)) {
      GeneratedSamples samples(s, kernel, request.value("cold", true));
      measure_into(reply, samples, request, s.timing_context());
      clock.lap("measure");
    }
    reply["phases"] = clock.json();
    reply["timing"] = s.timing_context().timing_json();
    return reply;
  } catch (const device::ContextPoisoned&) {
    throw;
  } catch (const std::exception& e) {
    nlohmann::json failed = error_reply(e.what());
    failed["reference_seconds"] = reply.value("reference_seconds", 0.0);
    return failed;
  }
}

}  // namespace ktune::gemm
