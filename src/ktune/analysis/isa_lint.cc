#include "ktune/analysis/isa_lint.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include "ktune/analysis/valid_utf8.h"

namespace ktune::analysis {
namespace {

// ---------------------------------------------------------------------------------------------
// Parsed form shared by the dialects.

struct Instruction {
  int line = 0;
  std::string text;      // the source line, trimmed
  std::string mnemonic;  // "global_load_dwordx4", "ld.global.nc.v4.f32", "LDG.E.128"
  std::string operands;
  std::string comment;   // AMD assembly comment (spill annotations)
  std::optional<std::uint64_t> address;
  bool in_loop = false;
};

struct BranchTarget {
  std::size_t from = 0;  // instruction index of the branch
  std::string label;     // when branching to a label
  std::optional<std::uint64_t> address;
};

struct Kernel {
  std::string name;
  int first_line = 0;
  int last_line = 0;
  std::vector<Instruction> instructions;
  std::map<std::string, std::size_t> labels;  // label -> index of the next instruction
  std::vector<BranchTarget> branches;
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

std::optional<std::uint64_t> parse_hex(std::string_view s) {
  if (starts_with(s, "0x") || starts_with(s, "0X")) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// "mnemonic operands" -> both parts.
void split_mnemonic(std::string_view body, Instruction& ins) {
  body = trim(body);
  const auto space = body.find_first_of(" \t");
  ins.mnemonic = std::string(body.substr(0, space));
  ins.operands = space == std::string_view::npos ? "" : std::string(trim(body.substr(space)));
}

bool is_label_line(std::string_view t, std::string& label) {
  if (t.empty() || t.back() != ':') return false;
  const std::string_view name = t.substr(0, t.size() - 1);
  if (name.empty()) return false;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) == 0 && c != '_' && c != '.' && c != '$' && u < 0x80) return false;
  }
  label = std::string(name);
  return true;
}

// Marks every instruction between a backward branch and its target as inside a loop.
// The instruction index a branch goes to, when it is inside the kernel.
std::optional<std::size_t> branch_target(const Kernel& k, const BranchTarget& b,
                                         const std::map<std::uint64_t, std::size_t>& by_address) {
  if (!b.label.empty()) {
    if (auto it = k.labels.find(b.label); it != k.labels.end()) return it->second;
  } else if (b.address) {
    if (auto it = by_address.find(*b.address); it != by_address.end()) return it->second;
  }
  return std::nullopt;
}

int mark_loops(Kernel& k, const std::map<std::uint64_t, std::size_t>& by_address) {
  int loops = 0;
  for (const BranchTarget& b : k.branches) {
    const std::optional<std::size_t> target = branch_target(k, b, by_address);
    // A branch to itself is the trap loop SASS ends with, not a loop of the kernel.
    if (!target || *target >= b.from) continue;
    ++loops;
    for (std::size_t i = *target; i <= b.from; ++i) k.instructions[i].in_loop = true;
  }
  return loops;
}

// ---------------------------------------------------------------------------------------------
// AMDGPU: clang -S output and llvm-objdump -d output.

bool amd_is_branch(std::string_view m) { return starts_with(m, "s_cbranch_") || m == "s_branch"; }

std::vector<Kernel> parse_amdgpu(const std::vector<std::string_view>& lines) {
  std::vector<Kernel> kernels;
  std::set<std::string> functions;  // names declared `.type name,@function`
  Kernel* current = nullptr;
  std::uint64_t function_base = 0;
  static const std::regex objdump_header(R"(^([0-9a-fA-F]+) <([^>]+)>:$)");
  static const std::regex objdump_target(R"(<([^>+]+)\+0x([0-9a-fA-F]+)>\s*$)");
  std::vector<std::string> pending_labels;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int line_number = static_cast<int>(n) + 1;
    const std::string_view raw = lines[n];
    std::string_view t = trim(raw);
    if (t.empty()) continue;
    std::smatch m;
    const std::string t_str(t);
    if (t.size() > 3 && t.substr(t.size() - 2) == ">:" && std::regex_match(t_str, m, objdump_header)) {
      kernels.push_back(Kernel{});
      current = &kernels.back();
      current->name = m[2].str();
      current->first_line = line_number;
      function_base = parse_hex(m[1].str()).value_or(0);
      continue;
    }
    if (starts_with(t, ".type") && contains(t, "@function")) {
      std::string_view rest = trim(t.substr(5));
      functions.insert(std::string(trim(rest.substr(0, rest.find(',')))));
      continue;
    }
    std::string label;
    if (raw.size() > 0 && raw[0] != ' ' && raw[0] != '\t') {
      const std::string_view before_comment = trim(t.substr(0, t.find(';')));
      if (is_label_line(before_comment, label)) {
        if (functions.count(label) != 0) {
          kernels.push_back(Kernel{});
          current = &kernels.back();
          current->name = label;
          current->first_line = line_number;
          pending_labels.clear();
          continue;
        }
        if (starts_with(label, ".Lfunc_end")) {
          current = nullptr;
          continue;
        }
        if (current != nullptr) pending_labels.push_back(label);
        continue;
      }
    }
    if (current == nullptr) continue;
    if (t[0] == ';' || t[0] == '.' || starts_with(t, "//")) continue;
    Instruction ins;
    ins.line = line_number;
    ins.text = std::string(t);
    std::string_view body = t;
    // llvm-objdump: "mnemonic operands   // 000000001900: C0060100 <kernel+0x1d0>"
    if (const auto slashes = body.find("//"); slashes != std::string_view::npos) {
      const std::string_view tail = trim(body.substr(slashes + 2));
      const auto colon = tail.find(':');
      if (colon != std::string_view::npos) ins.address = parse_hex(tail.substr(0, colon));
      ins.comment = std::string(tail);
      body = body.substr(0, slashes);
      // The encoding comment is noise in findings; a branch keeps its symbolic target.
      ins.text = std::string(trim(body));
      if (const auto target = tail.find('<'); target != std::string_view::npos) {
        ins.text += " " + std::string(tail.substr(target));
      }
    }
    if (const auto semicolon = body.find(';'); semicolon != std::string_view::npos) {
      ins.comment = std::string(trim(body.substr(semicolon + 1)));
      body = body.substr(0, semicolon);
    }
    split_mnemonic(body, ins);
    if (ins.mnemonic.empty()) continue;
    const std::size_t index = current->instructions.size();
    for (const std::string& l : pending_labels) current->labels[l] = index;
    pending_labels.clear();
    if (amd_is_branch(ins.mnemonic)) {
      BranchTarget b;
      b.from = index;
      if (ins.address) {
        const std::string comment = ins.comment;
        if (std::regex_search(comment, m, objdump_target)) {
          if (auto off = parse_hex(m[2].str())) b.address = function_base + *off;
        }
      } else {
        b.label = ins.operands.substr(0, ins.operands.find_first_of(" ,"));
      }
      current->branches.push_back(b);
    }
    current->last_line = line_number;
    current->instructions.push_back(std::move(ins));
  }
  return kernels;
}

