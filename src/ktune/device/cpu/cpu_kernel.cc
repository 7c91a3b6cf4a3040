#include "ktune/device/cpu/cpu_kernel.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "ktune/device/cpu/cpu_launch_shim.h"

namespace ktune::device::cpu {
namespace {

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dynamic loader error";
}

std::vector<std::string> split_signature(const std::string& text) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  std::size_t begin = 0;
  for (;;) {
    auto comma = text.find(',', begin);
    parts.push_back(text.substr(begin, comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return parts;
}

std::string describe(const HostArgument& a) {
  return std::string(element_type_name(a.type)) + (a.is_array ? "*" : "");
}

}  // namespace

CpuKernel::CpuKernel(const std::filesystem::path& artifact, const std::string& entry, std::size_t flush_bytes)
    : artifact_(artifact), flush_bytes_(flush_bytes) {
  // RTLD_LOCAL: two candidates define the same kernel symbol; each must call its own.
  library_ = dlopen(artifact.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library_) throw DeviceError("cannot load CPU kernel '" + artifact.string() + "': " + dl_error());
  launch_ = reinterpret_cast<LaunchFunction>(dlsym(library_, "ktune_launch"));
  auto* built_entry = static_cast<const char*>(dlsym(library_, "ktune_entry"));
  auto* built_signature = static_cast<const char*>(dlsym(library_, "ktune_signature"));
  if (!launch_ || !built_entry || !built_signature) {
    dlclose(library_);
    throw DeviceError("'" + artifact.string() + "' was not built by ktune's CPU compiler (no ktune_launch)");
  }
  if (entry != built_entry) {
    std::string built(built_entry);
    dlclose(library_);
    throw DeviceError("'" + artifact.string() + "' launches '" + built + "', not '" + entry + "'");
  }
  signature_ = built_signature;
}

CpuKernel::~CpuKernel() {
  if (library_) dlclose(library_);
}

void CpuKernel::bind(std::vector<HostArgument>& args) {
  auto expected = split_signature(signature_);
  if (expected.size() != args.size())
    throw DeviceError("the kernel was compiled for " + std::to_string(expected.size()) + " arguments (" + signature_ +
                      ") but " + std::to_string(args.size()) + " were given (" + signature_text(args) + ")");
  array_addresses_.assign(args.size(), nullptr);
  args_.assign(args.size(), nullptr);
  for (std::size_t i = 0; i < args.size(); ++i) {
    HostArgument& a = args[i];
    if (describe(a) != expected[i])
      throw DeviceError("argument " + std::to_string(i + 1) + " ('" + a.name + "'): the kernel was compiled for " +
                        expected[i] + ", got " + describe(a));
    if (a.data.size() % element_size(a.type) != 0)
      throw DeviceError("argument '" + a.name + "': " + std::to_string(a.data.size()) +
                        " bytes is not a whole number of " + std::string(element_type_name(a.type)) + " elements");
    if (a.is_array) {
      array_addresses_[i] = a.data.data();
      args_[i] = &array_addresses_[i];
    } else {
      if (a.data.size() != element_size(a.type))
        throw DeviceError("scalar argument '" + a.name + "' holds " + std::to_string(a.data.size()) +
                          " bytes, expected " + std::to_string(element_size(a.type)));
      args_[i] = a.data.data();
    }
  }
  arguments_ = &args;
  buffers_.clear();
  buffers_bound_ = false;
  rotated_.clear();
  rotation_slab_ = {};
  rotation_offsets_.clear();
  rotation_sets_ = 1;
  next_set_ = 0;
}

void CpuKernel::bind_buffers(const std::vector<BufferArgument>& args) {
  auto expected = split_signature(signature_);
  if (expected.size() != args.size())
    throw DeviceError("the kernel was compiled for " + std::to_string(expected.size()) + " arguments (" + signature_ +
                      ") but " + std::to_string(args.size()) + " were given");
  buffers_ = args;
  array_addresses_.assign(args.size(), nullptr);
  args_.assign(args.size(), nullptr);
  std::size_t sets = 1;
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    BufferArgument& a = buffers_[i];
    const std::string described = std::string(element_type_name(a.type)) + (a.is_array ? "*" : "");
    if (described != expected[i])
      throw DeviceError("argument " + std::to_string(i + 1) + " ('" + a.name + "'): the kernel was compiled for " +
                        expected[i] + ", got " + described);
    if (a.is_array) {
      array_addresses_[i] = a.buffer ? reinterpret_cast<void*>(a.buffer->address()) : nullptr;
      args_[i] = &array_addresses_[i];
      if (!a.rotation.empty()) {
        if (sets > 1 && a.rotation.size() + 1 != sets)
          throw DeviceError("bind_buffers: arrays have different numbers of rotation sets");
        sets = a.rotation.size() + 1;
      }
    } else {
      if (a.value.size() != element_size(a.type))
        throw DeviceError("scalar argument '" + a.name + "' holds " + std::to_string(a.value.size()) +
                          " bytes, expected " + std::to_string(element_size(a.type)));
      args_[i] = a.value.data();
    }
  }
  arguments_ = nullptr;
  buffers_bound_ = true;
  rotated_.clear();
  rotation_slab_ = {};
  rotation_offsets_.clear();
  rotation_sets_ = sets;
  next_set_ = 0;
}

void CpuKernel::point_buffers_at(std::size_t set) {
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    const BufferArgument& a = buffers_[i];
    if (!a.is_array || a.rotation.empty()) continue;
    const DeviceBuffer* b = set == 0 ? a.buffer : a.rotation[set - 1];
    array_addresses_[i] = b ? reinterpret_cast<void*>(b->address()) : nullptr;
  }
}

