#include "ktune/families/gemm/tunableop_csv.h"

#include "ktune/families/gemm/gemm_pick.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "ktune/core/read_file.h"
#include "ktune/core/sha256.h"
#include "ktune/db/database.h"

namespace ktune::gemm::tunableop {
namespace {

// Splits like Tunable.cpp's ReadFile (std::getline on ','): a trailing empty field is dropped.
std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    parts.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (!parts.empty() && parts.back().empty() && !text.empty() && text.back() == separator) parts.pop_back();
  return parts;
}

std::string join(const std::vector<std::string>& parts, std::size_t from, char separator) {
  std::string out;
  for (std::size_t i = from; i < parts.size(); ++i) {
    if (i > from) out += separator;
    out += parts[i];
  }
  return out;
}

std::optional<double> parse_time(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

template <typename T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

// One result line into `file` (or an error naming what is wrong).
void parse_result_line(CsvFile& file, const std::vector<std::string>& parts, int number,
                       std::map<std::pair<std::string, std::string>, int>& seen) {
  const std::string where = file.name + ":" + std::to_string(number) + ": ";
  if (parts.size() < 3) {
    file.errors.push_back(where + "expected <op signature>,<params signature>,<solution>[,<time ms>]; found " +
                          std::to_string(parts.size()) + " field(s)");
    return;
  }
  static constexpr const char* kFields[] = {"op signature", "params signature", "solution"};
  for (int i = 0; i < 3; ++i)
    if (parts[static_cast<std::size_t>(i)].empty()) {
      file.errors.push_back(where + "the " + kFields[i] + " is empty");
      return;
    }
  Entry e{number, parts[0], parts[1], parts[2], std::nullopt, ""};
  if (parts.size() >= 4) {
    e.time_ms = parse_time(parts[3]);
    if (!e.time_ms) {
      file.errors.push_back(where + "the time " + in_quotes(parts[3]) + " is not a number of milliseconds");
      return;
    }
  }
  if (parts.size() >= 5) {
    if (parts[4].rfind("BLAS_PARAMS:", 0) != 0) {
      file.errors.push_back(where + "unexpected field " + in_quotes(parts[4]) +
                            " after the time (only a BLAS_PARAMS tail may follow it)");
      return;
    }
    e.blas_params = join(parts, 4, ',');
  }
  const auto [it, inserted] = seen.try_emplace({e.op_signature, e.params_signature}, number);
  if (!inserted) {
    file.errors.push_back(where + "repeats " + e.op_signature + "," + e.params_signature + " of line " +
                          std::to_string(it->second) + " (PyTorch keeps the first)");
    return;
  }
  file.entries.push_back(std::move(e));
}

void parse_validator_line(CsvFile& file, const std::vector<std::string>& parts, int number) {
  if (parts.size() < 3 || parts[1].empty()) {
    file.errors.push_back(file.name + ":" + std::to_string(number) + ": a Validator line needs Validator,<key>,<value>");
    return;
  }
  for (auto& [key, value] : file.validators)
    if (key == parts[1]) {
      value = parts[2];  // PyTorch's map: the last value wins
      return;
    }
  file.validators.emplace_back(parts[1], parts[2]);
}

}  // namespace

std::optional<std::string> CsvFile::validator(std::string_view key) const {
  for (const auto& [k, v] : validators)
    if (k == key) return v;
  return std::nullopt;
}

CsvFile parse_csv(std::string_view text, const std::string& file_name) {
  CsvFile file;
  file.name = file_name;
  std::map<std::pair<std::string, std::string>, int> seen;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<std::string> parts = split(line, ',');
    if (parts[0] == "Validator") parse_validator_line(file, parts, number);
    else parse_result_line(file, parts, number, seen);
  }
  return file;
}

CsvFile read_csv(const std::filesystem::path& path) {
  const std::optional<std::string> text = read_file(path);
  if (!text) throw std::runtime_error("cannot read " + path.string());
  return parse_csv(*text, path.string());
}

// ---- solutions ---------------------------------------------------------------------------

namespace {

constexpr std::string_view kCublasltPrefix = "Gemm_Cublaslt_";

// "id_66_tile_20_stages_8_splitk_1_red_0_swizzle_0_custom_0[_inner_0_cluster_0]"
std::optional<cublaslt::AlgoConfig> parse_cublaslt_fields(std::string_view rest) {
  const std::vector<std::string> tokens = split(rest, '_');
  static constexpr const char* kKeys[] = {"id", "tile", "stages", "splitk", "red", "swizzle", "custom", "inner", "cluster"};
  if (tokens.size() != 14 && tokens.size() != 18) return std::nullopt;
  std::int64_t values[9] = {0, 0, 0, 1, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < tokens.size() / 2; ++i) {
    if (tokens[2 * i] != kKeys[i]) return std::nullopt;
    const std::optional<std::int64_t> v = parse_number<std::int64_t>(tokens[2 * i + 1]);
    if (!v || *v < (i == 0 || i == 3 ? std::int64_t{-2147483647} : 0) || *v > 0xFFFFFFFFLL) return std::nullopt;
    values[i] = *v;
  }
  if (values[7] > 0xFFFF || values[8] > 0xFFFF) return std::nullopt;
  cublaslt::AlgoConfig a;
  a.algo_id = static_cast<std::int32_t>(values[0]);
  a.tile = static_cast<std::uint32_t>(values[1]);
  a.stages = static_cast<std::uint32_t>(values[2]);
  a.splitk = static_cast<std::int32_t>(values[3]);
  a.reduction = static_cast<std::uint32_t>(values[4]);
  a.swizzle = static_cast<std::uint32_t>(values[5]);
  a.custom = static_cast<std::uint32_t>(values[6]);
  a.inner_shape = static_cast<std::uint16_t>(values[7]);
  a.cluster = static_cast<std::uint16_t>(values[8]);
  return a;
}

}  // namespace

