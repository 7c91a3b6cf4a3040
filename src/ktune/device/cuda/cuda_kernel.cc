#include "ktune/device/cuda/cuda_kernel.h"

#include <cstring>
#include <limits>

namespace ktune::device::cuda {
namespace kc = ktune::cuda;
namespace {

std::string describe(const HostArgument& a) { return std::string(element_type_name(a.type)) + (a.is_array ? "*" : ""); }

std::string dims(const std::array<std::int64_t, 3>& d) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

std::string geometry_text(const LaunchGeometry& g) {
  return "grid " + dims(g.grid) + ", block " + dims(g.block) + ", " + std::to_string(g.shared_bytes) +
         " bytes of dynamic shared memory";
}

// CUDA's default per-block shared memory without an opt-in.
constexpr std::int64_t kDefaultSharedBytesPerBlock = 48 * 1024;

}  // namespace

CudaKernel::CudaKernel(std::shared_ptr<CudaDeviceContext> context, const std::string& cubin,
                       const std::string& function_name, const std::string& entry, const LaunchGeometry& geometry,
                       std::vector<std::string> signature)
    : context_(std::move(context)),
      entry_(entry),
      function_name_(function_name),
      geometry_(geometry),
      signature_(std::move(signature)) {
  for (int i = 0; i < 3; ++i) {
    if (geometry_.grid[i] < 1 || geometry_.block[i] < 1 || geometry_.grid[i] > std::numeric_limits<unsigned>::max() ||
        geometry_.block[i] > std::numeric_limits<unsigned>::max())
      throw DeviceError("kernel '" + entry_ + "': invalid launch geometry (" + geometry_text(geometry_) +
                        "): every grid and block dimension must be between 1 and 2^32-1");
  }
  if (geometry_.shared_bytes < 0 || geometry_.shared_bytes > std::numeric_limits<unsigned>::max())
    throw DeviceError("kernel '" + entry_ + "': invalid dynamic shared memory size " +
                      std::to_string(geometry_.shared_bytes));

  context_->enter();
  const kc::DriverApi& api = context_->api();
  const kc::CudaDeviceProperties& device = context_->properties();
  const std::string where = "device " + std::to_string(context_->ordinal()) + " (" + device.name + ", " +
                            device.arch() + ")";
  kc::CUresult rc = api.cuModuleLoadData(&module_, cubin.data());
  if (rc == 200 /* INVALID_IMAGE */ || rc == 209 /* NO_BINARY_FOR_GPU */ || rc == 222 /* UNSUPPORTED_PTX_VERSION */) {
    throw DeviceError("kernel '" + entry_ + "': the CUBIN cannot run on " + where + ": " +
                      context_->driver().error_text(rc) + " (compile for the device's properties[\"target\"])");
  }
  context_->check(rc, "cuModuleLoadData(" + entry_ + ")");
  // With lazy loading (the default since CUDA 12.2) the driver loads the kernel here, not at
  // its first launch, so a timed launch never waits for a load behind the blocking kernel.
  rc = api.cuModuleGetFunction(&function_, module_, function_name_.c_str());
  if (rc == 500 /* NOT_FOUND */) {
    api.cuModuleUnload(module_);
    module_ = nullptr;
    throw DeviceError("the CUBIN has no kernel '" + function_name_ + "'" +
                      (function_name_ != entry_ ? " (entry '" + entry_ + "')" : std::string()) +
                      "; was it compiled for another entry?");
  }
  try {
    context_->check(rc, "cuModuleGetFunction(" + function_name_ + ")");
    int static_shared = 0;
    context_->check(api.cuFuncGetAttribute(&static_shared, kc::cu::kFuncSharedSizeBytes, function_),
                    "cuFuncGetAttribute(shared size)");
    if (static_shared + geometry_.shared_bytes > kDefaultSharedBytesPerBlock) {
      const std::int64_t limit = device.shared_memory_per_block_optin;
      if (limit > 0 && static_shared + geometry_.shared_bytes > limit)
        throw DeviceError("kernel '" + entry_ + "' needs " + std::to_string(static_shared) + " bytes of static + " +
                          std::to_string(geometry_.shared_bytes) + " bytes of dynamic shared memory, above the " +
                          std::to_string(limit) + "-byte per-block limit of " + where);
      context_->check(api.cuFuncSetAttribute(function_, kc::cu::kFuncMaxDynamicSharedSizeBytes,
                                             static_cast<int>(geometry_.shared_bytes)),
                      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = " + std::to_string(geometry_.shared_bytes) +
                          ")");
    }
    if (api.cuFuncGetParamInfo) {
      std::vector<std::size_t> sizes;
      for (std::size_t index = 0; index < 4096; ++index) {
        std::size_t offset = 0, size = 0;
        rc = api.cuFuncGetParamInfo(function_, index, &offset, &size);
        if (rc != kc::cu::kSuccess) break;
        sizes.push_back(size);
      }
      // INVALID_VALUE marks the end of the list; anything else means the driver cannot say.
      if (rc == kc::cu::kErrorInvalidValue) parameter_sizes_ = std::move(sizes);
    }
  } catch (...) {
    api.cuModuleUnload(module_);
    module_ = nullptr;
    throw;
  }
}

CudaKernel::~CudaKernel() {
  if (!context_) return;
  const kc::DriverApi& api = context_->api();
  // A poisoned context refuses these; the process is about to be replaced anyway.
  if (!context_->poisoned()) {
    try {
      context_->enter();
    } catch (const DeviceError&) {
    }
  }
  free_buffers();
  if (module_) api.cuModuleUnload(module_);
}

void CudaKernel::drop_rotation() {
  if (rotation_slab_) context_->api().cuMemFree(rotation_slab_);
  rotation_slab_ = 0;
  for (Bound& b : arguments_) {
    b.copies.clear();
    b.launch_pointer = b.pointer;
  }
  rotation_sets_ = 1;
  next_set_ = 0;
}

void CudaKernel::free_buffers() {
  drop_rotation();
  for (Bound& b : arguments_) {
    if (b.pointer && owns_buffers_) context_->api().cuMemFree(b.pointer);
    b.pointer = 0;
  }
  arguments_.clear();
  parameters_.clear();
  is_bound_ = false;
}

void CudaKernel::bind(std::vector<HostArgument>& args) {
  context_->enter();
  const std::size_t expected_count = parameter_sizes_ ? parameter_sizes_->size() : signature_.size();
  if ((parameter_sizes_ || !signature_.empty()) && args.size() != expected_count)
    throw DeviceError("kernel '" + entry_ + "' takes " + std::to_string(expected_count) + " parameters but " +
                      std::to_string(args.size()) + " arguments were given");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const HostArgument& a = args[i];
    const std::string which = "argument " + std::to_string(i + 1) + " ('" + a.name + "')";
    if (a.data.size() % element_size(a.type) != 0)
      throw DeviceError(which + ": " + std::to_string(a.data.size()) + " bytes is not a whole number of " +
                        std::string(element_type_name(a.type)) + " elements");
    if (!a.is_array && a.data.size() != element_size(a.type))
      throw DeviceError(which + ": a scalar holds " + std::to_string(a.data.size()) + " bytes, expected " +
                        std::to_string(element_size(a.type)));
    if (!signature_.empty() && describe(a) != signature_[i])
      throw DeviceError(which + ": the kernel was compiled for " + signature_[i] + ", got " + describe(a));
    if (parameter_sizes_) {
      const std::size_t passed = a.is_array ? sizeof(kc::CUdeviceptr) : element_size(a.type);
      if ((*parameter_sizes_)[i] != passed)
        throw DeviceError(which + ": kernel '" + entry_ + "' takes a " + std::to_string((*parameter_sizes_)[i]) +
                          "-byte parameter here, but " + describe(a) + " passes " + std::to_string(passed) +
                          " bytes" + (a.is_array ? " (a device pointer)" : ""));
    }
  }