HostArgument& CpuKernel::bound(const std::string& name, const char* what) {
  if (!arguments_) throw DeviceError(std::string(what) + ": no arguments are bound");
  for (auto& a : *arguments_)
    if (a.name == name) return a;
  throw DeviceError(std::string(what) + ": no bound argument is named '" + name + "'");
}

void CpuKernel::upload(const HostArgument& arg) {
  HostArgument& target = bound(arg.name, "upload");
  if (&target == &arg || target.data.data() == arg.data.data()) {  // the host buffer is the device copy
    refresh_rotation_copies(static_cast<std::size_t>(&target - arguments_->data()));
    return;
  }
  if (target.data.size() != arg.data.size() || target.type != arg.type)
    throw DeviceError("upload of '" + arg.name + "': " + std::to_string(arg.data.size()) +
                      " bytes do not match the bound argument's " + std::to_string(target.data.size()));
  std::memcpy(target.data.data(), arg.data.data(), arg.data.size());
  refresh_rotation_copies(static_cast<std::size_t>(&target - arguments_->data()));
}

void CpuKernel::download(HostArgument& arg) {
  HostArgument& source = bound(arg.name, "download");
  if (&source == &arg || source.data.data() == arg.data.data()) return;
  arg.type = source.type;
  arg.data = source.data;
}

void CpuKernel::launch() {
  if (!bound()) throw DeviceError("run: bind() the arguments first");
  char error[1024] = {0};
  if (launch_(args_.data(), error, sizeof error) != 0)
    throw DeviceError(std::string("the kernel threw: ") + (error[0] ? error : "(no message)"));
}

void CpuKernel::run() { launch(); }

void CpuKernel::flush_caches() {
  if (flush_buffer_.size() != flush_bytes_) flush_buffer_.assign(flush_bytes_, 0);
  // A new value each time, so no write is redundant; the buffer outlives the call, so the
  // compiler cannot drop the stores.
  std::memset(flush_buffer_.data(), ++flush_round_, flush_buffer_.size());
  if (!clean_flush_) return;
  // The buffer is twice the last-level cache: reading it from the start evicts the dirty lines
  // the memset left (the oldest first) and ends with clean copies of its last part.
  unsigned long acc = 0;
  for (std::size_t i = 0; i + sizeof acc <= flush_buffer_.size(); i += 64) {  // one word per cache line
    unsigned long word;
    std::memcpy(&word, flush_buffer_.data() + i, sizeof word);
    acc ^= word;
  }
  flush_sink_ = acc;
}