Solution parse_solution(std::string_view name) {
  Solution s;
  if (name == "Default") {
    s.kind = Solution::Kind::Default;
  } else if (name.rfind("Gemm_Rocblas_", 0) == 0 || name.rfind("Gemm_Hipblaslt_", 0) == 0) {
    s.kind = Solution::Kind::Rocm;
  } else if (name.rfind(kCublasltPrefix, 0) == 0) {
    const std::string_view rest = name.substr(kCublasltPrefix.size());
    if (rest.rfind("id_", 0) == 0) {
      s.algo = parse_cublaslt_fields(rest);
      if (s.algo) s.kind = Solution::Kind::Cublaslt;
    } else {
      const std::vector<std::string> tokens = split(rest, '_');
      const bool letters = tokens.size() == 2 && tokens[0].size() == 2 &&
                           std::all_of(tokens[0].begin(), tokens[0].end(), [](char c) { return c == 'N' || c == 'T'; });
      const std::optional<int> index = letters ? parse_number<int>(tokens[1]) : std::nullopt;
      if (index && *index >= 0) {
        s.kind = Solution::Kind::CublasltIndex;
        s.index = *index;
      }
    }
  }
  return s;
}

std::string_view solution_kind_name(Solution::Kind kind) {
  switch (kind) {
    case Solution::Kind::Default: return "default";
    case Solution::Kind::Cublaslt: return "cublaslt";
    case Solution::Kind::CublasltIndex: return "cublaslt_heuristic_index";
    case Solution::Kind::Rocm: return "rocm";
    case Solution::Kind::Unknown: break;
  }
  return "unknown";
}

std::string cublaslt_solution_name(const cublaslt::AlgoConfig& a) {
  return std::string(kCublasltPrefix) + "id_" + std::to_string(a.algo_id) + "_tile_" + std::to_string(a.tile) +
         "_stages_" + std::to_string(a.stages) + "_splitk_" + std::to_string(a.splitk) + "_red_" +
         std::to_string(a.reduction) + "_swizzle_" + std::to_string(a.swizzle) + "_custom_" + std::to_string(a.custom) +
         "_inner_" + std::to_string(a.inner_shape) + "_cluster_" + std::to_string(a.cluster);
}

// ---- signatures --------------------------------------------------------------------------

