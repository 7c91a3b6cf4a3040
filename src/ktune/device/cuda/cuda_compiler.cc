#include "ktune/core/read_file.h"
#include "ktune/device/cuda/cuda_compiler.h"

#include <mutex>
#include <shared_mutex>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/device/cpu/cpu_compiler.h"  // trim_log

namespace ktune::device::cuda {
namespace fs = std::filesystem;
namespace kc = ktune::cuda;
namespace {

using Clock = std::chrono::steady_clock;

// Bump when the options ktune adds, the resources layout or the cache layout change meaning.
constexpr std::string_view kCacheVersion = "ktune-cuda-cache-v1";
// A guard against include cycles through distinct paths and runaway scans.
constexpr std::size_t kMaxScannedIncludes = 4096;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The name of an #include directive on this line, with whether it was "quoted".
std::optional<std::pair<std::string, bool>> include_directive(std::string_view line) {
  std::size_t i = 0;
  auto skip_blanks = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  skip_blanks();
  if (i >= line.size() || line[i] != '#') return std::nullopt;
  ++i;
  skip_blanks();
  if (line.substr(i, 7) != "include") return std::nullopt;
  i += 7;
  skip_blanks();
  if (i >= line.size() || (line[i] != '"' && line[i] != '<')) return std::nullopt;
  const char close = line[i] == '"' ? '"' : '>';
  const std::size_t end = line.find(close, i + 1);
  if (end == std::string_view::npos || end == i + 1) return std::nullopt;
  return std::make_pair(std::string(line.substr(i + 1, end - i - 1)), close == '"');
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

fs::path normalized(const fs::path& p) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal() : canonical;
}

std::string describe(const ArgumentSignature& a) {
  return std::string(element_type_name(a.type)) + (a.is_array ? "*" : "");
}

// The entry's line of `ptxas -v`, flattened into the resources object.
nlohmann::json resources_json(const kc::NvrtcResult& out, const std::string& entry, const std::string& lowered,
                              const std::string& target, const std::string& nvrtc_version,
                              const std::vector<fs::path>& headers) {
  nlohmann::json r = nlohmann::json::object();
  const analysis::KernelResourceUsage* usage = out.resources.find(lowered);
  if (usage) {
    r = analysis::to_json(*usage);
    r.erase("name");
    r["demangled_name"] = usage->demangled_name;
  } else {
    for (const char* key : {"registers", "barriers", "shared_bytes", "local_bytes", "stack_frame_bytes",
                            "spill_store_bytes", "spill_load_bytes", "cumulative_stack_bytes"})
      r[key] = 0;
  }
  r["ptxas_found_entry"] = usage != nullptr;
  r["entry"] = entry;
  r["lowered_name"] = lowered;
  r["arch"] = target;
  r["ptxas_warnings"] = out.resources.warnings;
  r["cubin_bytes"] = out.cubin.size();
  r["nvrtc_version"] = nvrtc_version;
  r["options"] = out.options;
  nlohmann::json header_list = nlohmann::json::array();
  for (const auto& h : headers) header_list.push_back(h.string());
  r["headers"] = header_list;
  return r;
}

}  // namespace

std::vector<fs::path> scan_includes(const fs::path& source, const std::vector<fs::path>& include_dirs) {
  std::vector<fs::path> found;
  std::set<fs::path> seen = {normalized(source)};
  std::vector<fs::path> pending = {normalized(source)};
  while (!pending.empty() && found.size() < kMaxScannedIncludes) {
    const fs::path file = pending.back();
    pending.pop_back();
    const std::optional<std::string> text = read_file(file);
    if (!text) continue;
    std::size_t start = 0;
    while (start < text->size()) {
      std::size_t end = text->find('\n', start);
      if (end == std::string::npos) end = text->size();
      const std::string_view line(text->data() + start, end - start);
      start = end + 1;
      const auto directive = include_directive(line);
      if (!directive) continue;
      const auto& [name, quoted] = *directive;
      std::vector<fs::path> candidates;
      if (fs::path(name).is_absolute()) {
        candidates.emplace_back(name);
      } else {
        if (quoted) candidates.push_back(file.parent_path() / name);
        for (const auto& dir : include_dirs) candidates.push_back(dir / name);
      }
      for (const auto& candidate : candidates) {
        if (!is_file(candidate)) continue;
        fs::path header = normalized(candidate);
        if (seen.insert(header).second) {
          found.push_back(header);
          pending.push_back(header);
        }
        break;
      }
    }
  }
  return found;
}

std::vector<fs::path> include_dirs_from_flags(const std::vector<std::string>& flags) {
  std::vector<fs::path> dirs;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string& flag = flags[i];
    std::string dir;
    if (flag == "-I" || flag == "--include-path") {
      if (i + 1 < flags.size()) dir = flags[++i];
    } else if (flag.rfind("--include-path=", 0) == 0) {
      dir = flag.substr(15);
    } else if (flag.rfind("-I", 0) == 0) {
      dir = flag.substr(2);
    }
    if (!dir.empty()) dirs.push_back(normalized(dir));
  }
  return dirs;
}

