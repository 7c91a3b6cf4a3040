#include "ktune/device/cuda/nvrtc.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace ktune::cuda {

// The slice of nvrtc.h that ktune uses, declared here so ktune builds without the toolkit.
// Signatures are stable across NVRTC 11.x-13.x.
namespace nvrtc_abi {
using nvrtcResult = int;
struct NvrtcProgramOpaque;
using nvrtcProgram = NvrtcProgramOpaque*;
constexpr nvrtcResult kNvrtcSuccess = 0;
}  // namespace nvrtc_abi
using namespace nvrtc_abi;

struct NvrtcCompiler::Api {
  const char* (*GetErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*Version)(int*, int*) = nullptr;
  nvrtcResult (*GetNumSupportedArchs)(int*) = nullptr;  // optional (11.2+)
  nvrtcResult (*GetSupportedArchs)(int*) = nullptr;     // optional (11.2+)
  nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*) = nullptr;
  nvrtcResult (*DestroyProgram)(nvrtcProgram*) = nullptr;
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
  nvrtcResult (*GetPTXSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*GetPTX)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, std::size_t*) = nullptr;  // optional (11.1+)
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*AddNameExpression)(nvrtcProgram, const char*) = nullptr;
  nvrtcResult (*GetLoweredName)(nvrtcProgram, const char*, const char**) = nullptr;

  std::string error_text(nvrtcResult code) const {
    const char* text = GetErrorString ? GetErrorString(code) : nullptr;
    return (text ? std::string(text) : std::string("NVRTC error")) + " (" + std::to_string(code) + ")";
  }
};

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

bool has_fp16_header(const std::filesystem::path& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::exists(dir / "cuda_fp16.h", ec);
}

std::string find_include_dir(const std::string& library_path) {
  std::vector<std::filesystem::path> candidates;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::string root = env(var); !root.empty()) candidates.emplace_back(std::filesystem::path(root) / "include");
  }
  std::error_code ec;
  std::filesystem::path library = std::filesystem::canonical(library_path, ec);
  if (!ec) candidates.push_back(library.parent_path().parent_path() / "include");
  candidates.emplace_back("/usr/local/cuda/include");
  for (const auto& dir : candidates) {
    if (has_fp16_header(dir)) return dir.lexically_normal().string();
  }
  return {};
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool sets_option(const std::vector<std::string>& options, std::initializer_list<std::string_view> spellings) {
  for (const std::string& option : options) {
    for (std::string_view spelling : spellings) {
      if (starts_with(option, spelling)) return true;
    }
  }
  return false;
}

std::string join_archs(const std::vector<int>& archs) {
  std::string text;
  for (int a : archs) text += (text.empty() ? "sm_" : ", sm_") + std::to_string(a);
  return text;
}

// ptxas's own words for some failures are cryptic ("uses too much shared data (0x3a980 bytes,
// 0xc000 max)"); say what to do instead.
std::string explain_resources(const analysis::PtxasReport& resources) {
  for (const analysis::KernelResourceUsage& kernel : resources.kernels) {
    if (kernel.shared_bytes > 48 * 1024) {
      return "kernel '" + kernel.demangled_name + "' declares " + std::to_string(kernel.shared_bytes) +
             " bytes of static __shared__ memory, above the 48 KiB (49152-byte) limit for static shared memory; "
             "use dynamic shared memory (extern __shared__) and opt in with "
             "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES";
    }
  }
  return {};
}

// Diagnostic lines from the front end ("file.cu(3): error: ...") and ptxas ("ptxas error :").
std::vector<std::string> error_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    if (line.find("): error") != std::string::npos || line.find(": catastrophic error") != std::string::npos ||
        starts_with(line, "ptxas error") || starts_with(line, "ptxas fatal") || starts_with(line, "nvrtc: error")) {
      lines.push_back(line);
    }
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::optional<int> nvrtc_arch_number(std::string_view arch) {
  for (std::string_view prefix : {"sm_", "compute_", "lto_"}) {
    if (starts_with(arch, prefix)) {
      arch.remove_prefix(prefix.size());
      while (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.remove_suffix(1);
      if (arch.empty() || arch.size() > 4) return std::nullopt;
      int value = 0;
      for (char c : arch) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
      }
      return value;
    }
  }
  return std::nullopt;
}