namespace {

struct OpPrefix {
  std::string_view text;
  OpKind kind;
};
constexpr OpPrefix kOpPrefixes[] = {{"GemmAndBiasTunableOp_", OpKind::GemmAndBias},
                                    {"GemmStridedBatchedTunableOp_", OpKind::GemmStridedBatched},
                                    {"ScaledGemmTunableOp_", OpKind::ScaledGemm},
                                    {"GemmTunableOp_", OpKind::Gemm}};

std::string_view op_prefix(OpKind kind) {
  for (const OpPrefix& p : kOpPrefixes)
    if (p.kind == kind) return p.text;
  return "";
}

// TypeName()s that contain '_' (ScaledGemm's three types are joined with '_' as well).
constexpr std::string_view kTypeNames[] = {"Float8_e4m3fnuz", "Float8_e5m2fnuz", "Float8_e4m3fn", "Float8_e5m2",
                                           "Float8_e8m0fnu",  "BFloat16",        "Half",          "float",
                                           "tf32",            "bfx9",            "double"};

std::vector<std::string> split_types(std::string_view text, OpKind kind) {
  if (kind != OpKind::ScaledGemm) return {std::string(text)};
  std::vector<std::string> types;
  while (!text.empty()) {
    bool matched = false;
    for (std::string_view name : kTypeNames)
      if (text.rfind(name, 0) == 0 && (text.size() == name.size() || text[name.size()] == '_')) {
        types.emplace_back(name);
        text.remove_prefix(std::min(text.size(), name.size() + 1));
        matched = true;
        break;
      }
    if (!matched) throw std::invalid_argument("unknown type in ScaledGemm signature at " + in_quotes(text));
  }
  if (types.size() != 3) throw std::invalid_argument("a ScaledGemm op signature names three types");
  return types;
}

std::int64_t size_token(const std::vector<std::string>& tokens, std::size_t i, const char* what) {
  if (i >= tokens.size()) throw std::invalid_argument(std::string("the params signature ends before ") + what);
  if (tokens[i] == "*")
    throw std::invalid_argument("a wildcard (dynamic-shape) params signature stands for many shapes; ktune tunes one");
  const std::optional<std::int64_t> v = parse_number<std::int64_t>(tokens[i]);
  if (!v || *v < 0) throw std::invalid_argument(std::string(what) + " " + in_quotes(tokens[i]) + " is not a size");
  return *v;
}

void expect_token(const std::vector<std::string>& tokens, std::size_t i, std::string_view word) {
  if (i >= tokens.size() || tokens[i] != word)
    throw std::invalid_argument("expected '" + std::string(word) + "' in the params signature" +
                                (i < tokens.size() ? ", found " + in_quotes(tokens[i]) : std::string(", found its end")));
}

// The tokens after M_N_K: [B_batch] [ld_lda_ldb_ldc] [rw_x_bias_type] [compute suffix].
void decode_tail(Signature& s, const std::vector<std::string>& t, std::size_t i) {
  if (s.kind == OpKind::GemmStridedBatched && i < t.size() && t[i] == "B") {
    s.batch = size_token(t, i + 1, "the batch");
    i += 2;
  }
  if (i < t.size() && t[i] == "ld") {
    s.lda = size_token(t, i + 1, "lda");
    s.ldb = size_token(t, i + 2, "ldb");
    s.ldc = size_token(t, i + 3, "ldc");
    i += 4;
  }
  if (s.kind == OpKind::ScaledGemm) {
    expect_token(t, i, "rw");
    if (i + 1 >= t.size() || (t[i + 1] != "0" && t[i + 1] != "1"))
      throw std::invalid_argument("rw_ takes 0 or 1 in a ScaledGemm params signature");
    s.rowwise = t[i + 1] == "1";
    expect_token(t, i + 2, "bias");
    if (i + 3 >= t.size()) throw std::invalid_argument("bias_ takes a type in a ScaledGemm params signature");
    s.bias_type = join(t, i + 3, '_');
    return;
  }
  if (i < t.size() && t[i] == "compute") s.compute_suffix = "_" + join(t, i, '_');
  else if (i < t.size()) throw std::invalid_argument("unexpected " + in_quotes(join(t, i, '_')) + " in the params signature");
}

}  // namespace

Signature decode_signature(std::string_view op_signature, std::string_view params_signature) {
  Signature s;
  std::string_view rest;
  bool known = false;
  for (const OpPrefix& p : kOpPrefixes)
    if (op_signature.rfind(p.text, 0) == 0) {
      s.kind = p.kind;
      rest = op_signature.substr(p.text.size());
      known = true;
      break;
    }
  if (!known) throw std::invalid_argument("op " + in_quotes(op_signature) + " is not one of TunableOp's GEMMs");
  const std::size_t last = rest.rfind('_');
  const std::string_view letters = last == std::string_view::npos ? rest : rest.substr(last + 1);
  auto is_op = [](char c) { return c == 'N' || c == 'T'; };
  if (last == std::string_view::npos || letters.size() != 2 || !is_op(letters[0]) || !is_op(letters[1]))
    throw std::invalid_argument("op " + in_quotes(op_signature) + " does not end in the transposes (_NN, _NT, _TN, _TT)");
  s.types = split_types(rest.substr(0, last), s.kind);
  const std::vector<std::string> t = split(params_signature, '_');
  if (t[0].size() != 2) throw std::invalid_argument("params " + in_quotes(params_signature) + " do not start with the transposes");
  s.trans_a = static_cast<char>(std::tolower(static_cast<unsigned char>(t[0][0])));
  s.trans_b = static_cast<char>(std::tolower(static_cast<unsigned char>(t[0][1])));
  if (s.trans_a != std::tolower(letters[0]) || s.trans_b != std::tolower(letters[1]))
    throw std::invalid_argument("the op says " + std::string(letters) + " but the params say " + t[0]);
  s.m = size_token(t, 1, "M");
  s.n = size_token(t, 2, "N");
  s.k = size_token(t, 3, "K");
  decode_tail(s, t, 4);
  return s;
}


// ---- signature <-> GemmProblem -----------------------------------------------------------

