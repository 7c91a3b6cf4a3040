#include "ktune/device/hip/hip_kernel.h"

#include <cstring>
#include <limits>

namespace ktune::device::hip {
namespace kh = ktune::hip;

void HipDeviceState::check(kh::hipError_t code, const char* call) {
  if (code == kh::hipc::kSuccess) return;
  const std::string text = runtime->error_text(code, call);
  if (kh::is_sticky_error(code)) {
    if (!poisoned.exchange(true)) poison_reason = text;
    throw ContextPoisoned("HIP device " + std::to_string(ordinal) + " is unusable after a fault: " + text);
  }
  throw DeviceError(text);
}

void HipDeviceState::enter() {
  if (poisoned.load())
    throw ContextPoisoned("HIP device " + std::to_string(ordinal) + " is unusable after an earlier fault: " + poison_reason);
  check(runtime->api().hipSetDevice(ordinal), "hipSetDevice");
}

HipKernel::HipKernel(std::shared_ptr<HipDeviceState> device, const std::string& code_object,
                     const std::string& function_name, const std::string& entry, const LaunchGeometry& geometry,
                     std::vector<std::string> signature)
    : device_(std::move(device)), entry_(entry), geometry_(geometry), signature_(std::move(signature)) {
  constexpr auto kMax = static_cast<std::int64_t>(std::numeric_limits<unsigned>::max());
  for (int i = 0; i < 3; ++i)
    if (geometry_.grid[i] < 1 || geometry_.block[i] < 1 || geometry_.grid[i] > kMax || geometry_.block[i] > kMax)
      throw DeviceError("launch geometry out of range for '" + entry + "'");
  if (geometry_.shared_bytes < 0 || geometry_.shared_bytes > kMax) throw DeviceError("dynamic LDS size out of range");
  device_->enter();
  const kh::RuntimeApi& api = device_->runtime->api();
  try {
    device_->check(api.hipModuleLoadData(&module_, code_object.data()), "hipModuleLoadData");
    device_->check(api.hipModuleGetFunction(&function_, module_, function_name.c_str()),
                   ("hipModuleGetFunction(" + function_name + ")").c_str());
    device_->check(api.hipStreamCreate(&stream_), "hipStreamCreate");
    device_->check(api.hipEventCreate(&start_), "hipEventCreate");
    device_->check(api.hipEventCreate(&stop_), "hipEventCreate");
  } catch (...) {
    free_buffers();
    throw;
  }
}

HipKernel::~HipKernel() { free_buffers(); }

void HipKernel::free_buffers() {
  if (device_->poisoned.load()) return;  // the runtime may crash on anything now; the process is ending
  const kh::RuntimeApi& api = device_->runtime->api();
  free_arguments();
  if (flush_buffer_) api.hipFree(flush_buffer_);
  flush_buffer_ = nullptr;
  if (start_) api.hipEventDestroy(start_);
  if (stop_) api.hipEventDestroy(stop_);
  if (stream_) api.hipStreamDestroy(stream_);
  if (module_) api.hipModuleUnload(module_);
  start_ = stop_ = nullptr;
  stream_ = nullptr;
  module_ = nullptr;
}

void HipKernel::bind(std::vector<HostArgument>& args) {
  device_->enter();
  if (!signature_.empty() && signature_.size() != args.size())
    throw DeviceError("'" + entry_ + "' was compiled for " + std::to_string(signature_.size()) + " arguments, got " +
                      std::to_string(args.size()));
  const kh::RuntimeApi& api = device_->runtime->api();
  free_arguments();
  owns_buffers_ = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const HostArgument& arg = args[i];
    const std::string kind = std::string(element_type_name(arg.type)) + (arg.is_array ? "*" : "");
    if (!signature_.empty() && signature_[i] != kind)
      throw DeviceError("argument " + std::to_string(i) + " ('" + arg.name + "') is " + kind + " but '" + entry_ +
                        "' was compiled for " + signature_[i]);
    Bound b;
    b.name = arg.name;
    b.type = arg.type;
    b.is_array = arg.is_array;
    b.bytes = arg.data.size();
    if (arg.is_array) {
      if (b.bytes > 0) {
        device_->check(api.hipMalloc(&b.pointer, b.bytes), "hipMalloc");
        arguments_.push_back(std::move(b));
        device_->check(api.hipMemcpy(arguments_.back().pointer, arg.data.data(), arg.data.size(),
                                     kh::hipc::kHostToDevice),
                       "hipMemcpy (upload)");
        continue;
      }
    } else {
      if (arg.data.size() != element_size(arg.type)) throw DeviceError("scalar '" + arg.name + "' has the wrong size");
      b.value = arg.data;
    }
    arguments_.push_back(std::move(b));
  }
  parameters_.clear();
  for (auto& a : arguments_)
    parameters_.push_back(a.is_array ? static_cast<void*>(&a.pointer) : static_cast<void*>(a.value.data()));
  is_bound_ = true;
}

