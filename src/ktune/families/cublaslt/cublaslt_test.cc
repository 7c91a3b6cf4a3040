// cuBLASLt family tests that need no GPU: the declared ABI against the installed headers, the
// row-major -> column-major mapping (executed on the CPU), configs, candidate selection, and the
// loader's messages. With the toolkit's libcublasLt present, descriptors are created for real.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "ktune/core/sanitized_build.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/cublaslt/cublaslt_api.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/cublaslt/cublaslt_names.h"
#include "ktune/families/gemm/gemm_reference.h"
#include "ktune/families/gemm/gemm_worker.h"
#if KTUNE_ASAN
#include <sanitizer/lsan_interface.h>
#endif

namespace ktune::cublaslt {
namespace {

using gemm::GemmProblem;
using gemm::Precision;

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::string read_header(const std::string& name) {
  std::ifstream in(std::string(KTUNE_CUDA_HOME) + "/include/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value of `NAME = value` in a header, or -1.
long long header_value(const std::string& header, const std::string& name) {
  std::smatch m;
  const std::regex re("\\b" + name + "\\s*=\\s*(-?[0-9]+)");
  if (std::regex_search(header, m, re)) return std::stoll(m[1]);
  return -1;
}

TEST(CublasLtAbi, ConstantsMatchTheInstalledHeaders) {
  const std::string lt_h = read_header("cublasLt.h");
  const std::string api_h = read_header("cublas_api.h");
  const std::string types_h = read_header("library_types.h");
  if (lt_h.empty() || api_h.empty() || types_h.empty())
    GTEST_SKIP() << "CUDA headers not found under " << KTUNE_CUDA_HOME << "/include";
  const std::vector<std::pair<std::string, long long>> lt_values = {
      {"CUBLASLT_MATMUL_DESC_COMPUTE_TYPE", lt::kDescComputeType},
      {"CUBLASLT_MATMUL_DESC_SCALE_TYPE", lt::kDescScaleType},
      {"CUBLASLT_MATMUL_DESC_POINTER_MODE", lt::kDescPointerMode},
      {"CUBLASLT_MATMUL_DESC_TRANSA", lt::kDescTransA},
      {"CUBLASLT_MATMUL_DESC_TRANSB", lt::kDescTransB},
      {"CUBLASLT_MATMUL_DESC_EPILOGUE", lt::kDescEpilogue},
      {"CUBLASLT_MATMUL_DESC_BIAS_POINTER", lt::kDescBiasPointer},
      {"CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE", lt::kDescBiasBatchStride},
      {"CUBLASLT_MATMUL_DESC_FAST_ACCUM", lt::kDescFastAccum},
      {"CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE", lt::kDescBiasDataType},
      {"CUBLASLT_MATRIX_LAYOUT_TYPE", lt::kLayoutType},
      {"CUBLASLT_MATRIX_LAYOUT_ORDER", lt::kLayoutOrder},
      {"CUBLASLT_MATRIX_LAYOUT_ROWS", lt::kLayoutRows},
      {"CUBLASLT_MATRIX_LAYOUT_COLS", lt::kLayoutCols},
      {"CUBLASLT_MATRIX_LAYOUT_LD", lt::kLayoutLd},
      {"CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT", lt::kLayoutBatchCount},
      {"CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET", lt::kLayoutStridedBatchOffset},
      {"CUBLASLT_EPILOGUE_DEFAULT", lt::kEpilogueDefault},
      {"CUBLASLT_EPILOGUE_RELU", lt::kEpilogueRelu},
      {"CUBLASLT_EPILOGUE_BIAS", lt::kEpilogueBias},
      {"CUBLASLT_EPILOGUE_GELU", lt::kEpilogueGelu},
      {"CUBLASLT_REDUCTION_SCHEME_NONE", lt::kReductionNone},
      {"CUBLASLT_REDUCTION_SCHEME_INPLACE", lt::kReductionInplace},
      {"CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE", lt::kReductionComputeType},
      {"CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE", lt::kReductionOutputType},
      {"CUBLASLT_MATMUL_PREF_SEARCH_MODE", lt::kPrefSearchMode},
      {"CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES", lt::kPrefMaxWorkspaceBytes},
      {"CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK", lt::kPrefReductionSchemeMask},
      {"CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES", lt::kPrefMinAlignmentABytes},
      {"CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES", lt::kPrefMinAlignmentBBytes},
      {"CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES", lt::kPrefMinAlignmentCBytes},
      {"CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES", lt::kPrefMinAlignmentDBytes},
      {"CUBLASLT_ALGO_CAP_SPLITK_SUPPORT", lt::kCapSplitKSupport},
      {"CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK", lt::kCapReductionSchemeMask},
      {"CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT", lt::kCapCtaSwizzlingSupport},
      {"CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT", lt::kCapStridedBatchSupport},
      {"CUBLASLT_ALGO_CAP_TILE_IDS", lt::kCapTileIds},
      {"CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX", lt::kCapCustomOptionMax},
      {"CUBLASLT_ALGO_CAP_EPILOGUE_MASK", lt::kCapEpilogueMask},
      {"CUBLASLT_ALGO_CAP_STAGES_IDS", lt::kCapStagesIds},
      {"CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES", lt::kCapMinAlignmentABytes},
      {"CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES", lt::kCapMinAlignmentDBytes},
      {"CUBLASLT_ALGO_CONFIG_ID", lt::kConfigId},
      {"CUBLASLT_ALGO_CONFIG_TILE_ID", lt::kConfigTileId},
      {"CUBLASLT_ALGO_CONFIG_SPLITK_NUM", lt::kConfigSplitKNum},
      {"CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME", lt::kConfigReductionScheme},
      {"CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING", lt::kConfigCtaSwizzling},
      {"CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION", lt::kConfigCustomOption},
      {"CUBLASLT_ALGO_CONFIG_STAGES_ID", lt::kConfigStagesId},
      {"CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID", lt::kConfigInnerShapeId},
      {"CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID", lt::kConfigClusterShapeId},
  };
  for (const auto& [name, value] : lt_values) EXPECT_EQ(header_value(lt_h, name), value) << name;
  // Composite epilogues are written as ORs in the header.
  EXPECT_EQ(lt::kEpilogueReluBias, lt::kEpilogueRelu | lt::kEpilogueBias);
  EXPECT_EQ(lt::kEpilogueGeluBias, lt::kEpilogueGelu | lt::kEpilogueBias);
  const std::vector<std::pair<std::string, long long>> api_values = {
      {"CUBLAS_STATUS_SUCCESS", lt::kSuccess},         {"CUBLAS_STATUS_NOT_INITIALIZED", lt::kNotInitialized},
      {"CUBLAS_STATUS_INVALID_VALUE", lt::kInvalidValue}, {"CUBLAS_STATUS_ARCH_MISMATCH", lt::kArchMismatch},
      {"CUBLAS_STATUS_EXECUTION_FAILED", lt::kExecutionFailed}, {"CUBLAS_STATUS_NOT_SUPPORTED", lt::kNotSupported},
      {"CUBLAS_OP_N", lt::kOpN},                        {"CUBLAS_OP_T", lt::kOpT},
      {"CUBLAS_COMPUTE_32F", lt::kCompute32F},          {"CUBLAS_COMPUTE_32F_FAST_TF32", lt::kCompute32FFastTF32},
  };
  for (const auto& [name, value] : api_values) EXPECT_EQ(header_value(api_h, name), value) << name;
  EXPECT_EQ(header_value(types_h, "CUDA_R_16F"), lt::kR16F);
  EXPECT_EQ(header_value(types_h, "CUDA_R_16BF"), lt::kR16BF);
  EXPECT_EQ(header_value(types_h, "CUDA_R_32F"), lt::kR32F);
  EXPECT_EQ(header_value(types_h, "CUDA_R_8F_E4M3"), lt::kR8FE4M3);
}

TEST(CublasLtNames, TablesMatchTheHeader) {
  const std::string lt_h = read_header("cublasLt.h");
  if (lt_h.empty()) GTEST_SKIP() << "cublasLt.h not found";
  const std::regex tile("CUBLASLT_MATMUL_TILE_([0-9]+x[0-9]+) = ([0-9]+)");
  int tiles = 0;
  for (auto it = std::sregex_iterator(lt_h.begin(), lt_h.end(), tile); it != std::sregex_iterator(); ++it, ++tiles)
    EXPECT_EQ(tile_name(static_cast<std::uint32_t>(std::stoul((*it)[2]))), (*it)[1].str());
  EXPECT_GT(tiles, 100);
  const std::regex stages("CUBLASLT_MATMUL_STAGES_([0-9]+x(?:[0-9]+|AUTO)) = ([0-9]+)");
  for (auto it = std::sregex_iterator(lt_h.begin(), lt_h.end(), stages); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(stages_name(static_cast<std::uint32_t>(std::stoul((*it)[2]))), (*it)[1].str());
  const std::regex cluster("CUBLASLT_CLUSTER_SHAPE_([0-9]+x[0-9]+x[0-9]+) = ([0-9]+)");
  for (auto it = std::sregex_iterator(lt_h.begin(), lt_h.end(), cluster); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(cluster_name(static_cast<std::uint32_t>(std::stoul((*it)[2]))), (*it)[1].str());
}

TEST(CublasLtNames, RoundTrip) {
  EXPECT_EQ(tile_name(20), "128x128");
  EXPECT_EQ(tile_id("128x128"), 20u);
  EXPECT_EQ(tile_dims(23), (std::pair{128, 256}));
  EXPECT_EQ(tile_name(0), "undefined");
  EXPECT_EQ(tile_id("undefined"), 0u);
  EXPECT_EQ(tile_name(9999), "tile#9999");
  EXPECT_EQ(tile_id("tile#9999"), 9999u);
  EXPECT_EQ(tile_dims(9999), std::nullopt);
  EXPECT_EQ(tile_id("tile#"), std::nullopt);
  EXPECT_EQ(tile_id("tile#12x"), std::nullopt);
  EXPECT_EQ(tile_id("7x7"), std::nullopt);
  EXPECT_EQ(stages_name(16), "64x4");
  EXPECT_EQ(stages_id("64x4"), 16u);
  EXPECT_EQ(stages_id("128xAUTO"), 36u);
  EXPECT_EQ(stages_name(77), "stages#77");
  EXPECT_EQ(stages_id("stages#77"), 77u);
  EXPECT_EQ(cluster_name(0), "auto");
  EXPECT_EQ(cluster_id("2x1x1"), 3u);
  for (std::uint32_t r : {lt::kReductionNone, lt::kReductionInplace, lt::kReductionComputeType, lt::kReductionOutputType})
    EXPECT_EQ(reduction_id(reduction_name(r)), r);
  EXPECT_EQ(reduction_id("bogus"), std::nullopt);
}

GemmProblem problem(std::int64_t m, std::int64_t n, std::int64_t k, const char* layout,
                    Precision precision = Precision::BF16) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.precision = precision;
  p.out = gemm::default_output(precision);
  gemm::set_layout(p, layout);
  return p;
}

// Executes cuBLASLt's column-major contract on the CPU: D^T(r, c) = sum_k op(X)(r, k) op(Y)(k, c)
// with X = the problem's B and Y = the problem's A, as lt_shape describes them.
double lt_element(const LtShape& s, const gemm::GemmOperands& o, const GemmProblem& p, std::int64_t bi,
                  std::uint64_t r, std::uint64_t c) {
  const std::uint64_t k_extent = s.op_x == lt::kOpN ? s.x_cols : s.x_rows;
  double sum = 0;
  for (std::uint64_t kk = 0; kk < k_extent; ++kk) {
    // op(X)(r, kk): X is x_rows x x_cols column-major with ld_x.
    const std::uint64_t xr = s.op_x == lt::kOpN ? r : kk, xc = s.op_x == lt::kOpN ? kk : r;
    const std::uint64_t yr = s.op_y == lt::kOpN ? kk : c, yc = s.op_y == lt::kOpN ? c : kk;
    EXPECT_LT(xr, s.x_rows);
    EXPECT_LT(xc, s.x_cols);
    EXPECT_LT(yr, s.y_rows);
    EXPECT_LT(yc, s.y_cols);
    const auto xi = static_cast<std::size_t>(bi * s.stride_x + static_cast<std::int64_t>(xr) + static_cast<std::int64_t>(xc) * s.ld_x);
    const auto yi = static_cast<std::size_t>(bi * s.stride_y + static_cast<std::int64_t>(yr) + static_cast<std::int64_t>(yc) * s.ld_y);
    sum += gemm::load_value(o.b.data(), xi, p.b_storage()) * gemm::load_value(o.a.data(), yi, p.a_storage());
  }
  return sum;
}

TEST(CublasLtShape, ColumnMajorMappingComputesTheRowMajorProduct) {
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    GemmProblem p = problem(5, 7, 9, layout, Precision::F32);
    p.batch = 2;
    const LtShape s = lt_shape(p);
    EXPECT_EQ(s.d_rows, 7u);  // N
    EXPECT_EQ(s.d_cols, 5u);  // M
    EXPECT_EQ(s.ld_d, 7);
    const gemm::GemmOperands o = gemm::make_operands(p, 3);
    const gemm::GemmReference ref = gemm::compute_reference(p, o, {gemm::ReferenceMode::Full, 0, 1, 1});
    for (std::int64_t bi = 0; bi < p.batch; ++bi)
      for (std::int64_t i = 0; i < p.m; ++i)
        for (std::int64_t j = 0; j < p.n; ++j) {
          // D(i, j) row-major is D^T(j, i) column-major at j + i * ld_d: the same offset.
          const std::int64_t offset = bi * s.stride_d + j + i * s.ld_d;
          ASSERT_EQ(offset, p.d_offset(bi, i, j));
          const double expected = ref.elements[static_cast<std::size_t>(offset)].value;
          EXPECT_NEAR(lt_element(s, o, p, bi, static_cast<std::uint64_t>(j), static_cast<std::uint64_t>(i)), expected,
                      1e-12)
              << layout << " " << bi << "," << i << "," << j;
        }
  }
}

TEST(CublasLtShape, TypesEpiloguesAlignment) {
  GemmProblem p = problem(64, 64, 7, "nn");
  LtShape s = lt_shape(p);
  EXPECT_EQ(s.compute_type, lt::kCompute32F);
  EXPECT_EQ(s.x_type, lt::kR16BF);
  EXPECT_EQ(s.d_type, lt::kR16BF);
  EXPECT_EQ(s.epilogue, lt::kEpilogueDefault);
  EXPECT_EQ(s.align_y, 2u);    // A is K x M column-major with ld K = 7 bf16 = 14 bytes
  EXPECT_EQ(s.align_x, 128u);  // B is N x K with ld N = 64 bf16
  EXPECT_EQ(s.align_d, 128u);
  p.k = 8;
  p.batch = 3;
  EXPECT_EQ(lt_shape(p).align_y, 16u);
  p.bias = true;
  p.activation = gemm::Activation::Gelu;
  EXPECT_EQ(lt_shape(p).epilogue, lt::kEpilogueGeluBias);
  p.activation = gemm::Activation::Relu;
  EXPECT_EQ(lt_shape(p).epilogue, lt::kEpilogueReluBias);
  p.bias = false;
  EXPECT_EQ(lt_shape(p).epilogue, lt::kEpilogueRelu);
  EXPECT_EQ(lt_shape(problem(8, 8, 8, "nn", Precision::TF32)).compute_type, lt::kCompute32FFastTF32);
  EXPECT_EQ(lt_shape(problem(8, 8, 8, "nn", Precision::F32)).compute_type, lt::kCompute32F);
  GemmProblem f8 = problem(16, 16, 16, "nt", Precision::F8E4M3);
  f8.out = gemm::Storage::F32;
  f8.bias = true;
  s = lt_shape(f8);
  EXPECT_EQ(s.x_type, lt::kR8FE4M3);
  EXPECT_EQ(s.d_type, lt::kR32F);
  EXPECT_TRUE(s.set_bias_type);
  EXPECT_EQ(s.bias_type, lt::kR16BF);
  EXPECT_EQ(s.op_x, lt::kOpT);  // cuBLASLt's "TN"
  EXPECT_EQ(s.op_y, lt::kOpN);
}

TEST(CublasLtShape, UnsupportedProblems) {
  EXPECT_EQ(unsupported_reason(problem(16, 16, 16, "tt")), std::nullopt);
  EXPECT_EQ(unsupported_reason(problem(16, 16, 16, "nt", Precision::F8E4M3)), std::nullopt);
  const auto layout = unsupported_reason(problem(16, 16, 16, "nn", Precision::F8E4M3));
  ASSERT_TRUE(layout);
  EXPECT_NE(layout->find("layout nt"), std::string::npos);
  EXPECT_TRUE(unsupported_reason(problem(16, 24, 20, "nt", Precision::F8E4M3)));
}

TEST(CublasLtConfig, RoundTrip) {
  AlgoConfig a;
  a.algo_id = 66;
  a.tile = 23;
  a.stages = 36;
  a.splitk = 4;
  a.reduction = lt::kReductionComputeType;
  a.swizzle = 1;
  a.custom = 2;
  a.cluster = 3;
  const Config config = to_config(a, -1);
  EXPECT_EQ(config_key(config),
            "algo=66,cluster=2x1x1,custom=2,family=cublaslt,heuristic=-1,inner=0,reduction=compute,splitk=4,"
            "stages=128xAUTO,swizzle=1,tile=128x256");
  EXPECT_EQ(algo_config_from(config), a);
  EXPECT_EQ(algo_config_from(config_from_key(config_key(config))), a);
  EXPECT_EQ(heuristic_rank_of(to_config(a, 3)), 3);
  EXPECT_EQ(heuristic_rank_of(Config{}), -1);
  Config bad = config;
  bad["tile"] = Value::string("13x13");
  EXPECT_THROW(algo_config_from(bad), std::invalid_argument);
  bad = config;
  bad.erase("splitk");
  EXPECT_THROW(algo_config_from(bad), std::invalid_argument);
  bad = config;
  bad["splitk"] = Value::integer(0);
  EXPECT_THROW(algo_config_from(bad), std::invalid_argument);
  bad = config;
  bad["family"] = Value::string("generated");
  EXPECT_THROW(algo_config_from(bad), std::invalid_argument);
}

TEST(CublasLtConfig, AlgoHexAndCandidateJson) {
  MatmulAlgo algo{};
  for (int i = 0; i < 8; ++i) algo.data[i] = 0x0123456789abcdefull * static_cast<std::uint64_t>(i + 1);
  const std::string hex = algo_to_hex(algo);
  EXPECT_EQ(hex.size(), 128u);
  const MatmulAlgo back = algo_from_hex(hex);
  EXPECT_EQ(std::memcmp(&algo, &back, sizeof algo), 0);
  EXPECT_THROW(algo_from_hex("abc"), std::invalid_argument);
  EXPECT_THROW(algo_from_hex(std::string(128, 'g')), std::invalid_argument);

  Candidate c;
  c.algo_config.algo_id = 5;
  c.algo_config.splitk = 8;
  c.algo_config.reduction = lt::kReductionOutputType;
  c.config = to_config(c.algo_config, 2);
  c.algo = algo;
  c.heuristic_rank = 2;
  c.source = "heuristic";
  c.workspace_bytes = 1024;
  c.waves = 1.5f;
  const Candidate r = candidate_from_json(candidate_to_json(c));
  EXPECT_EQ(r.config, c.config);
  EXPECT_EQ(r.algo_config, c.algo_config);
  EXPECT_EQ(r.heuristic_rank, 2);
  EXPECT_EQ(r.source, "heuristic");
  EXPECT_EQ(r.workspace_bytes, 1024u);
  EXPECT_EQ(r.waves, 1.5f);
  EXPECT_EQ(std::memcmp(&r.algo, &algo, sizeof algo), 0);
  EXPECT_EQ(r.split_partials(), 8);
  c.algo_config.reduction = lt::kReductionComputeType;
  EXPECT_EQ(c.split_partials(), 0);
  c.algo_config.splitk = 1;
  c.algo_config.reduction = lt::kReductionOutputType;
  EXPECT_EQ(c.split_partials(), 0);
  EXPECT_THROW(candidate_from_json({{"config", 5}}), std::invalid_argument);
}

Candidate make(int algo, std::uint32_t tile, int rank, float waves, std::uint32_t stages = 0) {
  Candidate c;
  c.algo_config.algo_id = algo;
  c.algo_config.tile = tile;
  c.algo_config.stages = stages;
  c.heuristic_rank = rank;
  c.source = rank >= 0 ? "heuristic" : "enumerated";
  c.waves = waves;
  c.config = to_config(c.algo_config, rank);
  return c;
}

TEST(CublasLtSelect, HeuristicFirstThenNeighboursThenDiverse) {
  const GemmProblem p = problem(4096, 4096, 4096, "nn");
  std::vector<Candidate> heuristic = {make(66, 23, 1, 1.0f), make(66, 20, 0, 1.0f), make(66, 20, 2, 1.0f)};
  std::vector<Candidate> enumerated;
  enumerated.push_back(make(66, 23, -1, 1.0f));      // same as a heuristic config: dropped
  enumerated.push_back(make(66, 20, -1, 1.0f, 16));  // neighbour of heuristic #0
  enumerated.push_back(make(66, 23, -1, 1.0f, 16));  // neighbour of heuristic #1
  enumerated.push_back(make(31, 18, -1, 1.0f));      // other algorithms
  enumerated.push_back(make(31, 20, -1, 1.0f));
  enumerated.push_back(make(21, 18, -1, 1.0f));
  enumerated.push_back(make(21, 18, -1, 0.5f, 16));  // same group as above, lower score
  const std::vector<Candidate> chosen = select_candidates(heuristic, enumerated, p, 7);
  ASSERT_EQ(chosen.size(), 7u);
  // The heuristic's answers in its order; its duplicate (rank 2 == rank 0's config) is dropped.
  EXPECT_EQ(chosen[0].heuristic_rank, 0);
  EXPECT_EQ(chosen[1].heuristic_rank, 1);
  // Two neighbour slots ((7 - 2 + 1) / 2 = 3, two exist), closest to rank 0 first.
  EXPECT_EQ(chosen[2].algo_config.tile, 20u);
  EXPECT_EQ(chosen[2].algo_config.stages, 16u);
  EXPECT_EQ(chosen[3].algo_config.tile, 23u);
  EXPECT_EQ(chosen[3].algo_config.stages, 16u);
  // Then one per (algorithm, tile), alternating algorithms.
  std::set<std::int32_t> algos;
  for (std::size_t i = 4; i < chosen.size(); ++i) algos.insert(chosen[i].algo_config.algo_id);
  EXPECT_EQ(algos, (std::set<std::int32_t>{21, 31}));
  for (const Candidate& c : chosen) EXPECT_GT(c.score, 0.0);
  // Everything fits within the limit; no configuration twice.
  for (std::size_t i = 0; i < chosen.size(); ++i)
    for (std::size_t j = i + 1; j < chosen.size(); ++j) EXPECT_FALSE(chosen[i].algo_config == chosen[j].algo_config);

  EXPECT_EQ(select_candidates(heuristic, enumerated, p, 1).size(), 1u);
  EXPECT_EQ(select_candidates(heuristic, enumerated, p, 100).size(), 8u);  // all distinct configs
}

TEST(CublasLtSelect, ClusterVariantsOfTheAnswers) {
  AlgoConfig paired;  // an sm_90 answer: 176x128 tiles in clusters of 1x2x1
  paired.algo_id = 66;
  paired.tile = *tile_id("176x128");
  paired.cluster = static_cast<std::uint16_t>(*cluster_id("1x2x1"));
  paired.custom = 2;
  AlgoConfig single = paired;  // the same kernel without a cluster: also among the answers
  single.cluster = static_cast<std::uint16_t>(*cluster_id("1x1x1"));
  AlgoConfig unclustered;  // an sm_80 kernel ("auto"): nothing to vary
  unclustered.algo_id = 21;
  unclustered.tile = *tile_id("128x128");
  const std::vector<AlgoConfig> variants = cluster_variants({paired, unclustered, single});
  // Eight shapes, less the two the answers already hold: six, each the answer but for its cluster.
  ASSERT_EQ(variants.size(), 6u);
  std::set<std::string> shapes;
  for (const AlgoConfig& v : variants) {
    EXPECT_EQ(v.algo_id, 66);
    EXPECT_EQ(v.tile, paired.tile);
    EXPECT_EQ(v.custom, 2u);
    shapes.insert(cluster_name(v.cluster));
  }
  EXPECT_EQ(shapes, (std::set<std::string>{"2x1x1", "2x2x1", "4x1x1", "1x4x1", "4x2x1", "2x4x1"}));
  EXPECT_TRUE(cluster_variants({unclustered}).empty());
  EXPECT_TRUE(cluster_variants({}).empty());
}

TEST(CublasLtSelect, ScorePrefersTilesThatFitAndFullWaves) {
  const GemmProblem p = problem(256, 256, 1024, "nn");
  std::vector<Candidate> enumerated = {make(1, 20, -1, 1.0f),   // 128x128: 2x2 tiles, no padding
                                       make(1, 24, -1, 1.0f),   // 256x128
                                       make(2, 20, -1, 0.25f),  // a quarter wave
                                       make(3, 31, -1, 1.0f)};  // 192x128: pads 256 -> 384 rows
  const std::vector<Candidate> chosen = select_candidates({make(9, 15, 0, 1.0f)}, enumerated, p, 10);
  auto score_of = [&](int algo, std::uint32_t tile) {
    for (const Candidate& c : chosen)
      if (c.algo_config.algo_id == algo && c.algo_config.tile == tile) return c.score;
    return -1.0;
  };
  EXPECT_GT(score_of(1, 24), score_of(1, 20));  // bigger tile, both fit exactly
  EXPECT_GT(score_of(1, 20), score_of(2, 20));  // a full wave beats a quarter wave
  EXPECT_GT(score_of(1, 20), score_of(3, 31));  // padding costs
}

TEST(CublasLtLoader, ReportsWhyItCannotLoad) {
  {
    ScopedEnv env("KTUNE_CUBLASLT_PATH", "/nonexistent/libcublasLt.so.13");
    const Loaded<CublasLt> lt = CublasLt::load();
    ASSERT_FALSE(lt);
    EXPECT_NE(lt.error.find("cuBLASLt not available"), std::string::npos) << lt.error;
    EXPECT_NE(lt.error.find("/nonexistent/libcublasLt.so.13"), std::string::npos) << lt.error;
    EXPECT_NE(lt.error.find("KTUNE_CUBLASLT_PATH"), std::string::npos) << lt.error;
    EXPECT_EQ(lt.error.find("libcublasLt.so.12"), std::string::npos) << "a strict path must not fall back: " << lt.error;
  }
  {
    // A library that is not cuBLASLt names what it lacks.
    const Loaded<CublasLt> lt = CublasLt::load_from("libm.so.6");
    ASSERT_FALSE(lt);
    EXPECT_NE(lt.error.find("does not export cublasLtCreate"), std::string::npos) << lt.error;
  }
  EXPECT_EQ(status_name(lt::kNotSupported), "CUBLAS_STATUS_NOT_SUPPORTED");
  EXPECT_EQ(status_name(1234), "cuBLAS status 1234");
}

// With the toolkit's library: everything up to the handle works without a GPU.
class InstalledCublasLt : public ::testing::Test {
 protected:
  void SetUp() override {
    ScopedEnv env("KTUNE_CUBLASLT_PATH", nullptr);
    lt_ = CublasLt::load();
    if (!lt_) GTEST_SKIP() << lt_.error;
  }
  Loaded<CublasLt> lt_;
};

TEST_F(InstalledCublasLt, LoadsAndReportsItsVersion) {
  EXPECT_GE(lt_->major_version(), 12);
  EXPECT_NE(lt_->version_string().find('.'), std::string::npos);
  EXPECT_FALSE(lt_->library_path().empty());
  std::printf("cuBLASLt %s at %s\n", lt_->version_string().c_str(), lt_->library_path().c_str());
  EXPECT_THROW(lt_->check(lt::kNotSupported, "cublasLtMatmul"), CublasLtError);
  try {
    lt_->check(lt::kInvalidValue, "cublasLtMatmulAlgoCheck");
  } catch (const CublasLtError& e) {
    EXPECT_EQ(e.status(), lt::kInvalidValue);
    EXPECT_NE(std::string(e.what()).find("cublasLtMatmulAlgoCheck: CUBLAS_STATUS_INVALID_VALUE"), std::string::npos);
  }
}

TEST_F(InstalledCublasLt, DescriptorsDescribeTheProblem) {
  GemmProblem p = problem(48, 80, 24, "tn", Precision::F16);
  p.batch = 3;
  p.bias = true;
  p.activation = gemm::Activation::Gelu;
  p.out = gemm::Storage::F32;
  std::optional<MatmulDescriptors> d;
  static const int fake_bias = 0;  // only its alignment is looked at, never dereferenced here
  try {
    d.emplace(lt_.value, p, &fake_bias);
  } catch (const CublasLtError& e) {
    GTEST_SKIP() << "descriptors need more than the library here: " << e.what();
  }
  const Api& api = lt_->api();
  // Asks for the attribute's size first (sizeInBytes 0), which also checks the sizes ktune
  // passes when setting it.
  auto layout_value = [&](MatrixLayout layout, int attribute) -> std::int64_t {
    std::size_t needed = 0;
    EXPECT_EQ(api.MatrixLayoutGetAttribute(layout, attribute, nullptr, 0, &needed), lt::kSuccess) << attribute;
    std::int64_t value = 0;
    std::size_t written = 0;
    EXPECT_EQ(api.MatrixLayoutGetAttribute(layout, attribute, &value, needed, &written), lt::kSuccess) << attribute;
    if (needed == 4) return static_cast<std::int64_t>(static_cast<std::int32_t>(value & 0xffffffff));
    return value;
  };
  auto layout_size = [&](MatrixLayout layout, int attribute) {
    std::size_t needed = 0;
    api.MatrixLayoutGetAttribute(layout, attribute, nullptr, 0, &needed);
    return needed;
  };
  EXPECT_EQ(layout_size(d->d(), lt::kLayoutBatchCount), sizeof(std::int32_t));
  EXPECT_EQ(layout_size(d->d(), lt::kLayoutStridedBatchOffset), sizeof(std::int64_t));
  const LtShape& s = d->shape();
  // A 't': stored K x M row-major = column-major M x K with ld M, op T.
  EXPECT_EQ(layout_value(d->y(), lt::kLayoutRows), 48);
  EXPECT_EQ(layout_value(d->y(), lt::kLayoutCols), 24);
  EXPECT_EQ(layout_value(d->y(), lt::kLayoutLd), 48);
  EXPECT_EQ(layout_value(d->x(), lt::kLayoutRows), 80);  // B 'n': N x K, ld N
  EXPECT_EQ(layout_value(d->x(), lt::kLayoutLd), 80);
  EXPECT_EQ(layout_value(d->d(), lt::kLayoutRows), 80);
  EXPECT_EQ(layout_value(d->d(), lt::kLayoutCols), 48);
  EXPECT_EQ(layout_value(d->d(), lt::kLayoutBatchCount), 3);
  EXPECT_EQ(layout_value(d->d(), lt::kLayoutStridedBatchOffset), 48 * 80);
  EXPECT_EQ(layout_value(d->d(), lt::kLayoutType), lt::kR32F);
  EXPECT_EQ(layout_value(d->x(), lt::kLayoutType), lt::kR16F);
  std::int32_t value = 0;
  std::size_t written = 0;
  ASSERT_EQ(api.MatmulDescGetAttribute(d->desc(), lt::kDescTransB, &value, sizeof value, &written), lt::kSuccess);
  EXPECT_EQ(value, s.op_y);
  EXPECT_EQ(value, lt::kOpT);
  std::uint32_t epilogue = 0;
  ASSERT_EQ(api.MatmulDescGetAttribute(d->desc(), lt::kDescEpilogue, &epilogue, sizeof epilogue, &written), lt::kSuccess);
  EXPECT_EQ(epilogue, lt::kEpilogueGeluBias);
  const void* bias = nullptr;
  ASSERT_EQ(api.MatmulDescGetAttribute(d->desc(), lt::kDescBiasPointer, &bias, sizeof bias, &written), lt::kSuccess);
  EXPECT_EQ(bias, &fake_bias);
}

TEST_F(InstalledCublasLt, HandleNeedsADriver) {
  const Loaded<ktune::cuda::CudaDriver> driver = ktune::cuda::CudaDriver::load();
  if (driver) GTEST_SKIP() << "a CUDA driver is present; the GPU test covers the handle";
  Handle handle = nullptr;
#if KTUNE_ASAN
  __lsan_disable();  // cublasLtCreate leaks 192 bytes of its own on this failure path
#endif
  const Status status = lt_->api().Create(&handle);
#if KTUNE_ASAN
  __lsan_enable();
#endif
  std::printf("cublasLtCreate without a driver: %s\n", lt_->error_text(status, "cublasLtCreate").c_str());
  EXPECT_NE(status, lt::kSuccess);
  if (status == lt::kSuccess) lt_->api().Destroy(handle);
}

TEST(GemmWorkerWithoutGpu, SaysWhatIsMissing) {
  const Loaded<ktune::cuda::CudaDriver> driver = ktune::cuda::CudaDriver::load();
  if (driver) GTEST_SKIP() << "a CUDA driver is present";
  gemm::GemmSetup setup;
  setup.problem = problem(64, 64, 64, "nn");
  gemm::GemmWorker worker;
  try {
    worker.handle(gemm::candidates_request(setup));
    FAIL() << "no error without a driver";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA driver not available"), std::string::npos) << e.what();
  }
  // An evaluation is a failed result, not an exception.
  const nlohmann::json candidate = {{"family", "cublaslt"},
                                    {"library_version", 0},
                                    {"candidate", candidate_to_json(make(1, 20, 0, 1.0f))}};
  const nlohmann::json reply = worker.handle(gemm::evaluate_request(setup, candidate, {}));
  EXPECT_EQ(reply.at("status"), "runtime_error");
  EXPECT_NE(reply.at("error").get<std::string>().find("CUDA driver not available"), std::string::npos) << reply.dump();
  EXPECT_THROW(worker.handle({{"op", "gemm_frobnicate"}}), std::invalid_argument);
  EXPECT_THROW(worker.handle({{"op", "gemm_candidates"}, {"problem", {{"m", 0}, {"n", 1}, {"k", 1}}}}), gemm::GemmError);
  EXPECT_TRUE(gemm::GemmWorker::handles("gemm_evaluate"));
  EXPECT_FALSE(gemm::GemmWorker::handles("evaluate"));
}

TEST(GemmRequests, RoundTripTheSetup) {
  gemm::GemmSetup setup;
  setup.problem = problem(1000, 3000, 2000, "tn", Precision::F16);
  setup.device = 1;
  setup.seed = 99;
  setup.reference = gemm::ReferenceMode::Sampled;
  setup.cublaslt.max_candidates = 5;
  setup.cublaslt.workspace_bytes = 1 << 20;
  const gemm::GemmSetup back = gemm::setup_from_request(gemm::candidates_request(setup));
  EXPECT_EQ(back.problem, setup.problem);
  EXPECT_EQ(back.device, 1);
  EXPECT_EQ(back.seed, 99u);
  EXPECT_EQ(back.reference, gemm::ReferenceMode::Sampled);
  EXPECT_EQ(back.cublaslt.max_candidates, 5);
  EXPECT_EQ(back.cublaslt.workspace_bytes, std::size_t{1} << 20);
  gemm::EvaluateOptions options;
  options.cold = false;
  options.policy.min_samples = 17;
  const nlohmann::json candidate = {{"family", "cublaslt"},
                                    {"library_version", 130100},
                                    {"candidate", candidate_to_json(make(1, 20, 0, 1.0f))}};
  const nlohmann::json request = gemm::evaluate_request(setup, candidate, options);
  EXPECT_EQ(request.at("op"), "gemm_evaluate");
  EXPECT_EQ(request.at("library_version"), 130100);
  EXPECT_EQ(request.at("cold"), false);
  EXPECT_EQ(request.at("policy").at("min_samples"), 17);
  EXPECT_EQ(gemm::setup_from_request(request).problem, setup.problem);
  EXPECT_THROW(gemm::setup_from_request({{"problem", setup.problem.to_json()}, {"reference", "psychic"}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace ktune::cublaslt
