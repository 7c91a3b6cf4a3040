#pragma once
// PyTorch TunableOp's results file (tunableop_results<ordinal>.csv): read it into ktune's GEMM
// problems and cuBLASLt configs, and write ktune's picks as one PyTorch can replay.
//
// The format, as PyTorch's aten/src/ATen/cuda/tunable/ reads and writes it
// (Tunable.cpp: TuningContext::ReadFile, TuningResultsManager::InitRealtimeAppend /
// AppendResultLine, TuningResultsValidator; TunableGemm.h: the op signatures; GemmCommon.h:
// the params signatures, GemmParams::Signature() and friends; GemmCublaslt.h: the solution
// names on CUDA):
//
//   Validator,PT_VERSION,2.10.0
//   Validator,CUBLASLT_VERSION,130002
//   Validator,CUDA_DEVICE,9.0:NVIDIA H100 80GB HBM3
//   GemmTunableOp_BFloat16_TN,tn_11008_8192_4096_ld_4096_4096_11008,Gemm_Cublaslt_id_66_tile_...,0.512
//   <op signature>,<params signature>,<solution name>[,<time in ms>[,BLAS_PARAMS: ...]]
//
// Lines are split on ','; empty lines are skipped; "Validator,KEY,VALUE" lines are checked
// all together (TuningResultsValidator::ValidateAll): the file's keys must be exactly the keys
// the running PyTorch registers (CheckKeysMatching), PT_VERSION is mandatory
// (mandatory_keys), and every value must equal the running PyTorch's. On CUDA builds PyTorch
// registers PT_VERSION (TORCH_VERSION), CUBLASLT_VERSION (cublasLtGetVersion(), e.g. 130002)
// and CUDA_DEVICE ("<major>.<minor>:<device name>"); older releases registered PT_VERSION only.
// One mismatch and PyTorch ignores the whole file. The time is optional (3-field lines load
// with time 0); with PYTORCH_TUNABLEOP_BLAS_LOG=1 a ",BLAS_PARAMS: - { function: matmul, ... }"
// tail (itself full of commas) follows it. The first line of a repeated (op, params) pair wins.
//
// Op signatures (TunableGemm.h, Signature()): GemmTunableOp_<T>_<AB>,
// GemmAndBiasTunableOp_<T>_<AB>, GemmStridedBatchedTunableOp_<T>_<AB>,
// ScaledGemmTunableOp_<TA>_<TB>_<TC>_<AB>, with T from TypeName(): Half, BFloat16, float
// (tf32 when float32 matmul precision is TF32, bfx9 for BF16x9; older releases wrote "float"
// either way), double, Float8_e4m3fn, ..., and AB the BLAS transposes in capitals.
// Params signatures (GemmCommon.h, Signature()), lower-case transposes then sizes:
//   Gemm, GemmAndBias:     ab_M_N_K_ld_LDA_LDB_LDC[_compute_bf16x9_r]
//   GemmStridedBatched:    ab_M_N_K_B_BATCH_ld_LDA_LDB_LDC[_compute_bf16x9_r]
//   ScaledGemm:            ab_M_N_K_ld_LDA_LDB_LDC_rw_<0|1>_bias_<None|BFloat16|Half|Float>
// (releases before the leading dimensions wrote ab_M_N_K and ab_M_N_K_B_BATCH; a '*' token is a
// wildcard entry of dynamic-shape tuning). Solution names: "Default" (PyTorch's untuned call:
// gemm_internal, gemm_and_bias, bgemm_internal, scaled_gemm), on CUDA
// "Gemm_Cublaslt_id_<algo>_tile_<tile id>_stages_<stages id>_splitk_<n>_red_<reduction scheme>
// _swizzle_<n>_custom_<n>_inner_<inner shape id>_cluster_<cluster shape id>" (GemmCublaslt.h,
// CublasltAlgoConfigName; the raw cublasLtMatmulAlgoConfigAttributes_t values, which
// CublasltMatmulTunableOp::RegisterOpForResult turns back into an algorithm with
// cublasLtMatmulAlgoInit + ConfigSetAttribute + AlgoCheck: a cuBLASLt configuration ktune
// measured can be replayed by name, it is not an index into a heuristic list). Not every release
// has that: PyTorch 2.11.0+cu130 (the lent H100, 2026-11-25) registers only the PT_VERSION
// validator and, with a Gemm_Cublaslt_id_ line loaded, raised "Expected iter != ops_.end()" on
// the first GEMM of that signature; ktune.torch checks the replay in a child process before
// loading a file (python/ktune/torch.py). An earlier
// CUDA implementation (GemmCublasLt.h) named its candidates "Gemm_Cublaslt_<AB>_<i>", i being
// the index into that process's cublasLtMatmulAlgoGetHeuristic answers: not an algorithm, so
// ktune cannot map it. ROCm writes "Gemm_Rocblas_<solution index>" and
// "Gemm_Hipblaslt_<AB>_<algo index>" (GemmRocblas.h, GemmHipblaslt.h); those are kept and
// reported as not applicable. A name PyTorch does not know falls back to Default
// (TunableOp::operator(): "missing candidate ..., using default").
//
// The transposes. TunableOp records the column-major BLAS call at::cuda::blas::gemm receives
// (Blas.cpp, addmm_out_cuda_impl): for the row-major D = A B (M x N) torch computes the
// column-major D^T (N x M, ldc = N) = op(X) op(Y) with X = B's storage and Y = A's storage, so
//   BLAS m = N,  BLAS n = M,  k = K,  transa = ktune's B letter,  transb = ktune's A letter:
//   ktune "nn" <-> "nn",  "nt" <-> "tn",  "tn" <-> "nt",  "tt" <-> "tt" (letters swapped),
// and the dense leading dimensions are lda = (transa 'n' ? m : k), ldb = (transb 'n' ? k : n),
// ldc = m (BLAS terms). The same mapping as cublaslt::lt_shape, which the tests check.
// Worked example, a Linear layer y = x @ w.T with x [M=8192, K=4096] and w [N=11008, K=4096]
// (ktune: M 8192, N 11008, K 4096, layout "nt": A as the logical M x K, B stored N x K):
// w's row-major N x K storage read column-major is K x N with ld K, and the call needs the
// N x K op(X), so transa = 't', lda = K = 4096; x's row-major M x K storage read column-major
// is K x M with ld K, which is the K x M op(Y) as is, so transb = 'n', ldb = K = 4096; D^T is
// N x M with ldc = N = 11008. TunableOp writes GemmTunableOp_BFloat16_TN,
// tn_11008_8192_4096_ld_4096_4096_11008, and reading it back gives M = n = 8192,
// N = m = 11008, K = 4096, A letter = transb = 'n', B letter = transa = 't': "nt".
//
// What the signatures do not say (so the mapping assumes it, and says so in `notes`): alpha
// (1) and beta (0; GemmTunableOp is also used by addmm with beta 1), whether GemmAndBias
// fused RELU/GELU (none assumed), batch strides (dense, back to back), an output dtype
// different from the inputs' for strided-batched GEMMs (same assumed).

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::db {
class Database;
}

