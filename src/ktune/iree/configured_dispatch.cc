#include "ktune/iree/configured_dispatch.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace ktune::iree {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Whether text[i] opens or closes a bracket. The '>' of an affine map's "->" closes nothing.
int bracket_step(const std::string& text, std::size_t i) {
  const char c = text[i];
  if (c == '<' || c == '[' || c == '{' || c == '(') return 1;
  if (c == '>' && i > 0 && text[i - 1] == '-') return 0;
  if (c == '>' || c == ']' || c == '}' || c == ')') return -1;
  return 0;
}

// From `start` (at '#'), the attribute up to the '>' that closes its first '<'; "" when unbalanced.
std::string balanced_attribute(const std::string& text, std::size_t start) {
  const std::size_t open = text.find('<', start);
  if (open == std::string::npos) return "";
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '"' && text[i - 1] != '\\') quoted = !quoted;
    if (quoted) continue;
    depth += bracket_step(text, i);
    if (depth == 0) return text.substr(start, i + 1 - start);
  }
  return "";
}

// The part between the first '<' and the last '>' of an attribute.
std::string attribute_body(const std::string& attribute) {
  const auto open = attribute.find('<');
  if (open == std::string::npos || attribute.size() < open + 2) return "";
  return attribute.substr(open + 1, attribute.size() - open - 2);
}

int line_of(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string line_at(const std::string& text, std::size_t offset) {
  const std::size_t begin = text.rfind('\n', offset);
  const std::size_t end = text.find('\n', offset);
  const std::size_t b = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(b, (end == std::string::npos ? text.size() : end) - b);
}

std::optional<std::string> search(const std::string& text, const std::regex& re, int group = 1) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return std::nullopt;
  return m[group].str();
}

TranslationInfo parse_translation(const std::string& attribute) {
  TranslationInfo t;
  t.text = attribute;
  const std::string body = attribute_body(attribute);
  static const std::regex pipeline(R"(pipeline\s*=\s*(?:#[\w.]+<(\w+)>|(\w+)))");
  std::smatch m;
  if (std::regex_search(body, m, pipeline)) t.pipeline = m[1].matched ? m[1].str() : m[2].str();
  if (auto sizes = search(body, std::regex(R"(workgroup_size\s*=\s*(\[[^\]]*\]))")))
    t.workgroup_size = parse_int_list(*sizes).value_or(std::vector<std::int64_t>{});
  if (auto subgroup = search(body, std::regex(R"(subgroup_size\s*=\s*(\d+))"))) t.subgroup_size = std::stoll(*subgroup);
  if (const auto at = body.find("pipeline_options<"); at != std::string::npos) {
    const std::size_t hash = body.rfind('#', at);
    const std::string options = balanced_attribute(body, hash == std::string::npos ? at : hash);
    t.pipeline_options = parse_attribute_dict(attribute_body(options));
  }
  return t;
}

// "(d0, d1, d2) -> (d0, d2)" maps as loop indices; empty when any result is not a plain loop.
std::vector<std::vector<int>> parse_loop_maps(const std::string& text) {
  static const std::regex map_re(R"(affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>)");
  static const std::regex dim_re(R"(^\s*d(\d+)\s*$)");
  std::vector<std::vector<int>> maps;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), map_re); it != std::sregex_iterator(); ++it) {
    std::vector<int> results;
    for (const std::string& item : split_top_level((*it)[2].str())) {
      std::smatch d;
      if (!std::regex_match(item, d, dim_re)) return {};
      results.push_back(std::stoi(d[1].str()));
    }
    maps.push_back(results);
  }
  return maps;
}

