#pragma once
// Why an AMD kernel runs at the occupancy it does, from its code object (.hsaco/.o) or its
// assembly (.s, .rocmasm with an .amdgpu_metadata block): per kernel the registers (VGPR, AGPR,
// SGPR), LDS, scratch, spills, occupancy and its limiter (analysis/occupancy_amdgpu.h) and the
// ISA checks' findings (analysis/isa_lint.h) on the disassembly. `ktune inspect FILE` and
// `ktune model inspect` (every dispatch of an IREE model) print these reports.

#include <cstdint>
#include <string>

#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/analysis/inspect_report.h"
#include "ktune/analysis/isa_lint.h"
#include "ktune/analysis/occupancy_amdgpu.h"

namespace ktune::amdgpu {

struct InspectOptions {
  int block = 0;                  // workgroup size at launch; <= 0: the kernel's required or maximum size
  std::int64_t dynamic_lds = 0;   // dynamic LDS bytes per workgroup at launch
  bool expect_matrix = false;     // a matrix kernel: report when no MFMA is used
};

// The ISA checks of `text` into `report` (a note instead when the checks cannot run).
void lint_into(analysis::InspectReport& report, const std::string& text, analysis::IsaDialect dialect,
               const std::string& source, bool expect_matrix);

// One kernel's resources and occupancy (none without `arch`).
analysis::KernelInspection amd_kernel(const KernelMetadata& k, const analysis::AmdgpuArch* arch, int block,
                                      std::int64_t dynamic_lds);

// The occupancy rules for `processor`, or a note in `report` and nullptr.
const analysis::AmdgpuArch* amd_arch_or_note(const std::string& processor, analysis::InspectReport& report);

// A code object file. Throws CodeObjectError (amdgpu/code_object.h) for a file that is not one.
// The ISA checks need an LLVM that disassembles the target (a note says when there is none).
analysis::InspectReport inspect_code_object(const std::string& path, const InspectOptions& options);

// AMDGPU assembly text with an .amdgpu_metadata block; throws std::invalid_argument without one.
analysis::InspectReport inspect_amd_assembly(const std::string& path, const std::string& text,
                                             const InspectOptions& options);

}  // namespace ktune::amdgpu
