#include "ktune/families/gemm/gemm_executor.h"


#include <stdexcept>

#include "ktune/core/config.h"
#include "ktune/device/compile_cache.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/families/generated/generated_launch.h"
#include "ktune/families/generated/generated_runner.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::gemm {
namespace kc = ktune::cuda;

namespace {

constexpr std::uintptr_t kAlignment = 16;

bool aligned(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) % kAlignment) == 0; }

}  // namespace

// What the executor loads once: the driver and the device's primary context at construction;
// cuBLASLt (with one handle) and NVRTC on first need.
struct GemmExecutor::Libraries {
  std::shared_ptr<const kc::CudaDriver> driver;
  int ordinal = 0;
  kc::CUdevice device = 0;
  kc::CUcontext context = nullptr;
  kc::CudaDeviceProperties properties;
  generated::DeviceTraits traits;
  std::mutex load_mutex;  // guards the lazily loaded members below
  std::shared_ptr<const cublaslt::CublasLt> lt;
  cublaslt::Handle lt_handle = nullptr;
  std::shared_ptr<const kc::NvrtcCompiler> nvrtc;
  std::unique_ptr<generated::ClusterPlacement> placement;  // probed at the first plan with clusters

  const kc::DriverApi& api() const { return driver->api(); }
  void check(kc::CUresult rc, const char* call) const { driver->check(rc, call); }

  const std::shared_ptr<const cublaslt::CublasLt>& cublas_lt() {
    std::lock_guard lock(load_mutex);
    if (!lt) {
      Loaded<cublaslt::CublasLt> loaded = cublaslt::CublasLt::load();
      if (!loaded) throw std::runtime_error(loaded.error);
      cublaslt::Handle handle = nullptr;
      loaded->check(loaded->api().Create(&handle), "cublasLtCreate");
      lt = loaded.value;
      lt_handle = handle;
    }
    return lt;
  }
  const kc::NvrtcCompiler& compiler() {
    std::lock_guard lock(load_mutex);
    if (!nvrtc) {
      Loaded<kc::NvrtcCompiler> loaded = kc::NvrtcCompiler::load();
      if (!loaded) throw std::runtime_error(loaded.error);
      nvrtc = loaded.value;
    }
    return *nvrtc;
  }
  // The GPC-aware order of a loaded plan's clusters (cluster_probe.h): probed here, when the
  // plan loads, never at a launch (which may be inside a stream capture).
  void order_clusters(KtuneGemmParams& params, const generated::GeneratedKnobs& knobs, const generated::Launch& launch,
                      kc::CUfunction function) {
    if (generated::cluster_size(knobs) <= 1) return;
    std::lock_guard lock(load_mutex);
    if (!placement) placement = std::make_unique<generated::ClusterPlacement>(*driver, properties);
    int blocks = 0;
    if (api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function, launch.shape.threads,
                                                         static_cast<std::size_t>(launch.shape.dynamic_shared_bytes)) !=
        kc::cu::kSuccess)
      return;
    generated::apply_cluster_order(params, knobs, launch, placement.get(), blocks);
  }
};

// Makes the device's primary context current for the scope and puts back whatever context the
// thread had (another device's, the application's own), so the caller's CUDA state is as it was.
// On PyTorch's threads the primary context is already current: one cuCtxGetCurrent.
class GemmExecutor::ContextScope {
 public:
  explicit ContextScope(const Libraries& libs) : libs_(libs) {
    if (libs_.api().cuCtxGetCurrent(&previous_) == kc::cu::kSuccess && previous_ == libs_.context) return;
    libs_.check(libs_.api().cuCtxSetCurrent(libs_.context), "cuCtxSetCurrent");
    switched_ = true;
  }
  ~ContextScope() {
    if (switched_) libs_.api().cuCtxSetCurrent(previous_);
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  const Libraries& libs_;
  kc::CUcontext previous_ = nullptr;
  bool switched_ = false;
};

struct GemmExecutor::Plan {
  std::string problem_name, family;
  nlohmann::json config;
  GemmProblem problem;
  std::mutex mutex;  // the bias pointer in the descriptors; the cached kernel parameters
  // family "cublaslt"
  std::unique_ptr<cublaslt::MatmulDescriptors> descriptors;
  cublaslt::MatmulAlgo algo{};
  std::size_t workspace_bytes = 0;
  const void* bias_in_descriptors = nullptr;
  // family "generated"
  generated::GeneratedKnobs knobs;
  generated::ProblemTraits traits;
  generated::Launch launch;
  kc::CUmodule module = nullptr;
  kc::CUfunction function = nullptr;
  kc::CUfunction repack_function = nullptr;  // when launch.repacks.any() (generated/repack.h)
  kc::CUfunction reduce_function = nullptr;  // when launch.reduce_grid (split-K slices summed)
  std::vector<generated::RepackLaunch> repacks;
  bool compile_cached = false;
  generated::DeviceOperands last_operands;  // what `params` was made for
  KtuneGemmParams params{};
  bool params_valid = false;
  const unsigned short* cluster_order = nullptr;  // see gemm_params.h
  int cluster_order_size = 0;

