#include "ktune/iree/transform_strategy.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "ktune/core/read_file.h"

namespace ktune::iree {
namespace fs = std::filesystem;

namespace {

// The strategy, step by step. ${NAME} is the sequence, ${...} its numbers. Kept in one piece
// so that it reads as the pipeline it is; each step says why it is there.
constexpr const char* kSequences = R"MLIR(
  // Tensor-level tiling, a sequence of its own so that its handles die before bufferization
  // (IREE's tracking listener rejects handles to ops that vector_to_mma later replaces).
  transform.named_sequence @${NAME}_tile(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %mm tile_sizes [${TM}, ${TN}] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.iree.populate_workgroup_count_region_using_num_threads_slice %forall : (!transform.any_op) -> ()
    %ff, %forall2 = transform.structured.fuse_into_containing_op %fill into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tk, %loop = transform.structured.tile_using_for %tiled tile_sizes [0, 0, ${TK}] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %promoted, %alloc_a, %alloc_b = transform.iree.promote_operands %tk [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %tw, %fw = transform.structured.tile_using_forall %promoted num_threads [${WM}, ${WN}] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tf, %ffw = transform.structured.tile_using_forall %ff num_threads [${WM}, ${WN}] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.scf.for_loop_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    transform.yield
  }

  transform.named_sequence @${NAME}(%root: !transform.any_op {transform.consumed}) {
    transform.include @${NAME}_tile failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.iree.eliminate_empty_tensors %root : (!transform.any_op) -> ()
    %root_b = transform.iree.bufferize <{target_gpu}> %root : (!transform.any_op) -> (!transform.any_op)
    %func_b = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    // 16-byte vector copies of the A and B tiles, spread over every thread.
    transform.iree.gpu_distribute_shared_memory_copy %func_b : (!transform.any_op) -> ()
    transform.iree.forall_to_workgroup %func_b : (!transform.any_op) -> ()
    transform.iree.map_nested_forall_to_gpu_threads %func_b workgroup_dims = [${THREADS}, 1, 1] subgroup_size = 32 : (!transform.any_op) -> ()
    transform.iree.hoist_static_alloc %func_b : (!transform.any_op) -> ()
    // Rows padded by 16 bytes: ldmatrix's eight rows then fall in different banks (without
    // it, 1.3x slower than IREE's default on the H200).
    transform.iree.reduce_shared_memory_bank_conflicts %func_b <{padding_size_bits = 128 : i64}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // Bufferization leaves each tile's write-back as a copy of a buffer onto itself. As
    // linalg.copy they fold away, and nothing else touches the accumulator in the K loop.
    %copies = transform.structured.match ops{["linalg.generic"]} in %func_b : (!transform.any_op) -> !transform.any_op
    %named = transform.structured.specialize %copies : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.vector.fold_arith_extension
      transform.apply_patterns.iree.prepare_vector_to_mma
      transform.apply_patterns.iree.unroll_vectors_gpu_mma_sync
    } : !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // Unrolled first, so that each 16x8 accumulator becomes a loop-carried value of its own.
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_b : (!transform.any_op) -> !transform.any_op
    // The fill's zeros forwarded to the accumulators' first reads (no C round trip).
    %func_o = transform.apply_registered_pass "iree-codegen-optimize-vector-transfer" to %func_h : (!transform.any_op) -> !transform.any_op
    // mma.sync m16n8k16, operands by ldmatrix (B with .trans).
    transform.iree.vector.vector_to_mma_conversion %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_o {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // ${STAGES} shared tiles per operand filled by cp.async, the K loop software-pipelined.
    %allocs = transform.structured.match ops{["memref.alloc"]} in %func_o : (!transform.any_op) -> !transform.op<"memref.alloc">
    %mb = transform.memref.multibuffer %allocs <{factor = ${STAGES} : i64, skip_analysis}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.apply_patterns to %func_o {
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
    } : !transform.any_op
    transform.iree.create_async_groups %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    %for = transform.structured.match ops{["scf.for"]} in %func_o : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.iree.pipeline_shared_memory_copies %for <{depth = ${STAGES} : i64}> : (!transform.op<"scf.for">) -> !transform.any_op
    transform.apply_patterns to %func_o {
      transform.apply_patterns.vector.lower_masks
      transform.apply_patterns.vector.materialize_masks
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_o : !transform.any_op
    transform.yield
  }
)MLIR";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

std::string sequences_of(const TransformStrategy& t) {
  std::string s = kSequences;
  const std::pair<const char*, std::string> values[] = {
      {"${NAME}", t.sequence_name()},         {"${TM}", std::to_string(t.tile_m)},    {"${TN}", std::to_string(t.tile_n)},
      {"${TK}", std::to_string(t.tile_k)},    {"${WM}", std::to_string(t.warps_m)},   {"${WN}", std::to_string(t.warps_n)},
      {"${THREADS}", std::to_string(t.threads())}, {"${STAGES}", std::to_string(t.stages)}};
  for (const auto& [key, value] : values) s = replace_all(s, key, value);
  return s;
}

// The end of the attribute that starts at `at` ("#dialect.name<...>"): one past its closing '>'.
std::size_t attribute_end(const std::string& text, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' || c == '{' || c == '[' || c == '(') ++depth;
    if (c == '>' && i > 0 && text[i - 1] == '-') continue;  // "->" inside a type
    if (c == '>' || c == '}' || c == ']' || c == ')') {
      if (--depth == 0) return i + 1;
      if (depth < 0) return std::string::npos;
    }
  }
  return std::string::npos;
}

// Why `gemm` is outside what the strategy is proven on ("" when inside).
std::string out_of_scope(const DispatchGemm& g) {
  const gemm::GemmProblem& p = g.problem;
  if (p.batch != 1) return "a batched matmul";
  if (p.a_transposed || p.b_transposed) return "layout " + p.layout() + " (the strategy reads A MxK and B KxN)";
  // bf16 was tried: IREE 3.13's vector-to-nvgpu conversion refuses its shared-memory loads
  // ("failed to convert op during vector-to-nvgpu conversion").
  if (p.precision != gemm::Precision::F16) return "operands are not f16";
  if (p.out != gemm::Storage::F32 && p.out != gemm::Storage::F16) return "the result is neither f32 nor f16";
  if (p.bias || p.reads_c() || p.activation != gemm::Activation::None) return "a fused consumer (" + g.describe() + ")";
  if (g.constant_count != 0) return "push constants";
  for (const GemmOperand& o : g.operands)
    if (o.offset_bytes != 0 || o.offset_constant >= 0) return "an operand at an offset in its binding";
  return "";
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

double strategy_score(const TransformStrategy& t, const gemm::GemmProblem& p) {
  // A simple order for the measurements to come (the exhaustive strategy measures them all):
  // warp tiles near 64x64 reuse each ldmatrix most, K tiles of 64 halve the barriers per
  // FLOP, three stages hid the latency best on the H200, 128 threads beat 256 there, and a
  // grid of fewer than two waves on a 108-SM part leaves SMs idle.
  const double warp_m = t.tile_m / t.warps_m, warp_n = t.tile_n / t.warps_n;
  double s = std::min(warp_m, 64.0) * std::min(warp_n, 64.0) / 4096.0;
  s *= t.tile_k >= 64 ? 1.0 : 0.9;
  s *= t.stages == 3 ? 1.0 : t.stages == 4 ? 0.97 : 0.9;
  s *= t.threads() == 128 ? 1.0 : 0.95;
  const double tiles = static_cast<double>(p.m / t.tile_m) * static_cast<double>(p.n / t.tile_n);
  s *= std::min(1.0, tiles / 216.0);
  return s;
}

bool fits(const TransformStrategy& t, const gemm::GemmProblem& p, std::int64_t shared_limit) {
  const int warp_m = t.tile_m / t.warps_m, warp_n = t.tile_n / t.warps_n;
  if (t.tile_m % t.warps_m || t.tile_n % t.warps_n || warp_m % 16 || warp_n % 16) return false;
  if (warp_m * warp_n / 32 > 128) return false;  // f32 accumulators per thread
  if (p.m % t.tile_m || p.n % t.tile_n || p.k % t.tile_k) return false;  // no masked tails
  if (p.k / t.tile_k < t.stages) return false;
  // Both tiles are copied in 16-byte pieces, the same number per thread.
  if ((t.tile_m * t.tile_k / 8) % t.threads() || (t.tile_k * t.tile_n / 8) % t.threads()) return false;
  return t.shared_bytes() <= shared_limit;
}

}  // namespace

std::string TransformStrategy::label() const {
  return "td/" + std::to_string(tile_m) + "x" + std::to_string(tile_n) + "x" + std::to_string(tile_k) + "/w" + std::to_string(warps_m) +
         "x" + std::to_string(warps_n) + "/d" + std::to_string(stages);
}

std::string TransformStrategy::sequence_name() const {
  return "ktune_td_" + std::to_string(tile_m) + "x" + std::to_string(tile_n) + "x" + std::to_string(tile_k) + "_w" +
         std::to_string(warps_m) + "x" + std::to_string(warps_n) + "_d" + std::to_string(stages);
}

std::int64_t TransformStrategy::shared_bytes() const {
  const std::int64_t pad = 8;  // 16 bytes of 2-byte elements
  return static_cast<std::int64_t>(stages) * 2 * (static_cast<std::int64_t>(tile_m) * (tile_k + pad) + static_cast<std::int64_t>(tile_k) * (tile_n + pad));
}

nlohmann::json TransformStrategy::to_json() const {
  return {{"tile", {tile_m, tile_n, tile_k}}, {"warps", {warps_m, warps_n}}, {"stages", stages},
          {"threads", threads()}, {"shared_bytes", shared_bytes()}, {"sequence", sequence_name()}};
}

std::optional<TransformStrategy> parse_strategy_label(const std::string& label) {
  static const std::regex re(R"(td/(\d+)x(\d+)x(\d+)/w(\d+)x(\d+)/d(\d+))");
  std::smatch m;
  if (!std::regex_match(label, m, re)) return std::nullopt;
  TransformStrategy t;
  t.tile_m = std::stoi(m[1]);
  t.tile_n = std::stoi(m[2]);
  t.tile_k = std::stoi(m[3]);
  t.warps_m = std::stoi(m[4]);
  t.warps_n = std::stoi(m[5]);
  t.stages = std::stoi(m[6]);
  return t;
}

std::vector<TransformStrategy> transform_strategies(const ConfiguredDispatch& dispatch, const std::optional<DispatchGemm>& gemm,
                                                    std::size_t max, std::string* unsupported) {
  auto refuse = [&](std::string why) {
    if (unsupported) *unsupported = std::move(why);
    return std::vector<TransformStrategy>{};
  };
  if (dispatch.backend != "cuda") return refuse("transform strategies are written for CUDA (this dispatch is for " + dispatch.backend + ")");
  if (!gemm) return refuse("not a GEMM the strategy computes");
  if (const std::string why = out_of_scope(*gemm); !why.empty()) return refuse(why);
  // The strategy tiles the one linalg.generic and the one linalg.fill there are: an f16 result
  // accumulated in f16 is one op, an f32 accumulator cast to f16 is two (a fused cast).
  const std::string text = read_file(dispatch.file).value_or("");
  if (count_of(text, "linalg.generic") != 1 || count_of(text, "linalg.fill") != 1)
    return refuse("ops besides the contraction and its zero fill (a fused cast or consumer)");
  const std::int64_t shared_limit = dispatch.max_workgroup_memory_bytes.value_or(48 * 1024);
  std::vector<std::pair<double, TransformStrategy>> ranked;
  for (int tm : {64, 128, 256})
    for (int tn : {64, 128, 256})
      for (int tk : {32, 64})
        for (auto [wm, wn] : {std::pair{2, 2}, std::pair{1, 2}, std::pair{2, 1}, std::pair{2, 4}, std::pair{4, 2}})
          for (int stages : {3, 4, 2}) {
            const TransformStrategy t{tm, tn, tk, wm, wn, stages};
            if (fits(t, gemm->problem, shared_limit)) ranked.push_back({strategy_score(t, gemm->problem), t});
          }
  if (ranked.empty()) return refuse("no tile divides " + std::to_string(gemm->problem.m) + "x" + std::to_string(gemm->problem.n) + "x" +
                                    std::to_string(gemm->problem.k) + " (the strategy has no masked tails)");
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<TransformStrategy> out;
  for (std::size_t i = 0; i < ranked.size() && out.size() < max; ++i) out.push_back(ranked[i].second);
  if (out.empty()) return refuse("no strategy asked for (--max-strategies 0)");
  return out;
}

std::string emit_strategy_library(const std::vector<TransformStrategy>& strategies) {
  std::ostringstream o;
  o << "// IREE transform-dialect codegen strategies written by ktune (src/ktune/iree/transform_strategy.cc).\n"
    << "// Use: iree-compile --iree-codegen-transform-dialect-library=THIS_FILE with a substituted\n"
    << "// configuration whose translation_info names one of the sequences below.\n"
    << "module attributes {transform.with_named_sequence} {\n"
    << "  // IREE looks this up in every library; configurations come from the substituted sources.\n"
    << "  transform.named_sequence @__kernel_config(%root: !transform.any_op {transform.readonly}) {\n"
    << "    transform.yield\n  }\n";
  std::set<std::string> written;
  for (const auto& t : strategies)
    if (written.insert(t.sequence_name()).second) o << sequences_of(t);
  o << "}\n";
  return o.str();
}

std::string apply_strategy(const std::string& text, const TransformStrategy& strategy) {
  const std::string key = "translation_info = ";
  const auto at = text.find(key + "#iree_codegen.translation_info<");
  if (at == std::string::npos) throw DispatchParseError("the configured source has no translation_info to replace");
  const auto begin = at + key.size();
  const auto end = attribute_end(text, begin);
  if (end == std::string::npos) throw DispatchParseError("the configured source's translation_info does not close");
  std::string out = text.substr(0, begin) + "#iree_codegen.translation_info<pipeline = #iree_codegen.transform_dialect_codegen codegen_spec = @" +
                    strategy.sequence_name() + " workgroup_size = [" + std::to_string(strategy.threads()) + ", 1, 1] subgroup_size = 32>" +
                    text.substr(end);
  // Every lowering_config goes: the strategy tiles, and TileAndFuse's configuration is not read.
  for (auto lc = out.find("lowering_config = #"); lc != std::string::npos; lc = out.find("lowering_config = #", lc)) {
    const auto lc_end = attribute_end(out, lc + std::string("lowering_config = ").size());
    if (lc_end == std::string::npos) throw DispatchParseError("a lowering_config of the configured source does not close");
    std::size_t from = lc, to = lc_end;
    if (out.compare(to, 2, ", ") == 0) to += 2;
    else if (from >= 2 && out.compare(from - 2, 2, ", ") == 0) from -= 2;
    out.erase(from, to - from);
  }
  out = replace_all(out, " attrs =  {}", "");
  out = replace_all(out, " attrs = {}", "");
  return out;
}

std::vector<TransformStrategy> strategies_named_in(const std::vector<fs::path>& files) {
  static const std::regex re(R"(codegen_spec = @ktune_td_(\d+)x(\d+)x(\d+)_w(\d+)x(\d+)_d(\d+))");
  std::vector<TransformStrategy> out;
  for (const auto& f : files) {
    const std::string text = read_file(f).value_or("");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
      const auto& m = *it;
      out.push_back({std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]), std::stoi(m[5]), std::stoi(m[6])});
    }
  }
  return out;
}

}  // namespace ktune::iree
