#pragma once
// Per-kernel resource usage read from ptxas's `-v` output (what NVRTC puts in the program log
// with `-Xptxas -v`, and what nvcc prints with `--resource-usage`). A typical block:
//
//   ptxas info    : 0 bytes gmem
//   ptxas info    : Compiling entry function 'sgemm' for 'sm_80'
//   ptxas info    : Function properties for sgemm
//   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 31 registers, used 1 barriers, 8448 bytes smem, 388 bytes cmem[0]
//   ptxas info    : Compile time = 5.333 ms
//
// The parser is tolerant: items it does not know are kept in `other` and ptxas lines it cannot
// place are kept in `unparsed_lines`, so a format change in a future CUDA shows up in reports
// instead of silently reading as zero.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::analysis {

// One __global__ function ("entry function" in ptxas's words).
struct KernelResourceUsage {
  std::string name;            // as ptxas prints it: mangled, or plain for extern "C"
  std::string demangled_name;  // C++ spelling when `name` is mangled, else equal to `name`
  std::string arch;            // "sm_90a"; empty when the log did not say
  int registers = 0;
  int barriers = 0;                  // named barriers (bar.sync ids) the kernel uses
  std::int64_t shared_bytes = 0;     // static __shared__ memory per block
  std::int64_t local_bytes = 0;      // "lmem", printed only by old ptxas versions
  std::int64_t stack_frame_bytes = 0;
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
  std::int64_t cumulative_stack_bytes = 0;       // includes callees' frames
  std::map<int, std::int64_t> constant_bytes;    // cmem bank -> bytes (bank 0: params etc.)
  std::map<std::string, std::int64_t> other;     // items not listed above ("textures": 1)
  std::optional<int> max_registers_override;     // from -maxrregcount / launch bounds notes
  std::optional<double> compile_time_ms;
  std::vector<std::string> warnings;             // ptxas warnings that name this kernel

  bool has_spills() const { return spill_store_bytes > 0 || spill_load_bytes > 0; }
  bool uses_local_memory() const { return has_spills() || stack_frame_bytes > 0 || local_bytes > 0; }
};

// A __device__ function ptxas compiled separately (not inlined), e.g. __noinline__ helpers.
struct DeviceFunctionUsage {
  std::string name;
  std::string demangled_name;
  std::int64_t stack_frame_bytes = 0;
  std::int64_t spill_store_bytes = 0;
  std::int64_t spill_load_bytes = 0;
};

struct PtxasReport {
  std::vector<KernelResourceUsage> kernels;            // in the order ptxas compiled them
  std::vector<DeviceFunctionUsage> device_functions;   // one entry per name
  std::int64_t global_bytes = 0;                       // module "gmem" (__device__ variables)
  std::map<int, std::int64_t> module_constant_bytes;   // module-level cmem banks (__constant__)
  std::vector<std::string> warnings;                   // every "ptxas warning" message
  std::vector<std::string> errors;                     // every "ptxas error"/"ptxas fatal" message
  std::vector<std::string> unparsed_lines;             // ptxas lines we could not interpret

  // Looks a kernel up by its ptxas name, or by its demangled name, or by the bare function name
  // of a demangled name ("tile" matches "tile<64, 64>(...)" only when exactly one kernel does).
  const KernelResourceUsage* find(std::string_view name) const;
  bool empty() const { return kernels.empty() && device_functions.empty(); }
};

// Parses ptxas `-v` output; lines that do not start with "ptxas" (front-end diagnostics) are
// ignored. Never throws on odd input.
PtxasReport parse_ptxas_log(std::string_view log);

// Itanium-ABI demangling for CUDA kernel names; returns `name` unchanged when not mangled.
std::string demangle(const std::string& name);

nlohmann::json to_json(const KernelResourceUsage& kernel);
nlohmann::json to_json(const DeviceFunctionUsage& function);
nlohmann::json to_json(const PtxasReport& report);

}  // namespace ktune::analysis
