#include "ktune/core/read_file.h"
#include "ktune/device/cpu/cpu_compiler.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/device/cpu/cpu_info.h"
#include "ktune/device/cpu/cpu_launch_shim.h"
#include "ktune/device/subprocess.h"

namespace ktune::device::cpu {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

// Bump when the shim, the flags or the cache layout change meaning.
constexpr std::string_view kCacheVersion = "ktune-cpu-cache-v1";

std::string shell_quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos) return arg;
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string join_command(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + shell_quote(a);
  return s;
}

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

// Final key: the inputs known before compiling plus the current contents of every header
// the last compile of those inputs read, so editing a header recompiles.
std::string key_with_headers(const std::string& input_key, const std::vector<std::string>& headers) {
  Sha256 h;
  h.update(input_key).update(std::string_view("\0", 1));
  for (const auto& header : headers) {
    auto contents = read_file(header);
    h.update(header).update(std::string_view("\0", 1));
    h.update(contents ? sha256_hex(*contents) : std::string("missing")).update(std::string_view("\0", 1));
  }
  return h.hex_digest();
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

const std::vector<std::string>& CpuCompiler::base_flags() {
  static const std::vector<std::string> flags = {"-std=c++20", "-O3", "-march=native", "-fPIC", "-shared"};
  return flags;
}

CpuCompiler::CpuCompiler(CpuCompilerOptions options)
    : options_(std::move(options)),
      cache_(options_.cache_directory.empty() ? default_cache_root() / "cpu" : options_.cache_directory) {
  if (options_.cxx.empty()) options_.cxx = default_compiler_command();
  if (options_.cache_directory.empty()) options_.cache_directory = cache_.directory();
  cache_.prune_temporaries(std::chrono::hours(1));
}

std::string trim_log(const std::string& log, std::size_t max_bytes) {
  if (log.size() <= max_bytes) return log;
  // The first errors explain the rest; the end says how the compile ended.
  std::size_t head = max_bytes * 3 / 4;
  std::size_t tail = max_bytes - head;
  return log.substr(0, head) + "\n[... " + std::to_string(log.size() - head - tail) + " bytes of compiler output omitted ...]\n" +
         log.substr(log.size() - tail);
}

std::vector<std::string> parse_dependency_file(std::string_view text) {
  // Make syntax as GCC and Clang write it: "target: prereq prereq \<newline> prereq",
  // spaces in names escaped as "\ ", '$' as "$$", '#' as "\#".
  std::vector<std::string> prerequisites;
  std::set<std::string> seen;
  std::string token;
  bool after_colon = false;
  auto flush = [&] {
    if (token.empty()) return;
    if (!after_colon && token.back() == ':') {
      after_colon = true;
    } else if (after_colon && seen.insert(token).second) {
      prerequisites.push_back(token);
    }
    token.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char next = text[i + 1];
      if (next == '\n') {
        ++i;
        flush();
        continue;
      }
      if (next == '\r' && i + 2 < text.size() && text[i + 2] == '\n') {
        i += 2;
        flush();
        continue;
      }
      if (next == ' ' || next == '#' || next == '\\') {
        token += next;
        ++i;
        continue;
      }
    }
    if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      token += '$';
      ++i;
      continue;
    }
    if (c == '\n') {
      flush();
      after_colon = false;  // a new rule starts
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      flush();
      continue;
    }
    if (c == ':' && !after_colon && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n' ||
                                     text[i + 1] == '\t' || text[i + 1] == '\r')) {
      token += ':';
      flush();
      if (token.empty() && !after_colon) after_colon = true;  // "target :" with the colon alone
      continue;
    }
    token += c;
  }
  flush();
  return prerequisites;
}

