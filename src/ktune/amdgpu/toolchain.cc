#include "ktune/amdgpu/toolchain.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <system_error>

#include "ktune/amdgpu/process.h"
#include "ktune/analysis/occupancy_amdgpu.h"

namespace ktune::amdgpu {
namespace {

namespace fs = std::filesystem;

constexpr int kNewestLlvm = 22;
constexpr int kOldestLlvm = 17;
constexpr double kProbeTimeoutSeconds = 30;

// HIP without ROCm: __clang_hip_runtime_wrapper.h (with __HIPCC_RTC__) defines only the
// attributes. These are the pieces of hip_runtime.h kernels use most, from clang builtins.
constexpr const char* kHipPrelude = R"(// ktune HIP prelude: HIP built-ins from clang builtins, for compiling without ROCm headers.
#pragma once
#define __KTUNE_DIM3(NAME, X, Y, Z)                                                            \
  struct __ktune_##NAME##_t {                                                                 \
    __declspec(property(get = __get_x)) unsigned x;                                           \
    __declspec(property(get = __get_y)) unsigned y;                                           \
    __declspec(property(get = __get_z)) unsigned z;                                           \
    static __device__ __attribute__((always_inline)) unsigned __get_x() { return X; }         \
    static __device__ __attribute__((always_inline)) unsigned __get_y() { return Y; }         \
    static __device__ __attribute__((always_inline)) unsigned __get_z() { return Z; }         \
  };                                                                                          \
  extern const __device__ __attribute__((weak)) __ktune_##NAME##_t NAME;
__KTUNE_DIM3(threadIdx, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
             __builtin_amdgcn_workitem_id_z())
__KTUNE_DIM3(blockIdx, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
             __builtin_amdgcn_workgroup_id_z())
__KTUNE_DIM3(blockDim, __builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
             __builtin_amdgcn_workgroup_size_z())
__KTUNE_DIM3(gridDim, __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
             __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
             __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z())
#undef __KTUNE_DIM3
#define warpSize __builtin_amdgcn_wavefrontsize()
#ifndef __launch_bounds__
#define __KTUNE_FIRST(a, ...) a
#define __launch_bounds__(...) __attribute__((amdgpu_flat_work_group_size(1, __KTUNE_FIRST(__VA_ARGS__, 0))))
#endif
static __device__ inline __attribute__((always_inline)) void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef double double2 __attribute__((ext_vector_type(2)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned int uint2 __attribute__((ext_vector_type(2)));
typedef unsigned int uint4 __attribute__((ext_vector_type(4)));
)";

// OpenCL C without ROCm's device libraries: work-item functions are library calls there.
constexpr const char* kOpenClPrelude = R"(// ktune OpenCL prelude: work-item functions from clang builtins (no device libraries).
static inline size_t __ktune_local_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y()
       : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
static inline size_t __ktune_group_id(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y()
       : d == 2 ? __builtin_amdgcn_workgroup_id_z() : 0;
}
static inline size_t __ktune_local_size(uint d) {
  return d == 0 ? __builtin_amdgcn_workgroup_size_x() : d == 1 ? __builtin_amdgcn_workgroup_size_y()
       : d == 2 ? __builtin_amdgcn_workgroup_size_z() : 1;
}
static inline size_t __ktune_global_size(uint d) {
  return d == 0 ? __builtin_amdgcn_grid_size_x() : d == 1 ? __builtin_amdgcn_grid_size_y()
       : d == 2 ? __builtin_amdgcn_grid_size_z() : 1;
}
static inline void __ktune_barrier(int flags) {
  (void)flags;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#define get_local_id(d) __ktune_local_id(d)
#define get_group_id(d) __ktune_group_id(d)
#define get_local_size(d) __ktune_local_size(d)
#define get_global_size(d) __ktune_global_size(d)
#define get_num_groups(d) (__ktune_global_size(d) / __ktune_local_size(d))
#define get_global_id(d) (__ktune_group_id(d) * __ktune_local_size(d) + __ktune_local_id(d))
#define barrier(flags) __ktune_barrier(flags)
)";

std::string first_error_line(const std::string& log) {
  std::size_t pos = 0;
  while (pos < log.size()) {
    std::size_t end = log.find('\n', pos);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(pos, end - pos);
    if (line.find("error:") != std::string::npos || line.find("error :") != std::string::npos) return line;
    pos = end + 1;
  }
  const auto end = log.find('\n');
  return log.substr(0, end);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

// A tool of the same LLVM release as clang: next to clang's real path, then tool-N in PATH.
std::string sibling_tool(const std::string& clang_path, const std::string& tool, int major) {
  std::error_code ec;
  const fs::path real = fs::canonical(clang_path, ec);
  if (!ec) {
    const fs::path candidate = real.parent_path() / tool;
    if (!find_program(candidate.string()).empty()) return candidate.string();
  }
  if (std::string p = find_program(tool + "-" + std::to_string(major)); !p.empty()) return p;
  return find_program(tool);
}

std::mutex& probe_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, std::optional<Toolchain>>& probe_cache() {
  static std::map<std::string, std::optional<Toolchain>> cache;
  return cache;
}

std::vector<std::string> candidate_clangs() {
  if (const char* explicit_clang = std::getenv("KTUNE_AMDGPU_CLANG"); explicit_clang && *explicit_clang) {
    return {explicit_clang};
  }
  std::vector<std::string> out;
  for (int major = kNewestLlvm; major >= kOldestLlvm; --major) {
    if (std::string p = find_program("clang-" + std::to_string(major)); !p.empty()) out.push_back(p);
  }
  if (std::string p = find_program("clang"); !p.empty()) out.push_back(p);
  return out;
}

}  // namespace

const char* to_string(SourceLanguage language) {
  return language == SourceLanguage::Hip ? "hip" : "opencl";
}

std::string Toolchain::prelude_text(SourceLanguage language) {
  return language == SourceLanguage::Hip ? kHipPrelude : kOpenClPrelude;
}

std::optional<Toolchain> Toolchain::probe(const std::string& clang_path, std::string* why_not) {
  {
    std::lock_guard lock(probe_mutex());
    if (auto it = probe_cache().find(clang_path); it != probe_cache().end()) {
      if (!it->second && why_not) *why_not = clang_path + " is not a usable clang for amdgcn";
      return it->second;
    }
  }
  auto remember = [&](std::optional<Toolchain> t) {
    std::lock_guard lock(probe_mutex());
    probe_cache()[clang_path] = t;
    return t;
  };
  const ToolRun version = run_tool({clang_path, "--version"}, kProbeTimeoutSeconds);
  static const std::regex version_re(R"(clang version (\d+)\.(\d+)\.(\d+))");
  std::smatch m;
  if (!version.succeeded() || !std::regex_search(version.output, m, version_re)) {
    if (why_not) *why_not = clang_path + " --version: " + version.describe();
    return remember(std::nullopt);
  }
  Toolchain t;
  t.clang_ = clang_path;
  t.major_ = std::stoi(m[1].str());
  t.version_ = m[1].str() + "." + m[2].str() + "." + m[3].str();
  const ToolRun cpus =
      run_tool({clang_path, "--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus"}, kProbeTimeoutSeconds);
  std::size_t pos = 0;
  while (pos < cpus.output.size()) {
    std::size_t end = cpus.output.find('\n', pos);
    if (end == std::string::npos) end = cpus.output.size();
    std::string line = cpus.output.substr(pos, end - pos);
    line.erase(0, line.find_first_not_of(" \t"));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.rfind("gfx", 0) == 0 && line.find(' ') == std::string::npos) t.processors_.push_back(line);
    pos = end + 1;
  }
  if (t.processors_.empty()) {
    if (why_not) *why_not = clang_path + " lists no amdgcn processors (built without the AMDGPU target?)";
    return remember(std::nullopt);
  }
  t.lld_ = sibling_tool(clang_path, "ld.lld", t.major_);
  t.objdump_ = sibling_tool(clang_path, "llvm-objdump", t.major_);
  return remember(t);
}

std::vector<Toolchain> Toolchain::installed() {
  std::vector<Toolchain> out;
  for (const std::string& clang : candidate_clangs()) {
    if (auto t = probe(clang, nullptr)) {
      const bool duplicate = std::any_of(out.begin(), out.end(), [&](const Toolchain& o) {
        return o.version_ == t->version_;
      });
      if (!duplicate) out.push_back(*t);
    }
  }
  return out;
}

std::optional<Toolchain> Toolchain::find(std::string_view arch, std::optional<int> llvm_major, std::string* why_not) {
  const std::vector<std::string> clangs = candidate_clangs();
  std::string tried;
  for (const std::string& clang : clangs) {
    std::string reason;
    auto t = probe(clang, &reason);
    if (!t) {
      tried += (tried.empty() ? "" : "; ") + reason;
      continue;
    }
    if (llvm_major && t->major_ != *llvm_major) {
      tried += (tried.empty() ? "" : "; ") + clang + " is LLVM " + std::to_string(t->major_);
      continue;
    }
    if (!t->supports(arch)) {
      tried += (tried.empty() ? "" : "; ") + clang + " (LLVM " + std::to_string(t->major_) + ") does not know " +
               analysis::amdgpu_processor_name(arch);
      continue;
    }
    if (t->lld_.empty()) {
      tried += (tried.empty() ? "" : "; ") + clang + " has no ld.lld beside it (install lld-" +
               std::to_string(t->major_) + ")";
      continue;
    }
    return t;
  }
  if (why_not) {
    std::string wanted = llvm_major ? "clang-" + std::to_string(*llvm_major) : std::string("clang");
    *why_not = "no " + wanted + " that targets " + std::string(arch) + " found" +
               (clangs.empty() ? std::string(" (looked for $KTUNE_AMDGPU_CLANG, clang-22..clang-17, clang in PATH)")
                               : " (" + tried + ")") +
               "; Debian: apt-get install clang-N lld-N llvm-N";
  }
  return std::nullopt;
}

bool Toolchain::supports(std::string_view arch) const {
  const std::string processor = analysis::amdgpu_processor_name(arch);
  return !processor.empty() && std::find(processors_.begin(), processors_.end(), processor) != processors_.end();
}

CompileResult Toolchain::compile(const CompileRequest& request) const {
  CompileResult result;
  auto fail = [&](std::string message) {
    result.ok = false;
    result.error = std::move(message);
    return result;
  };
  if (!supports(request.arch)) {
    return fail("LLVM " + version_ + " (" + clang_ + ") does not target '" + request.arch + "'");
  }
  if (request.name.empty() || request.name.find('/') != std::string::npos) {
    return fail("compile name must be a plain file stem, not '" + request.name + "'");
  }
  std::string dir = request.output_dir;
  std::error_code ec;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ktune-amdgpu-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return fail("mkdtemp " + pattern + ": " + std::strerror(errno));
    dir = pattern;
  } else {
    fs::create_directories(dir, ec);
    if (ec) return fail("cannot create output directory '" + dir + "': " + ec.message());
  }
  const bool hip = request.language == SourceLanguage::Hip;
  const std::string stem = dir + "/" + request.name;
  result.source_path = stem + (hip ? ".hip" : ".cl");
  result.asm_path = stem + ".s";
  const std::string object_path = stem + ".o";
  result.code_object_path = stem + ".hsaco";
  if (!write_file(result.source_path, request.source)) return fail("cannot write " + result.source_path);

