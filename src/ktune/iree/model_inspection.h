#pragma once
// ktune model inspect: every dispatch of a model compiled for an AMD target, as IREE built it.
// From IREE's own dump (compile_model.h): the configured source says what IREE chose (root op,
// shapes, lowering configuration); the linked code object (.hsaco) gives each dispatch's kernel
// resources, occupancy and its limiter, and the disassembly's ISA findings
// (amdgpu/code_object_inspection.h); IREE's assembly (.rocmasm) declares the same figures in
// text (`.set <kernel>.num_vgpr`, `.amdhsa_group_segment_fixed_size`, ...), and each dispatch
// says whether ktune's figures equal them.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/analysis/inspect_report.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::iree {

// What IREE's AMDGPU assembly declares about one kernel (-1: not declared).
struct AssemblyKernelFigures {
  std::int64_t num_vgpr = -1, num_agpr = -1, numbered_sgpr = -1;
  std::int64_t group_segment_fixed_size = -1, private_segment_fixed_size = -1;
  std::int64_t next_free_vgpr = -1, next_free_sgpr = -1, accum_offset = -1;
};

// Per kernel symbol (without `.kd`), from the `.set .L<kernel>.<field>, N` lines and the
// `.amdhsa_kernel <kernel>` blocks of an .rocmasm/.s text.
std::map<std::string, AssemblyKernelFigures> parse_assembly_figures(const std::string& text);

struct DispatchInspection {
  DumpedDispatch dispatch;
  std::optional<analysis::KernelInspection> kernel;  // none when the code object has no such kernel
  // ktune's figures against the assembly's: {"agrees": bool, "checked": [...], "mismatches": [...]}
  nlohmann::json assembly_check = nlohmann::json::object();
};

struct ModelInspection {
  Target target;
  std::filesystem::path code_object, assembly;  // IREE's dump files that were read
  std::vector<DispatchInspection> dispatches;   // in dispatch order
  analysis::InspectReport report;               // the code object's whole report (facts, notes, findings)
  std::vector<std::string> notes;
};

// What IREE declares of each export (kernel) of a model's executables in the
// `--compile-to=executable-targets` output: threads per workgroup and workgroup_local_memory
// (the dynamic shared memory a CUDA dispatch is launched with, which its PTX does not show).
struct ExportFacts {
  std::int64_t threads = 0;
  std::int64_t local_memory = 0;
};
std::map<std::string, ExportFacts> parse_export_facts(const std::string& text);

// Inspects a model compiled for hip:gfx* (its code object) or cuda:sm_* (its PTX assembled with
// the CUDA toolkit's ptxas -v; IREE's export facts from a second iree-compile that stops at
// executable targets). A dispatch whose root op IREE configured with an MMA intrinsic and whose
// kernel runs no matrix instruction gets a warning finding ("matrix-instructions"). Throws
// IreeError for another target, a dump without the binary, or a missing ptxas.
ModelInspection inspect_model(const IreeTools& tools, const CompiledModel& model);

nlohmann::json to_json(const ModelInspection& inspection);

}  // namespace ktune::iree
