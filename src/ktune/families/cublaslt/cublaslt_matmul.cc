#include "ktune/families/cublaslt/cublaslt_matmul.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "ktune/families/cublaslt/cublaslt_names.h"

namespace ktune::cublaslt {
namespace {

using gemm::GemmProblem;
using gemm::Precision;
using gemm::Storage;

// The largest power of two (at most 256) dividing `bytes`.
std::uint32_t alignment_of(std::int64_t bytes) {
  if (bytes == 0) return 256;
  const auto low = static_cast<std::uint64_t>(bytes) & (~static_cast<std::uint64_t>(bytes) + 1);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(256, low));
}

std::uint32_t combined_alignment(std::int64_t ld, std::int64_t stride, std::int32_t batch, std::size_t element) {
  std::uint32_t a = alignment_of(ld * static_cast<std::int64_t>(element));
  if (batch > 1) a = std::min(a, alignment_of(stride * static_cast<std::int64_t>(element)));
  return a;
}

template <typename T>
void set_desc(const CublasLt& lib, MatmulDesc desc, int attribute, const T& value, const char* what) {
  lib.check(lib.api().MatmulDescSetAttribute(desc, attribute, &value, sizeof(T)),
            std::string("cublasLtMatmulDescSetAttribute(") + what + ")");
}

template <typename T>
void set_layout_attribute(const CublasLt& lib, MatrixLayout layout, int attribute, const T& value, const char* what) {
  lib.check(lib.api().MatrixLayoutSetAttribute(layout, attribute, &value, sizeof(T)),
            std::string("cublasLtMatrixLayoutSetAttribute(") + what + ")");
}

template <typename T>
void get_config(const CublasLt& lib, const MatmulAlgo& algo, int attribute, T& value) {
  T v{};
  std::size_t written = 0;
  if (lib.api().MatmulAlgoConfigGetAttribute(&algo, attribute, &v, sizeof(T), &written) == lt::kSuccess &&
      written == sizeof(T))
    value = v;
}

template <typename T>
void set_config(const CublasLt& lib, MatmulAlgo& algo, int attribute, T value, const char* what) {
  lib.check(lib.api().MatmulAlgoConfigSetAttribute(&algo, attribute, &value, sizeof(T)),
            std::string("cublasLtMatmulAlgoConfigSetAttribute(") + what + ")");
}

template <typename T>
T get_cap(const CublasLt& lib, const MatmulAlgo& algo, int attribute, T fallback) {
  T v{};
  std::size_t written = 0;
  if (lib.api().MatmulAlgoCapGetAttribute(&algo, attribute, &v, sizeof(T), &written) == lt::kSuccess &&
      written == sizeof(T))
    return v;
  return fallback;
}

std::vector<std::uint32_t> get_cap_list(const CublasLt& lib, const MatmulAlgo& algo, int attribute) {
  std::size_t needed = 0;
  if (lib.api().MatmulAlgoCapGetAttribute(&algo, attribute, nullptr, 0, &needed) != lt::kSuccess || needed == 0)
    return {};
  std::vector<std::uint32_t> values(needed / sizeof(std::uint32_t));
  std::size_t written = 0;
  if (lib.api().MatmulAlgoCapGetAttribute(&algo, attribute, values.data(), values.size() * sizeof(std::uint32_t),
                                          &written) != lt::kSuccess)
    return {};
  values.resize(written / sizeof(std::uint32_t));
  return values;
}

class Preference {
 public:
  explicit Preference(const CublasLt& lib) : lib_(lib) {
    lib.check(lib.api().MatmulPreferenceCreate(&preference_), "cublasLtMatmulPreferenceCreate");
  }
  ~Preference() {
    if (preference_) lib_.api().MatmulPreferenceDestroy(preference_);
  }
  Preference(const Preference&) = delete;
  Preference& operator=(const Preference&) = delete;
  template <typename T>
  void set(int attribute, T value, const char* what) {
    lib_.check(lib_.api().MatmulPreferenceSetAttribute(preference_, attribute, &value, sizeof(T)),
               std::string("cublasLtMatmulPreferenceSetAttribute(") + what + ")");
  }
  MatmulPreference get() const { return preference_; }

