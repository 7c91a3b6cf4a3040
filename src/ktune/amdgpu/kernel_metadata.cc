#include "ktune/amdgpu/kernel_metadata.h"

#include <charconv>
#include <climits>
#include <functional>

#include <yaml-cpp/yaml.h>

#include "ktune/analysis/valid_utf8.h"

namespace ktune::amdgpu {
namespace {

using analysis::to_valid_utf8;

// yaml-cpp recurses per nesting level and shares aliased nodes; both are bounded before
// converting so hostile text cannot exhaust the stack or expand exponentially.
constexpr int kMaxYamlFlowDepth = 64;
constexpr int kMaxYamlDepth = 64;
constexpr std::size_t kMaxYamlNodes = 1 << 22;
constexpr std::size_t kMaxYamlBytes = std::size_t{64} << 20;

// Deepest nesting of flow collections ([ and {) outside quoted scalars and comments.
int flow_depth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  char quote = 0;
  bool comment = false;
  for (char c : text) {
    if (comment) {
      if (c == '\n') comment = false;
      continue;
    }
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      comment = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

MsgpackValue yaml_scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  // Quoted scalars ("!" tag) stay strings; plain ones are typed as YAML 1.2's core schema does.
  if (node.Tag() != "!") {
    if (text == "true" || text == "True" || text == "TRUE") return MsgpackValue{true};
    if (text == "false" || text == "False" || text == "FALSE") return MsgpackValue{false};
    if (text == "~" || text == "null" || text == "Null" || text == "NULL") return MsgpackValue{nullptr};
    if (!text.empty()) {
      const char* begin = text.data();
      const char* end = text.data() + text.size();
      if (*begin == '+') ++begin;
      if (begin != end && *begin == '-') {
        std::int64_t v = 0;
        auto [p, ec] = std::from_chars(begin, end, v);
        if (ec == std::errc() && p == end) return MsgpackValue{v};
      } else {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(begin, end, v);
        if (ec == std::errc() && p == end) return MsgpackValue{v};
      }
    }
  }
  return MsgpackValue{text};
}

MsgpackValue yaml_to_value(const YAML::Node& node, int depth, std::size_t& nodes) {
  if (++nodes > kMaxYamlNodes) throw MetadataError("metadata YAML has more than 4194304 nodes (aliases included)");
  if (depth > kMaxYamlDepth) throw MetadataError("metadata YAML nests deeper than 64 levels");
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return MsgpackValue{nullptr};
    case YAML::NodeType::Scalar: return yaml_scalar(node);
    case YAML::NodeType::Sequence: {
      MsgpackArray items;
      for (const auto& item : node) items.push_back(yaml_to_value(item, depth + 1, nodes));
      return MsgpackValue{std::move(items)};
    }
    case YAML::NodeType::Map: {
      MsgpackMap entries;
      for (const auto& entry : node) {
        MsgpackValue key = yaml_to_value(entry.first, depth + 1, nodes);
        MsgpackValue value = yaml_to_value(entry.second, depth + 1, nodes);
        entries.emplace_back(std::move(key), std::move(value));
      }
      return MsgpackValue{std::move(entries)};
    }
  }
  return MsgpackValue{nullptr};
}

class KernelReader {
 public:
  KernelReader(const MsgpackValue& map, std::string where) : map_(map), where_(std::move(where)) {}

  [[noreturn]] void fail(std::string_view field, const std::string& problem) const {
    throw MetadataError(where_ + ": " + std::string(field) + " " + problem);
  }

  std::optional<std::int64_t> integer(std::string_view field, std::int64_t max) const {
    const MsgpackValue* v = map_.find(field);
    if (v == nullptr || v->is_nil()) return std::nullopt;
    std::int64_t out = 0;
    if (const bool* b = v->as_bool()) return *b ? 1 : 0;
    if (!v->is_integer()) fail(field, std::string("is a ") + v->type_name() + ", expected an integer");
    if (!v->to_int64(out) || out < 0 || out > max) {
      fail(field, "is out of range (0.." + std::to_string(max) + ")");
    }
    return out;
  }