int amd_width_bits(std::string_view m) {
  if (contains(m, "dwordx4") || contains(m, "b128")) return 128;
  if (contains(m, "dwordx3") || contains(m, "b96")) return 96;
  if (contains(m, "2_b64") || contains(m, "2st64_b64")) return 128;  // ds_read2_b64: two 64-bit values
  if (contains(m, "dwordx2") || contains(m, "b64")) return 64;
  if (contains(m, "2_b32") || contains(m, "2st64_b32")) return 64;
  if (contains(m, "byte") || contains(m, "u8") || contains(m, "i8") || contains(m, "b8")) return 8;
  if (contains(m, "short") || contains(m, "u16") || contains(m, "i16") || contains(m, "b16")) return 16;
  return 32;
}

// ---------------------------------------------------------------------------------------------
// PTX.

std::vector<Kernel> parse_ptx(const std::vector<std::string_view>& lines) {
  std::vector<Kernel> kernels;
  Kernel* current = nullptr;
  int depth = 0;
  bool awaiting_body = false;
  std::vector<std::string> pending_labels;
  static const std::regex entry_re(R"((?:^|\s)\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*))");
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int line_number = static_cast<int>(n) + 1;
    std::string_view t = trim(lines[n]);
    if (const auto comment = t.find("//"); comment != std::string_view::npos) t = trim(t.substr(0, comment));
    if (t.empty()) continue;
    if (awaiting_body && contains(t, ";") && !contains(t, "{")) {
      // A prototype (".extern .func f(...);") has no body.
      kernels.pop_back();
      current = nullptr;
      awaiting_body = false;
      continue;
    }
    if (current == nullptr || depth == 0) {
      std::smatch m;
      const std::string s(t);
      if ((contains(t, ".entry") || contains(t, ".func")) && !contains(t, ";") && std::regex_search(s, m, entry_re)) {
        kernels.push_back(Kernel{});
        current = &kernels.back();
        current->name = m[1].str();
        current->first_line = line_number;
        awaiting_body = true;
        depth = 0;
      }
      if (current == nullptr) continue;
    }
    for (char c : t) {
      if (c == '{') {
        ++depth;
        awaiting_body = false;
      } else if (c == '}') {
        --depth;
      }
    }
    if (awaiting_body) continue;
    if (depth <= 0) {
      current->last_line = line_number;
      depth = 0;
      continue;
    }
    std::string label;
    if (is_label_line(t, label)) {
      pending_labels.push_back(label);
      continue;
    }
    if (t[0] == '.' || t[0] == '{' || t[0] == '}' || t.back() != ';') continue;
    std::string_view body = t.substr(0, t.size() - 1);
    if (body[0] == '@') {  // predicate guard "@%p1" / "@!%p1"
      const auto space = body.find_first_of(" \t");
      if (space == std::string_view::npos) continue;
      body = trim(body.substr(space));
    }
    Instruction ins;
    ins.line = line_number;
    ins.text = std::string(t);
    split_mnemonic(body, ins);
    const std::size_t index = current->instructions.size();
    for (const std::string& l : pending_labels) current->labels[l] = index;
    pending_labels.clear();
    if (ins.mnemonic == "bra" || starts_with(ins.mnemonic, "bra.")) {
      current->branches.push_back(BranchTarget{index, std::string(trim(ins.operands)), std::nullopt});
    }
    current->last_line = line_number;
    current->instructions.push_back(std::move(ins));
  }
  return kernels;
}