  std::vector<std::string> compile_cmd = {clang_};
  if (hip) {
    compile_cmd.insert(compile_cmd.end(),
                       {"-x", "hip", "--offload-arch=" + request.arch, "-nogpulib", "-nogpuinc", "--cuda-device-only",
                        "-O3", "-include", "__clang_hip_runtime_wrapper.h", "-D__HIPCC_RTC__", "--no-gpu-bundle-output"});
  } else {
    compile_cmd.insert(compile_cmd.end(), {"-x", "cl", "-cl-std=CL2.0", "--target=amdgcn-amd-amdhsa",
                                           "-mcpu=" + request.arch, "-nogpulib", "-O3"});
  }
  if (request.builtins_prelude) {
    const std::string prelude_path = stem + "_prelude.h";
    if (!write_file(prelude_path, prelude_text(request.language))) return fail("cannot write " + prelude_path);
    compile_cmd.insert(compile_cmd.end(), {"-include", prelude_path});
  }
  for (const auto& [name, value] : request.defines) {
    compile_cmd.push_back("-D" + name + (value.empty() ? "" : "=" + value));
  }
  for (const auto& path : request.include_paths) compile_cmd.push_back("-I" + path);
  compile_cmd.insert(compile_cmd.end(), request.options.begin(), request.options.end());
  compile_cmd.insert(compile_cmd.end(), {"-S", "-o", result.asm_path, result.source_path});