 private:
  const CublasLt& lib_;
  MatmulPreference preference_ = nullptr;
};

std::string config_string(const Config& config, const char* key) {
  auto it = config.find(key);
  if (it == config.end()) throw std::invalid_argument(std::string("cuBLASLt config is missing '") + key + "'");
  if (!it->second.is_string()) throw std::invalid_argument(std::string("cuBLASLt config '") + key + "' must be a string");
  return it->second.as_string();
}

std::int64_t config_int(const Config& config, const char* key) {
  auto it = config.find(key);
  if (it == config.end()) throw std::invalid_argument(std::string("cuBLASLt config is missing '") + key + "'");
  if (!it->second.is_int()) throw std::invalid_argument(std::string("cuBLASLt config '") + key + "' must be an integer");
  return it->second.as_int();
}

double tile_intensity(std::uint32_t tile) {
  if (auto dims = tile_dims(tile)) {
    const double r = dims->first, c = dims->second;
    return r * c / (r + c);
  }
  return 0;
}

double candidate_score(const Candidate& c, const GemmProblem& p, double best_intensity) {
  double utilisation = 1;
  double intensity_ratio = 1;
  if (auto dims = tile_dims(c.algo_config.tile)) {
    // cuBLASLt's D is N x M (see the header).
    const double rows = static_cast<double>(p.n), cols = static_cast<double>(p.m);
    const double tr = dims->first, tc = dims->second;
    utilisation = rows / (std::ceil(rows / tr) * tr) * (cols / (std::ceil(cols / tc) * tc));
    if (best_intensity > 0) intensity_ratio = tile_intensity(c.algo_config.tile) / best_intensity;
  }
  const double w = static_cast<double>(c.waves);
  const double wave_efficiency = w <= 0 ? 0.5 : (w < 1 ? w : w / std::ceil(w));
  return utilisation * wave_efficiency * std::sqrt(intensity_ratio);
}

}  // namespace

std::optional<std::string> unsupported_reason(const GemmProblem& p) {
  if (p.precision == Precision::F8E4M3) {
    if (p.layout() != "nt")
      return "cuBLASLt runs fp8 only with layout nt (its 'TN': A row-major M x K, B stored N x K); got " + p.layout();
    if (p.m % 16 != 0 || p.n % 16 != 0 || p.k % 16 != 0)
      return "cuBLASLt's fp8 matmul needs m, n and k to be multiples of 16";
  }
  if (p.batch > std::numeric_limits<std::int32_t>::max()) return "cuBLASLt's batch count is a 32-bit integer";
  return std::nullopt;
}

int data_type_of(Storage storage) {
  switch (storage) {
    case Storage::F16: return lt::kR16F;
    case Storage::BF16: return lt::kR16BF;
    case Storage::F32: return lt::kR32F;
    case Storage::F8E4M3: return lt::kR8FE4M3;
  }
  return lt::kR32F;
}

LtShape lt_shape(const GemmProblem& p) {
  LtShape s;
  const std::int64_t M = p.m, N = p.n, K = p.k;
  if (!p.b_transposed) {
    s.op_x = lt::kOpN, s.x_rows = static_cast<std::uint64_t>(N), s.x_cols = static_cast<std::uint64_t>(K), s.ld_x = N;
  } else {
    s.op_x = lt::kOpT, s.x_rows = static_cast<std::uint64_t>(K), s.x_cols = static_cast<std::uint64_t>(N), s.ld_x = K;
  }
  if (!p.a_transposed) {
    s.op_y = lt::kOpN, s.y_rows = static_cast<std::uint64_t>(K), s.y_cols = static_cast<std::uint64_t>(M), s.ld_y = K;
  } else {
    s.op_y = lt::kOpT, s.y_rows = static_cast<std::uint64_t>(M), s.y_cols = static_cast<std::uint64_t>(K), s.ld_y = M;
  }
  s.d_rows = static_cast<std::uint64_t>(N);
  s.d_cols = static_cast<std::uint64_t>(M);
  s.ld_d = N;
  s.stride_x = K * N;
  s.stride_y = M * K;
  s.stride_d = M * N;
  s.batch = static_cast<std::int32_t>(std::min<std::int64_t>(p.batch, std::numeric_limits<std::int32_t>::max()));
  s.compute_type = p.precision == Precision::TF32 ? lt::kCompute32FFastTF32 : lt::kCompute32F;
  s.scale_type = lt::kR32F;
  s.x_type = s.y_type = data_type_of(p.a_storage());
  s.c_type = s.d_type = data_type_of(p.out);
  s.bias_type = data_type_of(p.bias_storage());
  s.set_bias_type = p.bias && p.precision == Precision::F8E4M3;
  switch (p.activation) {
    case gemm::Activation::None: s.epilogue = p.bias ? lt::kEpilogueBias : lt::kEpilogueDefault; break;
    case gemm::Activation::Relu: s.epilogue = p.bias ? lt::kEpilogueReluBias : lt::kEpilogueRelu; break;
    case gemm::Activation::Gelu: s.epilogue = p.bias ? lt::kEpilogueGeluBias : lt::kEpilogueGelu; break;
  }
  const std::size_t in = gemm::storage_size(p.a_storage()), out = gemm::storage_size(p.out);
  s.align_x = combined_alignment(s.ld_x, s.stride_x, s.batch, in);
  s.align_y = combined_alignment(s.ld_y, s.stride_y, s.batch, in);
  s.align_d = combined_alignment(s.ld_d, s.stride_d, s.batch, out);
  s.align_c = s.align_d;
  return s;
}