  free_buffers();
  owns_buffers_ = true;
  const kc::DriverApi& api = context_->api();
  arguments_.reserve(args.size());
  try {
    for (const HostArgument& a : args) {
      Bound b;
      b.name = a.name;
      b.type = a.type;
      b.is_array = a.is_array;
      b.is_output = a.is_output;
      b.bytes = a.data.size();
      arguments_.push_back(std::move(b));
      Bound& stored = arguments_.back();
      if (!a.is_array) {
        stored.value = a.data;
      } else if (stored.bytes > 0) {
        context_->check(api.cuMemAlloc(&stored.pointer, stored.bytes),
                        "cuMemAlloc(" + std::to_string(stored.bytes) + " bytes for '" + a.name + "')");
        context_->check(api.cuMemcpyHtoD(stored.pointer, a.data.data(), stored.bytes),
                        "cuMemcpyHtoD('" + a.name + "')");
      }
      stored.launch_pointer = stored.pointer;
    }
  } catch (...) {
    free_buffers();
    throw;
  }
  // Addresses into arguments_, which no longer changes size.
  for (Bound& b : arguments_) parameters_.push_back(b.is_array ? static_cast<void*>(&b.launch_pointer) : b.value.data());
  is_bound_ = true;
}

void CudaKernel::bind_buffers(const std::vector<BufferArgument>& args) {
  context_->enter();
  const std::size_t expected_count = parameter_sizes_ ? parameter_sizes_->size() : signature_.size();
  if ((parameter_sizes_ || !signature_.empty()) && args.size() != expected_count)
    throw DeviceError("kernel '" + entry_ + "' takes " + std::to_string(expected_count) + " parameters but " +
                      std::to_string(args.size()) + " arguments were given");
  std::size_t sets = 1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const BufferArgument& a = args[i];
    const std::string which = "argument " + std::to_string(i + 1) + " ('" + a.name + "')";
    const std::string described = std::string(element_type_name(a.type)) + (a.is_array ? "*" : "");
    if (!signature_.empty() && described != signature_[i])
      throw DeviceError(which + ": the kernel was compiled for " + signature_[i] + ", got " + described);
    const std::size_t passed = a.is_array ? sizeof(kc::CUdeviceptr) : element_size(a.type);
    if (!a.is_array && a.value.size() != passed)
      throw DeviceError(which + ": a scalar holds " + std::to_string(a.value.size()) + " bytes, expected " +
                        std::to_string(passed));
    if (parameter_sizes_ && (*parameter_sizes_)[i] != passed)
      throw DeviceError(which + ": kernel '" + entry_ + "' takes a " + std::to_string((*parameter_sizes_)[i]) +
                        "-byte parameter here, but " + described + " passes " + std::to_string(passed) + " bytes" +
                        (a.is_array ? " (a device pointer)" : ""));
    if (a.is_array && !a.rotation.empty()) {
      if (sets > 1 && a.rotation.size() + 1 != sets)
        throw DeviceError("bind_buffers: arrays have different numbers of rotation sets");
      sets = a.rotation.size() + 1;
    }
  }
  free_buffers();
  owns_buffers_ = false;
  arguments_.reserve(args.size());
  for (const BufferArgument& a : args) {
    Bound b;
    b.name = a.name;
    b.type = a.type;
    b.is_array = a.is_array;
    b.is_output = a.is_output;
    if (a.is_array) {
      b.bytes = a.buffer ? a.buffer->bytes() : 0;
      b.pointer = a.buffer ? a.buffer->address() : 0;
      for (const DeviceBuffer* copy : a.rotation) b.copies.push_back(copy ? copy->address() : 0);
    } else {
      b.bytes = a.value.size();
      b.value = a.value;
    }
    b.launch_pointer = b.pointer;
    arguments_.push_back(std::move(b));
  }
  for (Bound& b : arguments_) parameters_.push_back(b.is_array ? static_cast<void*>(&b.launch_pointer) : b.value.data());
  rotation_sets_ = sets;
  next_set_ = 0;
  is_bound_ = true;
}

