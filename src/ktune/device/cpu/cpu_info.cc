#include "ktune/device/cpu/cpu_info.h"

#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/device/subprocess.h"

namespace ktune::device::cpu {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::istringstream in{std::string(s)};
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

std::vector<CacheLevel> read_sysfs_caches() {
  std::vector<CacheLevel> caches;
  for (int index = 0; index < 16; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::string size = std::string(trim(read_text(dir + "size")));
    if (size.empty()) break;
    CacheLevel level;
    std::string level_text(trim(read_text(dir + "level")));
    std::from_chars(level_text.data(), level_text.data() + level_text.size(), level.level);
    level.type = std::string(trim(read_text(dir + "type")));
    level.size_bytes = parse_cache_size(size);
    caches.push_back(level);
  }
  return caches;
}

}  // namespace

std::size_t parse_cache_size(std::string_view text) {
  text = trim(text);
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return 0;
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (unit.empty()) return value;
  if (unit == "K" || unit == "KB" || unit == "KiB") return value << 10;
  if (unit == "M" || unit == "MB" || unit == "MiB") return value << 20;
  if (unit == "G" || unit == "GB" || unit == "GiB") return value << 30;
  return 0;
}

HostCpuInfo parse_host_cpu_info(std::string_view cpuinfo, const std::vector<CacheLevel>& caches) {
  HostCpuInfo info;
  int processors = 0;
  std::string arm_part;
  std::istringstream lines{std::string(cpuinfo)};
  std::string line;
  while (std::getline(lines, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string_view key = trim(std::string_view(line).substr(0, colon));
    std::string_view value = trim(std::string_view(line).substr(colon + 1));
    if (key == "processor") ++processors;
    if (info.model.empty() && (key == "model name" || key == "Model" || key == "Hardware")) info.model = value;
    if (key == "CPU part" && arm_part.empty()) arm_part = value;
    if (info.isa_flags.empty() && (key == "flags" || key == "Features")) info.isa_flags = split_words(value);
  }
  if (info.model.empty()) info.model = arm_part.empty() ? "unknown CPU" : "CPU part " + arm_part;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  info.logical_cores = online > 0 ? static_cast<int>(online) : (processors > 0 ? processors : 1);
  info.caches = caches;
  int deepest = 0;
  for (const auto& c : caches) {
    if (c.type == "Instruction" || c.size_bytes == 0) continue;
    if (c.level > deepest) {
      deepest = c.level;
      info.last_level_cache_bytes = c.size_bytes;
    }
  }
  return info;
}

const HostCpuInfo& host_cpu_info() {
  static const HostCpuInfo info = parse_host_cpu_info(read_text("/proc/cpuinfo"), read_sysfs_caches());
  return info;
}

std::string CompilerIdentity::id() const { return path + "\n" + version + "\n" + native_target; }

std::string CompilerIdentity::display() const {
  if (!usable()) return error;
  return path + ": " + version;
}

std::string default_compiler_command() {
  for (const char* name : {"KTUNE_CXX", "CXX"}) {
    const char* v = std::getenv(name);
    if (v && *v && !split_words(v).empty()) return v;
  }
  return "c++";
}

namespace {

CompilerIdentity probe_compiler(const std::string& command) {
  CompilerIdentity id;
  id.command = split_words(command);
  if (id.command.empty()) {
    id.error = "no C++ compiler command given";
    return id;
  }
  id.path = find_executable(id.command[0]);
  if (id.path.empty()) {
    id.error = "C++ compiler '" + id.command[0] + "' not found (set KTUNE_CXX or CXX)";
    return id;
  }
  SubprocessOptions options;
  options.timeout_seconds = 30;
  options.max_output_bytes = 64 << 10;
  auto version_argv = id.command;
  version_argv.push_back("--version");
  auto version = run_subprocess(version_argv, options);
  if (!version.succeeded()) {
    id.error = "C++ compiler '" + command + "' --version failed: " + version.describe();
    return id;
  }
  id.version = std::string(trim(version.output.substr(0, version.output.find('\n'))));

  auto native_argv = id.command;
  for (const char* arg : {"-march=native", "-dM", "-E", "-x", "c++", "/dev/null"}) native_argv.push_back(arg);
  auto native = run_subprocess(native_argv, options);
  // A compiler without -march=native (some cross compilers) still works; the key then
  // records that fact instead of an ISA.
  id.native_target = native.succeeded() ? sha256_hex(native.output) : "no-march-native";
  return id;
}

}  // namespace

const CompilerIdentity& compiler_identity(const std::string& command) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CompilerIdentity>> probed;
  std::lock_guard lock(mutex);
  auto& slot = probed[command];
  if (!slot) slot = std::make_unique<CompilerIdentity>(probe_compiler(command));
  return *slot;
}

}  // namespace ktune::device::cpu