std::vector<std::string> dot_tokens(std::string_view mnemonic) {
  std::vector<std::string> tokens;
  std::size_t pos = 0;
  while (pos <= mnemonic.size()) {
    std::size_t end = mnemonic.find('.', pos);
    if (end == std::string_view::npos) end = mnemonic.size();
    tokens.emplace_back(mnemonic.substr(pos, end - pos));
    pos = end + 1;
  }
  return tokens;
}

int ptx_type_bits(const std::string& token) {
  if (token == "b128") return 128;
  if (token == "f64" || token == "b64" || token == "u64" || token == "s64") return 64;
  if (token == "f32" || token == "b32" || token == "u32" || token == "s32" || token == "f16x2" || token == "bf16x2") {
    return 32;
  }
  if (token == "f16" || token == "b16" || token == "u16" || token == "s16" || token == "bf16") return 16;
  if (token == "b8" || token == "u8" || token == "s8") return 8;
  return 0;
}

// Bits moved by a PTX ld/st: vector count times element width.
int ptx_access_bits(const std::vector<std::string>& tokens) {
  int vector = 1;
  int element = 32;
  for (const std::string& tk : tokens) {
    if (tk == "v2") vector = 2;
    else if (tk == "v4") vector = 4;
    else if (tk == "v8") vector = 8;
    else if (int bits = ptx_type_bits(tk)) element = bits;
  }
  return vector * element;
}

// ---------------------------------------------------------------------------------------------
// SASS (cuobjdump -sass / nvdisasm).

std::vector<Kernel> parse_sass(const std::vector<std::string_view>& lines) {
  std::vector<Kernel> kernels;
  Kernel* current = nullptr;
  std::vector<std::string> pending_labels;
  static const std::regex function_re(R"(^Function\s*:\s*(\S+))");
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int line_number = static_cast<int>(n) + 1;
    std::string_view t = trim(lines[n]);
    if (t.empty()) continue;
    std::smatch m;
    const std::string s(t);
    if (contains(t, "Function") && std::regex_search(s, m, function_re)) {
      kernels.push_back(Kernel{});
      current = &kernels.back();
      current->name = m[1].str();
      current->first_line = line_number;
      continue;
    }
    if (current == nullptr) continue;
    std::string label;
    if (is_label_line(t, label)) {
      pending_labels.push_back(label);
      continue;
    }
    // "/*0080*/  @!P0 BRA 0x560 ;   /* 0x0000000400348947 */"
    if (!starts_with(t, "/*")) continue;
    const auto close = t.find("*/");
    if (close == std::string_view::npos) continue;
    const auto address = parse_hex(t.substr(2, close - 2));
    std::string_view body = trim(t.substr(close + 2));
    if (!address || body.empty() || starts_with(body, "/*")) continue;  // encoding-only line
    const auto semicolon = body.find(';');
    if (semicolon == std::string_view::npos) continue;
    body = trim(body.substr(0, semicolon));
    if (!body.empty() && body[0] == '@') {
      const auto space = body.find_first_of(" \t");
      if (space == std::string_view::npos) continue;
      body = trim(body.substr(space));
    }
    Instruction ins;
    ins.line = line_number;
    ins.text = std::string(trim(t.substr(0, t.find(';') + 1)));
    ins.address = address;
    split_mnemonic(body, ins);
    const std::size_t index = current->instructions.size();
    for (const std::string& l : pending_labels) current->labels[l] = index;
    pending_labels.clear();
    if (ins.mnemonic == "BRA" || starts_with(ins.mnemonic, "BRA.")) {
      BranchTarget b;
      b.from = index;
      std::string_view target = trim(ins.operands);
      if (const auto tick = target.find("`("); tick != std::string_view::npos) {  // BRA `(.L_x_3)
        const auto end = target.find(')', tick);
        b.label = std::string(target.substr(tick + 2, end == std::string_view::npos ? end : end - tick - 2));
      } else {
        b.address = parse_hex(target.substr(0, target.find_first_of(" ,")));
      }
      current->branches.push_back(b);
    }
    current->last_line = line_number;
    current->instructions.push_back(std::move(ins));
  }
  return kernels;
}

int sass_width_bits(const std::vector<std::string>& tokens) {
  for (const std::string& tk : tokens) {
    if (tk == "128") return 128;
    if (tk == "64") return 64;
    if (tk == "U8" || tk == "S8") return 8;
    if (tk == "U16" || tk == "S16") return 16;
  }
  return 32;
}