MatmulDescriptors::MatmulDescriptors(std::shared_ptr<const CublasLt> library, const GemmProblem& problem,
                                     const void* bias)
    : library_(std::move(library)), shape_(lt_shape(problem)) {
  const CublasLt& lib = *library_;
  const Api& api = lib.api();
  auto release = [&] {
    if (desc_) api.MatmulDescDestroy(desc_);
    for (MatrixLayout* l : {&x_, &y_, &c_, &d_})
      if (*l) api.MatrixLayoutDestroy(*l);
    desc_ = nullptr;
    x_ = y_ = c_ = d_ = nullptr;
  };
  try {
    lib.check(api.MatmulDescCreate(&desc_, shape_.compute_type, shape_.scale_type), "cublasLtMatmulDescCreate");
    set_desc(lib, desc_, lt::kDescTransA, shape_.op_x, "TRANSA");
    set_desc(lib, desc_, lt::kDescTransB, shape_.op_y, "TRANSB");
    if (shape_.epilogue != lt::kEpilogueDefault) set_desc(lib, desc_, lt::kDescEpilogue, shape_.epilogue, "EPILOGUE");
    if (problem.bias) {
      set_desc(lib, desc_, lt::kDescBiasPointer, bias, "BIAS_POINTER");
      if (shape_.set_bias_type) set_desc(lib, desc_, lt::kDescBiasDataType, static_cast<std::int32_t>(shape_.bias_type), "BIAS_DATA_TYPE");
    }
    auto make_layout = [&](MatrixLayout& layout, int type, std::uint64_t rows, std::uint64_t cols, std::int64_t ld,
                           std::int64_t stride) {
      lib.check(api.MatrixLayoutCreate(&layout, type, rows, cols, ld), "cublasLtMatrixLayoutCreate");
      if (shape_.batch > 1) {
        set_layout_attribute(lib, layout, lt::kLayoutBatchCount, shape_.batch, "BATCH_COUNT");
        set_layout_attribute(lib, layout, lt::kLayoutStridedBatchOffset, stride, "STRIDED_BATCH_OFFSET");
      }
    };
    make_layout(x_, shape_.x_type, shape_.x_rows, shape_.x_cols, shape_.ld_x, shape_.stride_x);
    make_layout(y_, shape_.y_type, shape_.y_rows, shape_.y_cols, shape_.ld_y, shape_.stride_y);
    make_layout(c_, shape_.c_type, shape_.d_rows, shape_.d_cols, shape_.ld_d, shape_.stride_d);
    make_layout(d_, shape_.d_type, shape_.d_rows, shape_.d_cols, shape_.ld_d, shape_.stride_d);
  } catch (...) {
    release();
    throw;
  }
}

void MatmulDescriptors::set_bias(const void* bias) { set_desc(*library_, desc_, lt::kDescBiasPointer, bias, "BIAS_POINTER"); }

MatmulDescriptors::~MatmulDescriptors() {
  const Api& api = library_->api();
  if (desc_) api.MatmulDescDestroy(desc_);
  for (MatrixLayout l : {x_, y_, c_, d_})
    if (l) api.MatrixLayoutDestroy(l);
}

Config to_config(const AlgoConfig& a, int heuristic_rank) {
  return {{"family", Value::string("cublaslt")},
          {"algo", Value::integer(a.algo_id)},
          {"tile", Value::string(tile_name(a.tile))},
          {"stages", Value::string(stages_name(a.stages))},
          {"splitk", Value::integer(a.splitk)},
          {"reduction", Value::string(reduction_name(a.reduction))},
          {"swizzle", Value::integer(a.swizzle)},
          {"custom", Value::integer(a.custom)},
          {"inner", Value::integer(a.inner_shape)},
          {"cluster", Value::string(cluster_name(a.cluster))},
          {"heuristic", Value::integer(heuristic_rank)}};
}

AlgoConfig algo_config_from(const Config& config) {
  if (config_string(config, "family") != "cublaslt") throw std::invalid_argument("not a cuBLASLt config (family != cublaslt)");
  AlgoConfig a;
  auto in_range = [](std::int64_t v, std::int64_t lo, std::int64_t hi, const char* key) {
    if (v < lo || v > hi) throw std::invalid_argument(std::string("cuBLASLt config '") + key + "' is out of range");
    return v;
  };
  auto named = [&](const char* key, auto parse) {
    const std::string s = config_string(config, key);
    const std::optional<std::uint32_t> id = parse(s);
    if (!id) throw std::invalid_argument(std::string("cuBLASLt config '") + key + "' has an unknown value '" + s + "'");
    return *id;
  };
  a.algo_id = static_cast<std::int32_t>(in_range(config_int(config, "algo"), 0, 1 << 30, "algo"));
  a.tile = named("tile", [](const std::string& s) { return tile_id(s); });
  a.stages = named("stages", [](const std::string& s) { return stages_id(s); });
  a.splitk = static_cast<std::int32_t>(in_range(config_int(config, "splitk"), 1, 1 << 16, "splitk"));
  a.reduction = named("reduction", [](const std::string& s) { return reduction_id(s); });
  a.swizzle = static_cast<std::uint32_t>(in_range(config_int(config, "swizzle"), 0, 1 << 16, "swizzle"));
  a.custom = static_cast<std::uint32_t>(in_range(config_int(config, "custom"), 0, 1 << 16, "custom"));
  a.inner_shape = static_cast<std::uint16_t>(in_range(config_int(config, "inner"), 0, 65535, "inner"));
  a.cluster = static_cast<std::uint16_t>(named("cluster", [](const std::string& s) { return cluster_id(s); }));
  return a;
}

