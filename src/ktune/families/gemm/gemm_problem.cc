#include "ktune/families/gemm/gemm_problem.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/core/source_error.h"

namespace ktune::gemm {
namespace {

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Largest element count of one operand: 2^40 elements is 1-4 TiB, beyond any GPU, and keeps
// every offset computation far from int64 overflow.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

std::int64_t checked_product(std::initializer_list<std::int64_t> factors, const char* what) {
  long double p = 1;
  for (std::int64_t f : factors) p *= static_cast<long double>(f);
  if (p > static_cast<long double>(kMaxElements))
    throw GemmError(std::string(what) + " would have more than 2^40 elements");
  return static_cast<std::int64_t>(p);
}

std::string format_scalar(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

const std::vector<std::string>& known_families() {
  static const std::vector<std::string> families = {"generated", "cublaslt"};
  return families;
}

}  // namespace

std::string_view storage_name(Storage s) {
  switch (s) {
    case Storage::F16: return "f16";
    case Storage::BF16: return "bf16";
    case Storage::F32: return "f32";
    case Storage::F8E4M3: return "f8e4m3";
  }
  return "?";
}

std::size_t storage_size(Storage s) {
  switch (s) {
    case Storage::F16:
    case Storage::BF16: return 2;
    case Storage::F32: return 4;
    case Storage::F8E4M3: return 1;
  }
  return 0;
}

std::optional<Storage> parse_storage(std::string_view name) {
  const std::string s = lower(name);
  if (s == "f16" || s == "fp16" || s == "half" || s == "float16") return Storage::F16;
  if (s == "bf16" || s == "bfloat16") return Storage::BF16;
  if (s == "f32" || s == "fp32" || s == "float" || s == "float32") return Storage::F32;
  if (s == "f8e4m3" || s == "fp8" || s == "f8" || s == "e4m3" || s == "fp8e4m3") return Storage::F8E4M3;
  return std::nullopt;
}

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::F16: return "f16";
    case Precision::BF16: return "bf16";
    case Precision::F32: return "f32";
    case Precision::TF32: return "tf32";
    case Precision::F8E4M3: return "fp8";
  }
  return "?";
}

std::optional<Precision> parse_precision(std::string_view name) {
  if (lower(name) == "tf32") return Precision::TF32;
  const std::optional<Storage> storage = parse_storage(name);
  if (!storage) return std::nullopt;
  switch (*storage) {
    case Storage::F16: return Precision::F16;
    case Storage::BF16: return Precision::BF16;
    case Storage::F32: return Precision::F32;
    case Storage::F8E4M3: return Precision::F8E4M3;
  }
  return std::nullopt;
}

Storage input_storage(Precision p) {
  switch (p) {
    case Precision::F16: return Storage::F16;
    case Precision::BF16: return Storage::BF16;
    case Precision::F32:
    case Precision::TF32: return Storage::F32;
    case Precision::F8E4M3: return Storage::F8E4M3;
  }
  return Storage::F32;
}

Storage default_output(Precision p) { return p == Precision::F8E4M3 ? Storage::BF16 : input_storage(p); }

std::string_view activation_name(Activation a) {
  switch (a) {
    case Activation::None: return "none";
    case Activation::Relu: return "relu";
    case Activation::Gelu: return "gelu";
  }
  return "?";
}

std::optional<Activation> parse_activation(std::string_view name) {
  const std::string s = lower(name);
  if (s == "none" || s.empty()) return Activation::None;
  if (s == "relu") return Activation::Relu;
  if (s == "gelu") return Activation::Gelu;
  return std::nullopt;
}

std::string GemmProblem::layout() const {
  return std::string(1, a_transposed ? 't' : 'n') + std::string(1, b_transposed ? 't' : 'n');
}

Storage GemmProblem::bias_storage() const {
  if (precision == Precision::F8E4M3 && out == Storage::F32) return Storage::BF16;
  return out;
}

double GemmProblem::flops() const {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(batch);
}

double GemmProblem::bytes() const {
  const double in = static_cast<double>(storage_size(a_storage()));
  const double out_size = static_cast<double>(storage_size(out));
  double total = static_cast<double>(a_elements()) * in + static_cast<double>(b_elements()) * in +
                 static_cast<double>(d_elements()) * out_size;
  if (reads_c()) total += static_cast<double>(c_elements()) * out_size;
  if (bias) total += static_cast<double>(n) * static_cast<double>(storage_size(bias_storage()));
  return total;
}