Loaded<NvrtcCompiler> NvrtcCompiler::load() {
  const std::vector<std::string> names = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  std::vector<std::string> candidates;
  if (std::string explicit_path = env("KTUNE_NVRTC_PATH"); !explicit_path.empty()) {
    // The user said where NVRTC is; trying elsewhere would hide their mistake.
    std::error_code ec;
    if (std::filesystem::is_directory(explicit_path, ec)) {
      for (const std::string& name : names) candidates.push_back((std::filesystem::path(explicit_path) / name).string());
    } else {
      candidates.push_back(explicit_path);
    }
  } else {
    std::vector<std::string> directories;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
      if (std::string root = env(var); !root.empty()) directories.push_back(root + "/lib64");
    }
    directories.emplace_back("/usr/local/cuda/lib64");
    candidates = library_candidates(nullptr, names, directories);
  }
  Loaded<NvrtcCompiler> result = from_library(DynamicLibrary::open_first(candidates));
  if (!result) result.error = "NVRTC not available: " + result.error;
  return result;
}

Loaded<NvrtcCompiler> NvrtcCompiler::load_from(const std::string& path_or_name) {
  Loaded<NvrtcCompiler> result = from_library(DynamicLibrary::open_first({path_or_name}));
  if (!result) result.error = "NVRTC not available: " + result.error;
  return result;
}

Loaded<NvrtcCompiler> NvrtcCompiler::from_library(Loaded<DynamicLibrary> library) {
  Loaded<NvrtcCompiler> result;
  if (!library) {
    result.error = library.error;
    return result;
  }
  auto api = std::make_shared<Api>();
  try {
    const DynamicLibrary& lib = *library;
    api->GetErrorString = lib.require_function<const char*(nvrtcResult)>({"nvrtcGetErrorString"});
    api->Version = lib.require_function<nvrtcResult(int*, int*)>({"nvrtcVersion"});
    api->GetNumSupportedArchs = lib.function<nvrtcResult(int*)>({"nvrtcGetNumSupportedArchs"});
    api->GetSupportedArchs = lib.function<nvrtcResult(int*)>({"nvrtcGetSupportedArchs"});
    api->CreateProgram = lib.require_function<nvrtcResult(nvrtcProgram*, const char*, const char*, int,
                                                          const char* const*, const char* const*)>(
        {"nvrtcCreateProgram"});
    api->DestroyProgram = lib.require_function<nvrtcResult(nvrtcProgram*)>({"nvrtcDestroyProgram"});
    api->CompileProgram =
        lib.require_function<nvrtcResult(nvrtcProgram, int, const char* const*)>({"nvrtcCompileProgram"});
    api->GetPTXSize = lib.require_function<nvrtcResult(nvrtcProgram, std::size_t*)>({"nvrtcGetPTXSize"});
    api->GetPTX = lib.require_function<nvrtcResult(nvrtcProgram, char*)>({"nvrtcGetPTX"});
    api->GetCUBINSize = lib.function<nvrtcResult(nvrtcProgram, std::size_t*)>({"nvrtcGetCUBINSize"});
    api->GetCUBIN = lib.function<nvrtcResult(nvrtcProgram, char*)>({"nvrtcGetCUBIN"});
    api->GetProgramLogSize =
        lib.require_function<nvrtcResult(nvrtcProgram, std::size_t*)>({"nvrtcGetProgramLogSize"});
    api->GetProgramLog = lib.require_function<nvrtcResult(nvrtcProgram, char*)>({"nvrtcGetProgramLog"});
    api->AddNameExpression =
        lib.require_function<nvrtcResult(nvrtcProgram, const char*)>({"nvrtcAddNameExpression"});
    api->GetLoweredName =
        lib.require_function<nvrtcResult(nvrtcProgram, const char*, const char**)>({"nvrtcGetLoweredName"});
  } catch (const DynamicLibraryError& e) {
    result.error = e.what();
    return result;
  }
  if (!api->GetCUBINSize || !api->GetCUBIN) {
    result.error = library->path() + " cannot produce CUBIN (nvrtcGetCUBIN needs NVRTC 11.1 or newer)";
    return result;
  }

  auto compiler = std::make_shared<NvrtcCompiler>();
  if (nvrtcResult rc = api->Version(&compiler->major_, &compiler->minor_); rc != kNvrtcSuccess) {
    result.error = library->path() + ": nvrtcVersion failed: " + api->error_text(rc);
    return result;
  }
  int count = 0;
  if (api->GetNumSupportedArchs && api->GetSupportedArchs && api->GetNumSupportedArchs(&count) == kNvrtcSuccess &&
      count > 0) {
    compiler->supported_archs_.resize(static_cast<std::size_t>(count));
    if (api->GetSupportedArchs(compiler->supported_archs_.data()) != kNvrtcSuccess) compiler->supported_archs_.clear();
  }
  compiler->include_dir_ = find_include_dir(library->path());
  compiler->library_ = std::move(library.value);
  compiler->api_ = std::move(api);
  result.value = std::move(compiler);
  return result;
}

