#include "ktune/iree/substitution.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace ktune::iree {
namespace fs = std::filesystem;
namespace {

std::string list(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string rebuild_lowering_config(const LoweringConfig& root, const MatmulCandidate& c) {
  std::vector<AttributeEntry> entries = root.entries;
  auto set = [&](const std::string& key, const std::string& value) {
    for (AttributeEntry& e : entries)
      if (e.key == key) {
        e.value = value;
        return;
      }
    entries.push_back({key, value});
  };
  set("mma_kind", "#iree_gpu.mma_layout<" + c.knobs.mma_kind + ">");
  set("workgroup", list(c.workgroup));
  set("reduction", list(c.reduction));
  set("subgroup", list(c.subgroup));
  std::string body;
  for (const AttributeEntry& e : entries) body += (body.empty() ? "" : ", ") + e.key + (e.value.empty() ? "" : " = " + e.value);
  return "#" + root.kind + "<{" + body + "}>";
}

std::string rebuild_translation(const TranslationInfo& t, const MatmulCandidate& c) {
  std::string text = t.text;
  static const std::regex size(R"(workgroup_size\s*=\s*\[[^\]]*\])");
  text = std::regex_replace(text, size, "workgroup_size = [" + std::to_string(c.workgroup_size) + ", 1, 1]",
                            std::regex_constants::format_first_only);
  static const std::regex stages(R"(prefetch_num_stages\s*=\s*\d+)");
  return std::regex_replace(text, stages, "prefetch_num_stages = " + std::to_string(c.knobs.prefetch_stages),
                            std::regex_constants::format_first_only);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string apply_candidate(const std::string& text, const ConfiguredDispatch& d, const MatmulCandidate& c) {
  if (d.lowering_configs.empty() || !d.translation)
    throw DispatchParseError(d.file + ": no lowering_config or translation_info to rewrite");
  const LoweringConfig& root = d.lowering_configs.front();
  std::string out = text;
  const auto at = out.find(root.text);
  if (at == std::string::npos) throw DispatchParseError(d.file + ":" + std::to_string(root.line) + ": the lowering_config is not in the text");
  out.replace(at, root.text.size(), rebuild_lowering_config(root, c));
  const auto t = out.find(d.translation->text);
  if (t == std::string::npos) throw DispatchParseError(d.file + ": the translation_info is not in the text");
  out.replace(t, d.translation->text.size(), rebuild_translation(*d.translation, c));
  return out;
}

std::string substitution_flag(const std::string& executable, const fs::path& file) {
  return "--iree-hal-substitute-executable-configuration=" + executable + "=" + file.string();
}

std::optional<std::int64_t> compiled_workgroup_size(const fs::path& dump_dir, const std::string& executable) {
  static const std::regex ptx(R"(\.maxntid\s+(\d+))");
  static const std::regex amd(R"(\.max_flat_workgroup_size:\s*(\d+))");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dump_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find("_" + executable + "_") == std::string::npos) continue;
    const std::string ext = entry.path().extension().string();
    if (ext != ".ptx" && ext != ".rocmasm") continue;
    const std::string text = read_file(entry.path());
    std::smatch m;
    if (std::regex_search(text, m, ext == ".ptx" ? ptx : amd)) return std::stoll(m[1].str());
  }
  return std::nullopt;
}

}  // namespace ktune::iree