std::string GemmProblem::name() const {
  std::string s = "gemm " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " +
                  std::string(precision_name(precision)) + " " + layout();
  if (batch != 1) s += " batch " + std::to_string(batch);
  if (out != default_output(precision)) s += " -> " + std::string(storage_name(out));
  if (bias) s += " +bias";
  if (activation != Activation::None) s += " +" + std::string(activation_name(activation));
  if (alpha != 1.0) s += " alpha=" + format_scalar(alpha);
  if (beta != 0.0) s += " beta=" + format_scalar(beta);
  return s;
}

nlohmann::json GemmProblem::to_json() const {
  return {{"op", "gemm"},
          {"m", m},
          {"n", n},
          {"k", k},
          {"batch", batch},
          {"layout", layout()},
          {"dtype", precision_name(precision)},
          {"out_dtype", storage_name(out)},
          {"alpha", alpha},
          {"beta", beta},
          {"bias", bias},
          {"activation", activation_name(activation)}};
}

std::string GemmProblem::hash() const {
  // The version string changes whenever the meaning of a field changes, so old rows never
  // answer for a problem they did not measure.
  return sha256_hex("ktune-gemm-problem-v1\n" + to_json().dump());
}

void validate(const GemmProblem& p) {
  auto positive = [](std::int64_t v, const char* name) {
    if (v < 1) throw GemmError(std::string(name) + " must be at least 1 (got " + std::to_string(v) + ")");
  };
  positive(p.m, "m");
  positive(p.n, "n");
  positive(p.k, "k");
  positive(p.batch, "batch");
  checked_product({p.batch, p.m, p.k}, "A");
  checked_product({p.batch, p.k, p.n}, "B");
  checked_product({p.batch, p.m, p.n}, "D");
  if (!std::isfinite(p.alpha) || std::fabs(p.alpha) > std::numeric_limits<float>::max())
    throw GemmError("alpha must be a finite fp32 number (got " + format_scalar(p.alpha) + ")");
  if (!std::isfinite(p.beta) || std::fabs(p.beta) > std::numeric_limits<float>::max())
    throw GemmError("beta must be a finite fp32 number (got " + format_scalar(p.beta) + ")");
  bool ok = false;
  std::string allowed;
  switch (p.precision) {
    case Precision::F16:
      ok = p.out == Storage::F16 || p.out == Storage::F32;
      allowed = "f16 or f32";
      break;
    case Precision::BF16:
      ok = p.out == Storage::BF16 || p.out == Storage::F32;
      allowed = "bf16 or f32";
      break;
    case Precision::F32:
    case Precision::TF32:
      ok = p.out == Storage::F32;
      allowed = "f32";
      break;
    case Precision::F8E4M3:
      ok = p.out == Storage::BF16 || p.out == Storage::F16 || p.out == Storage::F32;
      allowed = "bf16, f16 or f32";
      break;
  }
  if (!ok)
    throw GemmError("output dtype " + std::string(storage_name(p.out)) + " is not supported with " +
                    std::string(precision_name(p.precision)) + " inputs (use " + allowed + ")");
}

void set_layout(GemmProblem& problem, std::string_view layout) {
  const std::string s = lower(layout);
  if (s.size() != 2 || (s[0] != 'n' && s[0] != 't') || (s[1] != 'n' && s[1] != 't'))
    throw GemmError("layout must be nn, nt, tn or tt (got '" + std::string(layout) + "')");
  problem.a_transposed = s[0] == 't';
  problem.b_transposed = s[1] == 't';
}