int NvrtcCompiler::major_version() const { return major_; }
int NvrtcCompiler::minor_version() const { return minor_; }
std::string NvrtcCompiler::version_string() const { return std::to_string(major_) + "." + std::to_string(minor_); }
const std::vector<int>& NvrtcCompiler::supported_archs() const { return supported_archs_; }
const std::string& NvrtcCompiler::library_path() const { return library_->path(); }
const std::string& NvrtcCompiler::cuda_include_dir() const { return include_dir_; }

std::string NvrtcResult::lowered_name(std::string_view name_expression) const {
  auto it = lowered_names.find(std::string(name_expression));
  return it == lowered_names.end() ? std::string() : it->second;
}

NvrtcResult NvrtcCompiler::compile(const std::string& source, const std::string& program_name,
                                   const std::vector<std::string>& options,
                                   const std::vector<std::string>& include_paths, const std::string& arch) const {
  NvrtcRequest request;
  request.source = source;
  request.program_name = program_name;
  request.options = options;
  request.include_paths = include_paths;
  request.arch = arch;
  return compile(request);
}

NvrtcResult NvrtcCompiler::compile(const NvrtcRequest& request) const {
  NvrtcResult result;
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&]() -> NvrtcResult {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(result);
  };

  const std::optional<int> arch_number = nvrtc_arch_number(request.arch);
  if (!arch_number) {
    result.error = "'" + request.arch + "' is not a CUDA target (expected sm_XX, sm_XXa, sm_XXf or compute_XX)";
    return finish();
  }
  if (!supported_archs_.empty() &&
      std::find(supported_archs_.begin(), supported_archs_.end(), *arch_number) == supported_archs_.end()) {
    result.error = "NVRTC " + version_string() + " cannot target " + request.arch + "; it supports " +
                   join_archs(supported_archs_);
    return finish();
  }
  if (sets_option(request.options, {"-arch", "--gpu-architecture"})) {
    result.error = "pass the target as NvrtcRequest::arch, not as an option";
    return finish();
  }
  const bool to_cubin = !starts_with(request.arch, "compute_");

  result.options.push_back("-arch=" + request.arch);
  if (!sets_option(request.options, {"-std", "--std"})) result.options.emplace_back("-std=c++17");
  if (request.resource_usage && to_cubin) {
    // NVRTC 13 accepts both "-Xptxas -v" and "--ptxas-options=-v"; the single-token form
    // keeps the option list free of pairs.
    result.options.emplace_back("--ptxas-options=-v");
  }
  for (const std::string& option : request.options) result.options.push_back(option);
  for (const std::string& path : request.include_paths) result.options.push_back("-I" + path);
  if (!include_dir_.empty()) result.options.push_back("-I" + include_dir_);

  std::vector<const char*> header_contents;
  std::vector<const char*> header_names;
  for (const auto& [name, content] : request.headers) {
    header_names.push_back(name.c_str());
    header_contents.push_back(content.c_str());
  }
  nvrtcProgram program = nullptr;
  nvrtcResult rc = api_->CreateProgram(&program, request.source.c_str(), request.program_name.c_str(),
                                       static_cast<int>(header_names.size()),
                                       header_contents.empty() ? nullptr : header_contents.data(),
                                       header_names.empty() ? nullptr : header_names.data());
  if (rc != kNvrtcSuccess) {
    result.error = "nvrtcCreateProgram failed: " + api_->error_text(rc);
    return finish();
  }
  // Destroy the program on every path out of here.
  struct ProgramGuard {
    const Api* api;
    nvrtcProgram* program;
    ~ProgramGuard() { api->DestroyProgram(program); }
  } guard{api_.get(), &program};

  for (const std::string& expression : request.name_expressions) {
    if (rc = api_->AddNameExpression(program, expression.c_str()); rc != kNvrtcSuccess) {
      result.error = "nvrtcAddNameExpression(\"" + expression + "\") failed: " + api_->error_text(rc);
      return finish();
    }
  }

  std::vector<const char*> option_pointers;
  for (const std::string& option : result.options) option_pointers.push_back(option.c_str());
  const nvrtcResult compile_rc =
      api_->CompileProgram(program, static_cast<int>(option_pointers.size()), option_pointers.data());

  std::size_t log_size = 0;
  if (api_->GetProgramLogSize(program, &log_size) == kNvrtcSuccess && log_size > 1) {
    result.log.resize(log_size);
    if (api_->GetProgramLog(program, result.log.data()) != kNvrtcSuccess) result.log.clear();
    while (!result.log.empty() && result.log.back() == '\0') result.log.pop_back();
    // NVRTC joins the front end's and ptxas's logs with a NUL; C-string readers would stop there.
    std::replace(result.log.begin(), result.log.end(), '\0', '\n');
  }
  result.resources = analysis::parse_ptxas_log(result.log);

  if (compile_rc != kNvrtcSuccess) {
    result.error = "compiling " + request.program_name + " for " + request.arch + " failed: " +
                   api_->error_text(compile_rc);
    {
      std::vector<std::string> errors = error_lines(result.log);
      if (!errors.empty()) {
        result.error += ": " + errors.front();
        if (errors.size() > 1) result.error += " (and " + std::to_string(errors.size() - 1) + " more errors in the log)";
      }
      std::string hint = explain_resources(result.resources);
      if (!hint.empty()) {
        result.error += "; " + hint;
      } else if (errors.empty()) {
        result.error += "; the log names no error";
      }
    }
    return finish();
  }

  std::size_t ptx_size = 0;
  if (api_->GetPTXSize(program, &ptx_size) == kNvrtcSuccess && ptx_size > 1) {
    result.ptx.resize(ptx_size);
    if (api_->GetPTX(program, result.ptx.data()) != kNvrtcSuccess) result.ptx.clear();
    while (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  }
  if (to_cubin) {
    std::size_t cubin_size = 0;
    if (rc = api_->GetCUBINSize(program, &cubin_size); rc != kNvrtcSuccess || cubin_size == 0) {
      result.error = "compiled, but no CUBIN came back: " + api_->error_text(rc);
      return finish();
    }
    result.cubin.resize(cubin_size);
    if (rc = api_->GetCUBIN(program, result.cubin.data()); rc != kNvrtcSuccess) {
      result.cubin.clear();
      result.error = "nvrtcGetCUBIN failed: " + api_->error_text(rc);
      return finish();
    }
  }

  for (const std::string& expression : request.name_expressions) {
    const char* lowered = nullptr;
    if (rc = api_->GetLoweredName(program, expression.c_str(), &lowered); rc != kNvrtcSuccess || !lowered) {
      result.error = "no kernel matches the name expression \"" + expression + "\": " + api_->error_text(rc);
      return finish();
    }
    result.lowered_names[expression] = lowered;  // copied: the program owns the text
  }
  result.ok = true;
  return finish();
}

}  // namespace ktune::cuda
