#include "ktune/amdgpu/code_object_inspection.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/toolchain.h"

namespace ktune::amdgpu {
namespace fs = std::filesystem;
namespace {

std::string three_text(const std::array<int, 3>& v) {
  return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

}  // namespace

void lint_into(analysis::InspectReport& report, const std::string& text, analysis::IsaDialect dialect, const std::string& source,
               bool expect_matrix) {
  analysis::IsaLintOptions options;
  options.expect_matrix_instructions = expect_matrix;
  try {
    analysis::attach_isa_lint(report, analysis::lint_isa(text, dialect, options), source);
  } catch (const std::exception& e) {
    report.notes.push_back("ISA checks on " + source + " not run: " + e.what());
  }
}

analysis::KernelInspection amd_kernel(const KernelMetadata& k, const analysis::AmdgpuArch* arch, int block,
                            std::int64_t dynamic_lds) {
  analysis::KernelInspection out;
  out.name = k.name;
  out.symbol = k.symbol;
  out.set("vgprs (total, incl. AGPRs)", k.vgpr_count);
  out.set("agprs", k.agpr_count);
  out.set("sgprs", k.sgpr_count);
  out.set("lds_bytes", k.group_segment_fixed_size);
  out.set("scratch_bytes_per_lane", k.private_segment_fixed_size);
  out.set("vgpr_spills", k.vgpr_spill_count);
  out.set("sgpr_spills", k.sgpr_spill_count);
  out.set("wavefront_size", k.wavefront_size);
  out.set("max_flat_workgroup_size", k.max_flat_workgroup_size);
  if (k.reqd_workgroup_size) out.set("reqd_workgroup_size", three_text(*k.reqd_workgroup_size));
  if (k.uses_dynamic_stack) out.set("uses_dynamic_stack", true);
  out.set("kernarg_bytes", k.kernarg_segment_size);
  if (k.vgpr_spill_count > 0 || k.sgpr_spill_count > 0)
    out.notes.push_back("the compiler spilled registers to scratch: " + std::to_string(k.vgpr_spill_count) + " VGPRs, " +
                        std::to_string(k.sgpr_spill_count) + " SGPRs");
  if (!arch) return out;
  int workgroup = block;
  if (workgroup <= 0 && k.reqd_workgroup_size)
    workgroup = (*k.reqd_workgroup_size)[0] * (*k.reqd_workgroup_size)[1] * (*k.reqd_workgroup_size)[2];
  const bool assumed = workgroup <= 0;
  if (assumed) workgroup = k.max_flat_workgroup_size > 0 ? k.max_flat_workgroup_size : 256;
  out.launch = std::to_string(workgroup) + " threads per workgroup" +
               (assumed ? " (the kernel's max flat workgroup size; --block sets the launch)" : "") + ", " +
               std::to_string(k.group_segment_fixed_size) + " static + " + std::to_string(dynamic_lds) +
               " dynamic LDS bytes";
  out.occupancy_arch = arch->name;
  try {
    out.amdgpu_occupancy = kernel_occupancy(k, *arch, workgroup, dynamic_lds);
  } catch (const std::exception& e) {
    out.notes.push_back(std::string("occupancy not computed: ") + e.what());
  }
  return out;
}

const analysis::AmdgpuArch* amd_arch_or_note(const std::string& processor, analysis::InspectReport& report) {
  const analysis::AmdgpuArch* arch = analysis::find_amdgpu_arch(processor);
  if (!arch)
    report.notes.push_back("no occupancy rules for '" + processor + "' (ktune knows gfx908 gfx90a gfx940 gfx941 "
                           "gfx942 gfx950)");
  return arch;
}

analysis::InspectReport inspect_code_object(const std::string& path, const InspectOptions& options) {
  const CodeObject co = read_code_object(path);
  analysis::InspectReport report;
  report.subject = path;
  report.kind = "amdgpu-code-object";
  report.vendor = "amdgpu";
  report.target = co.elf.processor;
  report.facts.emplace_back("machine", std::to_string(co.elf.machine) + " (EM_AMDGPU)");
  report.facts.emplace_back("os_abi", std::to_string(co.elf.os_abi) + " (" + co.elf.os_abi_name + ")");
  report.facts.emplace_back("abi_version", std::to_string(co.elf.abi_version) + " (code object v" +
                                               std::to_string(co.elf.code_object_version) + ")");
  report.facts.emplace_back("elf_type", co.elf.elf_type_name);
  char flags[32];
  std::snprintf(flags, sizeof flags, "0x%x", co.elf.e_flags);
  report.facts.emplace_back("e_flags", std::string(flags) + " (mach " + std::to_string(co.elf.mach) + " = " +
                                           (co.elf.processor.empty() ? "unknown" : co.elf.processor) + ", xnack " +
                                           to_string(co.elf.xnack) + ", sramecc " +
                                           to_string(co.elf.sramecc) + ")");
  report.facts.emplace_back("target_id", co.elf.target_id);
  report.facts.emplace_back("metadata_target", co.metadata.target);
  for (const auto& w : co.warnings) report.notes.push_back(w);

  const std::string processor = co.elf.processor.empty() ? analysis::amdgpu_processor_name(co.metadata.target)
                                                         : co.elf.processor;
  const analysis::AmdgpuArch* arch = amd_arch_or_note(processor, report);
  for (const auto& k : co.metadata.kernels) {
    analysis::KernelInspection ki = amd_kernel(k, arch, options.block, options.dynamic_lds);
    for (const auto& sym : co.kernel_code)
      if (sym.name == k.name || sym.name + ".kd" == k.symbol) ki.set("code_bytes", static_cast<std::int64_t>(sym.code_bytes));
    report.kernels.push_back(std::move(ki));
  }
  std::string why_not;
  const auto toolchain = Toolchain::find(processor, std::nullopt, &why_not);
  if (!toolchain) {
    report.notes.push_back("ISA checks skipped: no LLVM that disassembles " + processor + " (" + why_not + ")");
    return report;
  }
  std::string error;
  const auto disassembly = toolchain->disassemble(path, co.elf.target_id.empty() ? processor : co.elf.target_id, &error);
  if (!disassembly) {
    report.notes.push_back("ISA checks skipped: " + error);
    return report;
  }
  lint_into(report, *disassembly, analysis::IsaDialect::Amdgpu,
            fs::path(toolchain->objdump()).filename().string() + " -d", options.expect_matrix);
  return report;
}

analysis::InspectReport inspect_amd_assembly(const std::string& path, const std::string& text, const InspectOptions& options) {
  analysis::InspectReport report;
  report.subject = path;
  report.kind = "amdgpu-assembly";
  report.vendor = "amdgpu";
  CodeObjectMetadata metadata;
  try {
    metadata = parse_asm_metadata(text);
  } catch (const std::exception& e) {
    throw std::invalid_argument(path + ": not AMDGPU assembly with a .amdgpu_metadata block: " + e.what());
  }
  report.target = analysis::amdgpu_processor_name(metadata.target);
  report.facts.emplace_back("metadata_target", metadata.target);
  const analysis::AmdgpuArch* arch = amd_arch_or_note(report.target, report);
  const auto infos = parse_asm_kernel_info(text);
  for (const auto& k : metadata.kernels) {
    analysis::KernelInspection ki = amd_kernel(k, arch, options.block, options.dynamic_lds);
    for (const auto& info : infos) {
      if (info.name != k.name && info.name + ".kd" != k.symbol) continue;
      if (info.num_vgprs) ki.set("arch_vgprs", *info.num_vgprs);
      if (info.occupancy) ki.set("compiler_occupancy (; Occupancy:)", *info.occupancy);
      if (info.code_length) ki.set("code_bytes", *info.code_length);
    }
    report.kernels.push_back(std::move(ki));
  }
  lint_into(report, text, analysis::IsaDialect::Amdgpu, "assembly", options.expect_matrix);
  return report;
}

}  // namespace ktune::amdgpu