void HipKernel::free_arguments() {
  const kh::RuntimeApi& api = device_->runtime->api();
  if (owns_buffers_)
    for (auto& a : arguments_)
      if (a.pointer) api.hipFree(a.pointer);
  arguments_.clear();
  parameters_.clear();
  is_bound_ = false;
}

void HipKernel::bind_buffers(const std::vector<BufferArgument>& args) {
  device_->enter();
  if (!signature_.empty() && signature_.size() != args.size())
    throw DeviceError("'" + entry_ + "' was compiled for " + std::to_string(signature_.size()) + " arguments, got " +
                      std::to_string(args.size()));
  free_arguments();
  owns_buffers_ = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const BufferArgument& arg = args[i];
    const std::string kind = std::string(element_type_name(arg.type)) + (arg.is_array ? "*" : "");
    if (!signature_.empty() && signature_[i] != kind)
      throw DeviceError("argument " + std::to_string(i) + " ('" + arg.name + "') is " + kind + " but '" + entry_ +
                        "' was compiled for " + signature_[i]);
    Bound b;
    b.name = arg.name;
    b.type = arg.type;
    b.is_array = arg.is_array;
    if (arg.is_array) {
      b.bytes = arg.buffer ? arg.buffer->bytes() : 0;
      b.pointer = arg.buffer ? reinterpret_cast<void*>(arg.buffer->address()) : nullptr;
    } else {
      if (arg.value.size() != element_size(arg.type)) throw DeviceError("scalar '" + arg.name + "' has the wrong size");
      b.bytes = arg.value.size();
      b.value = arg.value;
    }
    arguments_.push_back(std::move(b));
  }
  for (auto& a : arguments_)
    parameters_.push_back(a.is_array ? static_cast<void*>(&a.pointer) : static_cast<void*>(a.value.data()));
  is_bound_ = true;
}

HipKernel::Bound& HipKernel::bound(const std::string& name, const char* what) {
  if (!is_bound_) throw DeviceError(std::string(what) + " before bind()");
  for (auto& a : arguments_)
    if (a.name == name) return a;
  throw DeviceError(std::string(what) + ": no bound argument named '" + name + "'");
}

void HipKernel::upload(const HostArgument& arg) {
  device_->enter();
  Bound& b = bound(arg.name, "upload");
  if (!b.is_array) {
    b.value = arg.data;
    return;
  }
  if (arg.data.size() != b.bytes) throw DeviceError("upload of '" + arg.name + "': size differs from the bound array");
  if (b.bytes > 0)
    device_->check(device_->runtime->api().hipMemcpy(b.pointer, arg.data.data(), b.bytes, kh::hipc::kHostToDevice),
                   "hipMemcpy (upload)");
}

void HipKernel::download(HostArgument& arg) {
  device_->enter();
  Bound& b = bound(arg.name, "download");
  if (!b.is_array) return;
  arg.data.resize(b.bytes);
  if (b.bytes > 0)
    device_->check(device_->runtime->api().hipMemcpy(arg.data.data(), b.pointer, b.bytes, kh::hipc::kDeviceToHost),
                   "hipMemcpy (download)");
}

void HipKernel::launch() {
  if (!is_bound_) throw DeviceError("run before bind()");
  const kh::RuntimeApi& api = device_->runtime->api();
  device_->check(api.hipModuleLaunchKernel(function_, static_cast<unsigned>(geometry_.grid[0]),
                                           static_cast<unsigned>(geometry_.grid[1]),
                                           static_cast<unsigned>(geometry_.grid[2]),
                                           static_cast<unsigned>(geometry_.block[0]),
                                           static_cast<unsigned>(geometry_.block[1]),
                                           static_cast<unsigned>(geometry_.block[2]),
                                           static_cast<unsigned>(geometry_.shared_bytes), stream_,
                                           parameters_.data(), nullptr),
                 "hipModuleLaunchKernel");
}

void HipKernel::run() {
  device_->enter();
  launch();
  device_->check(device_->runtime->api().hipStreamSynchronize(stream_), "hipStreamSynchronize");
}

double HipKernel::run_timed(bool cold) {
  device_->enter();
  const kh::RuntimeApi& api = device_->runtime->api();
  if (cold && device_->flush_bytes > 0) {
    if (!flush_buffer_) device_->check(api.hipMalloc(&flush_buffer_, device_->flush_bytes), "hipMalloc (cache flush)");
    device_->check(api.hipMemsetAsync(flush_buffer_, 0x5a, device_->flush_bytes, stream_), "hipMemsetAsync (cache flush)");
  }
  device_->check(api.hipEventRecord(start_, stream_), "hipEventRecord");
  launch();
  device_->check(api.hipEventRecord(stop_, stream_), "hipEventRecord");
  device_->check(api.hipEventSynchronize(stop_), "hipEventSynchronize");
  float ms = 0;
  device_->check(api.hipEventElapsedTime(&ms, start_, stop_), "hipEventElapsedTime");
  return static_cast<double>(ms) / 1000.0;
}

}  // namespace ktune::device::hip
