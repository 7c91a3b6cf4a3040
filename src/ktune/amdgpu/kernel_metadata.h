#pragma once
// AMDGPU code object metadata (code object v3+): the per-kernel resource facts LLVM records,
// read from either of its two spellings, which must agree:
//   - the `.amdgpu_metadata` ... `.end_amdgpu_metadata` YAML block at the end of `clang -S`
//     output, and
//   - the NT_AMDGPU_METADATA note of the code object, a MessagePack map.
// Also reads the `; Occupancy: N` / `; NumVgprs: N` comments clang writes after each kernel.

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/amdgpu/msgpack.h"
#include "ktune/analysis/occupancy_amdgpu.h"

namespace ktune::amdgpu {

class MetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct KernelArgument {
  std::string name;
  std::string type_name;
  std::string value_kind;      // "global_buffer", "by_value", "hidden_block_count_x", ...
  std::string address_space;   // "global", "local", ... ("" for by-value arguments)
  std::string access;          // .actual_access or .access ("read_only", ...)
  std::int64_t offset = 0;
  std::int64_t size = 0;
  bool operator==(const KernelArgument&) const = default;
};

struct KernelMetadata {
  std::string name;    // .name (source name; mangled for C++)
  std::string symbol;  // .symbol, the kernel descriptor ("name.kd")
  int vgpr_count = 0;  // total VGPRs incl. AGPRs on gfx90a+ (what limits occupancy)
  int agpr_count = 0;
  int sgpr_count = 0;
  std::int64_t group_segment_fixed_size = 0;    // static LDS bytes
  std::int64_t private_segment_fixed_size = 0;  // scratch bytes per work-item
  int vgpr_spill_count = 0;
  int sgpr_spill_count = 0;
  int wavefront_size = 0;
  int max_flat_workgroup_size = 0;
  std::int64_t kernarg_segment_size = 0;
  std::int64_t kernarg_segment_align = 0;
  bool uses_dynamic_stack = false;
  std::optional<std::array<int, 3>> reqd_workgroup_size;
  std::vector<KernelArgument> args;
  bool operator==(const KernelMetadata&) const = default;
};

struct CodeObjectMetadata {
  std::vector<std::int64_t> version;  // amdhsa.version, e.g. {1, 2}
  std::string target;                 // amdhsa.target, "amdgcn-amd-amdhsa--gfx942"
  std::vector<KernelMetadata> kernels;

  // By .name, then by .symbol; nullptr when absent.
  const KernelMetadata* find(std::string_view name) const;
  bool operator==(const CodeObjectMetadata&) const = default;
};

// The note's MessagePack document (already parsed / raw bytes). Throws MetadataError (or
// MsgpackError for bad bytes) naming the kernel and field that is wrong.
CodeObjectMetadata metadata_from_msgpack(const MsgpackValue& root);
CodeObjectMetadata parse_metadata_msgpack(std::string_view bytes);

// The YAML document (what llvm-readelf --notes prints and what `.amdgpu_metadata` holds).
// Throws MetadataError.
CodeObjectMetadata parse_metadata_yaml(std::string_view yaml);

// The text between `.amdgpu_metadata` and `.end_amdgpu_metadata`; nullopt when the assembly
// has no such block.
std::optional<std::string> extract_asm_metadata_yaml(std::string_view asm_text);
// extract + parse; throws MetadataError when there is no block.
CodeObjectMetadata parse_asm_metadata(std::string_view asm_text);

// Human-readable differences ("mfma16: vgpr_count 10 (assembly) vs 12 (code object)"); empty
// when both agree on every field.
std::vector<std::string> compare_metadata(const CodeObjectMetadata& a, const CodeObjectMetadata& b,
                                          std::string_view a_label = "a", std::string_view b_label = "b");

// What clang writes in comments after each kernel of `-S` output.
struct AsmKernelInfo {
  std::string name;  // the .amdhsa_kernel name
  std::optional<int> occupancy;        // "; Occupancy: 8"
  std::optional<int> num_vgprs;        // "; NumVgprs: 42" (architectural VGPRs)
  std::optional<int> num_agprs;        // "; NumAgprs: 0"
  std::optional<int> total_num_vgprs;  // "; TotalNumVgprs: 42"
  std::optional<int> num_sgprs;        // "; NumSgprs: 16" (clang-19) / "; TotalNumSgprs: 16" (clang-22)
  std::optional<std::int64_t> scratch_size;  // "; ScratchSize: 28"
  std::optional<std::int64_t> lds_size;      // "; LDSByteSize: 2048 bytes/workgroup"
  std::optional<std::int64_t> code_length;   // "; codeLenInByte = 500"
};
std::vector<AsmKernelInfo> parse_asm_kernel_info(std::string_view asm_text);

// The occupancy inputs of a kernel launched with `workgroup_size` threads (0: its
// .max_flat_workgroup_size) and `dynamic_lds_bytes` on top of its static LDS.
analysis::AmdgpuOccupancyInput occupancy_input(const KernelMetadata& kernel, int workgroup_size = 0,
                                               std::int64_t dynamic_lds_bytes = 0);
analysis::AmdgpuOccupancyResult kernel_occupancy(const KernelMetadata& kernel, const analysis::AmdgpuArch& arch,
                                                 int workgroup_size = 0, std::int64_t dynamic_lds_bytes = 0);

nlohmann::json to_json(const KernelMetadata& kernel);
nlohmann::json to_json(const CodeObjectMetadata& metadata);

}  // namespace ktune::amdgpu
