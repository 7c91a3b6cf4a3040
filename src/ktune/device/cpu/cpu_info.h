#pragma once
// Facts about the host CPU and the host C++ compiler, read once per process. They identify
// a CPU "device" (its fingerprint) and enter every CPU compile-cache key.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ktune::device::cpu {

struct CacheLevel {
  int level = 0;
  std::string type;  // "Data", "Instruction", "Unified"
  std::size_t size_bytes = 0;
};

struct HostCpuInfo {
  std::string model;  // "AMD EPYC 7B13"; "unknown CPU" when /proc/cpuinfo has no model line
  int logical_cores = 1;
  std::vector<CacheLevel> caches;  // of cpu0, from sysfs
  std::vector<std::string> isa_flags;
  std::size_t last_level_cache_bytes = 32u << 20;  // fallback when sysfs is silent
};

// Reads /proc/cpuinfo and /sys/devices/system/cpu/cpu0/cache. Never throws; missing files
// leave defaults.
const HostCpuInfo& host_cpu_info();
// Parsers, exposed for tests.
HostCpuInfo parse_host_cpu_info(std::string_view proc_cpuinfo, const std::vector<CacheLevel>& caches);
std::size_t parse_cache_size(std::string_view text);  // "32K" -> 32768, "32768K", "1M", "512"; 0 if malformed

struct CompilerIdentity {
  std::vector<std::string> command;  // the compiler command split into words ("ccache g++")
  std::string path;                  // resolved absolute path of command[0]; "" if not found
  std::string version;               // first line of `--version`
  std::string native_target;         // sha256 of `-march=native -dM -E` output: the ISA it targets here
  std::string error;                 // why it is unusable; empty when usable

  bool usable() const { return error.empty(); }
  // One line for cache keys and fingerprints: path, version, native target.
  std::string id() const;
  std::string display() const;  // "/usr/bin/g++-12: c++ (Debian 12.2.0-14) 12.2.0"
};

// $KTUNE_CXX, else $CXX, else "c++".
std::string default_compiler_command();
// Probes the compiler (once per distinct command; thread-safe).
const CompilerIdentity& compiler_identity(const std::string& command);

}  // namespace ktune::device::cpu