CudaCompiler::CudaCompiler(CudaCompilerOptions options)
    : options_(std::move(options)),
      cache_(options_.cache_directory.empty() ? default_cache_root() / "cuda" : options_.cache_directory) {
  if (options_.cache_directory.empty()) options_.cache_directory = cache_.directory();
  cache_.prune_temporaries(std::chrono::hours(1));
}

const Loaded<kc::NvrtcCompiler>& CudaCompiler::nvrtc() const {
  std::call_once(nvrtc_once_, [this] {
    nvrtc_ = options_.nvrtc_library.empty() ? kc::NvrtcCompiler::load()
                                            : kc::NvrtcCompiler::load_from(options_.nvrtc_library);
  });
  return nvrtc_;
}

CompileResult CudaCompiler::compile(const CompileRequest& request) {
  const auto start = Clock::now();
  CompileResult result;
  auto fail = [&](const std::string& log) {
    result.ok = false;
    result.log = cpu::trim_log(log, options_.max_log_bytes);
    result.seconds = seconds_since(start);
    return result;
  };

  const Loaded<kc::NvrtcCompiler>& nvrtc = this->nvrtc();
  if (!nvrtc) return fail(nvrtc.error);
  if (request.target.empty())
    return fail("the CUDA backend compiles for one GPU architecture, but the request names none (use the device's "
                "properties[\"target\"], e.g. \"sm_90a\")");
  if (request.target.rfind("sm_", 0) != 0 || !kc::nvrtc_arch_number(request.target))
    return fail("CUDA target '" + request.target + "' is not of the form sm_XY, sm_XYa or sm_XYf (the backend loads "
                "CUBIN, so compute_XY is not enough)");
  if (!is_valid_entry_name(request.entry))
    return fail("'" + request.entry + "' is not a kernel name ktune can look up (a C++ name, optionally qualified, "
                "with simple template arguments)");
  if (request.sources.empty()) return fail("no kernel source file given");

  std::vector<std::string> flags;
  try {
    flags = define_flags(request.defines);
  } catch (const DeviceError& e) {
    return fail(e.what());
  }
  flags.insert(flags.end(), request.user_flags.begin(), request.user_flags.end());

  // The main source is the translation unit; every source's directory is an include path.
  std::vector<fs::path> sources;
  std::vector<std::string> source_texts;
  std::vector<fs::path> include_dirs;
  for (const auto& source : request.sources) {
    fs::path absolute = normalized(source);
    auto contents = read_file(absolute);
    if (!contents) return fail("cannot read kernel source '" + absolute.string() + "': " + std::strerror(errno));
    if (std::find(include_dirs.begin(), include_dirs.end(), absolute.parent_path()) == include_dirs.end())
      include_dirs.push_back(absolute.parent_path());
    sources.push_back(absolute);
    source_texts.push_back(std::move(*contents));
  }
  std::vector<fs::path> search_dirs = include_dirs;
  for (auto& dir : include_dirs_from_flags(request.user_flags)) search_dirs.push_back(std::move(dir));
  std::vector<fs::path> headers = scan_includes(sources.front(), search_dirs);
  headers.erase(std::remove_if(headers.begin(), headers.end(),
                               [&](const fs::path& h) {
                                 return std::find(sources.begin(), sources.end(), h) != sources.end();
                               }),
                headers.end());

  // Key: everything that can change the CUBIN or the resources reported with it.
  Sha256 inputs;
  auto field = [&](std::string_view s) { inputs.update(s).update(std::string_view("\0", 1)); };
  field(kCacheVersion);
  field(nvrtc->version_string());
  field(nvrtc->cuda_include_dir());
  field(request.target);
  field(request.entry);
  for (const auto& f : flags) field(f);
  for (const auto& d : include_dirs) field(d.string());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    field(sources[i].string());
    field(source_texts[i]);
  }
  for (const auto& h : headers) {
    field(h.string());
    auto contents = read_file(h);
    field(contents ? sha256_hex(*contents) : std::string("unreadable"));
  }
  const std::string key = inputs.hex_digest();

  nlohmann::json signature = nlohmann::json::array();
  for (const auto& a : request.signature) signature.push_back(describe(a));
  auto finish_ok = [&](nlohmann::json resources, std::string log, bool hit) {
    result.ok = true;
    result.cache_hit = hit;
    result.cache_key = key;
    result.artifact = cache_.entry_path(key, ".cubin");
    result.log = cpu::trim_log(log, options_.max_log_bytes);
    result.resources = std::move(resources);
    if (!request.signature.empty()) result.resources["signature"] = signature;
    result.seconds = seconds_since(start);
    return result;
  };

  if (cache_.contains(key, ".cubin")) {
    if (auto sidecar = cache_.read(key, ".json")) {
      try {
        nlohmann::json cached = nlohmann::json::parse(*sidecar);
        return finish_ok(cached.at("resources"), cached.value("log", std::string()), true);
      } catch (const nlohmann::json::exception&) {
        // A damaged sidecar is only a miss; the compile below rewrites it.
      }
    }
  }

  kc::NvrtcRequest nvrtc_request;
  nvrtc_request.source = source_texts.front();
  nvrtc_request.program_name = sources.front().string();
  nvrtc_request.arch = request.target;
  nvrtc_request.options = flags;
  for (const auto& d : include_dirs) nvrtc_request.include_paths.push_back(d.string());
  const std::string expression = "&" + request.entry;
  nvrtc_request.name_expressions = {expression};
  // Ordinary compiles share this lock; a retry (below) takes it alone.
  static std::shared_mutex compiles_in_flight;
  kc::NvrtcResult out;
  {
    std::shared_lock lock(compiles_in_flight);
    out = nvrtc->compile(nvrtc_request);
  }
  if (!out.ok) {
    std::string log = out.error;
    if (!out.log.empty()) log += "\n" + out.log;
    return fail(log);
  }
  std::string lowered = out.lowered_name(expression);
  nlohmann::json resources = resources_json(out, request.entry, lowered, request.target, nvrtc->version_string(), headers);
  if (!resources.value("ptxas_found_entry", false)) {
    // Seen once on a GPU machine with many compiles in flight: a successful compile whose
    // log lacked the entry's ptxas report. Screening needs registers, so compile this one
    // again with no other compile running, and keep the log of that attempt.
    std::unique_lock lock(compiles_in_flight);
    kc::NvrtcResult again = nvrtc->compile(nvrtc_request);
    if (again.ok) {
      out = std::move(again);
      lowered = out.lowered_name(expression);
      resources = resources_json(out, request.entry, lowered, request.target, nvrtc->version_string(), headers);
      resources["ptxas_report_retried"] = true;
    }
  }
  try {
    // The sidecar goes last: a reader that finds it also finds the CUBIN.
    cache_.write(key, ".cubin", out.cubin);
    cache_.write(key, ".json", nlohmann::json{{"resources", resources}, {"log", out.log}}.dump(1));
  } catch (const DeviceError& e) {
    return fail(e.what());
  }
  return finish_ok(std::move(resources), out.log, false);
}

}  // namespace ktune::device::cuda