int heuristic_rank_of(const Config& config) {
  auto it = config.find("heuristic");
  if (it == config.end() || !it->second.is_int()) return -1;
  return static_cast<int>(it->second.as_int());
}

AlgoConfig read_algo_config(const CublasLt& lib, const MatmulAlgo& algo) {
  AlgoConfig a;
  get_config(lib, algo, lt::kConfigId, a.algo_id);
  get_config(lib, algo, lt::kConfigTileId, a.tile);
  get_config(lib, algo, lt::kConfigStagesId, a.stages);
  get_config(lib, algo, lt::kConfigSplitKNum, a.splitk);
  get_config(lib, algo, lt::kConfigReductionScheme, a.reduction);
  get_config(lib, algo, lt::kConfigCtaSwizzling, a.swizzle);
  get_config(lib, algo, lt::kConfigCustomOption, a.custom);
  get_config(lib, algo, lt::kConfigInnerShapeId, a.inner_shape);
  get_config(lib, algo, lt::kConfigClusterShapeId, a.cluster);
  if (a.splitk < 1) a.splitk = 1;
  return a;
}

MatmulAlgo build_algo(const CublasLt& lib, Handle handle, const LtShape& s, const AlgoConfig& a) {
  MatmulAlgo algo{};
  lib.check(lib.api().MatmulAlgoInit(handle, s.compute_type, s.scale_type, s.x_type, s.y_type, s.c_type, s.d_type,
                                     a.algo_id, &algo),
            "cublasLtMatmulAlgoInit(algo " + std::to_string(a.algo_id) + ")");
  set_config(lib, algo, lt::kConfigTileId, a.tile, "TILE_ID");
  set_config(lib, algo, lt::kConfigStagesId, a.stages, "STAGES_ID");
  set_config(lib, algo, lt::kConfigSplitKNum, a.splitk, "SPLITK_NUM");
  set_config(lib, algo, lt::kConfigReductionScheme, a.reduction, "REDUCTION_SCHEME");
  set_config(lib, algo, lt::kConfigCtaSwizzling, a.swizzle, "CTA_SWIZZLING");
  set_config(lib, algo, lt::kConfigCustomOption, a.custom, "CUSTOM_OPTION");
  if (a.inner_shape != 0) set_config(lib, algo, lt::kConfigInnerShapeId, a.inner_shape, "INNER_SHAPE_ID");
  if (a.cluster != 0) set_config(lib, algo, lt::kConfigClusterShapeId, a.cluster, "CLUSTER_SHAPE_ID");
  return algo;
}

std::string algo_to_hex(const MatmulAlgo& algo) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&algo);
  for (std::size_t i = 0; i < sizeof algo; ++i) {
    hex += digits[bytes[i] >> 4];
    hex += digits[bytes[i] & 15];
  }
  return hex;
}

MatmulAlgo algo_from_hex(const std::string& hex) {
  MatmulAlgo algo{};
  if (hex.size() != 2 * sizeof algo) throw std::invalid_argument("a cuBLASLt algorithm is 128 hex digits");
  auto* bytes = reinterpret_cast<unsigned char*>(&algo);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("a cuBLASLt algorithm is 128 hex digits");
  };
  for (std::size_t i = 0; i < sizeof algo; ++i)
    bytes[i] = static_cast<unsigned char>(nibble(hex[2 * i]) * 16 + nibble(hex[2 * i + 1]));
  return algo;
}

int Candidate::split_partials() const {
  if (algo_config.splitk <= 1) return 0;
  if (algo_config.reduction == lt::kReductionInplace || algo_config.reduction == lt::kReductionOutputType)
    return algo_config.splitk;
  // The heuristic may leave the scheme "none" with split-K and let the kernel choose; assume
  // the output type then, which only widens the bound.
  if (algo_config.reduction == lt::kReductionNone) return algo_config.splitk;
  return 0;
}

nlohmann::json candidate_to_json(const Candidate& c) {
  return {{"config", config_to_json(c.config)},
          {"algo", algo_to_hex(c.algo)},
          {"source", c.source},
          {"heuristic_rank", c.heuristic_rank},
          {"workspace_bytes", c.workspace_bytes},
          {"waves", c.waves},
          {"score", c.score}};
}

