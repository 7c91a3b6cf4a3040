#include "ktune/tuner/sanitize.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "ktune/device/device_memory.h"
#include "ktune/device/subprocess.h"

namespace ktune::tuner {
namespace fs = std::filesystem;
namespace {

constexpr const char* kName = "compute-sanitizer";

bool executable(const fs::path& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); }

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first lines of the report: enough to name the access, the kernel and the address.
std::string excerpt(const std::string& log, std::size_t max_lines = 40) {
  std::istringstream in(log);
  std::string line, out;
  for (std::size_t n = 0; n < max_lines && std::getline(in, line); ++n) out += line + "\n";
  return out;
}

// memcheck's padding after every allocation, in bytes. Buffers sized in whole 2 MiB pages lie
// back to back in the address space, so an access one element past one lands in the next,
// which memcheck (knowing allocations, not which pointer an address came from) accepts; the
// padding makes the bytes after each allocation invalid.
constexpr const char* kPaddingBytes = "65536";

// Whether this compute-sanitizer knows `option` (its --help lists it); asked once per path.
bool sanitizer_knows(const fs::path& sanitizer, const std::string& option) {
  static std::mutex mutex;
  static std::map<std::string, std::string> help;  // path -> --help output
  std::lock_guard lock(mutex);
  auto it = help.find(sanitizer.string());
  if (it == help.end()) {
    device::SubprocessOptions options;
    options.timeout_seconds = 30;
    const device::SubprocessResult r = device::run_subprocess({sanitizer.string(), "--help"}, options);
    it = help.emplace(sanitizer.string(), r.succeeded() ? r.output : std::string()).first;
  }
  return it->second.find(option) != std::string::npos;
}

}  // namespace

std::optional<fs::path> find_compute_sanitizer(const fs::path& given) {
  if (!given.empty()) return executable(given) ? std::optional<fs::path>(given) : std::nullopt;
  if (const char* env = std::getenv("KTUNE_COMPUTE_SANITIZER"); env && *env)
    return executable(env) ? std::optional<fs::path>(env) : std::nullopt;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / kName)) return fs::path(dir) / kName;
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home && executable(fs::path(home) / "bin" / kName))
      return fs::path(home) / "bin" / kName;
  if (executable(fs::path("/usr/local/cuda/bin") / kName)) return fs::path("/usr/local/cuda/bin") / kName;
  return std::nullopt;
}

std::optional<long> sanitizer_error_count(const std::string& log) {
  // memcheck, initcheck and synccheck end with "ERROR SUMMARY: N errors"; racecheck with
  // "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)", where every displayed
  // hazard is a finding (a warning is a race the tool thinks may be benign, which is still a race).
  static const std::regex summary(R"((ERROR SUMMARY:\s*([0-9]+)\s+error)|(RACECHECK SUMMARY:\s*([0-9]+)\s+hazard))");
  std::smatch m;
  std::optional<long> count;
  // The last summary wins (one per process; a worker is one process).
  for (auto it = log.cbegin(); std::regex_search(it, log.cend(), m, summary); it = m.suffix().first)
    count = std::stol(m[2].matched ? m[2].str() : m[4].str());
  return count;
}

nlohmann::json sanitize_candidate(EvaluationRequest request, const worker::WorkerCommand& worker,
                                  const SanitizeOptions& options) {
  const auto sanitizer = find_compute_sanitizer(options.sanitizer);
  if (!sanitizer)
    return {{"error", "compute-sanitizer not found (give --sanitizer PATH, set KTUNE_COMPUTE_SANITIZER, or put the "
                      "CUDA toolkit's bin on PATH)"}};
  request.measure = false;
  request.run_timeout_seconds = 0;  // sanitized runs are many times slower: the call timeout rules
  nlohmann::json result = {{"sanitizer", sanitizer->string()}, {"tools", nlohmann::json::object()}, {"errors", 0}};
  long total = 0;
  for (const std::string& tool : options.tools) {
    const fs::path log = fs::temp_directory_path() /
                         ("ktune-sanitize-" + std::to_string(::getpid()) + "-" + tool + ".log");
    fs::remove(log);
    worker::WorkerCommand command;
    command.executable = *sanitizer;
    // API errors are ktune's own probing (cuFuncGetParamInfo ends its list with INVALID_VALUE),
    // not the kernel's: only device-side findings count.
    command.args = {"--tool", tool, "--log-file", log.string(), "--print-limit", "20", "--report-api-errors", "no"};
    if (tool == "memcheck") {
      command.args.insert(command.args.end(), {"--leak-check", "no"});
      if (sanitizer_knows(*sanitizer, "--padding")) command.args.insert(command.args.end(), {"--padding", kPaddingBytes});
    }
    command.args.push_back(worker.executable.string());
    command.args.insert(command.args.end(), worker.args.begin(), worker.args.end());
    command.env = worker.env;
    command.env[device::kGuardBandsVariable] = "0";  // memcheck must see each buffer's true bounds
    worker::WorkerProcess process(command);
    nlohmann::json entry;
    auto outcome = process.call(to_json(request), options.timeout_seconds);
    if (auto* reply = std::get_if<nlohmann::json>(&outcome)) {
      entry["status"] = reply->value("status", "runtime_error");
      if (!reply->value("error", std::string()).empty()) entry["candidate_error"] = reply->value("error", "");
    } else if (auto* crashed = std::get_if<worker::WorkerProcess::Crashed>(&outcome)) {
      entry["status"] = "crashed";
      entry["candidate_error"] = crashed->description + "\n" + crashed->stderr_tail;
    } else {
      entry["status"] = "timeout";
    }
    process.stop();  // the summary is written when the process exits
    const std::string text = read_text(log);
    fs::remove(log);
    const auto errors = sanitizer_error_count(text);
    if (!errors) {
      entry["error"] = "no ERROR SUMMARY in compute-sanitizer's log" + (text.empty() ? std::string(" (empty)") : "");
      entry["report"] = excerpt(text);
    } else {
      entry["errors"] = *errors;
      total += *errors;
      if (*errors > 0) entry["report"] = excerpt(text);
    }
    result["tools"][tool] = entry;
  }
  result["errors"] = total;
  return result;
}

}  // namespace ktune::tuner