CompileResult CpuCompiler::compile(const CompileRequest& request) {
  const auto start = Clock::now();
  CompileResult result;
  auto fail = [&](std::string log) {
    result.ok = false;
    result.log = trim_log(log, options_.max_log_bytes);
    result.seconds = seconds_since(start);
    return result;
  };

  const CompilerIdentity& compiler = compiler_identity(options_.cxx);
  if (!compiler.usable()) return fail(compiler.error);
  if (!request.target.empty())
    return fail("the CPU backend compiles for this host only; target '" + request.target + "' is not supported");

  std::string shim;
  std::vector<std::string> flags = base_flags();
  try {
    shim = generate_launch_shim(request);
    auto defines = define_flags(request.defines);
    flags.insert(flags.end(), defines.begin(), defines.end());
  } catch (const DeviceError& e) {
    return fail(e.what());
  }
  flags.insert(flags.end(), request.user_flags.begin(), request.user_flags.end());

  // Everything known before compiling. Source paths are in the shim text.
  Sha256 inputs;
  auto field = [&](std::string_view s) { inputs.update(s).update(std::string_view("\0", 1)); };
  field(kCacheVersion);
  field(compiler.id());
  for (const auto& f : flags) field(f);
  field(shim);
  std::vector<fs::path> sources;
  for (const auto& source : request.sources) {
    fs::path absolute = fs::absolute(source);
    auto contents = read_file(absolute);
    if (!contents) return fail("cannot read kernel source '" + absolute.string() + "': " + std::strerror(errno));
    field(absolute.string());
    field(*contents);
    sources.push_back(absolute);
  }
  const std::string input_key = inputs.hex_digest();

  // Cache lookup: the manifest of the last compile of these inputs names the headers it read.
  try {
    if (auto manifest_text = cache_.read(input_key, ".deps.json")) {
      auto manifest = nlohmann::json::parse(*manifest_text);
      auto headers = manifest.at("headers").get<std::vector<std::string>>();
      std::string key = key_with_headers(input_key, headers);
      if (cache_.contains(key, ".so")) {
        result.ok = true;
        result.cache_hit = true;
        result.cache_key = key;
        result.artifact = cache_.entry_path(key, ".so");
        std::error_code ec;
        result.resources = {{"artifact_bytes", fs::file_size(result.artifact, ec)},
                            {"compiler", compiler.display()},
                            {"command", manifest.value("command", std::string())}};
        result.seconds = seconds_since(start);
        return result;
      }
    }
  } catch (const nlohmann::json::exception&) {
    // A damaged manifest is only a miss; the compile below rewrites it.
  }

  // The shim is named by the input key (it is part of it), written before compiling so
  // that diagnostics point at a file that still exists afterwards.
  fs::path shim_path, object_path, deps_path;
  try {
    shim_path = cache_.write(input_key, ".cc", shim);
    object_path = cache_.temporary_path(".so");
    deps_path = cache_.temporary_path(".d");
  } catch (const DeviceError& e) {
    return fail(e.what());
  }
  auto cleanup = [&] {
    remove_quietly(object_path);
    remove_quietly(deps_path);
  };

  std::vector<std::string> argv = compiler.command;
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (std::string a : {std::string("-MMD"), std::string("-MF"), deps_path.string(), std::string("-o"),
                        object_path.string(), shim_path.string()})
    argv.push_back(std::move(a));
  // What a person would type to reproduce the artifact (no temporaries, no dependency file).
  auto shown_command = [&](const std::string& output) {
    std::vector<std::string> shown = compiler.command;
    shown.insert(shown.end(), flags.begin(), flags.end());
    for (const std::string& a : {std::string("-o"), output, shim_path.string()}) shown.push_back(a);
    return join_command(shown);
  };

  SubprocessOptions run_options;
  run_options.timeout_seconds = options_.timeout_seconds;
  run_options.max_output_bytes = std::max<std::size_t>(options_.max_log_bytes * 4, 1 << 20);
  SubprocessResult run = run_subprocess(argv, run_options);
  std::string output = run.output;
  if (run.output_bytes_dropped > 0)
    output += "\n[... " + std::to_string(run.output_bytes_dropped) + " more bytes of compiler output dropped ...]";
  if (!run.succeeded()) {
    cleanup();
    std::string log = trim_log(output, options_.max_log_bytes);
    if (!log.empty() && log.back() != '\n') log += '\n';
    return fail(log + "ktune: compiler " + run.describe() + "\nktune: command: " + shown_command("kernel.so"));
  }

  // Headers the compile read, beyond the shim and the sources already in the input key.
  std::vector<std::string> headers;
  {
    std::set<std::string> known = {shim_path.string()};
    for (const auto& s : sources) known.insert(s.string());
    for (const auto& dep : parse_dependency_file(read_file(deps_path).value_or(""))) {
      std::string absolute = fs::absolute(dep).lexically_normal().string();
      if (!known.count(dep) && !known.count(absolute)) headers.push_back(absolute);
    }
    std::sort(headers.begin(), headers.end());
    headers.erase(std::unique(headers.begin(), headers.end()), headers.end());
  }
  const std::string key = key_with_headers(input_key, headers);
  const std::string command = shown_command(cache_.entry_path(key, ".so").string());
  try {
    result.artifact = cache_.publish(object_path, key, ".so");
    nlohmann::json manifest = {{"headers", headers}, {"command", command}, {"key", key}};
    cache_.write(input_key, ".deps.json", manifest.dump(1));
  } catch (const DeviceError& e) {
    cleanup();
    return fail(e.what());
  }
  remove_quietly(deps_path);

  result.ok = true;
  result.cache_key = key;
  result.log = trim_log(output, options_.max_log_bytes);
  std::error_code ec;
  result.resources = {{"artifact_bytes", fs::file_size(result.artifact, ec)},
                      {"compiler", compiler.display()},
                      {"command", command}};
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace ktune::device::cpu