CudaKernel::Bound& CudaKernel::bound(const std::string& name, const char* what) {
  if (!is_bound_) throw DeviceError(std::string(what) + ": no arguments are bound");
  for (Bound& b : arguments_)
    if (b.name == name) return b;
  throw DeviceError(std::string(what) + ": no bound argument is named '" + name + "'");
}

void CudaKernel::upload(const HostArgument& arg) {
  Bound& target = bound(arg.name, "upload");
  if (arg.data.size() != target.bytes || arg.type != target.type || arg.is_array != target.is_array)
    throw DeviceError("upload of '" + arg.name + "': " + std::to_string(arg.data.size()) + " bytes of " + describe(arg) +
                      " do not match the bound argument's " + std::to_string(target.bytes) + " bytes of " +
                      std::string(element_type_name(target.type)) + (target.is_array ? "*" : ""));
  context_->enter();
  if (!target.is_array) {
    std::memcpy(target.value.data(), arg.data.data(), target.bytes);
  } else if (target.bytes > 0) {
    context_->check(context_->api().cuMemcpyHtoD(target.pointer, arg.data.data(), target.bytes),
                    "cuMemcpyHtoD('" + arg.name + "')");
    for (kc::CUdeviceptr copy : target.copies)
      context_->check(context_->api().cuMemcpyDtoD(copy, target.pointer, target.bytes),
                      "cuMemcpyDtoD('" + arg.name + "' rotation copy)");
  }
}

namespace {
// cuMemAlloc's own alignment, so every copy is as aligned as the buffer it copies.
constexpr std::size_t kRotationAlignment = 256;
std::size_t aligned(std::size_t bytes) { return (bytes + kRotationAlignment - 1) / kRotationAlignment * kRotationAlignment; }
}  // namespace