namespace {

Precision precision_of_type(const std::string& type, std::vector<std::string>& notes) {
  if (type == "Half") return Precision::F16;
  if (type == "BFloat16") return Precision::BF16;
  if (type == "tf32") return Precision::TF32;
  if (type == "float") {
    notes.push_back("'float' read as strict f32; PyTorch releases before the 'tf32' TypeName wrote 'float' for TF32 "
                    "matmuls too");
    return Precision::F32;
  }
  throw std::invalid_argument("dtype " + in_quotes(type) + " is not one ktune tunes (Half, BFloat16, float, tf32, " +
                              "Float8_e4m3fn)");
}

Storage storage_of_type(const std::string& type) {
  if (type == "Half") return Storage::F16;
  if (type == "BFloat16") return Storage::BF16;
  if (type == "float" || type == "Float") return Storage::F32;
  throw std::invalid_argument("output dtype " + in_quotes(type) + " is not one ktune's fp8 GEMM writes (Half, BFloat16, float)");
}

// ScaledGemm: e4m3 inputs, per-tensor scales (ktune's fp8 GEMM), its output and bias types.
void map_scaled(const Signature& s, GemmProblem& p, std::vector<std::string>& notes) {
  if (s.types[0] != "Float8_e4m3fn" || s.types[1] != "Float8_e4m3fn")
    throw std::invalid_argument("fp8 inputs " + s.types[0] + " x " + s.types[1] + ": ktune's fp8 is e4m3 (Float8_e4m3fn)");
  if (s.rowwise) throw std::invalid_argument("row-wise scaling (rw_1): ktune's fp8 GEMM has per-tensor scales only");
  p.precision = Precision::F8E4M3;
  p.out = storage_of_type(s.types[2]);
  p.bias = s.bias_type != "None";
  if (p.bias && storage_of_type(s.bias_type) != p.bias_storage())
    throw std::invalid_argument("bias dtype " + s.bias_type + ": ktune's fp8 bias with " +
                                std::string(storage_name(p.out)) + " output is " + std::string(storage_name(p.bias_storage())));
  notes.push_back("scales: ktune measures per-tensor scales of 1 (the scale values do not change the algorithm)");
}

// The signature's leading dimensions must be the dense ones of the mapped problem.
void check_leading_dimensions(const Signature& s, std::vector<std::string>& notes) {
  if (!s.lda || !s.ldb || !s.ldc) {
    notes.push_back("no leading dimensions in this (older) signature: dense operands assumed");
    return;
  }
  const std::int64_t lda = s.trans_a == 'n' ? s.m : s.k;
  const std::int64_t ldb = s.trans_b == 'n' ? s.k : s.n;
  const std::int64_t ldc = s.m;
  if (*s.lda != lda || *s.ldb != ldb || *s.ldc != ldc)
    throw std::invalid_argument("leading dimensions " + std::to_string(*s.lda) + "/" + std::to_string(*s.ldb) + "/" +
                                std::to_string(*s.ldc) + " are not the dense " + std::to_string(lda) + "/" +
                                std::to_string(ldb) + "/" + std::to_string(ldc) + " ktune tunes (strided operands)");
}

GemmProblem problem_from_signature(const Signature& s, std::vector<std::string>& notes) {
  if (!s.compute_suffix.empty())
    throw std::invalid_argument("compute type " + s.compute_suffix.substr(1) + " (BF16x9 emulation) is not one ktune tunes");
  check_leading_dimensions(s, notes);
  GemmProblem p;
  // Column-major BLAS (m, n) = row-major (N, M); transa is B's letter, transb A's (header).
  p.m = s.n;
  p.n = s.m;
  p.k = s.k;
  p.batch = s.batch;
  p.a_transposed = s.trans_b == 't';
  p.b_transposed = s.trans_a == 't';
  if (s.kind == OpKind::ScaledGemm) {
    map_scaled(s, p, notes);
  } else {
    p.precision = precision_of_type(s.types[0], notes);
    p.out = default_output(p.precision);
  }
  if (s.kind == OpKind::Gemm)
    notes.push_back("alpha and beta are not in the signature: alpha 1, beta 0 assumed (addmm runs it with beta 1)");
  if (s.kind == OpKind::GemmAndBias) {
    p.bias = true;
    notes.push_back("whether RELU/GELU was fused is not in the signature: no activation assumed");
  }
  if (s.kind == OpKind::GemmStridedBatched)
    notes.push_back("batch strides are not in the signature: dense batches back to back, output dtype = input dtype assumed");
  validate(p);
  return p;
}

void describe_solution(Mapped& m) {
  switch (m.solution.kind) {
    case Solution::Kind::Cublaslt:
      m.config = cublaslt::to_config(*m.solution.algo, -1);
      break;
    case Solution::Kind::Default:
      m.notes.push_back("Default is PyTorch's untuned call; ktune's counterpart is its baseline, candidate 0 (cuBLASLt's "
                        "heuristic's first answer), not necessarily the same algorithm");
      break;
    case Solution::Kind::CublasltIndex:
      m.notes.push_back("solution " + m.entry.solution + " is index " + std::to_string(m.solution.index) +
                        " into the heuristic list of the PyTorch process that wrote it; the algorithm is not in the file");
      break;
    case Solution::Kind::Rocm:
      m.notes.push_back("solution " + m.entry.solution + " is a rocBLAS/hipBLASLt solution (ROCm), not a cuBLASLt one");
      break;
    case Solution::Kind::Unknown:
      m.notes.push_back("solution " + in_quotes(m.entry.solution) + " is not one ktune knows");
      break;
  }
}

std::string_view type_name_of(Precision p) {
  switch (p) {
    case Precision::F16: return "Half";
    case Precision::BF16: return "BFloat16";
    case Precision::F32: return "float";
    case Precision::TF32: return "tf32";
    case Precision::F8E4M3: break;
  }
  return "";
}

// Why TunableOp has no signature for `p`, or empty.
std::string unsupported_for_tunableop(const GemmProblem& p) {
  if (p.precision == Precision::F8E4M3)
    return "fp8: PyTorch's CUDA ScaledGemmTunableOp registers only Default (TunableGemm.h), so a cuBLASLt "
           "configuration would be ignored";
  if (p.out != p.a_storage())
    return "output dtype " + std::string(storage_name(p.out)) + " differs from the inputs' (" +
           std::string(storage_name(p.a_storage())) + "): TunableOp's GEMM signatures carry one type";
  if (p.alpha_f32() != 1.0f) return "alpha != 1: PyTorch's GEMMs that TunableOp tunes use alpha 1";
  if (p.bias && p.batch > 1) return "bias with batch > 1: PyTorch has no batched GemmAndBias";
  if (p.bias && p.reads_c()) return "bias with beta != 0: GemmAndBias does not read C";
  if (!p.bias && p.activation != Activation::None)
    return "relu/gelu without bias: PyTorch fuses activations only into GemmAndBias";
  if (!p.bias && p.beta_f32() != 0.0f && p.beta_f32() != 1.0f) return "beta other than 0 or 1: no PyTorch GEMM uses it";
  return "";
}

}  // namespace

