#pragma once
// IREE transform-dialect codegen strategies for a matmul dispatch on CUDA: the third candidate
// family of a dispatch, after IREE's knobs and ktune's kernels.
//
// Why: IREE 3.13's CUDA pipelines (TileAndFuse, VectorDistribute) read the m16n8k16 B fragment
// from shared memory two bytes at a time and never pipeline the K loop, whatever the knobs say
// (docs/benchmarks.md, issue 10, sessions 12, 26, 27). IREE's transform dialect still holds the
// pieces of its older tensor-core path: operand promotion, vector_to_mma with ldmatrix, padding
// against bank conflicts, multi-buffering, cp.async groups and software pipelining. A strategy
// composes them for one tile shape; IREE compiles it (`translation_info` with
// `#iree_codegen.transform_dialect_codegen codegen_spec = @<strategy>`, the sequences in a
// library given by `--iree-codegen-transform-dialect-library`).
//
// Scope (what the strategy is proven on): CUDA; a plain 2-D matmul, A MxK and B KxN row-major in
// f16 (bf16 fails in IREE 3.13's vector-to-nvgpu conversion), into a zero fill; an f32 result,
// or an f16 one accumulated in f16 (mma.sync's f16 accumulators); no fused cast or consumer, no
// push constant; every extent a multiple of the tile (the strategy has no masked tails).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/dispatch_gemm.h"

namespace ktune::iree {

struct TransformStrategy {
  int tile_m = 128, tile_n = 128, tile_k = 64;  // one workgroup's tile
  int warps_m = 2, warps_n = 2;                 // the warp grid over it
  int stages = 3;                               // shared-memory buffers per operand
  int threads() const { return warps_m * warps_n * 32; }
  // "td/128x128x64/w2x2/d3": the candidate's label.
  std::string label() const;
  // "ktune_td_128x128x64_w2x2_d3": the named sequence the translation_info names.
  std::string sequence_name() const;
  // Shared memory of all stages, rows padded by 16 bytes (2-byte operands).
  std::int64_t shared_bytes() const;
  nlohmann::json to_json() const;
};

// The strategy a label names; nullopt for anything else ("default", IREE's knobs, ktune's kernels).
std::optional<TransformStrategy> parse_strategy_label(const std::string& label);

// The strategies for `gemm` (recognize_dispatch_gemm) of `dispatch`, best first, at most `max`.
// Empty with `*unsupported` saying why when the dispatch is outside the scope above.
std::vector<TransformStrategy> transform_strategies(const ConfiguredDispatch& dispatch, const std::optional<DispatchGemm>& gemm,
                                                    std::size_t max, std::string* unsupported = nullptr);

// A transform library holding `strategies` (duplicates written once) and the empty
// `@__kernel_config` IREE looks up in every library.
std::string emit_strategy_library(const std::vector<TransformStrategy>& strategies);

// The configured source `text` with its translation_info naming `strategy` and every
// lowering_config removed (the strategy decides the tiling). Throws DispatchParseError when the
// source has no translation_info.
std::string apply_strategy(const std::string& text, const TransformStrategy& strategy);

// The strategies the substituted configured files name (read from their translation_info).
std::vector<TransformStrategy> strategies_named_in(const std::vector<std::filesystem::path>& files);

}  // namespace ktune::iree
