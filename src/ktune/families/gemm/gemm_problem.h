#pragma once
// The GEMM operation ktune tunes without a spec file: D = act(alpha * op(A) op(B) + beta * C + bias),
// batched, described in row-major terms (the way PyTorch and Triton users think of it):
//
//   A is M x K, B is K x N, C and D are M x N, all row-major, `batch` of each stored back to back.
//   layout "nt" etc.: the first letter is A's storage, the second B's.
//     A 'n': stored M x K row-major (K contiguous)      A 't': stored K x M row-major (M contiguous)
//     B 'n': stored K x N row-major (N contiguous)      B 't': stored N x K row-major (K contiguous)
//   So `x @ w.T` with a Linear weight w (N x K) is layout "nt".
//   bias has N elements (one per output column, as in a Linear layer), shared by every row and
//   every batch. The activation (relu, or gelu with the tanh approximation that cuBLASLt uses)
//   is applied after the bias.
//
// Precisions (--dtype): f16, bf16 (fp32 accumulation), f32 (strict fp32 math), tf32 (f32
// storage, TF32 tensor-core math), fp8 (e4m3 inputs, fp32 accumulation; Hopper and newer).
// alpha and beta are fp32 scalars on the device; the reference uses them rounded to fp32.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::gemm {

// A GEMM description that cannot be run: bad sizes, unknown dtype, unsupported combination.
class GemmError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// How elements are stored in memory.
enum class Storage { F16, BF16, F32, F8E4M3 };
std::string_view storage_name(Storage s);  // "f16", "bf16", "f32", "f8e4m3"
std::size_t storage_size(Storage s);
// f16/fp16/half, bf16/bfloat16, f32/fp32/float, f8e4m3/fp8/e4m3. nullopt otherwise.
std::optional<Storage> parse_storage(std::string_view name);

// The --dtype: input storage plus the math used.
enum class Precision { F16, BF16, F32, TF32, F8E4M3 };
std::string_view precision_name(Precision p);  // "f16", "bf16", "f32", "tf32", "fp8"
// Accepts the storage names above plus "tf32"; "fp8", "f8", "e4m3", "f8e4m3", "fp8e4m3".
std::optional<Precision> parse_precision(std::string_view name);
Storage input_storage(Precision p);  // tf32 -> f32, fp8 -> f8e4m3
// What --out-dtype defaults to: the input storage, except bf16 for fp8 inputs.
Storage default_output(Precision p);

enum class Activation { None, Relu, Gelu };
std::string_view activation_name(Activation a);  // "none", "relu", "gelu"
std::optional<Activation> parse_activation(std::string_view name);

struct GemmProblem {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch = 1;
  bool a_transposed = false;  // layout letter 1 is 't'
  bool b_transposed = false;  // layout letter 2 is 't'
  Precision precision = Precision::BF16;
  Storage out = Storage::BF16;  // C (when beta != 0) and D
  double alpha = 1.0, beta = 0.0;
  bool bias = false;
  Activation activation = Activation::None;

  std::string layout() const;  // "nn", "nt", "tn", "tt"
  Storage a_storage() const { return input_storage(precision); }
  Storage b_storage() const { return input_storage(precision); }
  // The bias vector's storage: the output's, except bf16 for fp8 inputs with an f32 output
  // (what cuBLASLt requires there).
  Storage bias_storage() const;
  float alpha_f32() const { return static_cast<float>(alpha); }
  float beta_f32() const { return static_cast<float>(beta); }
  bool reads_c() const { return beta_f32() != 0.0f; }

  std::int64_t a_elements() const { return batch * m * k; }
  std::int64_t b_elements() const { return batch * k * n; }
  std::int64_t d_elements() const { return batch * m * n; }
  std::int64_t c_elements() const { return reads_c() ? d_elements() : 0; }
  std::int64_t bias_elements() const { return bias ? n : 0; }

