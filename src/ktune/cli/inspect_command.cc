// ktune inspect: why a kernel runs at the occupancy it does. Three inputs:
//   ktune inspect --result ID             a result in the database (its recorded resources)
//   ktune inspect SPEC --config K=V ...   one configuration of a spec, compiled here
//   ktune inspect FILE                    an AMD code object (.hsaco/.o), AMD assembly (.s) or a .cubin
// Per kernel: registers, shared memory/LDS, scratch/stack, spills, occupancy and its limiter,
// what would raise it, and the ISA checks' findings with line numbers.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/code_object_inspection.h"
#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/amdgpu/process.h"
#include "ktune/amdgpu/toolchain.h"
#include "ktune/analysis/inspect_report.h"
#include "ktune/analysis/isa_lint.h"
#include "ktune/cli/common.h"
#include "ktune/cli/cubin_info.h"
#include "ktune/cli/inspect_command.h"
#include "ktune/core/read_file.h"
#include "ktune/db/database.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/instantiate.h"

namespace ktune::cli {
namespace fs = std::filesystem;
namespace {

struct InspectArgs {
  std::string input;
  std::int64_t result_id = 0;
  std::vector<std::string> config;
  std::vector<std::string> sizes;
  std::string target;
  int block = 0;
  std::int64_t dynamic_shared = 0;
  bool expect_matrix = false;
};

using analysis::InspectReport;
using analysis::KernelInspection;

// A failure with the exit code it deserves (2: bad command line or missing input, 3: invalid
// input, 4: backend not available here).
struct InspectFailure : std::runtime_error {
  InspectFailure(int exit_code, const std::string& message) : std::runtime_error(message), code(exit_code) {}
  int code;
};

InspectReport inspect_spec(const std::string& path, const InspectArgs& args);

using amdgpu::amd_arch_or_note;
using amdgpu::lint_into;

amdgpu::InspectOptions amd_options(const InspectArgs& args) {
  return {args.block, args.dynamic_shared, args.expect_matrix};
}

// AMD assembly; its lack of metadata is bad input (exit 3).
InspectReport inspect_amd_assembly(const std::string& path, const std::string& text, const InspectArgs& args) {
  try {
    return amdgpu::inspect_amd_assembly(path, text, amd_options(args));
  } catch (const std::invalid_argument& e) {
    throw InspectFailure(kExitBadInput, e.what());
  }
}

std::string three_text(const std::array<int, 3>& v) {
  return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

// ---- NVIDIA -------------------------------------------------------------------------------

using analysis::nvidia_occupancy_into;

const analysis::NvidiaArch* nvidia_arch_or_note(const std::string& name, InspectReport& report) {
  try {
    return &analysis::nvidia_arch(name);
  } catch (const std::exception& e) {
    report.notes.push_back(std::string("no occupancy rules: ") + e.what());
    return nullptr;
  }
}

// cuobjdump -sass on a cubin; nullopt (and a note) when cuobjdump is missing or fails.
std::optional<std::string> sass_of(const std::string& cubin_path, InspectReport& report) {
  const std::string cuobjdump = find_cuobjdump();
  if (cuobjdump.empty()) {
    report.notes.push_back("SASS checks skipped: cuobjdump not found on PATH or in /usr/local/cuda/bin");
    return std::nullopt;
  }
  const amdgpu::ToolRun run = amdgpu::run_tool({cuobjdump, "-sass", cubin_path}, 120);
  if (!run.succeeded()) {
    report.notes.push_back("SASS checks skipped: cuobjdump -sass " + run.describe() + ": " +
                           run.output.substr(0, run.output.find('\n')));
    return std::nullopt;
  }
  return run.output;
}

InspectReport inspect_cubin(const std::string& path, const std::string& bytes, const InspectArgs& args) {
  CubinInfo info;
  try {
    info = parse_cubin(bytes);
  } catch (const CubinError& e) {
    throw InspectFailure(kExitBadInput, path + ": " + e.what());
  }
  InspectReport report;
  report.subject = path;
  report.kind = "cubin";
  report.vendor = "nvidia";
  report.target = info.arch;
  char flags[32];
  std::snprintf(flags, sizeof flags, "0x%x", info.e_flags);
  report.facts.emplace_back("machine", "190 (EM_CUDA)");
  report.facts.emplace_back("abi_version", static_cast<int>(info.abi_version));
  report.facts.emplace_back("e_flags", std::string(flags) + " (" + info.arch + ")");
  report.notes = info.notes;

  // cuobjdump's figures, when it is installed, take precedence over the ELF reading.
  std::vector<CuobjdumpUsage> usage;
  if (const std::string cuobjdump = find_cuobjdump(); !cuobjdump.empty()) {
    const amdgpu::ToolRun run = amdgpu::run_tool({cuobjdump, "--dump-resource-usage", path}, 120);
    if (run.succeeded()) usage = parse_cuobjdump_resource_usage(run.output);
    else report.notes.push_back("cuobjdump --dump-resource-usage " + run.describe());
    report.facts.emplace_back("resource_source", usage.empty() ? ".nv.info" : "cuobjdump --dump-resource-usage");
  } else {
    report.facts.emplace_back("resource_source", ".nv.info (cuobjdump not found)");
    report.notes.push_back("spill bytes are not recorded in a cubin's .nv.info; ptxas -v (or ktune inspect SPEC) "
                           "reports them");
  }
  const std::int64_t reserved = info.shared_includes_reserved ? 1024 : 0;
  const analysis::NvidiaArch* arch = nvidia_arch_or_note(info.arch, report);
  for (const auto& k : info.kernels) {
    KernelInspection ki;
    ki.name = k.name;
    int registers = k.registers.value_or(0);
    std::int64_t shared = std::max<std::int64_t>(k.shared_section_bytes.value_or(0) - reserved, 0);
    std::int64_t stack = k.max_stack_bytes.value_or(k.frame_bytes.value_or(0));
    for (const auto& u : usage) {
      if (u.name != k.name) continue;
      if (auto it = u.values.find("REG"); it != u.values.end()) registers = static_cast<int>(it->second);
      if (auto it = u.values.find("SHARED"); it != u.values.end()) shared = std::max<std::int64_t>(it->second - reserved, 0);
      if (auto it = u.values.find("STACK"); it != u.values.end()) stack = it->second;
      if (auto it = u.values.find("LOCAL"); it != u.values.end()) ki.set("local_bytes", it->second);
    }
    if (k.registers || !usage.empty()) ki.set("registers", registers);
    else ki.notes.push_back("register count unknown (no EIATTR_REGCOUNT and no cuobjdump): occupancy assumes 0");
    ki.set("barriers", k.barriers.value_or(0));
    ki.set("static_shared_bytes", shared);
    if (reserved) ki.set("reserved_shared_bytes", reserved);
    ki.set("stack_frame_bytes", stack);
    if (k.min_stack_bytes) ki.set("min_stack_bytes", *k.min_stack_bytes);
    if (k.max_registers) ki.set("max_registers (maxrregcount)", *k.max_registers);
    if (k.max_threads) ki.set("max_threads (launch bounds)", three_text(*k.max_threads));
    if (k.required_threads) ki.set("required_threads (reqntid)", three_text(*k.required_threads));
    if (k.parameter_bytes) ki.set("parameter_bytes", *k.parameter_bytes);
    ki.set("code_bytes", static_cast<std::int64_t>(k.code_bytes));
    if (stack > 0) ki.notes.push_back("uses " + std::to_string(stack) + " bytes of stack (local memory) per thread");
    if (arch) {
      int threads = args.block;
      bool assumed = false;
      if (threads <= 0 && k.required_threads) threads = (*k.required_threads)[0] * (*k.required_threads)[1] * (*k.required_threads)[2];
      if (threads <= 0 && k.max_threads) threads = (*k.max_threads)[0] * (*k.max_threads)[1] * (*k.max_threads)[2];
      if (threads <= 0) {
        threads = 256;
        assumed = true;
      }
      nvidia_occupancy_into(ki, *arch, threads, registers, shared, args.dynamic_shared, k.barriers.value_or(0), assumed);
    }
    report.kernels.push_back(std::move(ki));
  }
  if (auto sass = sass_of(path, report))
    lint_into(report, *sass, analysis::IsaDialect::Sass, "cuobjdump -sass", args.expect_matrix);
  return report;
}


// ---- a configuration of a spec ----------------------------------------------------------------

Config checked_config(const spec::TuningProblem& problem, const InspectArgs& args, InspectReport& report) {
  Config config = parse_assignments(args.config, "--config");
  std::string unknown, missing;
  for (const auto& entry : config) {
    const std::string& name = entry.first;  // not a structured binding: clang 14 cannot capture one
    const bool known = std::any_of(problem.parameters.begin(), problem.parameters.end(),
                                   [&](const space::Parameter& p) { return p.name == name; });
    if (!known) unknown += (unknown.empty() ? "" : ", ") + name;
  }
  for (const auto& p : problem.parameters)
    if (!config.count(p.name)) missing += (missing.empty() ? "" : ", ") + p.name;
  if (!unknown.empty())
    throw InspectFailure(kExitUsage, "--config names parameters the spec " + problem.spec_path.string() +
                                         " does not have: " + unknown);
  if (!missing.empty())
    throw InspectFailure(kExitUsage, "--config must give every parameter of " + problem.spec_path.string() +
                                         "; missing: " + missing);
  try {
    if (!problem.make_space().contains(config))
      report.notes.push_back("this configuration is not in the spec's space (a value not listed, or a constraint "
                             "fails); inspected anyway");
  } catch (const std::exception& e) {
    report.notes.push_back(std::string("could not check the configuration against the space: ") + e.what());
  }
  return config;
}

std::vector<std::string> include_dirs_of(const spec::TuningProblem& problem) {
  std::vector<std::string> dirs;
  for (const auto& s : problem.sources) {
    const std::string dir = s.parent_path().string();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

std::string main_source(const spec::TuningProblem& problem) {
  if (problem.sources.empty()) throw InspectFailure(kExitBadInput, problem.spec_path.string() + ": the spec names no kernel source");
  const auto text = read_file(problem.sources.front());
  if (!text) throw InspectFailure(kExitError, "cannot read kernel source " + problem.sources.front().string());
  return *text;
}

InspectReport inspect_spec_cuda(const spec::TuningProblem& problem, const Config& config, const device::LaunchGeometry& g,
                                InspectReport report, const InspectArgs& args) {
  std::string target = args.target.empty() ? "sm_90a" : args.target;
  if (target.rfind("gfx", 0) == 0)
    throw InspectFailure(kExitUsage, "--target " + target + " is an AMD GPU, but " + problem.spec_path.string() +
                                         " is a CUDA kernel (use sm_XY)");
  if (!cuda::nvrtc_arch_number(target) || target.rfind("sm_", 0) != 0)
    throw InspectFailure(kExitUsage, "--target '" + target + "' is not a CUDA target of the form sm_XY, sm_XYa or sm_XYf");
  if (args.target.empty()) report.notes.push_back("no --target given: compiled for sm_90a");
  const auto nvrtc = cuda::NvrtcCompiler::load();
  if (!nvrtc) throw InspectFailure(kExitUnavailable, "the CUDA compiler (NVRTC) is not available here: " + nvrtc.error);
  const device::CompileRequest request = tuner::compile_request(problem, config, target);
  cuda::NvrtcRequest nr;
  nr.source = main_source(problem);
  nr.program_name = problem.sources.front().string();
  nr.arch = target;
  try {
    nr.options = device::define_flags(request.defines);
  } catch (const std::exception& e) {
    throw InspectFailure(kExitUsage, e.what());
  }
  nr.options.insert(nr.options.end(), request.user_flags.begin(), request.user_flags.end());
  nr.include_paths = include_dirs_of(problem);
  const std::string expression = "&" + problem.entry;
  nr.name_expressions = {expression};
  const cuda::NvrtcResult out = nvrtc->compile(nr);
  report.target = target;
  report.facts.emplace_back("compiler", "NVRTC " + nvrtc->version_string());
  if (!out.ok) throw InspectFailure(kExitError, "compiling " + problem.spec_path.string() + " at " + config_key(config) +
                                                    " failed: " + out.error + (out.log.empty() ? "" : "\n" + out.log));
  const std::string lowered = out.lowered_name(expression);
  const analysis::KernelResourceUsage* usage = out.resources.find(lowered.empty() ? problem.entry : lowered);
  KernelInspection ki;
  ki.name = problem.entry;
  ki.symbol = lowered;
  if (usage) {
    ki.set("registers", usage->registers);
    ki.set("barriers", usage->barriers);
    ki.set("static_shared_bytes", usage->shared_bytes);
    ki.set("stack_frame_bytes", usage->stack_frame_bytes);
    ki.set("spill_store_bytes", usage->spill_store_bytes);
    ki.set("spill_load_bytes", usage->spill_load_bytes);
    if (usage->local_bytes) ki.set("local_bytes", usage->local_bytes);
    if (usage->max_registers_override) ki.set("max_registers", *usage->max_registers_override);
    if (!usage->warnings.empty()) ki.set("ptxas_warnings", usage->warnings);
    if (usage->has_spills())
      ki.notes.push_back("ptxas spilled registers: " + std::to_string(usage->spill_store_bytes) + " bytes stored, " +
                         std::to_string(usage->spill_load_bytes) + " bytes loaded per thread");
  } else {
    ki.notes.push_back("ptxas reported no resource usage for " + problem.entry + ": occupancy assumes 0 registers");
  }
  ki.set("cubin_bytes", static_cast<std::int64_t>(out.cubin.size()));
  const int threads = args.block > 0 ? args.block : static_cast<int>(std::min<std::int64_t>(g.block[0] * g.block[1] * g.block[2], 1 << 30));
  const std::int64_t dynamic = args.dynamic_shared > 0 ? args.dynamic_shared : g.shared_bytes;
  if (const analysis::NvidiaArch* arch = nvidia_arch_or_note(target, report))
    nvidia_occupancy_into(ki, *arch, threads, usage ? usage->registers : 0, usage ? usage->shared_bytes : 0, dynamic,
                          usage ? usage->barriers : 0, false);
  report.kernels.push_back(std::move(ki));

  // SASS where cuobjdump exists (what ptxas made: spills, LDG.E.128, HMMA), PTX otherwise.
  std::optional<std::string> sass;
  if (!find_cuobjdump().empty() && !out.cubin.empty()) {
    const fs::path tmp = fs::temp_directory_path() / ("ktune-inspect-" + std::to_string(::getpid()) + ".cubin");
    if (FILE* f = std::fopen(tmp.c_str(), "wb")) {
      std::fwrite(out.cubin.data(), 1, out.cubin.size(), f);
      std::fclose(f);
      sass = sass_of(tmp.string(), report);
      std::error_code ec;
      fs::remove(tmp, ec);
    }
  }
  if (sass) lint_into(report, *sass, analysis::IsaDialect::Sass, "cuobjdump -sass", args.expect_matrix);
  else lint_into(report, out.ptx, analysis::IsaDialect::Ptx, "PTX from NVRTC", args.expect_matrix);
  return report;
}

InspectReport inspect_spec_hip(const spec::TuningProblem& problem, const Config& config, const device::LaunchGeometry& g,
                               InspectReport report, const InspectArgs& args) {
  const std::string target = args.target.empty() ? "gfx942" : args.target;
  if (target.rfind("sm_", 0) == 0 || target.rfind("compute_", 0) == 0)
    throw InspectFailure(kExitUsage, "--target " + target + " is an NVIDIA GPU, but " + problem.spec_path.string() +
                                         " is a HIP kernel (use gfx942, gfx90a, gfx950, ...)");
  const std::string processor = analysis::amdgpu_processor_name(target);
  if (processor.empty() || !analysis::find_amdgpu_arch(processor))
    throw InspectFailure(kExitUsage, "--target '" + target + "' is not an AMD GPU ktune knows (gfx908 gfx90a gfx940 "
                                     "gfx941 gfx942 gfx950, optionally with :sramecc+/-:xnack+/-)");
  if (args.target.empty()) report.notes.push_back("no --target given: compiled for gfx942");
  std::string why_not;
  const auto toolchain = amdgpu::Toolchain::find(target, std::nullopt, &why_not);
  if (!toolchain) throw InspectFailure(kExitUnavailable, "no LLVM here compiles for " + target + ": " + why_not);
  amdgpu::CompileRequest request;
  request.source = main_source(problem);
  request.language = amdgpu::SourceLanguage::Hip;
  request.arch = target;
  const device::CompileRequest generic = tuner::compile_request(problem, config, target);
  for (const auto& [name, value] : generic.defines)
    request.defines.emplace_back(name, value.is_bool() ? (value.as_bool() ? "1" : "0") : value.to_string());
  request.include_paths = include_dirs_of(problem);
  request.options = problem.flags;
  request.name = problem.entry;
  const amdgpu::CompileResult out = toolchain->compile(request);
  report.target = target;
  report.facts.emplace_back("compiler", "clang " + toolchain->version_string());
  if (!out.ok) throw InspectFailure(kExitError, "compiling " + problem.spec_path.string() + " at " + config_key(config) +
                                                    " for " + target + " failed: " + out.error);
  InspectArgs with_launch = args;
  if (with_launch.block <= 0)
    with_launch.block = static_cast<int>(std::min<std::int64_t>(g.block[0] * g.block[1] * g.block[2], 1 << 30));
  if (with_launch.dynamic_shared <= 0) with_launch.dynamic_shared = g.shared_bytes;
  InspectReport object = inspect_amd_assembly(out.asm_path, out.asm_text, with_launch);
  report.kernels = std::move(object.kernels);
  report.isa_source = object.isa_source;
  report.isa_dialect = object.isa_dialect;
  report.other_findings = std::move(object.other_findings);
  for (auto& n : object.notes) report.notes.push_back(std::move(n));
  std::error_code ec;
  // The compile directory is ktune's own temporary; the user asked for a report, not files.
  fs::remove_all(fs::path(out.code_object_path).parent_path(), ec);
  return report;
}

InspectReport inspect_spec(const std::string& path, const InspectArgs& args) {
  const spec::TuningProblem problem = spec::load_spec(path, parse_assignments(args.sizes, "--size"));
  InspectReport report;
  report.kind = "spec";
  const Config config = checked_config(problem, args, report);
  report.subject = path + " " + config_key(config);
  report.facts.emplace_back("config", config_key(config));
  const device::LaunchGeometry g = tuner::launch_geometry(problem, config);
  report.facts.emplace_back("launch", "grid " + std::to_string(g.grid[0]) + "x" + std::to_string(g.grid[1]) + "x" +
                                          std::to_string(g.grid[2]) + ", block " + std::to_string(g.block[0]) + "x" +
                                          std::to_string(g.block[1]) + "x" + std::to_string(g.block[2]) + ", " +
                                          std::to_string(g.shared_bytes) + " dynamic shared bytes");
  switch (problem.language) {
    case spec::Language::Cuda: report.vendor = "nvidia"; return inspect_spec_cuda(problem, config, g, std::move(report), args);
    case spec::Language::Hip: report.vendor = "amdgpu"; return inspect_spec_hip(problem, config, g, std::move(report), args);
    case spec::Language::Cpp: break;
  }
  throw InspectFailure(kExitUsage, path + " is a CPU (C++) kernel: inspect covers GPU kernels (CUDA, HIP)");
}

// ---- inputs ---------------------------------------------------------------------------------

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

InspectReport inspect_file(const std::string& path, const InspectArgs& args) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InspectFailure(kExitUsage, path + ": no such file");
  if (fs::is_directory(path, ec)) throw InspectFailure(kExitUsage, path + ": is a directory, not a file");
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw InspectFailure(kExitError, path + ": cannot read the file");
  const bool is_spec = path.ends_with(".yaml") || path.ends_with(".yml");
  if (!is_spec && (!args.config.empty() || !args.sizes.empty() || !args.target.empty()))
    throw InspectFailure(kExitUsage, "--config, --size and --target apply to a spec (.yaml); " + path +
                                         " is compiled already");
  if (bytes->size() >= 4 && starts_with(*bytes, "\x7f" "ELF")) {
    if (bytes->size() < 20) throw InspectFailure(kExitBadInput, path + ": truncated ELF header");
    const auto machine = static_cast<std::uint16_t>(static_cast<unsigned char>((*bytes)[18]) |
                                                    (static_cast<unsigned char>((*bytes)[19]) << 8));
    if (machine == 190) return inspect_cubin(path, *bytes, args);
    if (machine != 224)
      throw InspectFailure(kExitBadInput, path + ": an ELF file for machine " + std::to_string(machine) +
                                              ", neither an AMDGPU code object (224) nor a CUDA cubin (190)");
    try {
      return amdgpu::inspect_code_object(path, amd_options(args));
    } catch (const amdgpu::CodeObjectError& e) {
      throw InspectFailure(kExitBadInput, e.what());
    }
  }
  if (bytes->find(".amdgpu_metadata") != std::string::npos || bytes->find(".amdhsa_kernel") != std::string::npos)
    return inspect_amd_assembly(path, *bytes, args);
  if (is_spec) return inspect_spec(path, args);
  throw InspectFailure(kExitBadInput, path + ": not an ELF file (AMDGPU code object or CUDA cubin), AMDGPU assembly, "
                                             "or a spec (.yaml)");
}

InspectReport inspect_result(const GlobalOptions& global, std::int64_t id, const InspectArgs& args) {
  const fs::path db_path = database_path(global);
  std::error_code ec;
  if (!fs::exists(db_path, ec))
    throw InspectFailure(kExitUsage, "no tuning database at " + db_path.string() + " (--db PATH or $KTUNE_DB)");
  db::Database database(db_path, db::OpenOptions{.create_if_missing = false});
  const auto result = database.result(id);
  if (!result) throw InspectFailure(kExitUsage, "no result with id " + std::to_string(id) + " in " + db_path.string());
  const auto device = database.device(result->device_id);
  const auto kernel = database.kernel(result->kernel_id);
  InspectReport report;
  report.subject = "result " + std::to_string(id);
  report.kind = "result";
  report.facts.emplace_back("database", db_path.string());
  report.facts.emplace_back("config", result->config.dump());
  report.facts.emplace_back("status", std::string(db::to_string(result->status)));
  if (result->median_s) report.facts.emplace_back("median", format_seconds(*result->median_s));
  if (device) report.facts.emplace_back("device", device->name + " (" + device->backend + ")");
  const nlohmann::json& r = result->resources;

  KernelInspection ki;
  ki.name = kernel ? kernel->name : "kernel";
  if (r.contains("lowered_name") && r["lowered_name"].is_string()) ki.symbol = r["lowered_name"].get<std::string>();
  for (const char* key : {"registers", "barriers", "shared_bytes", "local_bytes", "stack_frame_bytes",
                          "spill_store_bytes", "spill_load_bytes", "cumulative_stack_bytes", "arch", "cubin_bytes",
                          "artifact_bytes", "vgpr_count", "agpr_count", "sgpr_count", "lds_bytes", "group_segment_fixed_size",
                          "private_segment_fixed_size", "vgpr_spill_count", "sgpr_spill_count", "max_flat_workgroup_size",
                          "target"}) {
    if (r.contains(key)) ki.set(key, r[key]);
  }
  if (r.contains("ptxas_warnings") && !r["ptxas_warnings"].empty()) ki.set("ptxas_warnings", r["ptxas_warnings"]);
  if (r.value("spill_store_bytes", 0) > 0 || r.value("spill_load_bytes", 0) > 0)
    ki.notes.push_back("ptxas spilled registers to local memory");

  // AMD results (HIP backend, offline ranking) record the code object's metadata figures.
  if (r.contains("vgpr_count") && r["vgpr_count"].is_number_integer()) {
    std::string target = r.value("target", r.value("arch", std::string()));
    if (target.empty() && device) target = device->properties.value("target", std::string());
    report.vendor = "amdgpu";
    report.target = analysis::amdgpu_processor_name(target);
    const analysis::AmdgpuArch* arch = amd_arch_or_note(report.target, report);
    if (arch) {
      analysis::AmdgpuOccupancyInput in;
      const nlohmann::json occ = r.value("occupancy", nlohmann::json::object());
      in.workgroup_size = args.block > 0 ? args.block : occ.value("workgroup_size", occ.value("threads_per_block", 0));
      const bool assumed = in.workgroup_size <= 0;
      if (assumed) in.workgroup_size = r.value("max_flat_workgroup_size", 256);
      in.vgprs = r["vgpr_count"].get<int>();
      in.sgprs = r.value("sgpr_count", 0);
      in.lds_bytes = r.value("lds_bytes", r.value("group_segment_fixed_size", std::int64_t{0})) +
                     (args.dynamic_shared > 0 ? args.dynamic_shared : occ.value("dynamic_lds_bytes", std::int64_t{0}));
      ki.launch = std::to_string(in.workgroup_size) + " threads per workgroup" +
                  (assumed ? " (assumed; --block sets the launch)" : "") + ", " + std::to_string(in.lds_bytes) +
                  " LDS bytes";
      ki.occupancy_arch = arch->name;
      try {
        ki.amdgpu_occupancy = analysis::amdgpu_occupancy(*arch, in);
      } catch (const std::exception& e) {
        ki.notes.push_back(std::string("occupancy not computed: ") + e.what());
      }
    }
    report.kernels.push_back(std::move(ki));
    return report;
  }
  if (!device || device->backend != "cuda") {
    report.vendor = "";
    report.notes.push_back("result " + std::to_string(id) + " ran on a " + (device ? device->backend : "unknown") +
                           " device: no GPU occupancy to compute");
    report.kernels.push_back(std::move(ki));
    return report;
  }
  report.vendor = "nvidia";
  analysis::NvidiaArch arch;
  try {
    arch = cuda::occupancy_arch(cuda::device_properties_from_json(device->properties));
    report.target = device->properties.value("target", arch.name);
  } catch (const std::exception& e) {
    report.notes.push_back(std::string("the device record's properties are not a CUDA device's: ") + e.what());
    report.kernels.push_back(std::move(ki));
    return report;
  }
  const nlohmann::json occ = r.value("occupancy", nlohmann::json::object());
  int threads = args.block > 0 ? args.block : occ.value("threads_per_block", 0);
  const std::int64_t dynamic = args.dynamic_shared > 0 ? args.dynamic_shared : occ.value("dynamic_shared_bytes", std::int64_t{0});
  const bool assumed = threads <= 0;
  if (assumed) threads = 256;
  if (!r.contains("registers")) ki.notes.push_back("the result records no register count: occupancy assumes 0");
  nvidia_occupancy_into(ki, arch, threads, r.value("registers", 0), r.value("shared_bytes", std::int64_t{0}), dynamic,
                        r.value("barriers", 0), assumed);
  ki.occupancy_arch = arch.name + " (from the device record)";
  report.notes.push_back("ISA checks need the code: run ktune inspect SPEC --config ... or on the cubin");
  report.kernels.push_back(std::move(ki));
  return report;
}

}  // namespace

std::string inspect_result_text(const GlobalOptions& global, std::int64_t result_id) {
  InspectArgs args;
  InspectReport recorded = inspect_result(global, result_id, args);
  std::string text = analysis::format_inspect_text(recorded);
  try {
    db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
    const auto result = database.result(result_id);
    const auto session = result ? database.session(result->session_id) : std::nullopt;
    const std::string spec = session && session->options.is_object() ? session->options.value("spec", std::string()) : "";
    std::error_code ec;
    if (spec.empty() || !fs::exists(spec, ec))
      return text + "\n(no ISA checks: the session records no spec file that still exists)\n";
    args.input = spec;
    auto text_of = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    for (const auto& [key, value] : result->config.items()) args.config.push_back(key + "=" + text_of(value));
    if (const auto problem = database.problem(result->problem_id); problem && problem->sizes.is_object())
      for (const auto& [key, value] : problem->sizes.items()) args.sizes.push_back(key + "=" + text_of(value));
    const InspectReport compiled = inspect_spec(spec, args);
    text += "\nThe same configuration compiled again from " + spec + ":\n" + analysis::format_inspect_text(compiled);
  } catch (const std::exception& e) {
    text += std::string("\n(no ISA checks: compiling the configuration again failed: ") + e.what() + ")\n";
  }
  return text;
}

void add_inspect_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* cmd = app.add_subcommand(
      "inspect", "Registers, shared memory/LDS, spills, occupancy and its limiter, and ISA checks of compiled kernels");
  cmd->add_option("input", args->input, "A spec (.yaml, with --config), an AMD code object (.hsaco/.o), AMDGPU assembly "
                                        "(.s) or a CUDA .cubin");
  cmd->add_option("--result", args->result_id, "Inspect a result of the database by id")->check(CLI::PositiveNumber);
  cmd->add_option("--config", args->config, "Spec input: a parameter value NAME=VALUE (repeatable; every parameter)");
  cmd->add_option("--size", args->sizes, "Spec input: override a problem size NAME=VALUE (repeatable)");
  cmd->add_option("--target", args->target, "Spec input: compile for this GPU (sm_90a, gfx942, gfx950, ...)");
  cmd->add_option("--block", args->block, "Threads per block/workgroup at launch (default: the spec's launch, the "
                                          "result's, the kernel's bounds, or 256)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--dynamic-shared", args->dynamic_shared, "Dynamic shared memory / LDS bytes per block at launch")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--expect-matrix", args->expect_matrix, "Matrix kernel: report when no MFMA/HMMA/wgmma is used");
  cmd->callback([&global, &handler, args] {
    handler = [&global, args]() -> int {
      try {
        InspectReport report;
        if (args->result_id > 0) {
          if (!args->input.empty()) throw InspectFailure(kExitUsage, "give either --result ID or an input file, not both");
          report = inspect_result(global, args->result_id, *args);
        } else if (args->input.empty()) {
          throw InspectFailure(kExitUsage, "nothing to inspect: give a spec, a code object, a cubin or --result ID");
        } else {
          report = inspect_file(args->input, *args);
        }
        if (global.json) print_json(analysis::to_json(report));
        else std::fputs(analysis::format_inspect_text(report).c_str(), stdout);
        return kExitOk;
      } catch (const InspectFailure& e) {
        std::cerr << "ktune inspect: " << e.what() << "\n";
        return e.code;
      }
    };
  });
}

}  // namespace ktune::cli