  bool split_reduce() const { return launch.reduce_grid > 0; }
  // The zeroed buffer of atomic split-K, or the slices of a separate reduction.
  std::size_t split_k_workspace_bytes() const {
    return launch.needs_split_k_buffers && !split_reduce() ? static_cast<std::size_t>(launch.split_k_workspace_floats) * sizeof(float)
                                                           : 0;
  }
  std::size_t split_slices_bytes() const {
    return split_reduce() ? static_cast<std::size_t>(launch.split_k_workspace_floats) * sizeof(float) : 0;
  }
  std::size_t counter_bytes() const {
    return launch.needs_split_k_buffers ? static_cast<std::size_t>(launch.counter_count) * sizeof(unsigned) : 0;
  }
};

// Per-stream scratch memory, grown on demand. Split-K kernels with atomic adds leave their
// partial sums and tile counters zero when they finish, so both are zeroed once, when allocated.
// Kernels with a separate reduction (split_reduce) leave their slices behind: they get a buffer
// of their own, which they overwrite whole on every launch.
struct GemmExecutor::Scratch {
  std::mutex mutex;  // held from growing the buffers to the launch that uses them
  struct Buffer {
    kc::CUdeviceptr pointer = 0;
    std::size_t bytes = 0;
  };
  Buffer lt_workspace, split_k_workspace, counters, repack, split_slices;
};

GemmExecutor::GemmExecutor(int ordinal) : libs_(std::make_unique<Libraries>()) {
  Loaded<kc::CudaDriver> driver = kc::CudaDriver::load();
  if (!driver) throw std::runtime_error(driver.error);
  libs_->driver = driver.value;
  libs_->ordinal = ordinal;
  if (ordinal < 0 || ordinal >= libs_->driver->device_count())
    throw std::runtime_error("CUDA device " + std::to_string(ordinal) + " does not exist (" +
                             std::to_string(libs_->driver->device_count()) + " device(s))");
  libs_->check(libs_->api().cuDeviceGet(&libs_->device, ordinal), "cuDeviceGet");
  libs_->check(libs_->api().cuDevicePrimaryCtxRetain(&libs_->context, libs_->device), "cuDevicePrimaryCtxRetain");
  try {
    const ContextScope scope(*libs_);
    libs_->properties = kc::query_device_properties(*libs_->driver, ordinal);
    libs_->traits = generated::device_traits(libs_->properties);
  } catch (...) {
    libs_->api().cuDevicePrimaryCtxRelease(libs_->device);
    throw;
  }
}

GemmExecutor::~GemmExecutor() {
  // Best effort: at process exit the driver may already have torn the context down.
  try {
    const ContextScope scope(*libs_);
    // The whole context, not each stream: the application may have destroyed streams it ran on.
    libs_->api().cuCtxSynchronize();
    for (auto& [stream, scratch] : scratch_) {
      for (const Scratch::Buffer* b : {&scratch->lt_workspace, &scratch->split_k_workspace, &scratch->counters, &scratch->repack,
                                       &scratch->split_slices})
        if (b->pointer) libs_->api().cuMemFree(b->pointer);
    }
    for (const auto& p : plans_)
      if (p->module) libs_->api().cuModuleUnload(p->module);
    if (libs_->lt_handle) libs_->lt->api().Destroy(libs_->lt_handle);
    libs_->placement.reset();  // its tables, while the context is current
    libs_->api().cuDevicePrimaryCtxRelease(libs_->device);
  } catch (const std::exception&) {
  }
}

const std::string& GemmExecutor::device_name() const { return libs_->properties.name; }

std::size_t GemmExecutor::plan_count() const {
  std::shared_lock lock(plans_mutex_);
  return plans_.size();
}

const GemmExecutor::Plan& GemmExecutor::plan(int id) const {
  std::shared_lock lock(plans_mutex_);
  if (id < 0 || static_cast<std::size_t>(id) >= plans_.size())
    throw std::out_of_range("no GEMM plan " + std::to_string(id) + " (" + std::to_string(plans_.size()) + " plan(s))");
  return *plans_[static_cast<std::size_t>(id)];
}

namespace {

void prepare_cublaslt(GemmExecutor::Plan& p, const std::shared_ptr<const cublaslt::CublasLt>& library,
                      cublaslt::Handle handle) {
  const cublaslt::CublasLt& lt = *library;
  if (auto why = cublaslt::unsupported_reason(p.problem)) throw std::runtime_error(*why);
  p.descriptors = std::make_unique<cublaslt::MatmulDescriptors>(library, p.problem, nullptr);
  const cublaslt::AlgoConfig config = cublaslt::algo_config_from(config_from_json(p.config));
  p.algo = cublaslt::build_algo(lt, handle, p.descriptors->shape(), config);
  const cublaslt::AlgoCheck check = cublaslt::check_algo(lt, handle, *p.descriptors, p.algo);
  if (check.status != cublaslt::lt::kSuccess)
    throw std::runtime_error("this cuBLASLt (" + lt.version_string() + ") no longer accepts the configuration: " +
                             lt.error_text(check.status, "cublasLtMatmulAlgoCheck"));
  p.workspace_bytes = check.workspace_bytes;
}

}  // namespace

int GemmExecutor::add_plan(const nlohmann::json& pick) {
  auto p = std::make_unique<Plan>();
  p->problem_name = pick.value("problem_name", std::string("a GEMM pick"));
  try {
    p->problem = problem_from_json(pick.at("problem"));
    p->config = pick.at("config");
    p->family = p->config.value("family", std::string());
    const nlohmann::json device = pick.value("device", nlohmann::json::object());
    const std::string measured_on = device.is_object() ? device.value("name", std::string()) : "";
    if (!measured_on.empty() && measured_on != device_name())
      throw std::runtime_error("measured on " + measured_on + ", this is " + device_name());
    const ContextScope scope(*libs_);
    if (p->family == "cublaslt") {
      const std::shared_ptr<const cublaslt::CublasLt>& lt = libs_->cublas_lt();
      prepare_cublaslt(*p, lt, libs_->lt_handle);
    } else if (p->family == "generated") {
      if (auto why = generated::unsupported_reason(p->problem)) throw std::runtime_error(*why);
      p->knobs = generated::knobs_from_config(config_from_json(p->config));
      p->traits = generated::problem_traits(p->problem);
      if (auto why = generated::rejects(p->knobs, p->traits, libs_->traits))
        throw std::runtime_error("the kernel cannot run on this device: " + *why);
      p->launch = generated::plan_launch(p->knobs, p->traits, libs_->traits);
      const device::CompileCache cache(device::default_cache_root() / "cuda-gemm");
      const generated::CompiledKernel compiled = generated::compile_kernel(
          generated::emit_source(p->knobs, p->traits), generated::compile_arch(p->knobs.path, libs_->traits),
          generated::kernel_symbol(p->knobs.path), libs_->compiler(), cache);
      if (!compiled.ok) throw std::runtime_error("the kernel does not compile: " + compiled.error.substr(0, 2000));
      p->compile_cached = compiled.cached;
      if (p->knobs.path == generated::KernelPath::Wgmma && !libs_->api().cuTensorMapEncodeTiled)
        throw std::runtime_error("this CUDA driver has no cuTensorMapEncodeTiled; TMA kernels cannot run");
      libs_->check(libs_->api().cuModuleLoadData(&p->module, compiled.cubin.data()), "cuModuleLoadData");
      const std::string symbol = generated::kernel_symbol(p->knobs.path);
      libs_->check(libs_->api().cuModuleGetFunction(&p->function, p->module, symbol.c_str()), "cuModuleGetFunction");
      if (p->launch.repacks.any())
        libs_->check(libs_->api().cuModuleGetFunction(&p->repack_function, p->module, generated::kRepackSymbol),
                     "cuModuleGetFunction(operand repack)");
      if (p->launch.reduce_grid > 0)
        libs_->check(libs_->api().cuModuleGetFunction(&p->reduce_function, p->module, generated::kReduceSymbol),
                     "cuModuleGetFunction(split-K reduction)");
      libs_->check(libs_->api().cuFuncSetAttribute(p->function, kc::cu::kFuncMaxDynamicSharedSizeBytes,
                                                   p->launch.shape.dynamic_shared_bytes),
                   "cuFuncSetAttribute(max dynamic shared memory)");
      KtuneGemmParams ordered{};
      libs_->order_clusters(ordered, p->knobs, p->launch, p->function);
      p->cluster_order = ordered.cluster_order;
      p->cluster_order_size = ordered.cluster_order_size;
    } else {
      throw std::runtime_error("unknown family '" + p->family + "'");
    }
  } catch (const std::exception& e) {
    if (p->module) libs_->api().cuModuleUnload(p->module);
    throw std::runtime_error(p->problem_name + ": " + e.what());
  }
  std::unique_lock lock(plans_mutex_);
  plans_.push_back(std::move(p));
  return static_cast<int>(plans_.size() - 1);
}

GemmExecutor::Scratch& GemmExecutor::scratch_of(kc::CUstream stream) {
  std::lock_guard lock(scratch_mutex_);
  std::unique_ptr<Scratch>& slot = scratch_[stream];
  if (!slot) slot = std::make_unique<Scratch>();
  return *slot;
}

void GemmExecutor::grow_scratch(Scratch& scratch, kc::CUstream stream, const Plan& p) {
  const auto grow = [&](Scratch::Buffer& b, std::size_t bytes, bool zero) {
    if (b.bytes >= bytes) return;
    if (b.pointer) {
      // Launches already enqueued on this stream may still use the old buffer.
      libs_->check(libs_->api().cuStreamSynchronize(stream), "cuStreamSynchronize");
      libs_->check(libs_->api().cuMemFree(b.pointer), "cuMemFree");
      b = {};
    }
    libs_->check(libs_->api().cuMemAlloc(&b.pointer, bytes), "cuMemAlloc(GEMM scratch)");
    b.bytes = bytes;
    if (zero) {
      libs_->check(libs_->api().cuMemsetD8(b.pointer, 0, bytes), "cuMemsetD8(GEMM scratch)");
      libs_->check(libs_->api().cuCtxSynchronize(), "cuCtxSynchronize");
    }
  };
  grow(scratch.lt_workspace, p.workspace_bytes, false);
  grow(scratch.split_k_workspace, p.split_k_workspace_bytes(), true);
  grow(scratch.counters, p.counter_bytes(), true);
  grow(scratch.repack, static_cast<std::size_t>(p.launch.repacks.bytes()), false);
  grow(scratch.split_slices, p.split_slices_bytes(), false);
}

RunResult GemmExecutor::run(int id, const GemmBuffers& b, kc::CUstream stream) {
  Plan& p = const_cast<Plan&>(plan(id));
  // A missing operand would be read at address 0: an illegal address, sticky in the
  // application's context. Refuse it here instead.
  if (!b.a || !b.b || !b.d) throw std::invalid_argument(p.problem_name + ": A, B and D are required");
  if (p.problem.reads_c() && !b.c) throw std::invalid_argument(p.problem_name + ": beta is not 0, so C is required");
  if (p.problem.bias && !b.bias) throw std::invalid_argument(p.problem_name + ": the problem has a bias, so bias is required");
  if (!aligned(b.a) || !aligned(b.b) || !aligned(b.c) || !aligned(b.d) || !aligned(b.bias)) return RunResult::Misaligned;
  const ContextScope scope(*libs_);
  const bool needs_scratch = p.workspace_bytes > 0 || p.launch.needs_split_k_buffers || p.launch.repacks.any();
  std::unique_lock<std::mutex> scratch_lock;
  Scratch* scratch = nullptr;
  if (needs_scratch) {
    scratch = &scratch_of(stream);
    scratch_lock = std::unique_lock(scratch->mutex);
    grow_scratch(*scratch, stream, p);
  }
  std::lock_guard plan_lock(p.mutex);
  if (p.family == "cublaslt") {
    if (p.problem.bias && b.bias != p.bias_in_descriptors) {
      p.descriptors->set_bias(b.bias);
      p.bias_in_descriptors = b.bias;
    }
    cublaslt::MatmulBuffers buffers{b.a, b.b, p.problem.reads_c() ? b.c : nullptr, b.d, nullptr, 0};
    if (scratch) {
      buffers.workspace = reinterpret_cast<void*>(static_cast<std::uintptr_t>(scratch->lt_workspace.pointer));
      buffers.workspace_bytes = scratch->lt_workspace.bytes;
    }
    cublaslt::enqueue_matmul(*libs_->lt, libs_->lt_handle, *p.descriptors, p.problem, p.algo, buffers,
                             reinterpret_cast<cublaslt::Stream>(stream));
    return RunResult::Enqueued;
  }
  generated::DeviceOperands operands{b.a, b.b, b.c, b.d, b.bias, nullptr, nullptr};
  if (scratch) {
    operands.workspace = reinterpret_cast<float*>(
        static_cast<std::uintptr_t>(p.split_reduce() ? scratch->split_slices.pointer : scratch->split_k_workspace.pointer));
    operands.counters = reinterpret_cast<unsigned*>(static_cast<std::uintptr_t>(scratch->counters.pointer));
    operands.repack = reinterpret_cast<void*>(static_cast<std::uintptr_t>(scratch->repack.pointer));
  }
  const generated::DeviceOperands& last = p.last_operands;
  if (!p.params_valid || last.a != operands.a || last.b != operands.b || last.c != operands.c || last.d != operands.d ||
      last.bias != operands.bias || last.workspace != operands.workspace || last.counters != operands.counters ||
      last.repack != operands.repack) {
    p.params = generated::make_params(p.knobs, p.traits, p.problem, operands, p.launch, libs_->traits);
    p.params.cluster_order = p.cluster_order;
    p.params.cluster_order_size = p.cluster_order_size;
    p.repacks = generated::repack_launches(p.launch.repacks, operands.a, operands.b, operands.repack, libs_->traits.sm_count);
    if (p.knobs.path == generated::KernelPath::Wgmma)
      generated::encode_tensor_maps(p.params, p.knobs, p.traits, libs_->api().cuTensorMapEncodeTiled);
    p.last_operands = operands;
    p.params_valid = true;
  }
  const generated::EnqueueStatus status = generated::enqueue_gemm(
      libs_->api(), {p.function, p.repack_function, p.reduce_function}, p.launch, p.repacks, p.params, stream);
  if (!status.ok()) libs_->check(status.result, status.what.c_str());
  return RunResult::Enqueued;
}

nlohmann::json GemmExecutor::describe(int id) const {
  const Plan& p = plan(id);
  nlohmann::json j{{"problem_name", p.problem_name}, {"family", p.family}, {"config", p.config},
                   {"workspace_bytes", p.workspace_bytes + p.split_k_workspace_bytes() + p.split_slices_bytes() +
                                           p.counter_bytes() + static_cast<std::size_t>(p.launch.repacks.bytes())}};
  if (p.family == "generated") {
    j["grid"] = p.launch.grid;
    j["threads"] = p.launch.shape.threads;
    j["dynamic_shared_bytes"] = p.launch.shape.dynamic_shared_bytes;
    j["compile_cached"] = p.compile_cached;
  }
  return j;
}

}  // namespace ktune::gemm