  // Offsets into the stored arrays of logical A(bi, i, kk), B(bi, kk, j), D(bi, i, j).
  std::int64_t a_offset(std::int64_t bi, std::int64_t i, std::int64_t kk) const {
    return bi * m * k + (a_transposed ? kk * m + i : i * k + kk);
  }
  std::int64_t b_offset(std::int64_t bi, std::int64_t kk, std::int64_t j) const {
    return bi * k * n + (b_transposed ? j * k + kk : kk * n + j);
  }
  std::int64_t d_offset(std::int64_t bi, std::int64_t i, std::int64_t j) const { return bi * m * n + i * n + j; }

  // 2 M N K batch: the multiply-adds only (epilogue work is not counted, as everyone reports it).
  double flops() const;
  // The least traffic: A and B read once, D written once, C read when beta != 0, the bias read.
  double bytes() const;
  // "gemm 4096x4096x4096 bf16 nn", plus "batch 8", "-> f32", "+bias", "+gelu", "alpha=2", "beta=1".
  std::string name() const;
  // {"op": "gemm", "m", "n", "k", "batch", "layout", "dtype", "out_dtype", "alpha", "beta",
  //  "bias", "activation"}: the canonical description (what the database stores and hashes).
  nlohmann::json to_json() const;
  // Identity for the database: SHA-256 hex of to_json() (keys sorted) with a format version.
  std::string hash() const;
  bool operator==(const GemmProblem&) const = default;
};

// Throws GemmError with a sentence naming the field when the problem cannot be run: a size
// < 1 or too large, a non-finite alpha/beta, an output dtype the inputs cannot produce
// (f16 -> f16|f32, bf16 -> bf16|f32, f32/tf32 -> f32, fp8 -> bf16|f16|f32).
void validate(const GemmProblem& problem);

// Parses "nn"/"nt"/"tn"/"tt" (case-insensitive) into the problem; throws GemmError otherwise.
void set_layout(GemmProblem& problem, std::string_view layout);

// Reads the canonical JSON (to_json's keys; "op", "batch", "layout", "out_dtype", "alpha",
// "beta", "bias", "activation" optional). Unknown keys and wrong types throw GemmError naming
// the key. The result is validated.
GemmProblem problem_from_json(const nlohmann::json& j);

// A gemm spec file: the problem plus which families to try. The YAML reader is in
// gemm_spec_yaml.cc (the only part of the GEMM problem that needs yaml-cpp).
//
//   gemm:              # required
//     m: 4096          # required, also n and k
//     n: 4096
//     k: 4096
//     dtype: bf16      # f16 | bf16 | f32 | tf32 | fp8   (default bf16)
//     layout: nn       # nn | nt | tn | tt                (default nn)
//     batch: 1
//     alpha: 1.0
//     beta: 0.0
//     bias: false
//     activation: none # none | relu | gelu
//     out_dtype: bf16  # default: see default_output
//   families: [cublaslt]   # optional
struct GemmSpec {
  GemmProblem problem;
  std::vector<std::string> families;  // empty: not given
};

// Throws SourceError (file:line:col: message) for malformed YAML, unknown keys, wrong types or
// an invalid problem.
GemmSpec parse_gemm_spec(const std::string& yaml_text, const std::string& file_name);
GemmSpec load_gemm_spec(const std::filesystem::path& path);
// True when `path` holds YAML whose top level is a map with a 'gemm' key (so `ktune tune FILE`
// runs the gemm operation); false for anything else, unreadable or malformed files included
// (the kernel spec loader then reports what is wrong).
bool is_gemm_spec_file(const std::filesystem::path& path);

// What a command line gave (unset: keep the spec's value, else the default). --dtype without
// --out-dtype resets the output to default_output of the new dtype.
struct GemmFields {
  std::optional<std::int64_t> m, n, k, batch;
  std::optional<std::string> dtype, layout, out_dtype, activation, families;
  std::optional<double> alpha, beta;
  std::optional<bool> bias;
};

// The problem (and families) from an optional spec overridden by `fields`. Throws GemmError
// for a bad value, for missing m/n/k when there is no spec, and for an invalid result.
GemmSpec resolve_gemm_spec(const GemmFields& fields, const std::optional<GemmSpec>& base);

// The families ktune knows for gemm: "generated" (ktune's own kernels) and "cublaslt".
// Parses a comma-separated list; throws GemmError for an unknown name or an empty list.
std::vector<std::string> parse_families(std::string_view text);

}  // namespace ktune::gemm