namespace {
// Copies start on cache-line (and any vector type's) alignment, like a fresh allocation.
constexpr std::size_t kRotationAlignment = 64;
std::size_t aligned(std::size_t bytes) { return (bytes + kRotationAlignment - 1) / kRotationAlignment * kRotationAlignment; }
}  // namespace

std::byte* CpuKernel::rotation_copy(std::size_t set, std::size_t k) {
  auto base = reinterpret_cast<std::uintptr_t>(rotation_slab_.data());
  std::size_t pad = (kRotationAlignment - base % kRotationAlignment) % kRotationAlignment;
  return rotation_slab_.data() + pad + rotation_offsets_[set - 1][k];
}

void CpuKernel::refresh_rotation_copies(std::size_t argument_index) {
  auto k = std::find(rotated_.begin(), rotated_.end(), argument_index);
  if (k == rotated_.end()) return;
  const HostArgument& a = (*arguments_)[argument_index];
  for (std::size_t set = 1; set < rotation_sets_; ++set)
    std::memcpy(rotation_copy(set, static_cast<std::size_t>(k - rotated_.begin())), a.data.data(), a.data.size());
}

std::size_t CpuKernel::enable_rotation(std::size_t min_total_bytes) {
  if (!arguments_) throw DeviceError("enable_rotation: bind() the arguments first");
  std::vector<std::size_t> inputs;
  std::size_t set_bytes = 0;
  for (std::size_t i = 0; i < arguments_->size(); ++i) {
    const HostArgument& a = (*arguments_)[i];
    if (!a.is_array || a.is_output || a.data.empty()) continue;
    inputs.push_back(i);
    set_bytes += aligned(a.data.size());
  }
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page_size = ::sysconf(_SC_PAGESIZE);
  std::size_t cap = std::size_t{8} << 30;
  if (pages > 0 && page_size > 0)
    cap = std::min(cap, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) / 4);
  const std::size_t sets = rotation_copies_needed(set_bytes, min_total_bytes, cap);
  rotated_.clear();
  rotation_slab_ = {};
  rotation_offsets_.clear();
  rotation_sets_ = 1;
  next_set_ = 0;
  if (sets < 2) return 1;

  rotation_slab_.resize((sets - 1) * set_bytes + kRotationAlignment);
  rotated_ = std::move(inputs);
  rotation_sets_ = sets;
  for (std::size_t set = 1; set < sets; ++set) {
    std::vector<std::size_t> offsets;
    std::size_t offset = (set - 1) * set_bytes;
    for (std::size_t index : rotated_) {
      offsets.push_back(offset);
      offset += aligned((*arguments_)[index].data.size());
    }
    rotation_offsets_.push_back(std::move(offsets));
  }
  for (std::size_t index : rotated_) refresh_rotation_copies(index);
  return sets;
}

double CpuKernel::run_timed(bool cold) {
  if (!bound()) throw DeviceError("run: bind() the arguments first");
  if (cold) flush_caches();
  const std::size_t set = rotation_sets_ > 1 ? next_set_ : 0;
  if (rotation_sets_ > 1) next_set_ = (next_set_ + 1) % rotation_sets_;
  if (buffers_bound_) point_buffers_at(set);
  for (std::size_t k = 0; set > 0 && k < rotated_.size(); ++k) array_addresses_[rotated_[k]] = rotation_copy(set, k);
  char error[1024] = {0};
  const auto start = std::chrono::steady_clock::now();
  int status = launch_(args_.data(), error, sizeof error);
  const auto end = std::chrono::steady_clock::now();
  for (std::size_t k = 0; set > 0 && k < rotated_.size(); ++k)
    array_addresses_[rotated_[k]] = (*arguments_)[rotated_[k]].data.data();
  if (buffers_bound_) point_buffers_at(0);
  if (status != 0) throw DeviceError(std::string("the kernel threw: ") + (error[0] ? error : "(no message)"));
  return std::chrono::duration<double>(end - start).count();
}

}  // namespace ktune::device::cpu
