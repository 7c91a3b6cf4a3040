#pragma once
// Comparing the code of two AMD code objects: llvm-objdump output reduced to what an edit
// changes (the instruction text, without addresses and encodings, branch offsets replaced by
// labels so that an inserted instruction does not show up in every branch that jumps over it),
// then a line diff (Myers) grouped into hunks.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::amdgpu {

// One line of normalised disassembly and the line of the objdump output it came from.
struct AsmLine {
  std::string text;
  int source_line = 0;  // 1-based in the llvm-objdump output; 0 for a synthesised label
};

// "<kernel>:" headers, instructions without "// address: encoding", branch targets as
// "<kernel>+L3" labels with a "L3:" line before the target instruction.
std::vector<AsmLine> normalize_objdump(std::string_view objdump_text);

struct AsmChange {
  enum class Kind { Changed, Added, Removed };
  Kind kind = Kind::Changed;
  int a_index = -1;  // 0-based index into the normalised lines of A (-1 for Added)
  int b_index = -1;
};
const char* to_string(AsmChange::Kind kind);

// Line changes from a to b; a removal directly followed by an addition pairs up as Changed.
// More than max_edit_distance inserted+deleted lines: everything counts as changed (the
// result is then a replacement of a by b).
std::vector<AsmChange> diff_lines(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                                  int max_edit_distance = 20000);

// Unified diff with `context` lines around each change ("@@ -12,7 +12,7 @@" headers use the
// normalised line numbers).
std::string format_unified(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                           const std::vector<AsmChange>& changes, const std::string& a_name, const std::string& b_name,
                           int context = 3);
// Two columns of `width` characters each, changed lines marked with '|', '<' or '>'.
std::string format_side_by_side(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                                const std::vector<AsmChange>& changes, int width = 60, int context = 3);
nlohmann::json changes_to_json(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                               const std::vector<AsmChange>& changes);

}  // namespace ktune::amdgpu