Candidate candidate_from_json(const nlohmann::json& j) {
  try {
    Candidate c;
    c.config = config_from_json(j.at("config"));
    c.algo_config = algo_config_from(c.config);
    c.heuristic_rank = heuristic_rank_of(c.config);
    if (j.contains("algo") && !j.at("algo").is_null()) c.algo = algo_from_hex(j.at("algo").get<std::string>());
    c.source = j.value("source", c.heuristic_rank >= 0 ? "heuristic" : "enumerated");
    c.workspace_bytes = j.value("workspace_bytes", std::size_t{0});
    c.waves = j.value("waves", 0.0f);
    c.score = j.value("score", 0.0);
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed cuBLASLt candidate: ") + e.what());
  }
}

nlohmann::json enumeration_options_to_json(const EnumerationOptions& o) {
  return {{"heuristic_count", o.heuristic_count},
          {"max_candidates", o.max_candidates},
          {"workspace_bytes", o.workspace_bytes},
          {"max_checks", o.max_checks},
          {"max_algo_ids", o.max_algo_ids},
          {"cluster_variants", o.cluster_variants}};
}

EnumerationOptions enumeration_options_from_json(const nlohmann::json& j) {
  EnumerationOptions o;
  if (!j.is_object()) return o;
  o.heuristic_count = std::max(1, j.value("heuristic_count", o.heuristic_count));
  o.max_candidates = std::max(1, j.value("max_candidates", o.max_candidates));
  o.workspace_bytes = j.value("workspace_bytes", o.workspace_bytes);
  o.max_checks = j.value("max_checks", o.max_checks);
  o.max_algo_ids = std::max(1, j.value("max_algo_ids", o.max_algo_ids));
  o.cluster_variants = j.value("cluster_variants", o.cluster_variants);
  return o;
}

nlohmann::json Enumeration::summary() const {
  return {{"candidates", candidates.size()}, {"heuristic_returned", heuristic_returned},
          {"algo_ids", algo_ids},             {"checked", checked},
          {"valid", valid},                   {"truncated", truncated},
          {"seconds", seconds},               {"notes", notes}};
}

AlgoCheck check_algo(const CublasLt& lib, Handle handle, const MatmulDescriptors& d, const MatmulAlgo& algo) {
  HeuristicResult result{};
  AlgoCheck check;
  check.status = lib.api().MatmulAlgoCheck(handle, d.desc(), d.x(), d.y(), d.c(), d.d(), &algo, &result);
  check.workspace_bytes = result.workspace_size;
  check.waves = result.waves_count;
  return check;
}

std::vector<Candidate> select_candidates(std::vector<Candidate> heuristic, std::vector<Candidate> enumerated,
                                         const GemmProblem& problem, int max_candidates) {
  double best_intensity = 0;
  for (const auto* list : {&heuristic, &enumerated})
    for (const Candidate& c : *list) best_intensity = std::max(best_intensity, tile_intensity(c.algo_config.tile));
  for (auto* list : {&heuristic, &enumerated})
    for (Candidate& c : *list) c.score = candidate_score(c, problem, best_intensity);

  const auto limit = static_cast<std::size_t>(std::max(max_candidates, 1));
  std::vector<Candidate> chosen;
  auto already = [&](const AlgoConfig& a) {
    return std::any_of(chosen.begin(), chosen.end(), [&](const Candidate& c) { return c.algo_config == a; });
  };
  std::stable_sort(heuristic.begin(), heuristic.end(),
                   [](const Candidate& x, const Candidate& y) { return x.heuristic_rank < y.heuristic_rank; });
  for (Candidate& c : heuristic) {
    if (chosen.size() >= limit) return chosen;
    if (!already(c.algo_config)) chosen.push_back(std::move(c));
  }
  std::vector<Candidate> pool;
  for (Candidate& c : enumerated)
    if (!already(c.algo_config)) pool.push_back(std::move(c));
  // Deduplicate the pool itself (the same config can be reached twice while expanding).
  {
    std::vector<Candidate> unique;
    for (Candidate& c : pool)
      if (std::none_of(unique.begin(), unique.end(), [&](const Candidate& u) { return u.algo_config == c.algo_config; }))
        unique.push_back(std::move(c));
    pool = std::move(unique);
  }
  auto by_score = [](const Candidate& x, const Candidate& y) { return x.score > y.score; };
  std::stable_sort(pool.begin(), pool.end(), by_score);

  // Neighbours of the heuristic's choices: the closer to its first choice, the earlier.
  auto neighbour_rank = [&](const Candidate& c) {
    int rank = -1;
    for (std::size_t h = 0; h < chosen.size(); ++h) {
      const AlgoConfig& a = chosen[h].algo_config;
      if (a.algo_id == c.algo_config.algo_id && a.tile == c.algo_config.tile) {
        rank = static_cast<int>(h);
        break;
      }
    }
    return rank;
  };
  const std::size_t heuristic_count = chosen.size();
  const std::size_t neighbour_budget = (limit - std::min(limit, heuristic_count) + 1) / 2;
  std::vector<std::pair<int, std::size_t>> neighbours;  // (rank, pool index)
  for (std::size_t i = 0; i < pool.size(); ++i)
    if (int r = neighbour_rank(pool[i]); r >= 0) neighbours.emplace_back(r, i);
  std::stable_sort(neighbours.begin(), neighbours.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<bool> taken(pool.size(), false);
  for (std::size_t n = 0; n < neighbours.size() && n < neighbour_budget && chosen.size() < limit; ++n) {
    taken[neighbours[n].second] = true;
    chosen.push_back(pool[neighbours[n].second]);
  }

  // One per (algorithm, tile), round-robin over algorithms in order of their best score.
  std::map<std::int32_t, std::vector<std::size_t>> per_algo;  // best first (pool is sorted)
  std::vector<std::int32_t> algo_order;
  std::set<std::pair<std::int32_t, std::uint32_t>> groups;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    if (taken[i]) continue;
    const auto key = std::pair{pool[i].algo_config.algo_id, pool[i].algo_config.tile};
    if (!groups.insert(key).second) continue;
    if (!per_algo.count(key.first)) algo_order.push_back(key.first);
    per_algo[key.first].push_back(i);
  }
  for (std::size_t round = 0; chosen.size() < limit; ++round) {
    bool any = false;
    for (std::int32_t id : algo_order) {
      const auto& list = per_algo[id];
      if (round < list.size() && chosen.size() < limit) {
        taken[list[round]] = true;
        chosen.push_back(pool[list[round]]);
        any = true;
      }
    }
    if (!any) break;
  }
  // Whatever room is left: the best remaining scores.
  for (std::size_t i = 0; i < pool.size() && chosen.size() < limit; ++i)
    if (!taken[i]) {
      taken[i] = true;
      chosen.push_back(pool[i]);
    }
  return chosen;
}

