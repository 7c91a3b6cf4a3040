#include "ktune/amdgpu/asm_diff.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace ktune::amdgpu {
namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

// "0000000000002200 <matmul_tiled>:" -> {address, name}.
bool parse_symbol_header(std::string_view line, std::uint64_t& address, std::string& name) {
  const auto lt = line.find(" <");
  if (lt == std::string_view::npos || line.size() < 3 || line.substr(line.size() - 2) != ">:") return false;
  const std::string hex(line.substr(0, lt));
  if (hex.empty() || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
  address = std::strtoull(hex.c_str(), nullptr, 16);
  name = std::string(line.substr(lt + 2, line.size() - lt - 4));
  return true;
}

struct Instruction {
  std::string text;      // without the comment
  std::uint64_t address = 0;
  bool has_address = false;
  std::string target_symbol;  // "<matmul_tiled+0x1d0>" -> "matmul_tiled"
  std::uint64_t target_offset = 0;
  bool has_target = false;
  int source_line = 0;
};

void parse_comment(std::string_view comment, Instruction& ins) {
  // " 000000002234: BF850066 <matmul_tiled+0x1d0>"
  const std::string c = trim(comment);
  const auto colon = c.find(':');
  if (colon != std::string::npos && colon > 0 &&
      c.substr(0, colon).find_first_not_of("0123456789abcdefABCDEF") == std::string::npos) {
    ins.address = std::strtoull(c.substr(0, colon).c_str(), nullptr, 16);
    ins.has_address = true;
  }
  const auto lt = c.rfind('<');
  const auto gt = c.rfind('>');
  if (lt != std::string::npos && gt != std::string::npos && gt > lt) {
    const std::string target = c.substr(lt + 1, gt - lt - 1);
    const auto plus = target.rfind("+0x");
    ins.target_symbol = target.substr(0, plus);
    ins.target_offset = plus == std::string::npos ? 0 : std::strtoull(target.c_str() + plus + 3, nullptr, 16);
    ins.has_target = true;
  }
}

}  // namespace

std::vector<AsmLine> normalize_objdump(std::string_view text) {
  struct Symbol {
    std::string name;
    std::uint64_t address = 0;
    int source_line = 0;
    std::vector<Instruction> instructions;
  };
  std::vector<Symbol> symbols;
  std::map<std::string, std::uint64_t> symbol_address;
  int line_number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::uint64_t address = 0;
    std::string name;
    if (parse_symbol_header(line, address, name)) {
      symbols.push_back({name, address, line_number, {}});
      symbol_address[name] = address;
      continue;
    }
    if (symbols.empty() || line.empty() || (line[0] != '\t' && line[0] != ' ')) continue;
    Instruction ins;
    ins.source_line = line_number;
    const auto comment = line.find("//");
    ins.text = trim(line.substr(0, comment));
    if (ins.text.empty()) continue;
    if (comment != std::string_view::npos) parse_comment(line.substr(comment + 2), ins);
    symbols.back().instructions.push_back(std::move(ins));
    if (end == text.size()) break;
  }

  // Branch targets -> labels, numbered per symbol in address order.
  std::vector<AsmLine> out;
  for (const auto& sym : symbols) {
    std::set<std::uint64_t> targets;
    for (const auto& ins : sym.instructions) {
      if (!ins.has_target) continue;
      const auto it = symbol_address.find(ins.target_symbol);
      if (it != symbol_address.end()) targets.insert(it->second + ins.target_offset);
    }
    std::map<std::uint64_t, std::string> label;
    int n = 0;
    for (const auto t : targets) label[t] = "L" + std::to_string(n++);
    out.push_back({"<" + sym.name + ">:", sym.source_line});
    // What follows the last s_endpgm is alignment padding (s_nop, s_code_end): an inserted
    // instruction takes one of its slots, which is no change of the kernel's code.
    std::size_t end = sym.instructions.size();
    for (std::size_t i = sym.instructions.size(); i-- > 0;) {
      const std::string& t = sym.instructions[i].text;
      if (t == "s_endpgm") break;
      if (t.rfind("s_nop", 0) == 0 || t == "s_code_end") end = i;
      else break;
    }
    for (std::size_t index = 0; index < end; ++index) {
      const Instruction& ins = sym.instructions[index];
      if (ins.has_address) {
        if (const auto it = label.find(ins.address); it != label.end()) out.push_back({it->second + ":", 0});
      }
      std::string text_line = ins.text;
      if (ins.has_target) {
        const auto it = symbol_address.find(ins.target_symbol);
        const auto l = it == symbol_address.end() ? label.end() : label.find(it->second + ins.target_offset);
        if (l != label.end()) {
          // "s_cbranch_scc0 65451" -> "s_cbranch_scc0 L2": the offset changes with any edit in between.
          const auto space = text_line.rfind(' ');
          if (space != std::string::npos &&
              text_line.find_first_not_of("0123456789-", space + 1) == std::string::npos)
            text_line = text_line.substr(0, space + 1) + l->second;
        }
      }
      out.push_back({"  " + text_line, ins.source_line});
    }
  }
  return out;
}