// "HMMA.16816.F32" -> "m16n8k16"; "HGMMA.64x128x16.F32" -> "64x128x16".
std::string sass_mma_shape(const std::vector<std::string>& tokens) {
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string& tk = tokens[i];
    if (contains(tk, "x") && std::isdigit(static_cast<unsigned char>(tk[0])) != 0) return tk;
    if (tk.size() >= 3 && std::all_of(tk.begin(), tk.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      const std::size_t m_len = starts_with(tk, "16") ? 2 : 1;
      if (tk.size() < m_len + 2) return tk;
      return "m" + tk.substr(0, m_len) + "n" + tk.substr(m_len, 1) + "k" + tk.substr(m_len + 1);
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Classification.

struct Class {
  bool global_load = false;
  bool shared_access = false;
  bool scratch = false;
  bool full_wait_vm = false;
  bool full_wait_lgkm = false;
  bool matrix = false;
  int bits = 0;
  std::string shape;
};

// Scratch buffer descriptors: the resource operands of buffer ops that access private memory.
std::set<std::string> amd_scratch_resources(const Kernel& k) {
  std::set<std::string> resources;
  for (const Instruction& ins : k.instructions) {
    if (!starts_with(ins.mnemonic, "buffer_")) continue;
    // "buffer_store_dword v2, off, s[0:3], 0 offset:16": the resource is the third operand.
    std::vector<std::string> parts;
    std::string current;
    for (char c : ins.operands) {
      if (c == ',') {
        parts.emplace_back(trim(current));
        current.clear();
      } else {
        current.push_back(c);
      }
    }
    parts.emplace_back(trim(current));
    // Spill annotations (assembly) say so; without them (disassembly), an access with no
    // address register ("off") is wave-private: global buffer accesses carry an offset VGPR.
    const bool annotated = contains(ins.comment, "Spill") || contains(ins.comment, "Reload");
    if (parts.size() >= 3 && (annotated || parts[1] == "off")) resources.insert(parts[2]);
  }
  return resources;
}

Class classify_amd(const Instruction& ins, const std::set<std::string>& scratch_resources) {
  Class c;
  const std::string& m = ins.mnemonic;
  if (starts_with(m, "scratch_load") || starts_with(m, "scratch_store")) {
    c.scratch = true;
  } else if (starts_with(m, "buffer_load") || starts_with(m, "buffer_store")) {
    bool scratch = contains(ins.comment, "Spill") || contains(ins.comment, "Reload");
    for (const std::string& r : scratch_resources) scratch = scratch || contains(ins.operands, ", " + r + ",");
    if (scratch) c.scratch = true;
    else if (starts_with(m, "buffer_load")) c.global_load = true;
  } else if (starts_with(m, "global_load") || starts_with(m, "flat_load")) {
    c.global_load = true;
  } else if (starts_with(m, "ds_read") || starts_with(m, "ds_write") || starts_with(m, "ds_load") ||
             starts_with(m, "ds_store")) {
    c.shared_access = true;
  } else if (m == "s_waitcnt") {
    c.full_wait_vm = contains(ins.operands, "vmcnt(0)");
    c.full_wait_lgkm = contains(ins.operands, "lgkmcnt(0)");
  } else if (m == "s_wait_loadcnt" || m == "s_wait_dscnt" || m == "s_wait_loadcnt_dscnt") {
    const std::string_view value = trim(ins.operands);
    const bool zero = value == "0" || value == "0x0";
    c.full_wait_vm = zero && m != "s_wait_dscnt";
    c.full_wait_lgkm = zero && m != "s_wait_loadcnt";
  } else if (starts_with(m, "v_mfma") || starts_with(m, "v_smfmac") || starts_with(m, "v_wmma") ||
             starts_with(m, "v_swmmac")) {
    c.matrix = true;
    static const std::regex shape(R"((\d+)x(\d+)x(\d+))");
    std::smatch sm;
    if (std::regex_search(m, sm, shape)) c.shape = sm[0].str();
  }
  if (c.global_load || c.shared_access || c.scratch) c.bits = amd_width_bits(m);
  return c;
}

Class classify_ptx(const Instruction& ins) {
  Class c;
  const std::vector<std::string> tokens = dot_tokens(ins.mnemonic);
  const std::string& op = tokens[0];
  auto has = [&](const char* t) { return std::find(tokens.begin(), tokens.end(), t) != tokens.end(); };
  if ((op == "ld" || op == "ldu") && has("global")) {
    c.global_load = true;
    c.bits = ptx_access_bits(tokens);
  } else if (op == "cp" && tokens.size() > 1 && tokens[1] == "async") {
    c.global_load = true;
    if (has("bulk")) {
      c.bits = 1024;  // TMA / bulk copies move whole tiles
    } else {
      // cp.async.ca.shared.global [dst], [src], 16: the last operand is the size in bytes.
      const auto comma = ins.operands.find_last_of(',');
      int bytes = 4;
      if (comma != std::string::npos) {
        const std::string_view size = trim(std::string_view(ins.operands).substr(comma + 1));
        std::from_chars(size.data(), size.data() + size.size(), bytes);
      }
      c.bits = bytes * 8;
    }
  } else if ((op == "ld" || op == "st") && has("local")) {
    c.scratch = true;
    c.bits = ptx_access_bits(tokens);
  } else if ((op == "ld" || op == "st") && (has("shared") || has("shared::cta"))) {
    c.shared_access = true;
    c.bits = ptx_access_bits(tokens);
  } else if (op == "ldmatrix" || op == "stmatrix") {
    c.shared_access = true;
    c.bits = 128;
  } else if (op == "mma" || op == "wgmma" || (op == "wmma" && has("mma")) || (op == "tcgen05" && has("mma"))) {
    c.matrix = true;
    static const std::regex shape(R"(m(\d+)n(\d+)k(\d+))");
    std::smatch sm;
    if (std::regex_search(ins.mnemonic, sm, shape)) c.shape = sm[0].str();
  }
  return c;
}

Class classify_sass(const Instruction& ins) {
  Class c;
  const std::vector<std::string> tokens = dot_tokens(ins.mnemonic);
  const std::string& op = tokens[0];
  if (op == "LDG" || op == "LDGSTS") {
    c.global_load = true;
    c.bits = sass_width_bits(tokens);
  } else if (op == "UTMALDG" || op == "UBLKCP") {
    c.global_load = true;
    c.bits = 1024;
  } else if (op == "LDL" || op == "STL") {
    c.scratch = true;
    c.bits = sass_width_bits(tokens);
  } else if (op == "LDS" || op == "STS") {
    c.shared_access = true;
    c.bits = sass_width_bits(tokens);
  } else if (op == "LDSM" || op == "STSM") {
    c.shared_access = true;
    c.bits = 128;
  } else if (op.size() >= 3 && (op.substr(op.size() - 3) == "MMA")) {
    c.matrix = true;
    c.shape = sass_mma_shape(tokens);
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Findings.

struct Collected {
  std::vector<const Instruction*> global_wide_loop, global_narrow_loop, global_narrow_outside, global_wide_outside;
  std::vector<const Instruction*> shared_wide_loop, shared_narrow_loop, shared_narrow_outside;
  std::vector<const Instruction*> scratch, waits_vm_loop, waits_lgkm_loop;
  int waits_vm = 0;
  int waits_lgkm = 0;
  int scratch_in_loop = 0;
  int loads_in_loop = 0;
  int instructions_in_loop = 0;
  std::vector<std::pair<const Instruction*, std::string>> matrix;
  std::map<int, int> narrow_bits;  // width -> count, for messages
  std::map<int, int> shared_narrow_bits;
};

std::vector<IsaLine> lines_of(const std::vector<const Instruction*>& list, std::size_t max) {
  std::vector<IsaLine> out;
  for (std::size_t i = 0; i < list.size() && i < max; ++i) out.push_back({list[i]->line, list[i]->text});
  return out;
}

std::string widths_text(const std::map<int, int>& widths) {
  std::string out;
  for (auto it = widths.rbegin(); it != widths.rend(); ++it) {
    out += (out.empty() ? "" : ", ") + std::to_string(it->second) + " x " + std::to_string(it->first) + "-bit";
  }
  return out;
}

const char* matrix_family(IsaDialect d) {
  switch (d) {
    case IsaDialect::Amdgpu: return "MFMA/WMMA";
    case IsaDialect::Ptx: return "mma.sync/wgmma/tcgen05.mma";
    case IsaDialect::Sass: return "HMMA/HGMMA/IMMA";
    default: return "matrix";
  }
}

// SASS: a backward `BRA.U.ANY` over `R2UR` moves is the loop ptxas builds around an instruction
// whose uniform-register operands (addresses of bulk copies and TMA, wgmma descriptors) hold
// values that differ between the warp's threads: it issues the instruction once per distinct
// value, up to 32 times. Returns those instructions (the loop bodies' real work) and counts
// the loops. Session 15: a GEMM whose 32 lanes each bulk-copied their own output row spent 5M of
// its 21M instructions, and its most-stalled instruction, in such loops.
std::vector<const Instruction*> sass_uniform_waterfalls(const Kernel& k,
                                                         const std::map<std::uint64_t, std::size_t>& by_address,
                                                         int& loops) {
  std::vector<const Instruction*> serialized;
  loops = 0;
  for (const BranchTarget& b : k.branches) {
    const std::optional<std::size_t> target = branch_target(k, b, by_address);
    if (!target || *target >= b.from || k.instructions[b.from].mnemonic != "BRA.U.ANY") continue;
    bool moves_to_uniform = false;
    std::vector<const Instruction*> work;
    for (std::size_t i = *target; i < b.from; ++i) {
      const std::string& m = k.instructions[i].mnemonic;
      if (starts_with(m, "R2UR")) {
        moves_to_uniform = true;
      } else if (!starts_with(m, "PLOP3") && !starts_with(m, "BRA") && !starts_with(m, "UMOV")) {
        work.push_back(&k.instructions[i]);
      }
    }
    if (!moves_to_uniform) continue;
    ++loops;
    serialized.insert(serialized.end(), work.begin(), work.end());
  }
  return serialized;
}

// A kernel's instructions sorted into what the checks count (classify_amd / _ptx / _sass), and
// the matrix instructions' mnemonics and shapes into its summary.
Collected collect(IsaDialect dialect, const Kernel& k, IsaKernelSummary& summary) {
  const std::set<std::string> scratch_resources =
      dialect == IsaDialect::Amdgpu ? amd_scratch_resources(k) : std::set<std::string>{};
  Collected c;
  for (const Instruction& ins : k.instructions) {
    const Class cls = dialect == IsaDialect::Amdgpu ? classify_amd(ins, scratch_resources)
                      : dialect == IsaDialect::Ptx  ? classify_ptx(ins)
                                                    : classify_sass(ins);
    if (ins.in_loop) ++c.instructions_in_loop;
    if (cls.global_load) {
      const bool wide = cls.bits >= 128;
      if (ins.in_loop) {
        ++c.loads_in_loop;
        (wide ? c.global_wide_loop : c.global_narrow_loop).push_back(&ins);
        if (!wide) ++c.narrow_bits[cls.bits];
      } else {
        (wide ? c.global_wide_outside : c.global_narrow_outside).push_back(&ins);
      }
    }
    if (cls.shared_access) {
      const bool wide = cls.bits >= 128;
      if (ins.in_loop) {
        (wide ? c.shared_wide_loop : c.shared_narrow_loop).push_back(&ins);
        if (!wide) ++c.shared_narrow_bits[cls.bits];
      } else if (!wide) {
        c.shared_narrow_outside.push_back(&ins);
      }
    }
    if (cls.scratch) {
      c.scratch.push_back(&ins);
      if (ins.in_loop) {
        ++c.scratch_in_loop;
        if (starts_with(ins.mnemonic, "scratch_load") || starts_with(ins.mnemonic, "buffer_load")) ++c.loads_in_loop;
      }
    }
    if (cls.full_wait_vm) {
      ++c.waits_vm;
      if (ins.in_loop) c.waits_vm_loop.push_back(&ins);
    }
    if (cls.full_wait_lgkm) {
      ++c.waits_lgkm;
      if (ins.in_loop) c.waits_lgkm_loop.push_back(&ins);
    }
    if (cls.matrix) {
      c.matrix.emplace_back(&ins, cls.shape);
      ++summary.matrix_instructions[ins.mnemonic];
      if (!cls.shape.empty() &&
          std::find(summary.matrix_shapes.begin(), summary.matrix_shapes.end(), cls.shape) == summary.matrix_shapes.end()) {
        summary.matrix_shapes.push_back(cls.shape);
      }
    }
  }
  return c;
}

void count_into(const Collected& c, IsaKernelSummary& summary) {
  auto set = [&](const char* key, std::size_t value) {
    if (value > 0) summary.counts[key] = static_cast<int>(value);
  };
  set("global_load_128_in_loop", c.global_wide_loop.size());
  set("global_load_narrow_in_loop", c.global_narrow_loop.size());
  set("global_load_128", c.global_wide_loop.size() + c.global_wide_outside.size());
  set("global_load_narrow", c.global_narrow_loop.size() + c.global_narrow_outside.size());
  set("shared_128_in_loop", c.shared_wide_loop.size());
  set("shared_narrow_in_loop", c.shared_narrow_loop.size());
  set("shared_narrow", c.shared_narrow_loop.size() + c.shared_narrow_outside.size());
  set("scratch", c.scratch.size());
  set("scratch_in_loop", static_cast<std::size_t>(c.scratch_in_loop));
  set("full_wait_vm", static_cast<std::size_t>(c.waits_vm));
  set("full_wait_lgkm", static_cast<std::size_t>(c.waits_lgkm));
  set("full_wait_vm_in_loop", c.waits_vm_loop.size());
  set("full_wait_lgkm_in_loop", c.waits_lgkm_loop.size());
  set("matrix", c.matrix.size());
  set("instructions_in_loop", static_cast<std::size_t>(c.instructions_in_loop));
}

// The findings of one kernel, each with the lines it names.
struct Findings {
  const Kernel& k;
  const IsaLintOptions& options;
  IsaLintReport& report;

  void add(const char* check, IsaSeverity severity, std::string message, const std::vector<const Instruction*>& list) {
    IsaFinding f;
    f.check = check;
    f.severity = severity;
    f.kernel = k.name;
    f.message = std::move(message);
    f.lines = lines_of(list, options.max_lines);
    f.count = static_cast<int>(list.size());
    report.findings.push_back(std::move(f));
  }
};

void check_global_loads(IsaDialect dialect, const Collected& c, const IsaKernelSummary& summary, Findings& out) {
  // Global loads.
  const char* wide_example = dialect == IsaDialect::Amdgpu ? "global_load_dwordx4"
                             : dialect == IsaDialect::Ptx  ? "ld.global.v4.f32 / ld.global.v2.f64"
                                                           : "LDG.E.128";
  if (!c.global_narrow_loop.empty()) {
    out.add(kCheckGlobalLoadWidth, IsaSeverity::Warning,
        std::to_string(c.global_narrow_loop.size()) + " global loads narrower than 128 bits inside loops (" +
            widths_text(c.narrow_bits) + "), " + std::to_string(c.global_wide_loop.size()) +
            " are 128-bit; vectorised loads (" + wide_example + ") move 4x the bytes of a 32-bit load per instruction",
        c.global_narrow_loop);
  } else if (!c.global_wide_loop.empty()) {
    out.add(kCheckGlobalLoadWidth, IsaSeverity::Info,
        "all " + std::to_string(c.global_wide_loop.size()) + " global loads inside loops are 128-bit or wider",
        c.global_wide_loop);
  } else if (!c.global_narrow_outside.empty() && summary.loops == 0) {
    out.add(kCheckGlobalLoadWidth, IsaSeverity::Info,
        "no loops; " + std::to_string(c.global_narrow_outside.size()) + " global loads narrower than 128 bits",
        c.global_narrow_outside);
  }
}

void check_shared_accesses(IsaDialect dialect, const Collected& c, Findings& out) {
  // Shared memory / LDS.
  const char* shared_name = dialect == IsaDialect::Amdgpu ? "LDS" : "shared-memory";
  const char* shared_wide = dialect == IsaDialect::Amdgpu ? "ds_read_b128/ds_write_b128"
                            : dialect == IsaDialect::Ptx  ? "ld.shared.v4 / ldmatrix"
                                                          : "LDS.128 / LDSM";
  if (!c.shared_narrow_loop.empty()) {
    out.add(kCheckSharedWidth, IsaSeverity::Warning,
        std::to_string(c.shared_narrow_loop.size()) + " " + shared_name + " accesses narrower than 128 bits inside loops (" +
            widths_text(c.shared_narrow_bits) + "), " + std::to_string(c.shared_wide_loop.size()) + " are 128-bit (" +
            shared_wide + ")",
        c.shared_narrow_loop);
  } else if (!c.shared_wide_loop.empty()) {
    out.add(kCheckSharedWidth, IsaSeverity::Info,
        "all " + std::to_string(c.shared_wide_loop.size()) + " " + shared_name + " accesses inside loops are 128-bit",
        c.shared_wide_loop);
  }
}

void check_waits(IsaDialect dialect, const Collected& c, const IsaKernelSummary& summary, Findings& out) {
  // AMD: full drains of the vector-memory counter inside loops serialise loads.
  if (dialect == IsaDialect::Amdgpu && (c.waits_vm > 0 || c.waits_lgkm > 0)) {
    const double per_100 = summary.instructions > 0 ? 100.0 * (c.waits_vm + c.waits_lgkm) / summary.instructions : 0;
    char density[32];
    std::snprintf(density, sizeof density, "%.1f", per_100);
    std::string message = std::to_string(c.waits_vm) + " s_waitcnt vmcnt(0) and " + std::to_string(c.waits_lgkm) +
                          " lgkmcnt(0) in " + std::to_string(summary.instructions) + " instructions (" + density +
                          " per 100)";
    const std::size_t loop_waits = c.waits_vm_loop.size();
    if (loop_waits > 0 && c.loads_in_loop > 0 && loop_waits * 2 >= static_cast<std::size_t>(c.loads_in_loop)) {
      message += "; inside loops " + std::to_string(loop_waits) + " vmcnt(0) waits for " +
                 std::to_string(c.loads_in_loop) +
                 " loads: each iteration waits for its loads to arrive before the next are issued (no software "
                 "pipelining / prefetch)";
      out.add(kCheckWaitcnt, IsaSeverity::Warning, message, c.waits_vm_loop);
    } else {
      std::vector<const Instruction*> loop_waits_all = c.waits_vm_loop;
      loop_waits_all.insert(loop_waits_all.end(), c.waits_lgkm_loop.begin(), c.waits_lgkm_loop.end());
      std::sort(loop_waits_all.begin(), loop_waits_all.end(),
                [](const Instruction* a, const Instruction* b) { return a->line < b->line; });
      loop_waits_all.erase(std::unique(loop_waits_all.begin(), loop_waits_all.end()), loop_waits_all.end());
      out.add(kCheckWaitcnt, IsaSeverity::Info, message, loop_waits_all);
    }
  }
}

void check_uniform_waterfalls(IsaDialect dialect, const Kernel& k, const std::map<std::uint64_t, std::size_t>& by_address,
                              IsaKernelSummary& summary, Findings& out) {
  // SASS: instructions serialised over the warp's distinct operand values.
  if (dialect == IsaDialect::Sass) {
    int loops = 0;
    const std::vector<const Instruction*> serialized = sass_uniform_waterfalls(k, by_address, loops);
    if (loops > 0) {
      summary.counts["uniform_waterfall_loops"] = loops;
      std::string mnemonics;
      for (const Instruction* ins : serialized)
        if (mnemonics.find(ins->mnemonic) == std::string::npos) mnemonics += (mnemonics.empty() ? "" : ", ") + ins->mnemonic;
      out.add(kCheckUniformWaterfall, IsaSeverity::Warning,
          std::to_string(loops) + " loop(s) of BRA.U.ANY over R2UR around " + (mnemonics.empty() ? "?" : mnemonics) +
              ": its uniform-register operands hold per-thread values, so each warp issues it once per distinct "
              "value (up to 32 times); compute them from warp-uniform values, or issue from one lane",
          serialized);
    }
  }
}

void check_scratch(IsaDialect dialect, const Collected& c, Findings& out) {
  // Scratch / local memory.
  if (!c.scratch.empty()) {
    const std::string what = dialect == IsaDialect::Amdgpu ? "scratch (private segment)" : "local-memory";
    out.add(kCheckScratch, IsaSeverity::Warning,
        std::to_string(c.scratch.size()) + " " + what + " accesses (" + std::to_string(c.scratch_in_loop) +
            " inside loops): register spills or private arrays indexed at run time; this memory is off-chip",
        c.scratch);
  }
}

void check_matrix(IsaDialect dialect, const Collected& c, const IsaKernelSummary& summary, Findings& out) {
  // Matrix instructions.
  if (!c.matrix.empty()) {
    std::string message = std::to_string(c.matrix.size()) + " " + matrix_family(dialect) + " instructions:";
    bool first = true;
    for (const auto& [mnemonic, count] : summary.matrix_instructions) {
      message += std::string(first ? " " : ", ") + std::to_string(count) + " x " + mnemonic;
      first = false;
    }
    if (!summary.matrix_shapes.empty()) {
      message += " (shapes";
      for (const auto& s : summary.matrix_shapes) message += " " + s;
      message += ")";
    }
    std::vector<const Instruction*> list;
    for (const auto& entry : c.matrix) list.push_back(entry.first);
    out.add(kCheckMatrix, IsaSeverity::Info, message, list);
  } else if (out.options.expect_matrix_instructions) {
    out.add(kCheckMatrix, IsaSeverity::Warning,
        std::string("no ") + matrix_family(dialect) +
            " instructions: the matrix products run on the vector ALUs, not the matrix cores",
        {});
  }
}

void lint_kernel(IsaDialect dialect, Kernel& k, const IsaLintOptions& options, IsaLintReport& report) {
  IsaKernelSummary summary;
  summary.name = k.name;
  summary.first_line = k.first_line;
  summary.last_line = std::max(k.last_line, k.first_line);
  summary.instructions = static_cast<int>(k.instructions.size());
  std::map<std::uint64_t, std::size_t> by_address;
  for (std::size_t i = 0; i < k.instructions.size(); ++i) {
    if (k.instructions[i].address) by_address.emplace(*k.instructions[i].address, i);
  }
  summary.loops = mark_loops(k, by_address);
  const Collected c = collect(dialect, k, summary);
  count_into(c, summary);
  Findings out{k, options, report};
  check_global_loads(dialect, c, summary, out);
  check_shared_accesses(dialect, c, out);
  check_waits(dialect, c, summary, out);
  check_uniform_waterfalls(dialect, k, by_address, summary, out);
  check_scratch(dialect, c, out);
  check_matrix(dialect, c, summary, out);
  report.kernels.push_back(std::move(summary));
}

}  // namespace

const char* to_string(IsaDialect dialect) {
  switch (dialect) {
    case IsaDialect::Auto: return "auto";
    case IsaDialect::Amdgpu: return "amdgpu";
    case IsaDialect::Ptx: return "ptx";
    case IsaDialect::Sass: return "sass";
  }
  return "?";
}

const char* to_string(IsaSeverity severity) { return severity == IsaSeverity::Warning ? "warning" : "info"; }

IsaDialect detect_isa_dialect(std::string_view text) {
  if (contains(text, ".amdgcn_target") || contains(text, "file format elf64-amdgpu") || contains(text, "s_endpgm")) {
    return IsaDialect::Amdgpu;
  }
  if (contains(text, "Function :") && contains(text, "/*0000*/")) return IsaDialect::Sass;
  if ((contains(text, ".entry") || contains(text, ".func")) && contains(text, ".target")) return IsaDialect::Ptx;
  return IsaDialect::Auto;
}

int IsaKernelSummary::count(const std::string& key) const {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

const IsaKernelSummary* IsaLintReport::kernel(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::vector<const IsaFinding*> IsaLintReport::find(std::string_view check, std::string_view kernel_name) const {
  std::vector<const IsaFinding*> out;
  for (const auto& f : findings) {
    if (f.check == check && (kernel_name.empty() || f.kernel == kernel_name)) out.push_back(&f);
  }
  return out;
}

IsaLintReport lint_isa(std::string_view text, IsaDialect dialect, const IsaLintOptions& options) {
  if (dialect == IsaDialect::Auto) dialect = detect_isa_dialect(text);
  if (dialect == IsaDialect::Auto) {
    throw std::invalid_argument(
        "ISA lint: cannot tell whether the text is AMDGPU assembly, PTX or SASS; name the dialect");
  }
  const std::vector<std::string_view> lines = split_lines(text);
  std::vector<Kernel> kernels = dialect == IsaDialect::Amdgpu ? parse_amdgpu(lines)
                                : dialect == IsaDialect::Ptx  ? parse_ptx(lines)
                                                              : parse_sass(lines);
  if (kernels.empty()) {
    throw std::invalid_argument(std::string("ISA lint: no kernels or functions found in the ") + to_string(dialect) +
                                " text");
  }
  IsaLintReport report;
  report.dialect = dialect;
  for (Kernel& k : kernels) lint_kernel(dialect, k, options, report);
  return report;
}

nlohmann::json to_json(const IsaLintReport& report) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : report.kernels) {
    nlohmann::json matrix = nlohmann::json::object();
    for (const auto& [mnemonic, count] : k.matrix_instructions) matrix[to_valid_utf8(mnemonic)] = count;
    kernels.push_back({{"name", to_valid_utf8(k.name)},
                       {"first_line", k.first_line},
                       {"last_line", k.last_line},
                       {"instructions", k.instructions},
                       {"loops", k.loops},
                       {"counts", k.counts},
                       {"matrix_instructions", matrix},
                       {"matrix_shapes", k.matrix_shapes}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : report.findings) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& l : f.lines) lines.push_back({{"line", l.number}, {"text", to_valid_utf8(l.text)}});
    findings.push_back({{"check", f.check},
                        {"severity", to_string(f.severity)},
                        {"kernel", to_valid_utf8(f.kernel)},
                        {"message", to_valid_utf8(f.message)},
                        {"count", f.count},
                        {"lines", lines}});
  }
  return {{"dialect", to_string(report.dialect)}, {"kernels", kernels}, {"findings", findings}};
}

}  // namespace ktune::analysis
