// The YAML form of a gemm spec (`gemm: {m: ..., n: ...}` plus `families:`), apart from
// gemm_problem.cc so that code which only runs problems (the in-process executor, libktune_gemm)
// does not link yaml-cpp.
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "ktune/core/source_error.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::gemm {
namespace {

class SpecReader {
 public:
  explicit SpecReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark mark = node.Mark();
    throw SourceError(file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, message);
  }

  std::string scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + " must be a single value");
    return node.Scalar();
  }

  std::int64_t integer(const YAML::Node& node, const std::string& what) const {
    const std::string s = scalar(node, what);
    try {
      std::size_t used = 0;
      const long long v = std::stoll(s, &used, 10);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    fail(node, what + " must be an integer (got '" + s + "')");
  }

  double number(const YAML::Node& node, const std::string& what) const {
    const std::string s = scalar(node, what);
    try {
      std::size_t used = 0;
      const double v = std::stod(s, &used);
      if (used == s.size()) return v;
    } catch (const std::exception&) {
    }
    fail(node, what + " must be a number (got '" + s + "')");
  }

  bool boolean(const YAML::Node& node, const std::string& what) const {
    const std::string s = scalar(node, what);
    bool value = false;  // YAML's own spellings: true/false, yes/no, on/off in any of their cases
    if (YAML::convert<bool>::decode(node, value)) return value;
    fail(node, what + " must be true or false (got '" + s + "')");
  }

  // A mapping key as text; YAML allows sequences and mappings as keys ("? - x"), a spec does not.
  std::string key_of(const YAML::Node& key) const {
    if (!key.IsScalar()) fail(key, "a key must be a plain name, not a list or a mapping");
    return key.Scalar();
  }

  GemmSpec read(const YAML::Node& root) const {
    if (!root.IsDefined() || root.IsNull()) throw SourceError(file_, 1, 1, "the gemm spec is empty");
    if (!root.IsMap()) fail(root, "a gemm spec must be a mapping with a 'gemm' section");
    for (const auto& entry : root) {
      const std::string key = key_of(entry.first);
      if (key != "gemm" && key != "families")
        fail(entry.first, "unknown key '" + key + "' (a gemm spec has 'gemm' and 'families')");
    }
    const YAML::Node section = root["gemm"];
    if (!section) fail(root, "missing the 'gemm' section");
    if (!section.IsMap()) fail(section, "'gemm' must be a mapping (m, n, k, dtype, ...)");

    GemmSpec spec;
    GemmProblem& p = spec.problem;
    bool has_m = false, has_n = false, has_k = false;
    std::optional<Storage> out;
    for (const auto& entry : section) {
      const std::string key = key_of(entry.first);
      const YAML::Node& value = entry.second;
      const std::string what = "gemm." + key;
      if (key == "m") p.m = integer(value, what), has_m = true;
      else if (key == "n") p.n = integer(value, what), has_n = true;
      else if (key == "k") p.k = integer(value, what), has_k = true;
      else if (key == "batch") p.batch = integer(value, what);
      else if (key == "alpha") p.alpha = number(value, what);
      else if (key == "beta") p.beta = number(value, what);
      else if (key == "bias") p.bias = boolean(value, what);
      else if (key == "layout") {
        try {
          set_layout(p, scalar(value, what));
        } catch (const GemmError& e) {
          fail(value, e.what());
        }
      } else if (key == "dtype") {
        const std::string s = scalar(value, what);
        const auto precision = parse_precision(s);
        if (!precision) fail(value, "unknown dtype '" + s + "' (f16, bf16, f32, tf32, fp8)");
        p.precision = *precision;
      } else if (key == "out_dtype") {
        const std::string s = scalar(value, what);
        out = parse_storage(s);
        if (!out) fail(value, "unknown out_dtype '" + s + "' (f16, bf16, f32)");
      } else if (key == "activation") {
        const std::string s = scalar(value, what);
        const auto act = parse_activation(s);
        if (!act) fail(value, "unknown activation '" + s + "' (none, relu, gelu)");
        p.activation = *act;
      } else {
        fail(entry.first, "unknown key '" + key +
                              "' in 'gemm' (m, n, k, batch, dtype, layout, alpha, beta, bias, activation, out_dtype)");
      }
    }
    if (!has_m || !has_n || !has_k) fail(section, "'gemm' needs m, n and k");
    p.out = out.value_or(default_output(p.precision));
    try {
      validate(p);
    } catch (const GemmError& e) {
      fail(section, e.what());
    }

    if (const YAML::Node families = root["families"]) {
      std::string joined;
      if (families.IsSequence()) {
        for (const auto& item : families) joined += scalar(item, "families entry") + ",";
      } else {
        joined = scalar(families, "families");
      }
      try {
        spec.families = parse_families(joined);
      } catch (const GemmError& e) {
        fail(families, e.what());
      }
    }
    return spec;
  }

 private:
  std::string file_;
};

}  // namespace

GemmSpec parse_gemm_spec(const std::string& yaml_text, const std::string& file_name) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw SourceError(file_name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0,
                      e.msg);
  }
  return SpecReader(file_name).read(root);
}

GemmSpec load_gemm_spec(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SourceError(path.string(), 0, 0, "cannot read the gemm spec");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_gemm_spec(text.str(), path.string());
}

bool is_gemm_spec_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const YAML::Node root = YAML::Load(text.str());
    return root.IsMap() && root["gemm"].IsDefined();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace ktune::gemm