Mapped map_entry(const Entry& entry) {
  Mapped m;
  m.entry = entry;
  m.solution = parse_solution(entry.solution);
  try {
    const Signature s = decode_signature(entry.op_signature, entry.params_signature);
    m.problem = problem_from_signature(s, m.notes);
  } catch (const std::exception& e) {
    m.reason = e.what();
    m.notes.clear();
  }
  describe_solution(m);
  return m;
}

std::string tune_command(const GemmProblem& p) {
  std::ostringstream out;
  out << "ktune tune gemm --m " << p.m << " --n " << p.n << " --k " << p.k << " --dtype " << precision_name(p.precision)
      << " --layout " << p.layout();
  if (p.batch != 1) out << " --batch " << p.batch;
  if (p.out != default_output(p.precision)) out << " --out-dtype " << storage_name(p.out);
  if (p.bias) out << " --bias";
  if (p.activation != Activation::None) out << " --" << activation_name(p.activation);
  if (p.alpha != 1.0) out << " --alpha " << p.alpha;
  if (p.beta != 0.0) out << " --beta " << p.beta;
  return out.str();
}

std::variant<SignaturePair, std::string> signature_for(const GemmProblem& p) {
  if (std::string why = unsupported_for_tunableop(p); !why.empty()) return why;
  const OpKind kind = p.bias ? OpKind::GemmAndBias : p.batch > 1 ? OpKind::GemmStridedBatched : OpKind::Gemm;
  // BLAS view (see the header): m = N, n = M, transa = B's letter, transb = A's letter.
  const char ta = p.b_transposed ? 't' : 'n', tb = p.a_transposed ? 't' : 'n';
  const std::int64_t m = p.n, n = p.m, k = p.k;
  const std::int64_t lda = ta == 'n' ? m : k, ldb = tb == 'n' ? k : n, ldc = m;
  SignaturePair s;
  s.op = std::string(op_prefix(kind)) + std::string(type_name_of(p.precision)) + "_" +
         static_cast<char>(std::toupper(ta)) + static_cast<char>(std::toupper(tb));
  s.params = std::string{ta, tb} + "_" + std::to_string(m) + "_" + std::to_string(n) + "_" + std::to_string(k);
  if (kind == OpKind::GemmStridedBatched) s.params += "_B_" + std::to_string(p.batch);
  s.params += "_ld_" + std::to_string(lda) + "_" + std::to_string(ldb) + "_" + std::to_string(ldc);
  return s;
}


nlohmann::json to_json(const Mapped& m) {
  nlohmann::json j = {{"line", m.entry.line},
                      {"op_signature", m.entry.op_signature},
                      {"params_signature", m.entry.params_signature},
                      {"solution", m.entry.solution},
                      {"solution_kind", solution_kind_name(m.solution.kind)},
                      {"time_ms", m.entry.time_ms ? nlohmann::json(*m.entry.time_ms) : nlohmann::json()},
                      {"notes", m.notes}};
  if (m.problem) {
    j["problem"] = m.problem->to_json();
    j["problem_name"] = m.problem->name();
    j["tune_command"] = tune_command(*m.problem);
  } else {
    j["reason"] = m.reason;
  }
  j["config"] = m.config ? config_to_json(*m.config) : nlohmann::json();
  return j;
}

// ---- export ------------------------------------------------------------------------------