  const std::vector<std::vector<std::string>> steps = {
      compile_cmd,
      {clang_, "-x", "assembler", "--target=amdgcn-amd-amdhsa", "-mcpu=" + request.arch, "-c", "-o", object_path,
       result.asm_path},
      {lld_, "-shared", "--no-undefined", "-o", result.code_object_path, object_path},
  };
  const char* step_names[] = {"compile", "assemble", "link"};
  double budget = request.timeout_seconds;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    result.commands.push_back(command_line(steps[i]));
    const ToolRun run = run_tool(steps[i], std::max(budget, 1.0));
    result.seconds += run.seconds;
    budget -= run.seconds;
    result.log += run.output;
    if (!run.succeeded()) {
      std::string message = std::string(step_names[i]) + " step " + run.describe();
      const std::string first = first_error_line(run.output);
      if (!first.empty()) message += ": " + first;
      return fail(message);
    }
    if (i == 0) result.asm_text = read_file(result.asm_path);
  }
  result.ok = true;
  return result;
}

std::optional<std::string> Toolchain::disassemble(const std::string& code_object_path, std::string_view arch,
                                                  std::string* error) const {
  if (objdump_.empty()) {
    if (error) *error = "no llvm-objdump for LLVM " + version_ + " (install llvm-" + std::to_string(major_) + ")";
    return std::nullopt;
  }
  const std::string processor = analysis::amdgpu_processor_name(arch);
  const ToolRun run = run_tool({objdump_, "-d", "--mcpu=" + processor, code_object_path});
  if (!run.succeeded()) {
    if (error) *error = "llvm-objdump " + run.describe() + ": " + first_error_line(run.output);
    return std::nullopt;
  }
  return run.output;
}

}  // namespace ktune::amdgpu