std::size_t CudaKernel::enable_rotation(std::size_t min_total_bytes) {
  if (!is_bound_) throw DeviceError("enable_rotation: bind() the arguments first");
  context_->enter();
  const kc::DriverApi& api = context_->api();
  drop_rotation();
  std::size_t set_bytes = 0;
  for (const Bound& b : arguments_)
    if (b.is_array && !b.is_output && b.bytes > 0) set_bytes += aligned(b.bytes);
  std::size_t free_bytes = 0, total_bytes = 0;
  context_->check(api.cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
  const std::size_t sets = rotation_copies_needed(set_bytes, min_total_bytes, free_bytes / 4);
  if (sets < 2) return 1;
  context_->check(api.cuMemAlloc(&rotation_slab_, (sets - 1) * set_bytes),
                  "cuMemAlloc(" + std::to_string((sets - 1) * set_bytes) + " bytes of rotation copies)");
  try {
    kc::CUdeviceptr next = rotation_slab_;
    for (std::size_t set = 1; set < sets; ++set)
      for (Bound& b : arguments_) {
        if (!b.is_array || b.is_output || b.bytes == 0) continue;
        context_->check(api.cuMemcpyDtoD(next, b.pointer, b.bytes), "cuMemcpyDtoD('" + b.name + "' rotation copy)");
        b.copies.push_back(next);
        next += aligned(b.bytes);
      }
  } catch (...) {
    drop_rotation();
    throw;
  }
  rotation_sets_ = sets;
  return sets;
}

void CudaKernel::download(HostArgument& arg) {
  Bound& source = bound(arg.name, "download");
  context_->enter();
  arg.type = source.type;
  arg.is_array = source.is_array;
  if (!source.is_array) {
    arg.data = source.value;
    return;
  }
  arg.data.resize(source.bytes);
  if (source.bytes > 0)
    context_->check(context_->api().cuMemcpyDtoH(arg.data.data(), source.pointer, source.bytes),
                    "cuMemcpyDtoH('" + arg.name + "')");
}

void CudaKernel::enqueue_launch() {
  const LaunchGeometry& g = geometry_;
  context_->check(
      context_->api().cuLaunchKernel(function_, static_cast<unsigned>(g.grid[0]), static_cast<unsigned>(g.grid[1]),
                                     static_cast<unsigned>(g.grid[2]), static_cast<unsigned>(g.block[0]),
                                     static_cast<unsigned>(g.block[1]), static_cast<unsigned>(g.block[2]),
                                     static_cast<unsigned>(g.shared_bytes), context_->stream(), parameters_.data(),
                                     nullptr),
      "cuLaunchKernel(" + entry_ + ", " + geometry_text(g) + ")");
}

void CudaKernel::run() {
  if (!is_bound_) throw DeviceError("run: bind() the arguments first");
  context_->enter();
  enqueue_launch();
  context_->check(context_->api().cuStreamSynchronize(context_->stream()), "kernel '" + entry_ + "'");
  launched_ = true;
}

TimedRun CudaKernel::run_timed_sample(bool cold) {
  if (!is_bound_) throw DeviceError("run: bind() the arguments first");
  const std::size_t set = rotation_sets_ > 1 ? next_set_ : 0;
  if (rotation_sets_ > 1) next_set_ = (next_set_ + 1) % rotation_sets_;
  // cuLaunchKernel reads kernelParams when it is called, so set 0 is back in place before
  // anything else launches.
  struct Restore {
    std::vector<Bound>& arguments;
    ~Restore() {
      for (Bound& b : arguments) b.launch_pointer = b.pointer;
    }
  } restore{arguments_};
  if (set > 0)
    for (Bound& b : arguments_)
      if (!b.copies.empty()) b.launch_pointer = b.copies[set - 1];
  TimedRun sample = context_->time([this] { enqueue_launch(); }, cold, !launched_);
  launched_ = true;
  return sample;
}

double CudaKernel::run_timed(bool cold) { return run_timed_sample(cold).seconds; }

nlohmann::json CudaKernel::attributes() const {
  const kc::DriverApi& api = context_->api();
  nlohmann::json j = nlohmann::json::object();
  const std::pair<const char*, int> attributes[] = {
      {"max_threads_per_block", kc::cu::kFuncMaxThreadsPerBlock},
      {"shared_size_bytes", kc::cu::kFuncSharedSizeBytes},
      {"const_size_bytes", kc::cu::kFuncConstSizeBytes},
      {"local_size_bytes", kc::cu::kFuncLocalSizeBytes},
      {"num_regs", kc::cu::kFuncNumRegs},
      {"ptx_version", kc::cu::kFuncPtxVersion},
      {"binary_version", kc::cu::kFuncBinaryVersion},
      {"max_dynamic_shared_size_bytes", kc::cu::kFuncMaxDynamicSharedSizeBytes},
  };
  for (const auto& [name, attribute] : attributes) {
    int value = 0;
    if (api.cuFuncGetAttribute(&value, attribute, function_) == kc::cu::kSuccess) j[name] = value;
  }
  if (parameter_sizes_) j["parameter_sizes"] = *parameter_sizes_;
  return j;
}

}  // namespace ktune::device::cuda