  int get_int(std::string_view field) const { return static_cast<int>(integer(field, INT_MAX).value_or(0)); }
  std::int64_t get_int64(std::string_view field) const { return integer(field, INT64_MAX).value_or(0); }

  std::string get_string(std::string_view field) const {
    const MsgpackValue* v = map_.find(field);
    if (v == nullptr || v->is_nil()) return "";
    if (const std::string* s = v->as_string()) return *s;
    std::int64_t number = 0;
    if (v->to_int64(number)) return std::to_string(number);  // YAML typed a numeric-looking name
    fail(field, std::string("is a ") + v->type_name() + ", expected a string");
  }

  bool get_bool(std::string_view field) const { return integer(field, 1).value_or(0) != 0; }

  std::optional<std::array<int, 3>> get_dims(std::string_view field) const {
    const MsgpackValue* v = map_.find(field);
    if (v == nullptr || v->is_nil()) return std::nullopt;
    const MsgpackArray* items = v->as_array();
    if (items == nullptr || items->size() != 3) fail(field, "must be an array of 3 integers");
    std::array<int, 3> dims{};
    for (std::size_t i = 0; i < 3; ++i) {
      std::int64_t d = 0;
      if (!(*items)[i].to_int64(d) || d < 0 || d > INT_MAX) fail(field, "must be an array of 3 non-negative integers");
      dims[i] = static_cast<int>(d);
    }
    return dims;
  }

 private:
  const MsgpackValue& map_;
  std::string where_;
};

KernelMetadata read_kernel(const MsgpackValue& node, std::size_t index) {
  if (!node.is_map()) {
    throw MetadataError("amdhsa.kernels[" + std::to_string(index) + "] is a " + node.type_name() + ", expected a map");
  }
  KernelMetadata k;
  {
    KernelReader named(node, "amdhsa.kernels[" + std::to_string(index) + "]");
    k.name = named.get_string(".name");
    if (k.name.empty()) named.fail(".name", "is missing");
  }
  KernelReader r(node, "kernel '" + k.name + "'");
  k.symbol = r.get_string(".symbol");
  k.vgpr_count = r.get_int(".vgpr_count");
  k.agpr_count = r.get_int(".agpr_count");
  k.sgpr_count = r.get_int(".sgpr_count");
  k.group_segment_fixed_size = r.get_int64(".group_segment_fixed_size");
  k.private_segment_fixed_size = r.get_int64(".private_segment_fixed_size");
  k.vgpr_spill_count = r.get_int(".vgpr_spill_count");
  k.sgpr_spill_count = r.get_int(".sgpr_spill_count");
  k.wavefront_size = r.get_int(".wavefront_size");
  k.max_flat_workgroup_size = r.get_int(".max_flat_workgroup_size");
  k.kernarg_segment_size = r.get_int64(".kernarg_segment_size");
  k.kernarg_segment_align = r.get_int64(".kernarg_segment_align");
  k.uses_dynamic_stack = r.get_bool(".uses_dynamic_stack");
  k.reqd_workgroup_size = r.get_dims(".reqd_workgroup_size");
  if (const MsgpackValue* args = node.find(".args"); args != nullptr && !args->is_nil()) {
    const MsgpackArray* items = args->as_array();
    if (items == nullptr) r.fail(".args", std::string("is a ") + args->type_name() + ", expected an array");
    for (std::size_t i = 0; i < items->size(); ++i) {
      const MsgpackValue& a = (*items)[i];
      const std::string where = "kernel '" + k.name + "' .args[" + std::to_string(i) + "]";
      if (!a.is_map()) throw MetadataError(where + " is a " + a.type_name() + ", expected a map");
      KernelReader ar(a, where);
      KernelArgument arg;
      arg.name = ar.get_string(".name");
      arg.type_name = ar.get_string(".type_name");
      arg.value_kind = ar.get_string(".value_kind");
      arg.address_space = ar.get_string(".address_space");
      arg.access = ar.get_string(".actual_access");
      if (arg.access.empty()) arg.access = ar.get_string(".access");
      arg.offset = ar.get_int64(".offset");
      arg.size = ar.get_int64(".size");
      k.args.push_back(std::move(arg));
    }
  }
  return k;
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = s.find_last_not_of(" \t\r");
  return std::string(s.substr(first, last - first + 1));
}

template <typename Int>
std::optional<Int> leading_integer(std::string_view text) {
  const std::string t = trim(text);
  Int v{};
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p == t.data()) return std::nullopt;
  return v;
}