std::vector<AlgoConfig> cluster_variants(const std::vector<AlgoConfig>& answers) {
  static const char* const kShapes[] = {"1x1x1", "2x1x1", "1x2x1", "2x2x1", "4x1x1", "1x4x1", "4x2x1", "2x4x1"};
  std::vector<AlgoConfig> out;
  auto known = [&](const AlgoConfig& a) {
    return std::find(answers.begin(), answers.end(), a) != answers.end() || std::find(out.begin(), out.end(), a) != out.end();
  };
  for (const AlgoConfig& answer : answers) {
    if (answer.cluster == 0) continue;  // "auto": a kernel without a cluster shape to vary
    for (const char* name : kShapes) {
      AlgoConfig v = answer;
      v.cluster = static_cast<std::uint16_t>(*cluster_id(name));
      if (!known(v)) out.push_back(v);
    }
  }
  return out;
}

Enumeration enumerate_candidates(const CublasLt& lib, Handle handle, const MatmulDescriptors& descriptors,
                                 const GemmProblem& problem, const EnumerationOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Enumeration e;
  const LtShape& s = descriptors.shape();
  const Api& api = lib.api();
  if (auto reason = unsupported_reason(problem)) {
    e.notes.push_back(*reason);
    return e;
  }

  // 1. The heuristic: its first answer is what cublasLtMatmul users get, the baseline.
  std::vector<Candidate> heuristic;
  {
    Preference preference(lib);
    preference.set(lt::kPrefMaxWorkspaceBytes, static_cast<std::uint64_t>(options.workspace_bytes), "MAX_WORKSPACE_BYTES");
    preference.set(lt::kPrefMinAlignmentABytes, s.align_x, "MIN_ALIGNMENT_A_BYTES");
    preference.set(lt::kPrefMinAlignmentBBytes, s.align_y, "MIN_ALIGNMENT_B_BYTES");
    preference.set(lt::kPrefMinAlignmentCBytes, s.align_c, "MIN_ALIGNMENT_C_BYTES");
    preference.set(lt::kPrefMinAlignmentDBytes, s.align_d, "MIN_ALIGNMENT_D_BYTES");
    std::vector<HeuristicResult> results(static_cast<std::size_t>(std::max(options.heuristic_count, 1)));
    int returned = 0;
    const Status status =
        api.MatmulAlgoGetHeuristic(handle, descriptors.desc(), descriptors.x(), descriptors.y(), descriptors.c(),
                                   descriptors.d(), preference.get(), static_cast<int>(results.size()), results.data(),
                                   &returned);
    if (status != lt::kSuccess) {
      e.notes.push_back("the heuristic answered " + lib.error_text(status, "cublasLtMatmulAlgoGetHeuristic"));
      returned = 0;
    }
    e.heuristic_returned = returned;
    for (int r = 0; r < returned; ++r) {
      const HeuristicResult& h = results[static_cast<std::size_t>(r)];
      if (h.state != lt::kSuccess) continue;
      Candidate c;
      c.algo = h.algo;
      c.algo_config = read_algo_config(lib, h.algo);
      c.source = "heuristic";
      c.heuristic_rank = r;
      c.workspace_bytes = h.workspace_size;
      c.waves = h.waves_count;
      c.config = to_config(c.algo_config, r);
      heuristic.push_back(std::move(c));
    }
  }
  if (heuristic.empty() || heuristic.front().heuristic_rank != 0) {
    e.notes.push_back("cuBLASLt's heuristic has no algorithm for " + problem.name() +
                      " on this device within the workspace limit, so there is no baseline");
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return e;
  }

  // 2. Every algorithm id and what its capabilities allow.
  std::vector<int> ids(static_cast<std::size_t>(options.max_algo_ids));
  int id_count = 0;
  if (Status status = api.MatmulAlgoGetIds(handle, s.compute_type, s.scale_type, s.x_type, s.y_type, s.c_type,
                                           s.d_type, options.max_algo_ids, ids.data(), &id_count);
      status != lt::kSuccess) {
    e.notes.push_back(lib.error_text(status, "cublasLtMatmulAlgoGetIds"));
    id_count = 0;
  }
  ids.resize(static_cast<std::size_t>(std::max(id_count, 0)));
  e.algo_ids = id_count;

  struct Caps {
    bool splitk = false;
    std::uint32_t reductions = 0;
    bool swizzle = false;
    std::uint32_t custom_max = 0;
  };
  std::map<std::int32_t, Caps> caps_of;
  std::vector<Candidate> valid;
  auto try_config = [&](const AlgoConfig& config) -> bool {
    if (e.checked >= options.max_checks) {
      e.truncated = true;
      return false;
    }
    ++e.checked;
    MatmulAlgo algo;
    try {
      algo = build_algo(lib, handle, s, config);
    } catch (const CublasLtError&) {
      return false;
    }
    const AlgoCheck check = check_algo(lib, handle, descriptors, algo);
    if (check.status != lt::kSuccess || check.workspace_bytes > options.workspace_bytes) return false;
    ++e.valid;
    Candidate c;
    c.algo = algo;
    c.algo_config = config;
    c.source = "enumerated";
    c.workspace_bytes = check.workspace_bytes;
    c.waves = check.waves;
    c.config = to_config(config, -1);
    valid.push_back(std::move(c));
    return true;
  };

  int skipped_epilogue = 0, skipped_batch = 0, skipped_alignment = 0, skipped_init = 0;
  // Base configurations (tile x stages) get 60% of the checks, shared fairly between ids.
  const std::size_t base_budget = ids.empty() ? 0 : options.max_checks * 6 / 10 / ids.size();
  for (int id : ids) {
    MatmulAlgo algo{};
    if (api.MatmulAlgoInit(handle, s.compute_type, s.scale_type, s.x_type, s.y_type, s.c_type, s.d_type, id, &algo) !=
        lt::kSuccess) {
      ++skipped_init;
      continue;
    }
    // A shortcut only (AlgoCheck has the last word): skip ids that say they lack the epilogue.
    const auto epilogues = get_cap<std::uint32_t>(lib, algo, lt::kCapEpilogueMask, 0);
    if (s.epilogue != lt::kEpilogueDefault && epilogues != 0 && (epilogues & s.epilogue) != s.epilogue) {
      ++skipped_epilogue;
      continue;
    }
    if (s.batch > 1 && get_cap<std::int32_t>(lib, algo, lt::kCapStridedBatchSupport, 1) == 0) {
      ++skipped_batch;
      continue;
    }
    if (get_cap<std::uint32_t>(lib, algo, lt::kCapMinAlignmentABytes, 1) > s.align_x ||
        get_cap<std::uint32_t>(lib, algo, lt::kCapMinAlignmentBBytes, 1) > s.align_y ||
        get_cap<std::uint32_t>(lib, algo, lt::kCapMinAlignmentCBytes, 1) > s.align_c ||
        get_cap<std::uint32_t>(lib, algo, lt::kCapMinAlignmentDBytes, 1) > s.align_d) {
      ++skipped_alignment;
      continue;
    }
    Caps caps;
    caps.splitk = get_cap<std::int32_t>(lib, algo, lt::kCapSplitKSupport, 0) != 0;
    caps.reductions = get_cap<std::uint32_t>(lib, algo, lt::kCapReductionSchemeMask, 0);
    caps.swizzle = get_cap<std::uint32_t>(lib, algo, lt::kCapCtaSwizzlingSupport, 0) != 0;
    caps.custom_max = static_cast<std::uint32_t>(std::max(0, get_cap<std::int32_t>(lib, algo, lt::kCapCustomOptionMax, 0)));
    caps_of[id] = caps;
    std::vector<std::uint32_t> tiles = get_cap_list(lib, algo, lt::kCapTileIds);
    std::vector<std::uint32_t> stages = get_cap_list(lib, algo, lt::kCapStagesIds);
    if (tiles.empty()) tiles.push_back(0);
    if (stages.empty()) stages.push_back(0);
    const std::size_t combos = tiles.size() * stages.size();
    // More combinations than this id's share: take an evenly spaced subset.
    const std::size_t step = base_budget > 0 && combos > base_budget ? (combos + base_budget - 1) / base_budget : 1;
    for (std::size_t index = 0; index < combos; index += step) {
      AlgoConfig config;
      config.algo_id = id;
      config.tile = tiles[index / stages.size()];
      config.stages = stages[index % stages.size()];
      try_config(config);
    }
  }
  if (skipped_init) e.notes.push_back(std::to_string(skipped_init) + " algorithm id(s) do not initialise for these types");
  if (skipped_epilogue) e.notes.push_back(std::to_string(skipped_epilogue) + " algorithm id(s) lack the epilogue");
  if (skipped_batch) e.notes.push_back(std::to_string(skipped_batch) + " algorithm id(s) lack strided batches");
  if (skipped_alignment)
    e.notes.push_back(std::to_string(skipped_alignment) + " algorithm id(s) need more alignment than the leading dimensions give");

  // 3. Variants (split-K with each reduction, swizzle, custom options) of the bases that share
  // the heuristic's algorithm and tile, and of the best-scoring other bases.
  std::vector<Candidate> bases = valid;
  double best_intensity = 0;
  for (const Candidate& c : bases) best_intensity = std::max(best_intensity, tile_intensity(c.algo_config.tile));
  for (Candidate& c : bases) c.score = candidate_score(c, problem, best_intensity);
  auto near_heuristic = [&](const Candidate& c) {
    return std::any_of(heuristic.begin(), heuristic.end(), [&](const Candidate& h) {
      return h.algo_config.algo_id == c.algo_config.algo_id && h.algo_config.tile == c.algo_config.tile;
    });
  };
  std::stable_sort(bases.begin(), bases.end(), [&](const Candidate& x, const Candidate& y) {
    const bool nx = near_heuristic(x), ny = near_heuristic(y);
    if (nx != ny) return nx;
    return x.score > y.score;
  });
  constexpr std::size_t kExpandedBases = 64;
  const int splits[] = {2, 3, 4, 6, 8, 12, 16, 32};
  for (std::size_t b = 0; b < bases.size() && b < kExpandedBases && !e.truncated; ++b) {
    const AlgoConfig base = bases[b].algo_config;
    const Caps& caps = caps_of[base.algo_id];
    if (caps.swizzle) {
      AlgoConfig v = base;
      v.swizzle = 1;
      try_config(v);
    }
    for (std::uint32_t custom = 1; custom <= std::min<std::uint32_t>(caps.custom_max, 7); ++custom) {
      AlgoConfig v = base;
      v.custom = custom;
      try_config(v);
    }
    // Split-K pays when the grid is too small to fill the GPU and K is long.
    const float waves = bases[b].waves;
    if (caps.splitk && waves > 0 && waves < 2.0f) {
      for (int split : splits) {
        if (problem.k / split < 64 || static_cast<double>(waves) * split > 8.0) continue;
        for (std::uint32_t scheme : {lt::kReductionInplace, lt::kReductionComputeType, lt::kReductionOutputType}) {
          if ((caps.reductions & scheme) == 0) continue;
          AlgoConfig v = base;
          v.splitk = split;
          v.reduction = scheme;
          try_config(v);
        }
      }
    }
  }

  if (options.cluster_variants) {
    std::vector<AlgoConfig> answers;
    for (const Candidate& h : heuristic) answers.push_back(h.algo_config);
    for (const AlgoConfig& v : cluster_variants(answers)) try_config(v);
  }
  e.candidates = select_candidates(std::move(heuristic), std::move(valid), problem, options.max_candidates);
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

void enqueue_matmul(const CublasLt& lib, Handle handle, const MatmulDescriptors& d, const GemmProblem& problem,
                    const MatmulAlgo& algo, const MatmulBuffers& buffers, Stream stream) {
  const float alpha = problem.alpha_f32();
  const float beta = problem.beta_f32();
  const void* c = buffers.c ? buffers.c : buffers.d;
  // X is the problem's B, Y its A (see the header).
  lib.check(lib.api().Matmul(handle, d.desc(), &alpha, buffers.b, d.x(), buffers.a, d.y(), &beta, c, d.c(), buffers.d,
                             d.d(), &algo, buffers.workspace, buffers.workspace_bytes, stream),
            "cublasLtMatmul");
}

}  // namespace ktune::cublaslt
