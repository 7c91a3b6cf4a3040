#include "ktune/device/hip/hip_compiler.h"

#include <chrono>
#include <filesystem>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/analysis/isa_lint.h"
#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/core/read_file.h"
#include "ktune/core/sha256.h"
#include "ktune/device/cuda/cuda_compiler.h"

namespace ktune::device::hip {
namespace fs = std::filesystem;
namespace {

// Bump when the options ktune adds, the resources layout or the cache layout change meaning.
constexpr std::string_view kCacheVersion = "ktune-hip-cache-v1";

CompileResult failure(std::string log, double seconds = 0) {
  CompileResult r;
  r.ok = false;
  r.log = std::move(log);
  r.seconds = seconds;
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<std::filesystem::path> source_dirs(const CompileRequest& request) {
  std::vector<fs::path> dirs;
  for (const auto& s : request.sources) {
    fs::path dir = fs::absolute(s).parent_path();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

nlohmann::json signature_json(const CompileRequest& request) {
  nlohmann::json sig = nlohmann::json::array();
  for (const auto& a : request.signature)
    sig.push_back(std::string(element_type_name(a.type)) + (a.is_array ? "*" : ""));
  return sig;
}

// The kernel for `entry`: by name, by descriptor symbol, or by an Itanium-mangled free
// function name (_Z<length><entry>...).
const amdgpu::KernelMetadata* find_entry(const amdgpu::CodeObject& object, const std::string& entry) {
  if (const auto* k = object.find_kernel(entry)) return k;
  const std::string mangled = "_Z" + std::to_string(entry.size()) + entry;
  const amdgpu::KernelMetadata* found = nullptr;
  for (const auto& k : object.metadata.kernels) {
    if (k.name.rfind(mangled, 0) == 0) {
      if (found) return nullptr;  // overloaded: ambiguous
      found = &k;
    }
  }
  return found;
}

}  // namespace

nlohmann::json code_object_resources(const std::string& code_object_bytes, const std::string& entry) {
  amdgpu::CodeObject object;
  try {
    object = amdgpu::parse_code_object(code_object_bytes);
  } catch (const std::exception& e) {
    throw DeviceError(std::string("not a readable AMDGPU code object: ") + e.what());
  }
  const amdgpu::KernelMetadata* k = find_entry(object, entry);
  if (!k) {
    std::string names;
    for (const auto& kernel : object.metadata.kernels) names += (names.empty() ? "" : ", ") + kernel.name;
    throw DeviceError("the code object has no kernel '" + entry + "' (it has: " + (names.empty() ? "none" : names) +
                      "; a C++ kernel needs extern \"C\" or a unique name)");
  }
  std::string symbol = k->symbol;
  if (symbol.size() > 3 && symbol.compare(symbol.size() - 3, 3, ".kd") == 0) symbol.resize(symbol.size() - 3);
  if (symbol.empty()) symbol = k->name;
  nlohmann::json r = {{"entry", entry},
                      {"lowered_name", symbol},
                      {"arch", object.elf.processor},
                      {"target_id", object.elf.target_id},
                      {"code_object_version", object.elf.code_object_version},
                      {"vgpr_count", k->vgpr_count},
                      {"agpr_count", k->agpr_count},
                      {"sgpr_count", k->sgpr_count},
                      {"lds_bytes", k->group_segment_fixed_size},
                      {"group_segment_fixed_size", k->group_segment_fixed_size},
                      {"private_segment_fixed_size", k->private_segment_fixed_size},
                      {"vgpr_spill_count", k->vgpr_spill_count},
                      {"sgpr_spill_count", k->sgpr_spill_count},
                      {"wavefront_size", k->wavefront_size},
                      {"max_flat_workgroup_size", k->max_flat_workgroup_size},
                      {"kernarg_segment_size", k->kernarg_segment_size},
                      {"uses_dynamic_stack", k->uses_dynamic_stack},
                      {"code_object_bytes", code_object_bytes.size()}};
  for (const auto& code : object.kernel_code)
    if (code.name == symbol) r["code_bytes"] = code.code_bytes;
  return r;
}

HipCompiler::HipCompiler(HipCompilerOptions options)
    : options_(std::move(options)),
      cache_(options_.cache_directory.empty() ? default_cache_root() / "hip" : options_.cache_directory) {}

std::optional<amdgpu::Toolchain> HipCompiler::toolchain_for(const std::string& target, std::string* why_not) const {
  const std::string processor = analysis::amdgpu_processor_name(target);
  std::lock_guard lock(toolchains_mutex_);
  auto it = toolchains_.find(processor);
  if (it == toolchains_.end()) {
    std::string why;
    auto found = amdgpu::Toolchain::find(processor.empty() ? target : processor, options_.llvm_major, &why);
    it = toolchains_.emplace(processor, std::make_pair(std::move(found), why)).first;
  }
  if (why_not) *why_not = it->second.second;
  return it->second.first;
}

const Loaded<ktune::hip::Hiprtc>& HipCompiler::hiprtc() const {
  std::call_once(hiprtc_once_, [this] { hiprtc_ = ktune::hip::Hiprtc::load(); });
  return hiprtc_;
}

CompileResult HipCompiler::compile(const CompileRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  if (request.sources.empty()) return failure("no kernel source given");
  if (request.target.empty())
    return failure("no AMD GPU target to compile for: give one (e.g. --target gfx942) or select a HIP device");
  const std::string processor = analysis::amdgpu_processor_name(request.target);
  if (processor.empty() || !analysis::find_amdgpu_arch(processor))
    return failure("'" + request.target + "' is not an AMD GPU target ktune knows (gfx908 gfx90a gfx940 gfx941 gfx942 "
                   "gfx950, optionally with :sramecc+/-:xnack+/-)");
  if (!is_valid_entry_name(request.entry)) return failure("'" + request.entry + "' is not a valid kernel name");
  const std::optional<std::string> source_text = read_file(request.sources.front());
  if (!source_text) return failure("cannot read kernel source " + request.sources.front().string());

  std::vector<std::string> defines;
  try {
    defines = define_flags(request.defines);
  } catch (const DeviceError& e) {
    return failure(e.what());
  }

  std::string why_not;
  std::optional<amdgpu::Toolchain> toolchain = toolchain_for(request.target, &why_not);
  const Loaded<ktune::hip::Hiprtc>* rtc = nullptr;
  if (!toolchain) {
    if (options_.allow_hiprtc && hiprtc()) rtc = &hiprtc();
    else
      return failure("no compiler for " + request.target + ": " + why_not +
                     (options_.allow_hiprtc ? "; " + hiprtc().error : std::string()) +
                     " (install Debian's clang-19 and lld-19, clang-22 for gfx950, or ROCm)");
  }

  // Key: everything that changes the code object.
  Sha256 h;
  auto part = [&](std::string_view s) { h.update(s).update(std::string_view("\0", 1)); };
  part(kCacheVersion);
  part(toolchain ? "llvm " + toolchain->version_string() + " " + toolchain->clang() : "hiprtc " + (*rtc)->version_string());
  part(request.target);
  part(request.entry);
  part(*source_text);
  std::vector<fs::path> include_dirs = source_dirs(request);
  for (const auto& d : cuda::include_dirs_from_flags(request.user_flags)) include_dirs.push_back(d);
  for (const auto& header : cuda::scan_includes(request.sources.front(), include_dirs)) {
    part(header.string());
    part(read_file(header).value_or(""));
  }
  for (const auto& d : defines) part(d);
  part("--");
  for (const auto& f : request.user_flags) part(f);
  const std::string key = h.hex_digest();

  if (auto cached = cache_.read(key, ".json")) {
    try {
      CompileResult r;
      r.ok = true;
      r.cache_hit = true;
      r.cache_key = key;
      r.artifact = cache_.entry_path(key, ".hsaco");
      r.resources = nlohmann::json::parse(*cached);
      if (fs::exists(r.artifact)) {
        r.resources["signature"] = signature_json(request);
        r.seconds = seconds_since(start);
        return r;
      }
    } catch (const std::exception&) {
      // A damaged entry is rebuilt below.
    }
  }
  CompileResult r = toolchain ? compile_with_llvm(request, *toolchain, *source_text, key)
                              : compile_with_hiprtc(request, **rtc, *source_text, key);
  r.cache_key = key;
  r.seconds = seconds_since(start);
  if (r.ok) r.resources["signature"] = signature_json(request);
  return r;
}

CompileResult HipCompiler::compile_with_llvm(const CompileRequest& request, const amdgpu::Toolchain& toolchain,
                                             const std::string& source_text, const std::string& key) {
  amdgpu::CompileRequest req;
  req.source = source_text;
  req.language = amdgpu::SourceLanguage::Hip;
  req.arch = request.target;
  for (const auto& [name, value] : request.defines)
    req.defines.emplace_back(name, value.is_bool() ? (value.as_bool() ? "1" : "0") : value.to_string());
  for (const auto& d : source_dirs(request)) req.include_paths.push_back(d.string());
  req.options = request.user_flags;
  req.timeout_seconds = options_.timeout_seconds;
  // The source's own stem, so that diagnostics say matmul.hip:35, not kernel.hip:35.
  req.name = request.sources.front().stem().string();
  if (req.name.empty() || req.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
                              std::string::npos)
    req.name = "kernel";
  fs::path work;
  try {
    work = cache_.temporary_path(".d");
    fs::create_directories(work);
  } catch (const std::exception& e) {
    return failure(std::string("cannot create a compile directory: ") + e.what());
  }
  req.output_dir = work.string();
  const amdgpu::CompileResult out = toolchain.compile(req);
  auto cleanup = [&] {
    std::error_code ec;
    fs::remove_all(work, ec);
  };
  if (!out.ok) {
    cleanup();
    std::string log = out.error;
    if (!out.log.empty() && out.log != out.error) log += "\n" + out.log;
    // Diagnostics name the copy in the compile directory; point them at the user's file.
    if (!out.source_path.empty()) {
      const std::string original = fs::absolute(request.sources.front()).string();
      for (std::size_t pos = log.find(out.source_path); pos != std::string::npos;
           pos = log.find(out.source_path, pos + original.size()))
        log.replace(pos, out.source_path.size(), original);
    }
    return failure(log);
  }
  CompileResult r;
  try {
    const std::optional<std::string> bytes = read_file(out.code_object_path);
    if (!bytes) throw DeviceError("cannot read " + out.code_object_path);
    r.resources = code_object_resources(*bytes, request.entry);
    r.resources["target"] = request.target;
    r.resources["compiler"] = "clang " + toolchain.version_string();
    const std::string lowered = r.resources["lowered_name"].get<std::string>();
    for (const auto& info : amdgpu::parse_asm_kernel_info(out.asm_text))
      if (info.name == lowered && info.occupancy) r.resources["compiler_occupancy"] = *info.occupancy;
    try {
      const analysis::IsaLintReport lint = analysis::lint_isa(out.asm_text, analysis::IsaDialect::Amdgpu);
      nlohmann::json isa = {{"counts", nlohmann::json::object()}, {"findings", nlohmann::json::array()}};
      if (const auto* summary = lint.kernel(lowered)) {
        isa["counts"] = summary->counts;
        isa["matrix_shapes"] = summary->matrix_shapes;
        isa["loops"] = summary->loops;
      }
      for (const auto& finding : lint.findings) {
        if (finding.kernel != lowered) continue;
        const analysis::IsaFinding* f = &finding;
        nlohmann::json lines = nlohmann::json::array();
        for (const auto& l : f->lines) lines.push_back(l.number);
        isa["findings"].push_back({{"check", f->check},
                                   {"severity", analysis::to_string(f->severity)},
                                   {"message", f->message},
                                   {"count", f->count},
                                   {"lines", lines}});
      }
      r.resources["isa"] = std::move(isa);
    } catch (const std::exception& e) {
      r.resources["isa_error"] = e.what();
    }
    r.artifact = cache_.write(key, ".hsaco", *bytes);
    r.resources["asm_path"] = cache_.write(key, ".s", out.asm_text).string();
    cache_.write(key, ".json", r.resources.dump());
  } catch (const std::exception& e) {
    cleanup();
    return failure(std::string("compiled, but ") + e.what() + "\n" + out.log);
  }
  cleanup();
  r.ok = true;
  r.log = out.log;
  return r;
}

CompileResult HipCompiler::compile_with_hiprtc(const CompileRequest& request, const ktune::hip::Hiprtc& rtc,
                                               const std::string& source_text, const std::string& key) {
  std::vector<std::string> options = {"--offload-arch=" + request.target, "-O3"};
  for (const auto& d : define_flags(request.defines)) options.push_back(d);
  for (const auto& d : source_dirs(request)) options.push_back("-I" + d.string());
  options.insert(options.end(), request.user_flags.begin(), request.user_flags.end());
  const ktune::hip::HiprtcOutput out = rtc.compile(source_text, request.sources.front().filename().string(), options);
  if (!out.ok) return failure(out.log);
  CompileResult r;
  try {
    r.resources = code_object_resources(out.code, request.entry);
    r.resources["target"] = request.target;
    r.resources["compiler"] = "hiprtc " + rtc.version_string();
    r.artifact = cache_.write(key, ".hsaco", out.code);
    cache_.write(key, ".json", r.resources.dump());
  } catch (const std::exception& e) {
    return failure(std::string("hiprtc compiled, but ") + e.what());
  }
  r.ok = true;
  r.log = out.log;
  return r;
}

}  // namespace ktune::device::hip
