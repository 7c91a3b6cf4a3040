#pragma once
// What IREE chose for one dispatch, read from the `configured_*.mlir` file that
// `iree-compile --iree-hal-dump-executable-files-to=DIR` writes: the target (arch, its MMA
// intrinsics, subgroup sizes, shared memory), the export, the translation_info (pipeline,
// workgroup size, subgroup size, pipeline options) and every op's lowering_config (workgroup,
// reduction and subgroup tiles, mma_kind, promote_operands, ...), plus the dispatch's buffers.
// These are the knobs ktune's IREE candidates vary, named as IREE names them.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::iree {

// A file that is not what IREE writes: names the file and line.
class DispatchParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One `key = value` of an attribute dictionary, or a bare `key` (a unit attribute: value "").
struct AttributeEntry {
  std::string key;
  std::string value;  // the value's text as written: "[128, 64, 0]", "#iree_gpu.mma_layout<...>"
};

// Splits "a = 1, b = [2, 3], c" at its top-level commas (not inside <>, [], {}, (), or quotes).
std::vector<std::string> split_top_level(const std::string& text, char separator = ',');
// The entries of a dictionary body (without its braces).
std::vector<AttributeEntry> parse_attribute_dict(const std::string& body);
// "[128, 64, 0]" -> {128, 64, 0}; nullopt when not a list of integers.
std::optional<std::vector<std::int64_t>> parse_int_list(const std::string& text);

struct LoweringConfig {
  std::string kind;  // "iree_gpu.lowering_config", "iree_codegen.lowering_config", ...
  std::vector<AttributeEntry> entries;  // in the order written
  std::string text;  // the whole attribute as written
  int line = 0;      // 1-based line of the op that carries it
  std::string op;    // "linalg.generic", "linalg.matmul", "iree_linalg_ext.attention", ...
  std::vector<std::string> iterator_types;  // of a linalg.generic: "parallel", "reduction"
  // From the op's line: each indexing map's results as loop indices (empty when a map is not
  // plain loop dimensions, e.g. a convolution's d1 + d4, or when the op prints none), and the
  // shapes of its `ins` then `outs` operands (-1: dynamic).
  std::vector<std::vector<int>> indexing_maps;
  std::vector<std::vector<std::int64_t>> operand_shapes;
  std::size_t input_count = 0;

  const AttributeEntry* find(const std::string& key) const;
  std::optional<std::vector<std::int64_t>> tiles(const std::string& key) const;  // workgroup, reduction, ...
  std::optional<std::string> mma_kind() const;  // "NV_MMA_SYNC_F32_16x8x16_F16"
};

struct Binding {
  int index = 0;
  std::vector<std::int64_t> shape;  // -1 for a dynamic size
  std::string element_type;         // "f16", "f32", "bf16", "i8", ...
  bool read_only = false;
};

struct TranslationInfo {
  std::string pipeline;  // "TileAndFuse", "LLVMGPUVectorDistribute", ...
  std::vector<std::int64_t> workgroup_size;
  std::optional<std::int64_t> subgroup_size;
  std::vector<AttributeEntry> pipeline_options;  // prefetch_num_stages, ...
  std::string text;
};

// A contraction's loops classified as IREE's contraction matchers do: batch (in both inputs
// and the output), M (LHS and output), N (RHS and output), K (both inputs, not the output).
struct ContractionLoops {
  std::vector<std::int64_t> sizes;  // every loop's extent, -1 when dynamic
  std::vector<int> batch;           // loop indices
  int m = -1, n = -1, k = -1;       // loop indices
  std::int64_t batch_count() const; // the product of the batch extents (1 without any)
  bool is_static() const;
  // "128x128x64" (M x N x K); a batched one leads with its batch count, spaced apart so that it
  // is not read as a fourth dimension: "8 x 128x128x64". "?" stands for a dynamic extent.
  std::string label() const;
};

// An extent as ktune prints it: the number, or "?" when dynamic (-1).
std::string extent_text(std::int64_t extent);
// Extents joined with "x": {-1, 64} -> "?x64".
std::string extents_text(const std::vector<std::int64_t>& extents);

struct ConfiguredDispatch {
  std::string file;        // where it was read from
  std::string executable;  // hal.executable @name
  std::string export_name; // hal.executable.export @name (also the function's name)
  std::string backend;     // "cuda", "rocm", "hip", ...
  std::string arch;        // "sm_80", "gfx942"
  std::vector<std::string> mma_intrinsics;           // the target's, in IREE's names
  std::vector<std::int64_t> subgroup_size_choices;
  std::optional<std::int64_t> max_workgroup_memory_bytes;
  std::optional<TranslationInfo> translation;
  // Root first: the first op that has one, except that a linalg.fill (llvm-cpu configures the
  // accumulator's fill too, before the matmul) comes after every other op.
  std::vector<LoweringConfig> lowering_configs;
  std::vector<Binding> bindings;

  // The root op's loops when it is a contraction with one M, one N and one K loop (and any
  // batch loops), read from its indexing maps and operand types; nullopt otherwise.
  std::optional<ContractionLoops> contraction() const;
  // M, N, K of a root contraction without batch loops; nullopt otherwise (a batched one too:
  // see contraction()).
  std::optional<std::vector<std::int64_t>> matmul_mnk() const;
  // The problem's size for a table: the contraction's label() (contraction(), else
  // matmul_mnk()), else the last binding's shape (the output's); "-" when nothing tells.
  std::string shape_label() const;
  nlohmann::json to_json() const;
};

// Parses the text of a configured_*.mlir file; `file` names it in errors. Throws
// DispatchParseError when the text has no hal.executable or no export.
ConfiguredDispatch parse_configured_dispatch(const std::string& text, const std::string& file);

}  // namespace ktune::iree
