#pragma once
// Static checks on compiled GPU code, the questions an analyst asks first when reading it:
// are global loads 128 bits wide inside loops, does shared memory / LDS move 128 bits per
// instruction, does the kernel spill to scratch / local memory, does a matrix kernel use the
// matrix cores (MFMA, mma.sync, wgmma, HMMA), (AMD) does it drain the memory counters
// after every load, and (SASS) does ptxas serialise an instruction over the warp's threads
// because its uniform-register operands got per-thread values. Every finding names the instruction lines it is about.
//
// Reads four kinds of text:
//   AMDGPU  - clang -S output (labels .LBB0_2) or llvm-objdump -d output (addresses);
//   PTX     - NVRTC / nvcc -ptx output;
//   SASS    - cuobjdump -sass / nvdisasm output (addresses or .L_x labels).
// Loops are the instruction ranges between a backward branch and its target.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::analysis {

enum class IsaDialect { Auto, Amdgpu, Ptx, Sass };
const char* to_string(IsaDialect dialect);
// Guesses from the text; Auto when it looks like none of them.
IsaDialect detect_isa_dialect(std::string_view text);

enum class IsaSeverity { Info, Warning };
const char* to_string(IsaSeverity severity);

struct IsaLine {
  int number = 0;  // 1-based line number in the text given to lint_isa
  std::string text;
  bool operator==(const IsaLine&) const = default;
};

// Check names (IsaFinding::check).
inline constexpr const char* kCheckGlobalLoadWidth = "global-load-width";
inline constexpr const char* kCheckSharedWidth = "shared-access-width";  // LDS (AMD), shared (NVIDIA)
inline constexpr const char* kCheckWaitcnt = "waitcnt-density";           // AMD only
inline constexpr const char* kCheckScratch = "scratch";                   // AMD scratch, NVIDIA local memory
inline constexpr const char* kCheckMatrix = "matrix-instructions";
inline constexpr const char* kCheckUniformWaterfall = "uniform-waterfall";  // SASS only

struct IsaFinding {
  std::string check;
  IsaSeverity severity = IsaSeverity::Info;
  std::string kernel;
  std::string message;
  std::vector<IsaLine> lines;  // the instructions concerned, at most IsaLintOptions::max_lines
  int count = 0;               // how many instructions concerned (lines may be fewer)
};

struct IsaKernelSummary {
  std::string name;
  int first_line = 0;
  int last_line = 0;
  int instructions = 0;
  int loops = 0;  // backward branches
  // Instruction counts by category: "global_load_128", "global_load_narrow",
  // "global_load_128_in_loop", "global_load_narrow_in_loop", "shared_128", "shared_narrow",
  // "shared_narrow_in_loop", "scratch", "scratch_in_loop", "full_wait_vm", "full_wait_lgkm",
  // "full_wait_vm_in_loop", "matrix", ... Only non-zero entries are present.
  std::map<std::string, int> counts;
  std::map<std::string, int> matrix_instructions;  // mnemonic -> count
  std::vector<std::string> matrix_shapes;          // "16x16x16", "m16n8k16", in order seen

  int count(const std::string& key) const;
};

struct IsaLintOptions {
  // The kernel is a matrix kernel: warn when it uses no matrix instructions.
  bool expect_matrix_instructions = false;
  std::size_t max_lines = 12;
};

struct IsaLintReport {
  IsaDialect dialect = IsaDialect::Auto;
  std::vector<IsaKernelSummary> kernels;
  std::vector<IsaFinding> findings;

  const IsaKernelSummary* kernel(std::string_view name) const;
  // Findings of one check (and kernel, when given).
  std::vector<const IsaFinding*> find(std::string_view check, std::string_view kernel = {}) const;
};

// Throws std::invalid_argument when the dialect cannot be detected (pass it explicitly) or the
// text has no kernels/functions of that dialect.
IsaLintReport lint_isa(std::string_view text, IsaDialect dialect = IsaDialect::Auto,
                       const IsaLintOptions& options = {});

nlohmann::json to_json(const IsaLintReport& report);

}  // namespace ktune::analysis