// Each source line with its text; the last line may lack a newline.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    f(text.substr(pos, end - pos));
    pos = end + 1;
  }
}

// True when the line is exactly the directive (leading blanks, trailing blanks/comment allowed).
bool is_directive(std::string_view line, std::string_view directive) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  line.remove_prefix(first);
  if (line.substr(0, directive.size()) != directive) return false;
  const std::string_view rest = line.substr(directive.size());
  const auto next = rest.find_first_not_of(" \t\r");
  return next == std::string_view::npos || rest[next] == ';' || rest[next] == '/';
}

}  // namespace

const KernelMetadata* CodeObjectMetadata::find(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  for (const auto& k : kernels) {
    if (k.symbol == name) return &k;
  }
  return nullptr;
}

CodeObjectMetadata metadata_from_msgpack(const MsgpackValue& root) {
  if (!root.is_map()) {
    throw MetadataError(std::string("AMDGPU metadata is a ") + root.type_name() + ", expected a map");
  }
  CodeObjectMetadata md;
  if (const MsgpackValue* version = root.find("amdhsa.version")) {
    const MsgpackArray* items = version->as_array();
    if (items == nullptr) throw MetadataError("amdhsa.version is not an array");
    for (const auto& item : *items) {
      std::int64_t v = 0;
      if (!item.to_int64(v)) throw MetadataError("amdhsa.version holds a non-integer");
      md.version.push_back(v);
    }
  }
  if (const MsgpackValue* target = root.find("amdhsa.target"); target != nullptr && !target->is_nil()) {
    const std::string* s = target->as_string();
    if (s == nullptr) throw MetadataError("amdhsa.target is not a string");
    md.target = *s;
  }
  const MsgpackValue* kernels = root.find("amdhsa.kernels");
  if (kernels == nullptr) throw MetadataError("AMDGPU metadata has no amdhsa.kernels");
  if (kernels->is_nil()) return md;
  const MsgpackArray* items = kernels->as_array();
  if (items == nullptr) {
    throw MetadataError(std::string("amdhsa.kernels is a ") + kernels->type_name() + ", expected an array");
  }
  for (std::size_t i = 0; i < items->size(); ++i) md.kernels.push_back(read_kernel((*items)[i], i));
  return md;
}

CodeObjectMetadata parse_metadata_msgpack(std::string_view bytes) { return metadata_from_msgpack(parse_msgpack(bytes)); }

CodeObjectMetadata parse_metadata_yaml(std::string_view yaml) {
  if (yaml.size() > kMaxYamlBytes) throw MetadataError("metadata YAML larger than 64 MiB");
  if (yaml.find('\0') != std::string_view::npos) throw MetadataError("metadata YAML contains a NUL byte");
  if (flow_depth(yaml) > kMaxYamlFlowDepth) throw MetadataError("metadata YAML nests [ ] / { } deeper than 64 levels");
  MsgpackValue root;
  try {
    YAML::Node doc = YAML::Load(std::string(yaml));
    std::size_t nodes = 0;
    root = yaml_to_value(doc, 0, nodes);
  } catch (const YAML::Exception& e) {
    throw MetadataError(std::string("metadata YAML: ") + e.what());
  }
  return metadata_from_msgpack(root);
}

std::optional<std::string> extract_asm_metadata_yaml(std::string_view asm_text) {
  std::string yaml;
  bool inside = false;
  bool found = false;
  bool closed = false;
  for_each_line(asm_text, [&](std::string_view line) {
    if (closed) return;
    if (!inside) {
      if (is_directive(line, ".amdgpu_metadata")) inside = found = true;
      return;
    }
    if (is_directive(line, ".end_amdgpu_metadata")) {
      closed = true;
      return;
    }
    yaml.append(line);
    yaml.push_back('\n');
  });
  if (!found) return std::nullopt;
  return yaml;
}

