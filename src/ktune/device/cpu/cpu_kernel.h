#pragma once
// A CPU kernel: the shared object built by CpuCompiler, dlopen'ed into the (worker) process.
// Arguments are the caller's host buffers, used in place.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device::cpu {

class CpuKernel : public LoadedKernel {
 public:
  // Throws DeviceError if the artifact cannot be loaded, was not built by CpuCompiler, or
  // was built for another entry. flush_bytes: size of the buffer written before a cold run.
  CpuKernel(const std::filesystem::path& artifact, const std::string& entry, std::size_t flush_bytes);
  ~CpuKernel() override;
  CpuKernel(const CpuKernel&) = delete;
  CpuKernel& operator=(const CpuKernel&) = delete;

  void bind(std::vector<HostArgument>& args) override;
  void upload(const HostArgument& arg) override;
  void run() override;
  double run_timed(bool cold) override;
  void download(HostArgument& arg) override;
  // Host copies of the input arrays; at most a quarter of the available memory and 8 GiB.
  std::size_t enable_rotation(std::size_t min_total_bytes) override;
  std::size_t rotation_copies() const { return rotation_sets_; }
  // Session buffers (CpuMemory's host allocations), used in place.
  void bind_buffers(const std::vector<BufferArgument>& args) override;

  const std::string& signature() const { return signature_; }
  // Evicts the kernel's data from the caches by writing a buffer twice the last-level cache;
  // after set_clean_flush(true) also reads it back, so the dirty lines the writes left are
  // written back before the timed run instead of during it.
  void flush_caches();
  void set_clean_flush(bool clean) override { clean_flush_ = clean; }

 private:
  using LaunchFunction = int (*)(void**, char*, unsigned long);
  HostArgument& bound(const std::string& name, const char* what);
  void launch();

  std::filesystem::path artifact_;
  void* library_ = nullptr;
  LaunchFunction launch_ = nullptr;
  std::string signature_;
  std::vector<HostArgument>* arguments_ = nullptr;
  std::vector<BufferArgument> buffers_;  // bind_buffers: the arguments (scalars hold their value)
  bool buffers_bound_ = false;
  bool bound() const { return arguments_ || buffers_bound_; }
  // Timed runs of a bind_buffers binding: points each rotated array at set `set` (0: its buffer).
  void point_buffers_at(std::size_t set);
  std::vector<void*> array_addresses_;  // args_[i] points here for arrays
  std::vector<void*> args_;
  std::size_t flush_bytes_;
  std::vector<unsigned char> flush_buffer_;
  unsigned char flush_round_ = 0;
  bool clean_flush_ = false;
  volatile unsigned long flush_sink_ = 0;  // the read sweep's result, so it is not optimised away
  // Rotation: sets 1..N-1 live in rotation_slab_; rotation_offsets_[set - 1][k] is where the
  // copy of rotated_[k] (an argument index) starts.
  std::vector<std::size_t> rotated_;
  std::vector<std::byte> rotation_slab_;
  std::vector<std::vector<std::size_t>> rotation_offsets_;
  std::size_t rotation_sets_ = 1;
  std::size_t next_set_ = 0;
  std::byte* rotation_copy(std::size_t set, std::size_t k);
  void refresh_rotation_copies(std::size_t argument_index);
};

}  // namespace ktune::device::cpu