const char* to_string(AsmChange::Kind kind) {
  switch (kind) {
    case AsmChange::Kind::Changed: return "changed";
    case AsmChange::Kind::Added: return "added";
    case AsmChange::Kind::Removed: return "removed";
  }
  return "?";
}

std::vector<AsmChange> diff_lines(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b, int max_edit_distance) {
  const int n_all = static_cast<int>(a.size());
  const int m_all = static_cast<int>(b.size());
  int prefix = 0;
  while (prefix < n_all && prefix < m_all && a[prefix].text == b[prefix].text) ++prefix;
  int suffix = 0;
  while (suffix < n_all - prefix && suffix < m_all - prefix &&
         a[n_all - 1 - suffix].text == b[m_all - 1 - suffix].text)
    ++suffix;
  const int n = n_all - prefix - suffix;
  const int m = m_all - prefix - suffix;
  auto A = [&](int i) -> const std::string& { return a[prefix + i].text; };
  auto B = [&](int j) -> const std::string& { return b[prefix + j].text; };

  // Edit script: 'd' (delete a[i]), 'i' (insert b[j]) in order, with indices.
  // Positions are relative to the trimmed ranges: the op applies at (x, y).
  struct Op {
    char kind;
    int x, y;
  };
  std::vector<Op> ops;
  const int max_d = std::min(n + m, max_edit_distance);
  bool found = n + m == 0;
  std::vector<std::vector<int>> trace;
  if (!found) {
    const int offset = max_d + 1;
    std::vector<int> v(2 * static_cast<std::size_t>(max_d) + 3, 0);
    for (int d = 0; d <= max_d && !found; ++d) {
      for (int k = -d; k <= d; k += 2) {
        int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
        int y = x - k;
        while (x < n && y < m && A(x) == B(y)) ++x, ++y;
        v[offset + k] = x;
        if (x >= n && y >= m) {
          found = true;
          break;
        }
      }
      trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    }
    if (found) {
      int x = n, y = m;
      for (int d = static_cast<int>(trace.size()) - 1; d > 0; --d) {
        const std::vector<int>& prev = trace[d - 1];  // covers k in [-(d-1), d-1]
        auto at = [&](int k) { return prev[k + d - 1]; };
        const int k = x - y;
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int prev_k = down ? k + 1 : k - 1;
        const int prev_x = at(prev_k);
        const int prev_y = prev_x - prev_k;
        while (x > prev_x && y > prev_y) --x, --y;
        ops.push_back({down ? 'i' : 'd', prev_x, prev_y});
        x = prev_x;
        y = prev_y;
      }
      std::reverse(ops.begin(), ops.end());
    }
  }
  if (!found) {
    ops.clear();
    for (int x = 0; x < n; ++x) ops.push_back({'d', x, 0});
    for (int y = 0; y < m; ++y) ops.push_back({'i', n, y});
  }

  // Group runs of deletions/insertions with no equal line between them; pair them up.
  std::vector<AsmChange> changes;
  std::size_t i = 0;
  while (i < ops.size()) {
    std::vector<int> dels, ins;
    int next_x = ops[i].x, next_y = ops[i].y;
    std::size_t j = i;
    while (j < ops.size() && ops[j].x == next_x && ops[j].y == next_y) {
      if (ops[j].kind == 'd') {
        dels.push_back(prefix + ops[j].x);
        ++next_x;
      } else {
        ins.push_back(prefix + ops[j].y);
        ++next_y;
      }
      ++j;
    }
    const std::size_t paired = std::min(dels.size(), ins.size());
    for (std::size_t p = 0; p < paired; ++p) changes.push_back({AsmChange::Kind::Changed, dels[p], ins[p]});
    for (std::size_t p = paired; p < dels.size(); ++p) changes.push_back({AsmChange::Kind::Removed, dels[p], -1});
    for (std::size_t p = paired; p < ins.size(); ++p) changes.push_back({AsmChange::Kind::Added, -1, ins[p]});
    i = j;
  }
  return changes;
}