CodeObjectMetadata parse_asm_metadata(std::string_view asm_text) {
  auto yaml = extract_asm_metadata_yaml(asm_text);
  if (!yaml) throw MetadataError("the assembly has no .amdgpu_metadata block (not AMDGPU code object v3+ output?)");
  return parse_metadata_yaml(*yaml);
}

std::vector<std::string> compare_metadata(const CodeObjectMetadata& a, const CodeObjectMetadata& b,
                                          std::string_view a_label, std::string_view b_label) {
  std::vector<std::string> diffs;
  const std::string al = " (" + std::string(a_label) + ") vs ";
  const std::string bl = " (" + std::string(b_label) + ")";
  if (a.target != b.target) diffs.push_back("amdhsa.target " + a.target + al + b.target + bl);
  if (a.version != b.version) diffs.push_back("amdhsa.version differs");
  for (const auto& ka : a.kernels) {
    const KernelMetadata* kb = b.find(ka.name);
    if (kb == nullptr) {
      diffs.push_back("kernel " + ka.name + " only in " + std::string(a_label));
      continue;
    }
    auto field = [&](const char* name, auto x, auto y) {
      if (x != y) diffs.push_back(ka.name + ": " + name + " " + std::to_string(x) + al + std::to_string(y) + bl);
    };
    field("vgpr_count", ka.vgpr_count, kb->vgpr_count);
    field("agpr_count", ka.agpr_count, kb->agpr_count);
    field("sgpr_count", ka.sgpr_count, kb->sgpr_count);
    field("group_segment_fixed_size", ka.group_segment_fixed_size, kb->group_segment_fixed_size);
    field("private_segment_fixed_size", ka.private_segment_fixed_size, kb->private_segment_fixed_size);
    field("vgpr_spill_count", ka.vgpr_spill_count, kb->vgpr_spill_count);
    field("sgpr_spill_count", ka.sgpr_spill_count, kb->sgpr_spill_count);
    field("wavefront_size", ka.wavefront_size, kb->wavefront_size);
    field("max_flat_workgroup_size", ka.max_flat_workgroup_size, kb->max_flat_workgroup_size);
    field("kernarg_segment_size", ka.kernarg_segment_size, kb->kernarg_segment_size);
    field("kernarg_segment_align", ka.kernarg_segment_align, kb->kernarg_segment_align);
    field("uses_dynamic_stack", int{ka.uses_dynamic_stack}, int{kb->uses_dynamic_stack});
    if (ka.symbol != kb->symbol) diffs.push_back(ka.name + ": symbol " + ka.symbol + al + kb->symbol + bl);
    if (ka.reqd_workgroup_size != kb->reqd_workgroup_size) diffs.push_back(ka.name + ": reqd_workgroup_size differs");
    if (ka.args != kb->args) diffs.push_back(ka.name + ": args differ");
  }
  for (const auto& kb : b.kernels) {
    if (a.find(kb.name) == nullptr) diffs.push_back("kernel " + kb.name + " only in " + std::string(b_label));
  }
  return diffs;
}

std::vector<AsmKernelInfo> parse_asm_kernel_info(std::string_view asm_text) {
  std::vector<AsmKernelInfo> kernels;
  std::string current_kernel;  // last .amdhsa_kernel seen
  AsmKernelInfo* collecting = nullptr;
  for_each_line(asm_text, [&](std::string_view line) {
    const std::string t = trim(line);
    if (t.rfind(".amdhsa_kernel ", 0) == 0) {
      current_kernel = trim(std::string_view(t).substr(15));
      return;
    }
    if (t.rfind(';', 0) != 0) return;
    const std::string comment = trim(std::string_view(t).substr(1));
    if (comment == "Kernel info:") {
      if (current_kernel.empty()) {
        collecting = nullptr;
        return;
      }
      kernels.push_back(AsmKernelInfo{});
      kernels.back().name = current_kernel;
      collecting = &kernels.back();
      return;
    }
    if (comment == "Function info:") {
      collecting = nullptr;  // a non-kernel function's block
      return;
    }
    if (collecting == nullptr) return;
    const auto colon = comment.find(':');
    const auto equals = comment.find(" = ");
    if (equals != std::string::npos && (colon == std::string::npos || equals < colon)) {
      if (comment.substr(0, equals) == "codeLenInByte") {
        collecting->code_length = leading_integer<std::int64_t>(std::string_view(comment).substr(equals + 3));
      }
      return;
    }
    if (colon == std::string::npos) return;
    const std::string key = comment.substr(0, colon);
    const std::string_view value = std::string_view(comment).substr(colon + 1);
    if (key == "Occupancy") collecting->occupancy = leading_integer<int>(value);
    else if (key == "NumVgprs") collecting->num_vgprs = leading_integer<int>(value);
    else if (key == "NumAgprs") collecting->num_agprs = leading_integer<int>(value);
    else if (key == "TotalNumVgprs") collecting->total_num_vgprs = leading_integer<int>(value);
    else if (key == "NumSgprs" || key == "TotalNumSgprs") collecting->num_sgprs = leading_integer<int>(value);
    else if (key == "ScratchSize") collecting->scratch_size = leading_integer<std::int64_t>(value);
    else if (key == "LDSByteSize") collecting->lds_size = leading_integer<std::int64_t>(value);
  });
  return kernels;
}