// The shapes of the types after the top-level " : " of "ins(%a, %b : tensor<4x8xf16>, ...)".
std::optional<std::vector<std::vector<std::int64_t>>> operand_shapes(const std::string& line, const std::string& keyword) {
  const auto open = line.find(" " + keyword + "(");
  if (open == std::string::npos) return std::nullopt;
  const std::size_t start = open + keyword.size() + 2;
  int depth = 1;
  std::size_t end = start;
  for (; end < line.size() && depth > 0; ++end) depth += bracket_step(line, end);
  if (depth != 0) return std::nullopt;
  const std::string inside = line.substr(start, end - 1 - start);
  const auto colon = inside.find(" : ");
  if (colon == std::string::npos) return std::nullopt;
  static const std::regex shaped(R"(^\s*(?:tensor|memref)<((?:[0-9?]+x)*)[a-z][a-z0-9]*)");
  std::vector<std::vector<std::int64_t>> shapes;
  for (const std::string& type : split_top_level(inside.substr(colon + 3))) {
    std::smatch m;
    if (!std::regex_search(type, m, shaped)) return std::nullopt;  // a scalar operand: not a contraction's
    std::vector<std::int64_t> dims;
    for (const std::string& d : split_top_level(m[1].str(), 'x'))
      if (!d.empty()) dims.push_back(d == "?" ? -1 : std::stoll(d));
    shapes.push_back(dims);
  }
  return shapes;
}

// Named contractions print no indexing maps unless they differ from the op's own.
std::vector<std::vector<int>> default_maps(const std::string& op) {
  if (op == "linalg.matmul") return {{0, 2}, {2, 1}, {0, 1}};
  if (op == "linalg.matmul_transpose_b") return {{0, 2}, {1, 2}, {0, 1}};
  if (op == "linalg.batch_matmul") return {{0, 1, 3}, {0, 3, 2}, {0, 1, 2}};
  if (op == "linalg.batch_matmul_transpose_b") return {{0, 1, 3}, {0, 2, 3}, {0, 1, 2}};
  return {};
}

// The root op's maps and operand shapes, from its line.
void parse_operands(const std::string& line, LoweringConfig& c) {
  const auto ins_at = line.find(" ins(");
  c.indexing_maps = parse_loop_maps(line.substr(0, ins_at));
  if (c.indexing_maps.empty() && line.find("affine_map<") == std::string::npos) c.indexing_maps = default_maps(c.op);
  const auto ins = operand_shapes(line, "ins"), outs = operand_shapes(line, "outs");
  if (!ins || !outs) return;
  c.operand_shapes = *ins;
  c.input_count = ins->size();
  c.operand_shapes.insert(c.operand_shapes.end(), outs->begin(), outs->end());
}

LoweringConfig parse_lowering(const std::string& text, std::size_t at, const std::string& attribute) {
  LoweringConfig c;
  c.text = attribute;
  c.line = line_of(text, at);
  c.kind = attribute.substr(1, attribute.find('<') - 1);
  std::string body = trim(attribute_body(attribute));
  if (body.size() >= 2 && body.front() == '{' && body.back() == '}') body = body.substr(1, body.size() - 2);
  c.entries = parse_attribute_dict(body);
  const std::string line = line_at(text, at);
  static const std::regex op(R"re(=\s*"?([a-z_][\w]*\.[\w.]+)"?)re");
  if (auto name = search(line, op)) c.op = *name;
  if (auto iterators = search(line, std::regex(R"(iterator_types\s*=\s*\[([^\]]*)\])"))) {
    for (std::string item : split_top_level(*iterators)) {
      item = trim(item);
      item.erase(std::remove(item.begin(), item.end(), '"'), item.end());
      if (const auto hash = item.find("iterator_type<"); hash != std::string::npos)
        item = item.substr(hash + 14, item.find('>', hash) - hash - 14);
      c.iterator_types.push_back(item);
    }
  }
  parse_operands(line, c);
  return c;
}