namespace {

// The two files aligned: each row is {a index or -1, b index or -1, changed?}.
struct Row {
  int a = -1, b = -1;
  bool changed = false;
};

std::vector<Row> align(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b, const std::vector<AsmChange>& changes) {
  std::vector<Row> rows;
  int i = 0, j = 0;
  auto equal_until = [&](int ai, int bj) {
    while ((ai < 0 || i < ai) && (bj < 0 || j < bj) && i < static_cast<int>(a.size()) && j < static_cast<int>(b.size()))
      rows.push_back({i++, j++, false});
  };
  for (const auto& c : changes) {
    if (c.kind == AsmChange::Kind::Added) {
      equal_until(-1, c.b_index);
      rows.push_back({-1, j++, true});
    } else if (c.kind == AsmChange::Kind::Removed) {
      equal_until(c.a_index, -1);
      rows.push_back({i++, -1, true});
    } else {
      equal_until(c.a_index, c.b_index);
      rows.push_back({i++, j++, true});
    }
  }
  equal_until(-1, -1);
  return rows;
}

// Row ranges to print: each change with `context` rows around it, overlapping ranges merged.
std::vector<std::pair<int, int>> hunks(const std::vector<Row>& rows, int context) {
  std::vector<std::pair<int, int>> out;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    if (!rows[r].changed) continue;
    const int lo = std::max(0, r - context);
    const int hi = std::min(static_cast<int>(rows.size()), r + context + 1);
    if (!out.empty() && lo <= out.back().second) out.back().second = std::max(out.back().second, hi);
    else out.emplace_back(lo, hi);
  }
  return out;
}

std::string fit(const std::string& s, int width) {
  if (static_cast<int>(s.size()) <= width) return s + std::string(width - s.size(), ' ');
  return s.substr(0, width - 1) + "~";
}

}  // namespace

std::string format_unified(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                           const std::vector<AsmChange>& changes, const std::string& a_name, const std::string& b_name,
                           int context) {
  std::ostringstream out;
  out << "--- " << a_name << "\n+++ " << b_name << "\n";
  const std::vector<Row> rows = align(a, b, changes);
  for (const auto& [lo, hi] : hunks(rows, context)) {
    int a_first = -1, b_first = -1, a_count = 0, b_count = 0;
    for (int r = lo; r < hi; ++r) {
      if (rows[r].a >= 0) {
        if (a_first < 0) a_first = rows[r].a;
        ++a_count;
      }
      if (rows[r].b >= 0) {
        if (b_first < 0) b_first = rows[r].b;
        ++b_count;
      }
    }
    out << "@@ -" << a_first + 1 << "," << a_count << " +" << b_first + 1 << "," << b_count << " @@\n";
    for (int r = lo; r < hi; ++r) {
      const Row& row = rows[r];
      if (!row.changed) {
        out << " " << a[row.a].text << "\n";
        continue;
      }
      if (row.a >= 0) out << "-" << a[row.a].text << "\n";
      if (row.b >= 0) out << "+" << b[row.b].text << "\n";
    }
  }
  return out.str();
}

std::string format_side_by_side(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                                const std::vector<AsmChange>& changes, int width, int context) {
  std::ostringstream out;
  const std::vector<Row> rows = align(a, b, changes);
  bool first = true;
  for (const auto& [lo, hi] : hunks(rows, context)) {
    if (!first) out << std::string(2 * static_cast<std::size_t>(width) + 3, '-') << "\n";
    first = false;
    for (int r = lo; r < hi; ++r) {
      const Row& row = rows[r];
      const char mark = !row.changed ? ' ' : row.a < 0 ? '>' : row.b < 0 ? '<' : '|';
      out << fit(row.a >= 0 ? a[row.a].text : "", width) << " " << mark << " " << (row.b >= 0 ? b[row.b].text : "")
          << "\n";
    }
  }
  return out.str();
}

nlohmann::json changes_to_json(const std::vector<AsmLine>& a, const std::vector<AsmLine>& b,
                               const std::vector<AsmChange>& changes) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : changes) {
    nlohmann::json j = {{"kind", to_string(c.kind)}};
    if (c.a_index >= 0) {
      j["a_text"] = a[c.a_index].text;
      j["a_line"] = a[c.a_index].source_line;
    }
    if (c.b_index >= 0) {
      j["b_text"] = b[c.b_index].text;
      j["b_line"] = b[c.b_index].source_line;
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace ktune::amdgpu
