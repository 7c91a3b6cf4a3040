#pragma once
// A GemmProblem as cuBLASLt sees it, its candidates (the heuristic's answers and the algorithm
// ids' configurations) and one call of cublasLtMatmul.
//
// cuBLASLt is column-major. The row-major D (M x N) is the column-major D^T (N x M), and
// D^T = op(X) op(Y) with X = the problem's B and Y = the problem's A:
//   X = B:  'n' -> stored as column-major N x K (ld N), op N;   't' -> K x N (ld K), op T
//   Y = A:  'n' -> stored as column-major K x M (ld K), op N;   't' -> M x K (ld M), op T
//   D, C:   N x M (ld N); cuBLASLt's (m, n, k) = (N, M, K); its bias (one per row of D^T)
//   is the problem's per-column bias.
// fp8 needs cuBLASLt's "TN" (X transposed, Y not), which is the problem's layout "nt".

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/families/cublaslt/cublaslt_api.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::cublaslt {

// Why cuBLASLt cannot run `problem` whatever the device, or nullopt.
std::optional<std::string> unsupported_reason(const gemm::GemmProblem& problem);

// The column-major description (see above), pure data: testable without the library.
struct LtShape {
  std::int32_t op_x = lt::kOpN, op_y = lt::kOpN;
  std::uint64_t x_rows = 0, x_cols = 0, y_rows = 0, y_cols = 0, d_rows = 0, d_cols = 0;
  std::int64_t ld_x = 0, ld_y = 0, ld_d = 0;
  std::int64_t stride_x = 0, stride_y = 0, stride_d = 0;  // elements between batch entries
  std::int32_t batch = 1;
  int compute_type = lt::kCompute32F, scale_type = lt::kR32F;
  int x_type = lt::kR16BF, y_type = lt::kR16BF, c_type = lt::kR16BF, d_type = lt::kR16BF, bias_type = lt::kR16BF;
  bool set_bias_type = false;  // only fp8 needs BIAS_DATA_TYPE spelled out
  std::uint32_t epilogue = lt::kEpilogueDefault;
  // Alignment the buffers guarantee (device allocations are 256-byte aligned; leading
  // dimensions and batch strides may lower it), for the heuristic's preferences.
  std::uint32_t align_x = 256, align_y = 256, align_c = 256, align_d = 256;
};
LtShape lt_shape(const gemm::GemmProblem& problem);
int data_type_of(gemm::Storage storage);  // cudaDataType value

// Owns the operation and layout descriptors for one problem.
class MatmulDescriptors {
 public:
  // Throws CublasLtError when a descriptor cannot be created or set (no GPU needed).
  // `bias` is the device address of the bias vector (the heuristic looks at its alignment);
  // null without bias.
  MatmulDescriptors(std::shared_ptr<const CublasLt> library, const gemm::GemmProblem& problem, const void* bias);
  ~MatmulDescriptors();
  MatmulDescriptors(const MatmulDescriptors&) = delete;
  MatmulDescriptors& operator=(const MatmulDescriptors&) = delete;

  const LtShape& shape() const { return shape_; }
  MatmulDesc desc() const { return desc_; }
  // Points the bias epilogue at another vector (problems with a bias only). Not thread-safe:
  // the caller serialises it with the matmuls that use the descriptors.
  void set_bias(const void* bias);
  MatrixLayout x() const { return x_; }
  MatrixLayout y() const { return y_; }
  MatrixLayout c() const { return c_; }
  MatrixLayout d() const { return d_; }

 private:
  std::shared_ptr<const CublasLt> library_;
  LtShape shape_;
  MatmulDesc desc_ = nullptr;
  MatrixLayout x_ = nullptr, y_ = nullptr, c_ = nullptr, d_ = nullptr;
};

// The settable part of an algorithm (cublasLtMatmulAlgoConfigAttributes_t).
struct AlgoConfig {
  std::int32_t algo_id = 0;
  std::uint32_t tile = 0;
  std::uint32_t stages = 0;
  std::int32_t splitk = 1;
  std::uint32_t reduction = lt::kReductionNone;
  std::uint32_t swizzle = 0;
  std::uint32_t custom = 0;
  std::uint16_t inner_shape = 0;
  std::uint16_t cluster = 0;
  bool operator==(const AlgoConfig&) const = default;
};

// The Config stored in the tuning database: family "cublaslt", algo, tile ("128x256"),
// stages ("64x4"), splitk, reduction ("none", "inplace", "compute", "output"), swizzle,
// custom, inner, cluster ("auto", "2x1x1"), heuristic (the heuristic's rank, -1 when the
// config came from enumerating algorithm ids).
Config to_config(const AlgoConfig& algo, int heuristic_rank);
// Inverse of to_config; throws std::invalid_argument naming a missing or malformed key.
AlgoConfig algo_config_from(const Config& config);
int heuristic_rank_of(const Config& config);  // -1 when absent

// Reads the configuration of an algorithm descriptor (attributes the library does not know
// keep their defaults).
AlgoConfig read_algo_config(const CublasLt& library, const MatmulAlgo& algo);
// cublasLtMatmulAlgoInit + ConfigSetAttribute for each field. Throws CublasLtError.
MatmulAlgo build_algo(const CublasLt& library, Handle handle, const LtShape& shape, const AlgoConfig& config);

std::string algo_to_hex(const MatmulAlgo& algo);
// Throws std::invalid_argument unless `hex` is 128 hex digits.
MatmulAlgo algo_from_hex(const std::string& hex);

struct Candidate {
  Config config;  // to_config(algo_config, heuristic_rank)
  AlgoConfig algo_config;
  MatmulAlgo algo{};          // the exact descriptor (valid for this library version only)
  std::string source;         // "heuristic" or "enumerated"
  int heuristic_rank = -1;
  std::size_t workspace_bytes = 0;
  float waves = 0;            // cuBLASLt's device-utilisation estimate (1.0: one full wave)
  double score = 0;           // ktune's ranking of enumerated configs (see select_candidates)
  // r when r split-K partial sums are reduced in the output type, else 0 (ErrorModel).
  int split_partials() const;
};
nlohmann::json candidate_to_json(const Candidate& candidate);
// Throws std::invalid_argument on malformed input.
Candidate candidate_from_json(const nlohmann::json& j);

struct EnumerationOptions {
  int heuristic_count = 8;        // the heuristic's top answers (the first is the baseline)
  int max_candidates = 32;        // in all, heuristic ones included
  std::size_t workspace_bytes = std::size_t{32} << 20;
  std::size_t max_checks = 20000; // cublasLtMatmulAlgoCheck calls (a few microseconds each)
  int max_algo_ids = 256;
  // The heuristic's answers again with each other thread-block cluster shape (sm_90+ kernels
  // take one; the heuristic's list holds few of them per tile).
  bool cluster_variants = false;
};
nlohmann::json enumeration_options_to_json(const EnumerationOptions& o);
EnumerationOptions enumeration_options_from_json(const nlohmann::json& j);  // missing keys: defaults

// The heuristic's answers, each with every other thread-block cluster shape of at most 8 CTAs
// (1x1x1 .. 2x4x1), in answer order, without repeats or the answers themselves. Answers whose
// cluster is "auto" (kernels that take none) give nothing. AlgoCheck has the last word.
std::vector<AlgoConfig> cluster_variants(const std::vector<AlgoConfig>& answers);

struct Enumeration {
  std::vector<Candidate> candidates;  // [0]: the heuristic's first choice (the baseline)
  int heuristic_returned = 0;
  int algo_ids = 0;
  std::size_t checked = 0;    // AlgoCheck calls
  std::size_t valid = 0;      // configurations that passed
  bool truncated = false;     // max_checks reached
  double seconds = 0;
  std::vector<std::string> notes;  // why algorithms were skipped, heuristic status
  nlohmann::json summary() const;  // everything but the candidates
};

// Asks the heuristic for its top answers and expands every algorithm id's capabilities (tile x
// stages; then split-K with each supported reduction scheme, CTA swizzle and custom options
// around the most promising ones), keeping the configurations that cublasLtMatmulAlgoCheck
// accepts within the workspace limit, then picks up to max_candidates (select_candidates).
// Needs a handle (a GPU). An empty list (with notes) when nothing runs.
Enumeration enumerate_candidates(const CublasLt& library, Handle handle, const MatmulDescriptors& descriptors,
                                 const gemm::GemmProblem& problem, const EnumerationOptions& options);

// Orders what enumerate_candidates found (pure, testable): the heuristic's answers first, in
// its order and without duplicates; then, for half of what is left, the enumerated configs
// closest to the heuristic's choices (same algorithm and tile: other stages, split-K, swizzle,
// custom options), best score first; then one config per (algorithm, tile) by score,
// round-robin over algorithms so no single algorithm crowds out the rest.
// score = tile utilisation (the fraction of the padded tile grid that is real output) x wave
// efficiency (waves / ceil(waves), or waves below one wave) x sqrt(tile intensity relative to
// the best tile), filled in by this function.
std::vector<Candidate> select_candidates(std::vector<Candidate> heuristic, std::vector<Candidate> enumerated,
                                         const gemm::GemmProblem& problem, int max_candidates);

// Device buffers of one problem (the X/Y naming above is handled inside).
struct MatmulBuffers {
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;  // null when beta == 0 (D is passed as C; it is not read)
  void* d = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// Enqueues one matmul on `stream`; throws CublasLtError when cuBLASLt refuses it.
void enqueue_matmul(const CublasLt& library, Handle handle, const MatmulDescriptors& descriptors,
                    const gemm::GemmProblem& problem, const MatmulAlgo& algo, const MatmulBuffers& buffers,
                    Stream stream);

// cublasLtMatmulAlgoCheck: the workspace the algorithm needs and its wave count, or the
// status that says it cannot run.
struct AlgoCheck {
  Status status = lt::kSuccess;
  std::size_t workspace_bytes = 0;
  float waves = 0;
};
AlgoCheck check_algo(const CublasLt& library, Handle handle, const MatmulDescriptors& descriptors,
                     const MatmulAlgo& algo);

}  // namespace ktune::cublaslt
