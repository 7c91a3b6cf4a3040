#pragma once
// The CPU backend: one device (this host), kernels are C++ functions compiled with the host
// compiler into shared objects and called through a generated shim. See README.md.

#include <memory>

#include "ktune/device/cpu/cpu_compiler.h"
#include "ktune/device/cpu/cpu_memory.h"
#include "ktune/device/device.h"

namespace ktune::device::cpu {

struct CpuBackendOptions {
  CpuCompilerOptions compiler;
  std::size_t flush_bytes = 0;  // 0 -> 2 x last-level cache
};

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(CpuBackendOptions options = {});

  std::string name() const override { return "cpu"; }
  // Available when the host C++ compiler runs.
  Availability availability() const override;
  std::vector<DeviceInfo> devices() const override;
  Compiler& compiler() override { return compiler_; }
  std::unique_ptr<LoadedKernel> load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                     const LaunchGeometry& geometry) override;

  DeviceMemory& memory(int ordinal) override;
  bool supports_clean_flush() const override { return true; }
  // The one device, whether or not the compiler works (for tests and diagnostics).
  DeviceInfo host_device() const;

 private:
  CpuBackendOptions options_;
  CpuCompiler compiler_;
  CpuMemory memory_;
};

}  // namespace ktune::device::cpu