analysis::AmdgpuOccupancyInput occupancy_input(const KernelMetadata& kernel, int workgroup_size,
                                               std::int64_t dynamic_lds_bytes) {
  analysis::AmdgpuOccupancyInput in;
  in.workgroup_size = workgroup_size > 0 ? workgroup_size : kernel.max_flat_workgroup_size;
  in.vgprs = kernel.vgpr_count;
  in.sgprs = kernel.sgpr_count;
  in.lds_bytes = kernel.group_segment_fixed_size + dynamic_lds_bytes;
  in.wavefront_size = kernel.wavefront_size == 32 || kernel.wavefront_size == 64 ? kernel.wavefront_size : 0;
  if (kernel.max_flat_workgroup_size > 0) in.max_flat_workgroup_size = kernel.max_flat_workgroup_size;
  return in;
}

analysis::AmdgpuOccupancyResult kernel_occupancy(const KernelMetadata& kernel, const analysis::AmdgpuArch& arch,
                                                 int workgroup_size, std::int64_t dynamic_lds_bytes) {
  return analysis::amdgpu_occupancy(arch, occupancy_input(kernel, workgroup_size, dynamic_lds_bytes));
}

nlohmann::json to_json(const KernelMetadata& k) {
  nlohmann::json j = {{"name", to_valid_utf8(k.name)},
                      {"symbol", to_valid_utf8(k.symbol)},
                      {"vgpr_count", k.vgpr_count},
                      {"agpr_count", k.agpr_count},
                      {"sgpr_count", k.sgpr_count},
                      {"group_segment_fixed_size", k.group_segment_fixed_size},
                      {"private_segment_fixed_size", k.private_segment_fixed_size},
                      {"vgpr_spill_count", k.vgpr_spill_count},
                      {"sgpr_spill_count", k.sgpr_spill_count},
                      {"wavefront_size", k.wavefront_size},
                      {"max_flat_workgroup_size", k.max_flat_workgroup_size},
                      {"kernarg_segment_size", k.kernarg_segment_size},
                      {"kernarg_segment_align", k.kernarg_segment_align},
                      {"uses_dynamic_stack", k.uses_dynamic_stack}};
  if (k.reqd_workgroup_size) j["reqd_workgroup_size"] = *k.reqd_workgroup_size;
  nlohmann::json args = nlohmann::json::array();
  for (const auto& a : k.args) {
    args.push_back({{"name", to_valid_utf8(a.name)},
                    {"type_name", to_valid_utf8(a.type_name)},
                    {"value_kind", to_valid_utf8(a.value_kind)},
                    {"address_space", to_valid_utf8(a.address_space)},
                    {"access", to_valid_utf8(a.access)},
                    {"offset", a.offset},
                    {"size", a.size}});
  }
  j["args"] = args;
  return j;
}

nlohmann::json to_json(const CodeObjectMetadata& md) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : md.kernels) kernels.push_back(to_json(k));
  return {{"version", md.version}, {"target", to_valid_utf8(md.target)}, {"kernels", kernels}};
}

}  // namespace ktune::amdgpu