GemmProblem problem_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw GemmError("a gemm problem must be a JSON object");
  static const std::vector<std::string> keys = {"op",    "m",    "n",    "k",    "batch",     "layout",
                                                "dtype", "out_dtype", "alpha", "beta", "bias", "activation"};
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) throw GemmError("unknown gemm key '" + key + "'");
  }
  auto integer = [&](const char* key, std::int64_t fallback, bool required) -> std::int64_t {
    if (!j.contains(key)) {
      if (required) throw GemmError(std::string("gemm problem is missing '") + key + "'");
      return fallback;
    }
    const auto& v = j.at(key);
    if (!v.is_number_integer()) throw GemmError(std::string("'") + key + "' must be an integer");
    return v.get<std::int64_t>();
  };
  auto number = [&](const char* key, double fallback) -> double {
    if (!j.contains(key)) return fallback;
    const auto& v = j.at(key);
    if (!v.is_number()) throw GemmError(std::string("'") + key + "' must be a number");
    return v.get<double>();
  };
  auto text = [&](const char* key, const std::string& fallback) -> std::string {
    if (!j.contains(key)) return fallback;
    const auto& v = j.at(key);
    if (!v.is_string()) throw GemmError(std::string("'") + key + "' must be a string");
    return v.get<std::string>();
  };
  if (j.contains("op") && text("op", "gemm") != "gemm") throw GemmError("'op' must be \"gemm\"");
  GemmProblem p;
  p.m = integer("m", 0, true);
  p.n = integer("n", 0, true);
  p.k = integer("k", 0, true);
  p.batch = integer("batch", 1, false);
  set_layout(p, text("layout", "nn"));
  const std::string dtype = text("dtype", "bf16");
  const auto precision = parse_precision(dtype);
  if (!precision) throw GemmError("unknown dtype '" + dtype + "' (f16, bf16, f32, tf32, fp8)");
  p.precision = *precision;
  p.out = default_output(p.precision);
  if (j.contains("out_dtype")) {
    const std::string out = text("out_dtype", "");
    const auto storage = parse_storage(out);
    if (!storage) throw GemmError("unknown out_dtype '" + out + "' (f16, bf16, f32)");
    p.out = *storage;
  }
  p.alpha = number("alpha", 1.0);
  p.beta = number("beta", 0.0);
  if (j.contains("bias")) {
    if (!j.at("bias").is_boolean()) throw GemmError("'bias' must be true or false");
    p.bias = j.at("bias").get<bool>();
  }
  const std::string activation = text("activation", "none");
  const auto act = parse_activation(activation);
  if (!act) throw GemmError("unknown activation '" + activation + "' (none, relu, gelu)");
  p.activation = *act;
  validate(p);
  return p;
}

std::vector<std::string> parse_families(std::string_view text) {
  std::vector<std::string> out;
  std::string item;
  auto flush = [&] {
    std::string name = lower(item);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    item.clear();
    if (name.empty()) return;
    if (std::find(known_families().begin(), known_families().end(), name) == known_families().end())
      throw GemmError("unknown gemm family '" + name + "' (known: generated, cublaslt)");
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (char c : text) {
    if (c == ',') flush();
    else item += c;
  }
  flush();
  if (out.empty()) throw GemmError("no gemm family given (known: generated, cublaslt)");
  return out;
}

GemmSpec resolve_gemm_spec(const GemmFields& f, const std::optional<GemmSpec>& base) {
  GemmSpec spec = base.value_or(GemmSpec{});
  GemmProblem& p = spec.problem;
  if (!base && (!f.m || !f.n || !f.k)) throw GemmError("a gemm needs --m, --n and --k (or a spec file)");
  if (f.m) p.m = *f.m;
  if (f.n) p.n = *f.n;
  if (f.k) p.k = *f.k;
  if (f.batch) p.batch = *f.batch;
  if (f.layout) set_layout(p, *f.layout);
  if (f.dtype) {
    const auto precision = parse_precision(*f.dtype);
    if (!precision) throw GemmError("unknown dtype '" + *f.dtype + "' (f16, bf16, f32, tf32, fp8)");
    p.precision = *precision;
    p.out = default_output(p.precision);
  } else if (!base) {
    p.out = default_output(p.precision);
  }
  if (f.out_dtype) {
    const auto out = parse_storage(*f.out_dtype);
    if (!out) throw GemmError("unknown output dtype '" + *f.out_dtype + "' (f16, bf16, f32)");
    p.out = *out;
  }
  if (f.alpha) p.alpha = *f.alpha;
  if (f.beta) p.beta = *f.beta;
  if (f.bias) p.bias = *f.bias;
  if (f.activation) {
    const auto act = parse_activation(*f.activation);
    if (!act) throw GemmError("unknown activation '" + *f.activation + "' (none, relu, gelu)");
    p.activation = *act;
  }
  if (f.families) spec.families = parse_families(*f.families);
  validate(p);
  return spec;
}

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
    const std::string s = lower(scalar(node, what));
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
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
