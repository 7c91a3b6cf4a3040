#include "ktune/device/cpu/cpu_backend.h"

#include "ktune/core/sha256.h"
#include "ktune/device/cpu/cpu_info.h"
#include "ktune/device/cpu/cpu_kernel.h"

namespace ktune::device::cpu {

CpuBackend::CpuBackend(CpuBackendOptions options) : options_(std::move(options)), compiler_(options_.compiler) {
  if (options_.flush_bytes == 0) options_.flush_bytes = 2 * host_cpu_info().last_level_cache_bytes;
}

Availability CpuBackend::availability() const {
  const auto& compiler = compiler_identity(compiler_.options().cxx);
  if (!compiler.usable()) return {false, compiler.error};
  return {true, ""};
}

DeviceInfo CpuBackend::host_device() const {
  const HostCpuInfo& cpu = host_cpu_info();
  const CompilerIdentity& compiler = compiler_identity(compiler_.options().cxx);
  DeviceInfo info;
  info.backend = "cpu";
  info.ordinal = 0;
  info.name = cpu.model;
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& c : cpu.caches) caches.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}});
  info.properties = {{"model", cpu.model},
                     {"logical_cores", cpu.logical_cores},
                     {"caches", caches},
                     {"last_level_cache_bytes", cpu.last_level_cache_bytes},
                     {"isa_flags", cpu.isa_flags},
                     {"compiler", compiler.display()},
                     {"compiler_native_target", compiler.native_target}};
  // Stable parts only: what changes generated code or its speed. The compiler's native
  // target stands for the ISA actually used (-march=native).
  Sha256 h;
  for (const std::string& part : {std::string("cpu"), cpu.model, std::to_string(cpu.logical_cores), compiler.path,
                                  compiler.version, compiler.native_target})
    h.update(part).update(std::string_view("\0", 1));
  info.fingerprint = "cpu-" + h.hex_digest().substr(0, 32);
  return info;
}

std::vector<DeviceInfo> CpuBackend::devices() const {
  if (!availability().available) return {};
  return {host_device()};
}

std::unique_ptr<LoadedKernel> CpuBackend::load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                               const LaunchGeometry& /*geometry: the kernel manages its own threads*/) {
  if (ordinal != 0) throw DeviceError("the CPU backend has one device (ordinal 0), not " + std::to_string(ordinal));
  if (!compiled.ok) throw DeviceError("cannot load a kernel whose compile failed");
  return std::make_unique<CpuKernel>(compiled.artifact, entry, options_.flush_bytes);
}

DeviceMemory& CpuBackend::memory(int ordinal) {
  if (ordinal != 0) throw DeviceError("the CPU backend has one device (ordinal 0), not " + std::to_string(ordinal));
  return memory_;
}

}  // namespace ktune::device::cpu