namespace {


struct PickLine {
  std::string problem_name;
  bool reads_c = false;
  SignaturePair signature;
  std::string solution;
  std::optional<double> time_ms;
  std::int64_t library_version = 0;
  bool replaces_generated = false;  // ktune's pick was its own kernel; this is the fastest cuBLASLt one
};

std::string picked_family(const db::ResultRecord& pick) {
  const nlohmann::json from = pick.resources.value("picked_from", nlohmann::json::object());
  return from.is_object() && from.contains("family") && from.at("family").is_string() ? from.at("family").get<std::string>() : "";
}

// "cublaslt 13.0.2" (the kernel record of the cuBLASLt family) -> 130002, cublasLtGetVersion()'s
// form (major * 10000 + minor * 100 + patch), which PyTorch's CUBLASLT_VERSION validator prints.
std::optional<std::int64_t> library_version_of(const std::string& kernel_name) {
  constexpr std::string_view prefix = "cublaslt ";
  if (kernel_name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::vector<std::string> parts = split(std::string_view(kernel_name).substr(prefix.size()), '.');
  if (parts.size() != 3) return std::nullopt;
  std::int64_t version = 0;
  for (const std::string& part : parts) {
    const std::optional<std::int64_t> v = parse_number<std::int64_t>(part);
    if (!v || *v < 0 || *v > 99) return std::nullopt;
    version = version * 100 + *v;
  }
  return version;
}

std::optional<std::int64_t> picked_library_version(db::Database& database, const db::ResultRecord& pick) {
  const nlohmann::json from = pick.resources.value("picked_from", nlohmann::json::object());
  if (!from.is_object() || !from.contains("result_id") || !from.at("result_id").is_number_integer()) return std::nullopt;
  const std::optional<db::ResultRecord> measured = database.result(from.at("result_id").get<std::int64_t>());
  if (!measured) return std::nullopt;
  const std::optional<db::KernelRecord> kernel = database.kernel(measured->kernel_id);
  return kernel ? library_version_of(kernel->name) : std::nullopt;
}

std::optional<std::int64_t> kernel_library_version(db::Database& database, const db::ResultRecord& row) {
  const std::optional<db::KernelRecord> kernel = database.kernel(row.kernel_id);
  return kernel ? library_version_of(kernel->name) : std::nullopt;
}

// The line for one pick, or why there is none.
// `row`: a "gemm pick" row, or with `measured_directly` a cuBLASLt candidate's own row.
std::variant<PickLine, std::string> pick_line(db::Database& database, const db::ResultRecord& row, const GemmProblem& problem,
                                              bool measured_directly = false) {
  Config config;
  try {
    config = config_from_json(row.config);
  } catch (const std::exception& e) {
    return std::string("unreadable config: ") + e.what();
  }
  const auto family = config.find("family");
  const std::string name = family != config.end() && family->second.is_string() ? family->second.as_string() : "";
  if (name == "generated") return std::string("ktune's generated kernel: TunableOp can replay cuBLASLt configurations only");
  if (name != "cublaslt") return "family '" + name + "': not a cuBLASLt configuration";
  PickLine line;
  try {
    line.solution = cublaslt_solution_name(cublaslt::algo_config_from(config));
  } catch (const std::exception& e) {
    return std::string("malformed cuBLASLt config: ") + e.what();
  }
  const std::optional<std::int64_t> version = measured_directly ? kernel_library_version(database, row)
                                                                  : picked_library_version(database, row);
  if (!version) return std::string("cannot tell which cuBLASLt version measured it (its candidate's row is gone)");
  line.library_version = *version;
  auto signature = signature_for(problem);
  if (const std::string* why = std::get_if<std::string>(&signature)) return *why;
  line.signature = std::get<SignaturePair>(signature);
  line.problem_name = problem.name();
  line.reads_c = problem.reads_c();
  if (row.median_s) line.time_ms = *row.median_s * 1e3;
  return line;
}

// When ktune's pick is its own generated kernel, TunableOp cannot run it; the next best thing
// PyTorch can replay is the fastest cuBLASLt configuration measured for the problem on that
// device (the cuBLASLt default is one of them, so this never loses to PyTorch's untuned call by
// more than the measurement noise). nullopt when none was measured.
std::optional<PickLine> fastest_cublaslt_line(db::Database& database, const db::ResultRecord& pick, const GemmProblem& problem) {
  db::ResultQuery q;
  q.device_id = pick.device_id;
  q.problem_id = pick.problem_id;
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;  // one row per kernel: each cuBLASLt version's fastest
  std::optional<PickLine> best;
  for (const db::ResultRecord& row : database.query(q)) {
    if (!row.median_s || !kernel_library_version(database, row)) continue;
    auto line = pick_line(database, row, problem, true);
    PickLine* l = std::get_if<PickLine>(&line);
    if (l && (!best || *l->time_ms < *best->time_ms)) best = std::move(*l);
  }
  return best;
}

std::string device_list(db::Database& database, const std::vector<std::int64_t>& ids) {
  std::string text;
  for (std::int64_t id : ids)
    if (const auto d = database.device(id)) text += (text.empty() ? "" : ", ") + d->name + " [" + d->fingerprint + "]";
  return text;
}

db::DeviceRecord choose_device(db::Database& database, const std::vector<db::ResultRecord>& rows, const std::string& wanted) {
  std::vector<std::int64_t> ids;
  for (const db::ResultRecord& r : rows)
    if (std::find(ids.begin(), ids.end(), r.device_id) == ids.end()) ids.push_back(r.device_id);
  if (ids.empty()) throw ExportError("the database holds no GEMM picks ('ktune tune gemm' records them)");
  for (std::int64_t id : ids) {
    std::optional<db::DeviceRecord> d = database.device(id);
    if (d && (wanted.empty() ? ids.size() == 1 : d->fingerprint == wanted || d->name == wanted)) return *d;
  }
  if (wanted.empty())
    throw ExportError("GEMM picks for several devices (" + device_list(database, ids) +
                      "): a TunableOp file is for one device, choose it with --device");
  throw ExportError("no GEMM picks for device '" + wanted + "'; devices with picks: " + device_list(database, ids));
}

void set_validator(std::vector<std::pair<std::string, std::string>>& v, const std::string& key, const std::string& value) {
  for (auto& [k, old] : v)
    if (k == key) {
      old = value;
      return;
    }
  v.emplace_back(key, value);
}

std::vector<std::pair<std::string, std::string>> build_validators(const ExportOptions& options, const db::DeviceRecord& device,
                                                                  const std::vector<PickLine>& lines) {
  std::vector<std::pair<std::string, std::string>> v;
  if (options.validators) {
    v = *options.validators;
  } else {
    v.emplace_back("PT_VERSION", "");
    std::vector<std::int64_t> versions;
    for (const PickLine& l : lines)
      if (std::find(versions.begin(), versions.end(), l.library_version) == versions.end()) versions.push_back(l.library_version);
    if (versions.size() > 1 && !options.overrides.count("CUBLASLT_VERSION"))
      throw ExportError("the picks were measured with several cuBLASLt versions: name the one your PyTorch loads with "
                        "--validator CUBLASLT_VERSION=<cublasLtGetVersion()>");
    if (versions.size() == 1) v.emplace_back("CUBLASLT_VERSION", std::to_string(versions[0]));
    const std::string cc = device.properties.value("compute_capability", std::string());
    if (!cc.empty()) v.emplace_back("CUDA_DEVICE", cc + ":" + device.name);
  }
  for (const auto& [key, value] : options.overrides) set_validator(v, key, value);
  const auto pt = std::find_if(v.begin(), v.end(), [](const auto& kv) { return kv.first == "PT_VERSION"; });
  if (pt == v.end() || pt->second.empty())
    throw ExportError("PT_VERSION is required and must equal the user's torch.__version__ (PyTorch rejects the whole file "
                      "otherwise): give --pt-version or --validators-from a TunableOp file that PyTorch wrote");
  return v;
}

}  // namespace

ExportResult export_picks(db::Database& database, const ExportOptions& options) {
  db::ResultQuery q;
  q.kernel_name = std::string(kGemmPickKernel);
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;
  const std::vector<db::ResultRecord> rows = database.query(q);
  const db::DeviceRecord device = choose_device(database, rows, options.device);
  ExportResult out;
  out.device = device.name;
  std::vector<PickLine> lines;
  for (const db::ResultRecord& row : rows) {
    if (row.device_id != device.id) continue;
    const std::optional<db::ProblemRecord> record = database.problem(row.problem_id);
    std::variant<PickLine, std::string> line = std::string("not a GEMM problem");
    if (record) try {
        const GemmProblem problem = problem_from_json(record->spec);
        line = pick_line(database, row, problem);
        if (std::holds_alternative<std::string>(line) && picked_family(row) == "generated")
          if (std::optional<PickLine> lt = fastest_cublaslt_line(database, row, problem)) {
            lt->replaces_generated = true;
            line = std::move(*lt);
          }
      } catch (const std::exception& e) {
        line = std::string("not a GEMM problem: ") + e.what();
      }
    if (auto* l = std::get_if<PickLine>(&line)) lines.push_back(std::move(*l));
    else out.skipped.push_back({record ? record->name : "problem #" + std::to_string(row.problem_id), std::get<std::string>(line)});
  }
  out.validators = build_validators(options, device, lines);
  std::optional<std::string> declared;
  for (const auto& [k, v] : out.validators)
    if (k == "CUBLASLT_VERSION") declared = v;
  // beta 0 first: of two problems with one signature (mm and addmm), keep the plain GEMM's pick.
  std::stable_sort(lines.begin(), lines.end(), [](const PickLine& a, const PickLine& b) { return !a.reads_c && b.reads_c; });
  std::map<std::pair<std::string, std::string>, std::string> written;
  for (const PickLine& l : lines) {
    if (declared && *declared != std::to_string(l.library_version)) {
      out.skipped.push_back({l.problem_name, "measured with cuBLASLt " + std::to_string(l.library_version) +
                                                 "; the file declares CUBLASLT_VERSION " + *declared});
      continue;
    }
    const auto [it, fresh] = written.try_emplace({l.signature.op, l.signature.params}, l.problem_name);
    if (!fresh) {
      out.skipped.push_back({l.problem_name, "same TunableOp signature as " + it->second + " (one line per signature)"});
      continue;
    }
    out.entries.push_back({0, l.signature.op, l.signature.params, l.solution, l.time_ms, ""});
    out.problems.push_back(l.problem_name);
    if (l.replaces_generated) out.replaced.push_back(l.problem_name);
  }
  return out;
}

std::string ExportResult::text() const {
  std::ostringstream out;
  for (const auto& [key, value] : validators) out << "Validator," << key << "," << value << "\n";
  for (const Entry& e : entries) {
    out << e.op_signature << "," << e.params_signature << "," << e.solution;
    if (e.time_ms) out << "," << *e.time_ms;
    out << "\n";
  }
  return out.str();
}

nlohmann::json ExportResult::to_json() const {
  nlohmann::json j = {{"format", "pytorch-tunableop"}, {"device", device}, {"lines", entries.size()}};
  j["validators"] = nlohmann::json::object();
  for (const auto& [key, value] : validators) j["validators"][key] = value;
  j["entries"] = nlohmann::json::array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    j["entries"].push_back({{"problem", problems[i]},
                            {"op_signature", e.op_signature},
                            {"params_signature", e.params_signature},
                            {"solution", e.solution},
                            {"time_ms", e.time_ms ? nlohmann::json(*e.time_ms) : nlohmann::json()},
                            {"replaces_generated_kernel",
                             std::find(replaced.begin(), replaced.end(), problems[i]) != replaced.end()}});
  }
  j["skipped"] = nlohmann::json::array();
  for (const ExportSkip& s : skipped) j["skipped"].push_back({{"problem", s.problem}, {"reason", s.reason}});
  return j;
}