void parse_target(const std::string& text, ConfiguredDispatch& d) {
  if (auto backend = search(text, std::regex(R"re(target\(<"([^"]+)")re"))) d.backend = *backend;
  if (auto arch = search(text, std::regex(R"re(arch\s*=\s*"([^"]+)")re"))) d.arch = *arch;
  if (auto mma = search(text, std::regex(R"(\bmma\s*=\s*\[([^\]]*)\])"))) {
    static const std::regex name(R"(<(\w+)>)");
    for (std::sregex_iterator it(mma->begin(), mma->end(), name), end; it != end; ++it) d.mma_intrinsics.push_back((*it)[1].str());
  }
  if (auto choices = search(text, std::regex(R"(subgroup_size_choices\s*=\s*(\[[^\]]*\]))")))
    d.subgroup_size_choices = parse_int_list(*choices).value_or(std::vector<std::int64_t>{});
  if (auto bytes = search(text, std::regex(R"(max_workgroup_memory_bytes\s*=\s*(\d+))")))
    d.max_workgroup_memory_bytes = std::stoll(*bytes);
}

void parse_bindings(const std::string& text, ConfiguredDispatch& d) {
  static const std::regex index(R"(binding\((\d+)\))");
  static const std::regex type(R"(\b(?:memref|tensor)<((?:[0-9?]+x)*)([a-z][a-z0-9]*))");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("hal.interface.binding.subspan") == std::string::npos) continue;
    Binding b;
    std::smatch m;
    if (!std::regex_search(line, m, index)) continue;
    b.index = std::stoi(m[1].str());
    // The result type follows the last " : ".
    const auto colon = line.rfind(" : ");
    const std::string result = colon == std::string::npos ? line : line.substr(colon);
    if (std::regex_search(result, m, type)) {
      std::string dims = m[1].str();
      for (const std::string& dim : split_top_level(dims, 'x'))
        if (!dim.empty()) b.shape.push_back(dim == "?" ? -1 : std::stoll(dim));
      b.element_type = m[2].str();
    }
    // The binding's own flags(...) (the pipeline layout on the same line lists every binding's).
    static const std::regex flags(R"re(\bflags\("?([^")]*)"?\))re");
    const bool read_only_flag = std::regex_search(line, m, flags) && m[1].str().find("ReadOnly") != std::string::npos;
    b.read_only = read_only_flag || result.find("readonly") != std::string::npos;
    if (std::none_of(d.bindings.begin(), d.bindings.end(), [&](const Binding& x) { return x.index == b.index; }))
      d.bindings.push_back(b);
  }
}

nlohmann::json entries_json(const std::vector<AttributeEntry>& entries) {
  nlohmann::json j = nlohmann::json::object();
  for (const AttributeEntry& e : entries) {
    if (e.value.empty()) j[e.key] = true;
    else if (auto ints = parse_int_list(e.value)) j[e.key] = *ints;
    else if (const auto n = e.value.find_first_not_of("-0123456789"); n == std::string::npos && !e.value.empty())
      j[e.key] = std::stoll(e.value);
    else j[e.key] = e.value;
  }
  return j;
}

}  // namespace

std::vector<std::string> split_top_level(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' && (i == 0 || text[i - 1] != '\\')) quoted = !quoted;
    if (!quoted) depth += bracket_step(text, i);
    if (c == separator && depth == 0 && !quoted) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty() || !parts.empty()) parts.push_back(current);
  return parts;
}

std::vector<AttributeEntry> parse_attribute_dict(const std::string& body) {
  std::vector<AttributeEntry> entries;
  for (const std::string& part : split_top_level(body)) {
    const std::string item = trim(part);
    if (item.empty()) continue;
    // The first top-level '=' separates key and value ("a = #x<b = 1>" keeps its inner '=').
    const std::vector<std::string> kv = split_top_level(item, '=');
    AttributeEntry e;
    e.key = trim(kv.front());
    if (kv.size() > 1) e.value = trim(item.substr(kv.front().size() + 1));
    entries.push_back(e);
  }
  return entries;
}

std::optional<std::vector<std::int64_t>> parse_int_list(const std::string& text) {
  const std::string t = trim(text);
  if (t.size() < 2 || t.front() != '[' || t.back() != ']') return std::nullopt;
  std::vector<std::int64_t> values;
  for (const std::string& part : split_top_level(t.substr(1, t.size() - 2))) {
    const std::string item = trim(part);
    if (item.empty()) continue;
    if (item.find_first_not_of("-0123456789") != std::string::npos) return std::nullopt;
    values.push_back(std::stoll(item));
  }
  return values;
}

const AttributeEntry* LoweringConfig::find(const std::string& key) const {
  for (const AttributeEntry& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

std::optional<std::vector<std::int64_t>> LoweringConfig::tiles(const std::string& key) const {
  const AttributeEntry* e = find(key);
  return e ? parse_int_list(e->value) : std::nullopt;
}

std::optional<std::string> LoweringConfig::mma_kind() const {
  const AttributeEntry* e = find("mma_kind");
  if (!e) return std::nullopt;
  static const std::regex name(R"(<(\w+)>)");
  return search(e->value, name).value_or(e->value);
}

std::int64_t ContractionLoops::batch_count() const {
  std::int64_t count = 1;
  for (int b : batch) count *= sizes[static_cast<std::size_t>(b)];
  return count;
}

bool ContractionLoops::is_static() const {
  return std::none_of(sizes.begin(), sizes.end(), [](std::int64_t s) { return s < 0; });
}

std::string extent_text(std::int64_t extent) { return extent < 0 ? "?" : std::to_string(extent); }

std::string extents_text(const std::vector<std::int64_t>& extents) {
  std::string s;
  for (std::int64_t e : extents) s += (s.empty() ? "" : "x") + extent_text(e);
  return s;
}

std::string ContractionLoops::label() const {
  const auto at = [&](int loop) { return sizes[static_cast<std::size_t>(loop)]; };
  const std::string mnk = extents_text({at(m), at(n), at(k)});
  if (batch.empty()) return mnk;
  // One dynamic batch extent makes the count unknown (batch_count() would multiply in a -1).
  const bool dynamic = std::any_of(batch.begin(), batch.end(), [&](int b) { return at(b) < 0; });
  return (dynamic ? std::string("?") : std::to_string(batch_count())) + " x " + mnk;
}

std::optional<ContractionLoops> ConfiguredDispatch::contraction() const {
  if (lowering_configs.empty()) return std::nullopt;
  const LoweringConfig& root = lowering_configs.front();
  const auto& maps = root.indexing_maps;
  if (maps.size() != 3 || root.input_count != 2 || root.operand_shapes.size() != 3) return std::nullopt;
  int loops = 0;
  for (const auto& map : maps)
    for (int d : map) loops = std::max(loops, d + 1);
  ContractionLoops c;
  c.sizes.assign(static_cast<std::size_t>(loops), 0);
  std::vector<int> in(static_cast<std::size_t>(loops), 0);  // bit 0: LHS, 1: RHS, 2: output
  for (std::size_t o = 0; o < 3; ++o) {
    if (maps[o].size() != root.operand_shapes[o].size()) return std::nullopt;
    for (std::size_t r = 0; r < maps[o].size(); ++r) {
      const auto d = static_cast<std::size_t>(maps[o][r]);
      if (in[d] & (1 << o)) return std::nullopt;  // a loop twice in one operand: a diagonal
      in[d] |= 1 << o;
      c.sizes[d] = root.operand_shapes[o][r];
    }
  }
  std::vector<int> m, n, k;
  for (int d = 0; d < loops; ++d) {
    switch (in[static_cast<std::size_t>(d)]) {
      case 0b111: c.batch.push_back(d); break;
      case 0b101: m.push_back(d); break;
      case 0b110: n.push_back(d); break;
      case 0b011: k.push_back(d); break;
      default: return std::nullopt;  // a loop of one operand only (a broadcast or a sum)
    }
  }
  if (m.size() != 1 || n.size() != 1 || k.size() != 1) return std::nullopt;
  if (!root.iterator_types.empty() && (root.iterator_types.size() != c.sizes.size() ||
                                       root.iterator_types[static_cast<std::size_t>(k[0])] != "reduction"))
    return std::nullopt;
  c.m = m[0], c.n = n[0], c.k = k[0];
  return c;
}

std::optional<std::vector<std::int64_t>> ConfiguredDispatch::matmul_mnk() const {
  if (lowering_configs.empty()) return std::nullopt;
  if (const auto c = contraction()) {
    if (!c->batch.empty()) return std::nullopt;
    const auto at = [&](int loop) { return c->sizes[static_cast<std::size_t>(loop)]; };
    return std::vector<std::int64_t>{at(c->m), at(c->n), at(c->k)};
  }
  // The op's line gave no operand types to read: M, N, K guessed from the bindings.
  if (!lowering_configs.front().operand_shapes.empty()) return std::nullopt;
  const LoweringConfig& root = lowering_configs.front();
  const bool named = root.op == "linalg.matmul";
  const std::vector<std::string> mmk = {"parallel", "parallel", "reduction"};
  if (!named && root.iterator_types != mmk) return std::nullopt;
  const Binding *a = nullptr, *out = nullptr;
  for (const Binding& b : bindings) {
    if (b.shape.size() != 2) continue;
    if (b.read_only && !a) a = &b;
    if (!b.read_only) out = &b;
  }
  if (!a || !out) return std::nullopt;
  const std::int64_t m = out->shape[0], n = out->shape[1];
  const std::int64_t k = a->shape[0] == m ? a->shape[1] : a->shape[0];
  return std::vector<std::int64_t>{m, n, k};
}

std::string ConfiguredDispatch::shape_label() const {
  if (const auto c = contraction()) return c->label();
  if (const auto mnk = matmul_mnk()) return extents_text(*mnk);
  return bindings.empty() ? "-" : extents_text(bindings.back().shape);
}

nlohmann::json ConfiguredDispatch::to_json() const {
  nlohmann::json j = {{"file", file},        {"executable", executable}, {"export", export_name},
                      {"backend", backend},  {"arch", arch},             {"mma_intrinsics", mma_intrinsics},
                      {"subgroup_size_choices", subgroup_size_choices}};
  if (max_workgroup_memory_bytes) j["max_workgroup_memory_bytes"] = *max_workgroup_memory_bytes;
  if (translation) {
    j["translation_info"] = {{"pipeline", translation->pipeline},
                             {"workgroup_size", translation->workgroup_size},
                             {"pipeline_options", entries_json(translation->pipeline_options)}};
    if (translation->subgroup_size) j["translation_info"]["subgroup_size"] = *translation->subgroup_size;
  }
  j["lowering_configs"] = nlohmann::json::array();
  for (const LoweringConfig& c : lowering_configs)
    j["lowering_configs"].push_back({{"op", c.op}, {"line", c.line}, {"kind", c.kind},
                                     {"iterator_types", c.iterator_types}, {"config", entries_json(c.entries)}});
  j["bindings"] = nlohmann::json::array();
  for (const Binding& b : bindings)
    j["bindings"].push_back({{"binding", b.index}, {"shape", b.shape}, {"element_type", b.element_type}, {"read_only", b.read_only}});
  if (auto mnk = matmul_mnk()) j["matmul_mnk"] = *mnk;
  if (auto c = contraction())
    j["contraction"] = {{"loop_sizes", c->sizes}, {"batch", c->batch}, {"m", c->m}, {"n", c->n}, {"k", c->k}};
  j["shape"] = shape_label();
  return j;
}

ConfiguredDispatch parse_configured_dispatch(const std::string& text, const std::string& file) {
  ConfiguredDispatch d;
  d.file = file;
  std::smatch m;
  static const std::regex executable(R"(hal\.executable\s+(?:public\s+|private\s+)?@([\w$.\-]+))");
  static const std::regex exported(R"(hal\.executable\.export\s+(?:public\s+)?@([\w$.\-]+))");
  if (!std::regex_search(text, m, executable))
    throw DispatchParseError(file + ":1: no hal.executable: not a configured dispatch that iree-compile dumped");
  d.executable = m[1].str();
  const auto executable_at = static_cast<std::size_t>(m.position(0));
  if (!std::regex_search(text, m, exported))
    throw DispatchParseError(file + ":" + std::to_string(line_of(text, executable_at)) + ": hal.executable @" +
                             d.executable + " has no hal.executable.export");
  d.export_name = m[1].str();
  parse_target(text, d);
  parse_bindings(text, d);
  if (const auto at = text.find("translation_info = #"); at != std::string::npos) {
    const std::string attribute = balanced_attribute(text, at + 19);
    if (attribute.empty())
      throw DispatchParseError(file + ":" + std::to_string(line_of(text, at)) + ": unbalanced translation_info");
    d.translation = parse_translation(attribute);
  }
  for (std::size_t at = text.find("lowering_config = #"); at != std::string::npos;
       at = text.find("lowering_config = #", at + 1)) {
    const std::string attribute = balanced_attribute(text, at + 18);
    if (attribute.empty())
      throw DispatchParseError(file + ":" + std::to_string(line_of(text, at)) + ": unbalanced lowering_config");
    d.lowering_configs.push_back(parse_lowering(text, at, attribute));
  }
  std::stable_partition(d.lowering_configs.begin(), d.lowering_configs.end(),
                        [](const LoweringConfig& c) { return c.op != "linalg.fill"; });
  return d;
}

}  // namespace ktune::iree