namespace ktune::gemm::tunableop {

// One result line of the file.
struct Entry {
  int line = 0;                  // 1-based line number in the file
  std::string op_signature;      // "GemmTunableOp_BFloat16_TN"
  std::string params_signature;  // "tn_11008_8192_4096_ld_4096_4096_11008"
  std::string solution;          // "Default", "Gemm_Cublaslt_id_...", "Gemm_Rocblas_1234", ...
  std::optional<double> time_ms;  // absent on 3-field lines
  std::string blas_params;        // the BLAS_PARAMS tail, when there was one
};

struct CsvFile {
  std::string name;  // for messages
  std::vector<std::pair<std::string, std::string>> validators;  // in file order (last value of a repeated key)
  std::vector<Entry> entries;                                    // well-formed result lines, in file order
  // Lines that are not well-formed, as "file:line: what is wrong" (the line is not in entries).
  std::vector<std::string> errors;
  std::optional<std::string> validator(std::string_view key) const;
};

// Never throws for bad content: malformed lines go to `errors`, repeated (op, params) pairs too
// (the first is kept, as PyTorch does).
CsvFile parse_csv(std::string_view text, const std::string& file_name);
// Throws std::runtime_error naming the path when it cannot be read.
CsvFile read_csv(const std::filesystem::path& path);

// The solution column, decoded.
struct Solution {
  enum class Kind {
    Default,          // PyTorch's untuned call; ktune's baseline (candidate 0) plays that role
    Cublaslt,         // a cuBLASLt configuration: `algo` holds it
    CublasltIndex,    // legacy "Gemm_Cublaslt_<AB>_<i>": an index into a heuristic list
    Rocm,             // Gemm_Rocblas_* / Gemm_Hipblaslt_*
    Unknown,
  };
  Kind kind = Kind::Unknown;
  std::optional<cublaslt::AlgoConfig> algo;
  int index = -1;  // CublasltIndex
};
Solution parse_solution(std::string_view name);
std::string_view solution_kind_name(Solution::Kind kind);  // "default", "cublaslt", ...
// GemmCublaslt.h's CublasltAlgoConfigName for CUDA 12+ builds (with _inner_.._cluster_..).
std::string cublaslt_solution_name(const cublaslt::AlgoConfig& algo);

// The BLAS-level description in a signature pair.
enum class OpKind { Gemm, GemmAndBias, GemmStridedBatched, ScaledGemm };
struct Signature {
  OpKind kind = OpKind::Gemm;
  std::vector<std::string> types;  // one (T) or three (TA, TB, TC for ScaledGemm) TypeNames
  char trans_a = 'n', trans_b = 'n';  // lower case
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  std::optional<std::int64_t> lda, ldb, ldc;  // absent in older releases' signatures
  bool rowwise = false;              // ScaledGemm rw_1
  std::string bias_type = "None";    // ScaledGemm bias_<type>
  std::string compute_suffix;        // "_compute_bf16x9_r" when present
};
// Throws std::invalid_argument with what is wrong with either signature.
Signature decode_signature(std::string_view op_signature, std::string_view params_signature);

// An entry read as ktune sees it.
struct Mapped {
  Entry entry;
  Solution solution;
  std::optional<GemmProblem> problem;  // absent: `reason` says why
  std::optional<Config> config;        // ktune's cublaslt Config when the solution is one
  std::string reason;                  // why there is no problem
  std::vector<std::string> notes;      // assumptions the signature could not settle; the solution
};
nlohmann::json to_json(const Mapped& mapped);
Mapped map_entry(const Entry& entry);
// The `ktune tune gemm ...` command line that tunes `problem`.
std::string tune_command(const GemmProblem& problem);

// The (op, params) signature pair PyTorch would write for `problem`, or the reason there is none
// (fp8: CUDA's ScaledGemmTunableOp registers Default only; an output dtype other than the
// inputs'; alpha != 1; an activation without bias; bias with batch; ...).
struct SignaturePair {
  std::string op, params;
};
std::variant<SignaturePair, std::string> signature_for(const GemmProblem& problem);

// ---- ktune's database <-> TunableOp file --------------------------------------------------

struct ExportOptions {
  // The validator set to write as is (from a TunableOp file the user's PyTorch wrote): its keys
  // are what that PyTorch checks. Absent: PT_VERSION from `overrides` (required) plus
  // CUBLASLT_VERSION and CUDA_DEVICE derived from the database.
  std::optional<std::vector<std::pair<std::string, std::string>>> validators;
  std::map<std::string, std::string> overrides;  // KEY -> VALUE, added or replacing
  std::string device;  // fingerprint or name; required when picks span several devices
};

struct ExportSkip {
  std::string problem;  // ktune's problem name
  std::string reason;
};

struct ExportResult {
  std::vector<std::pair<std::string, std::string>> validators;
  std::vector<Entry> entries;
  std::vector<std::string> problems;  // ktune's problem name of each entry
  // Problems whose pick is ktune's generated kernel, written with their fastest measured
  // cuBLASLt configuration instead (what PyTorch can replay).
  std::vector<std::string> replaced;
  std::vector<ExportSkip> skipped;
  std::string device;  // the device's name
  std::string text() const;  // the CSV file
  nlohmann::json to_json() const;
};

// Thrown for an export that cannot be written as asked (no PT_VERSION, several devices, ...).
class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// For each GEMM problem, ktune's pick (the "gemm pick" kernel's best row, what `ktune best`
// returns) as a TunableOp line when it is a cuBLASLt configuration measured with the library
// whose version the file declares. A pick that is ktune's generated kernel (TunableOp cannot run
// it) is written as the fastest cuBLASLt configuration measured for that problem (`replaced`),
// or skipped when there is none; problems without a signature are skipped, each with its reason.
ExportResult export_picks(db::Database& database, const ExportOptions& options);

struct ImportResult {
  CsvFile file;
  std::vector<Mapped> mapped;    // entries with a problem
  std::vector<Mapped> unmapped;  // entries without one (reason set)
  int recorded = 0;
  nlohmann::json to_json() const;
};

ImportResult import_file(const CsvFile& file);
// Stores each mapped entry that has a time as a result of the device "tunableop:<CUDA_DEVICE>"
// (a record of its own: PyTorch's timings never mix with ktune's measurements, resume or
// `ktune best` of a real device) and the kernel "tunableop <PT_VERSION>": status ok,
// median = the file's time, 0 samples, stop_reason "imported", the line and signatures in
// resources. The problems are upserted as `ktune tune gemm` would. Returns how many rows.
int record_entries(db::Database& database, const ImportResult& result);

}  // namespace ktune::gemm::tunableop