// ---- import ------------------------------------------------------------------------------

ImportResult import_file(const CsvFile& file) {
  ImportResult r;
  r.file = file;
  for (const Entry& e : file.entries) {
    Mapped m = map_entry(e);
    (m.problem ? r.mapped : r.unmapped).push_back(std::move(m));
  }
  return r;
}

nlohmann::json ImportResult::to_json() const {
  nlohmann::json j = {{"file", file.name}, {"errors", file.errors}, {"recorded", recorded}};
  j["validators"] = nlohmann::json::object();
  for (const auto& [key, value] : file.validators) j["validators"][key] = value;
  j["entries"] = nlohmann::json::array();
  for (const Mapped& m : mapped) j["entries"].push_back(tunableop::to_json(m));
  j["unmapped"] = nlohmann::json::array();
  for (const Mapped& m : unmapped) j["unmapped"].push_back(tunableop::to_json(m));
  return j;
}

namespace {

// The device and kernel the imported rows live under: "tunableop:<CUDA_DEVICE>" and
// "tunableop <PT_VERSION>", records of their own.
std::pair<std::int64_t, std::int64_t> import_records(db::Database& database, const CsvFile& file) {
  const std::string device = file.validator("CUDA_DEVICE").value_or("unknown");
  const std::string pt = file.validator("PT_VERSION").value_or("unknown");
  const std::string lt = file.validator("CUBLASLT_VERSION").value_or("");
  nlohmann::json validators = nlohmann::json::object();
  for (const auto& [key, value] : file.validators) validators[key] = value;
  const std::size_t colon = device.find(':');
  db::DeviceRecord d{0, "tunableop:" + device, "cuda", colon == std::string::npos ? device : device.substr(colon + 1),
                     {{"source", "pytorch-tunableop"}, {"validators", validators}}};
  db::KernelRecord k{0, sha256_hex("ktune-tunableop\n" + pt + "\n" + lt), "tunableop " + pt, "tunableop", file.name};
  return {database.upsert_device(d), database.upsert_kernel(k)};
}

}  // namespace

