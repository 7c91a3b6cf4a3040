#include "ktune/families/gemm/gemm_problem.h"

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


}  // namespace ktune::gemm
