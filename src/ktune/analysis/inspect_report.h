#pragma once
// What `ktune inspect` shows about compiled kernels, independent of where the facts came from
// (a code object, a cubin, a compile of a spec, a result in the database): per kernel the
// resources the compiler allocated, the occupancy that follows and what would raise it, and
// the ISA checks' findings with their line numbers. Sources fill it in; this file turns it
// into text and JSON the same way for all of them.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/analysis/isa_lint.h"
#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/analysis/occupancy_nvidia.h"

namespace ktune::analysis {

struct KernelInspection {
  std::string name;
  std::string symbol;  // when it differs from name (AMD kernel descriptor "k.kd", mangled name)
  // In display order: {"registers", 32}, {"spill_store_bytes", 0}, ... JSON keeps the keys.
  std::vector<std::pair<std::string, nlohmann::json>> resources;
  // The launch the occupancy is computed for: "256 threads per block, 0 dynamic shared bytes".
  std::string launch;
  std::optional<OccupancyResult> nvidia_occupancy;
  std::optional<AmdgpuOccupancyResult> amdgpu_occupancy;
  std::string occupancy_arch;  // "sm_90", "gfx942": the constants the occupancy used
  std::vector<std::string> notes;  // what could not be read or computed for this kernel
  std::vector<IsaFinding> findings;
  std::optional<IsaKernelSummary> isa;

  void set(std::string key, nlohmann::json value);  // replaces an existing key, keeps its place
  const nlohmann::json* resource(std::string_view key) const;
};

struct InspectReport {
  std::string subject;  // what was inspected: a path, "result 12", "spec.yaml {BM=64}"
  std::string kind;     // "amdgpu-code-object", "amdgpu-assembly", "cubin", "result", "spec"
  std::string vendor;   // "amdgpu", "nvidia", "" (e.g. a CPU result)
  std::string target;   // "gfx942", "sm_90a"
  // Facts about the whole object, in display order (ELF machine, ABI version, flags, target id...).
  std::vector<std::pair<std::string, nlohmann::json>> facts;
  std::vector<KernelInspection> kernels;
  std::vector<std::string> notes;  // what could not be read, and why
  // Where the ISA text came from ("llvm-objdump -d", "cuobjdump -sass", "PTX from NVRTC", "assembly").
  std::string isa_source;
  std::optional<IsaDialect> isa_dialect;
  // Findings whose kernel matches none of `kernels` (e.g. a device function in the disassembly).
  std::vector<IsaFinding> other_findings;

  KernelInspection* find_kernel(std::string_view name);
};

// Distributes a lint report's findings and kernel summaries over the report's kernels (matched by
// name or symbol; a ".kd" suffix and a "__clang_ocl_kern_imp_" prefix are ignored) and keeps the
// rest in other_findings. Kernels the lint saw but the report lacks are added when the report has
// no kernels at all (an object with no metadata).
void attach_isa_lint(InspectReport& report, const IsaLintReport& lint, std::string isa_source);

// Multi-line text: facts, then per kernel resources, occupancy (and its limiter), hints, notes
// and findings with their line numbers.
std::string format_inspect_text(const InspectReport& report);
nlohmann::json to_json(const InspectReport& report);

// One NVIDIA kernel's launch line and occupancy on `arch` from ptxas-style numbers (a note in
// `ki` when the occupancy cannot be computed); `assumed_threads`: the block size is a guess.
void nvidia_occupancy_into(KernelInspection& ki, const NvidiaArch& arch, int threads, int registers,
                           std::int64_t static_shared, std::int64_t dynamic_shared, int barriers, bool assumed_threads);
nlohmann::json to_json(const IsaFinding& finding);

}  // namespace ktune::analysis