int record_entries(db::Database& database, const ImportResult& result) {
  const auto [device_id, kernel_id] = import_records(database, result.file);
  int recorded = 0;
  for (const Mapped& m : result.mapped) {
    if (!m.entry.time_ms) continue;
    const GemmProblem& p = *m.problem;
    db::ProblemRecord problem{0, p.hash(), p.name(), {{"M", p.m}, {"N", p.n}, {"K", p.k}, {"batch", p.batch}}, p.to_json()};
    db::ResultRecord r;
    r.device_id = device_id;
    r.kernel_id = kernel_id;
    r.problem_id = database.upsert_problem(problem);
    const Config config = m.config ? *m.config : Config{{"solution", Value::string(m.entry.solution)}};
    r.config_key = config_key(config);
    r.config = config_to_json(config);
    r.status = db::Status::Ok;
    r.median_s = *m.entry.time_ms * 1e-3;
    r.stop_reason = "imported";
    r.resources = {{"source", "pytorch-tunableop"}, {"file", result.file.name}, {"line", m.entry.line},
                   {"op_signature", m.entry.op_signature}, {"params_signature", m.entry.params_signature},
                   {"solution", m.entry.solution}, {"notes", m.notes}};
    database.insert_result(r);
    ++recorded;
  }
  return recorded;
}

}  // namespace ktune::gemm::tunableop
