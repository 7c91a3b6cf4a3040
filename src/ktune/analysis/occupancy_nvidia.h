#pragma once
// Theoretical occupancy of an NVIDIA kernel launch: how many blocks of a kernel fit on one SM
// at once, which resource stops more from fitting, and what would let one more block in.
// The rules follow the CUDA toolkit's cuda_occupancy.h (the calculator behind
// cudaOccupancyMaxActiveBlocksPerMultiprocessor); a test compares against that header over a
// grid of launches when the toolkit is installed.
//
// Per block:  warps        = ceil(threads / 32)
//             registers    = roundUp(regs * 32, 256) per warp (hardware check: warps rounded
//                            up to a multiple of the 4 SM sub-partitions must fit 64 K)
//             shared bytes = roundUp(static + dynamic + 1 KiB reserved, 128)
// Per SM:     blocks <= maxWarps / warps, (64 K/4 / regsPerWarp) * 4 / warps,
//             carveout / sharedBytes, maxBlocks, and on sm_90+ barrier slots / barriers.

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::analysis {

// The per-SM constants of one compute capability that occupancy depends on.
struct NvidiaArch {
  int major = 0;
  int minor = 0;
  std::string name;                   // "sm_90"
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 0;         // max resident warps * 32
  int max_blocks_per_sm = 0;
  int registers_per_sm = 65536;
  int registers_per_block = 65536;
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;  // registers, per warp
  int sub_partitions = 4;
  std::int64_t shared_memory_per_sm = 0;           // largest carveout, bytes
  std::int64_t shared_memory_per_block = 49152;    // without opt-in
  std::int64_t shared_memory_per_block_optin = 0;  // with cuFuncSetAttribute opt-in
  std::int64_t reserved_shared_memory_per_block = 1024;
  int shared_memory_allocation_unit = 128;
  std::vector<int> carveout_steps_kib;  // shared memory sizes an SM can be configured to
  // sm_90+: an SM has (max_blocks_per_sm * barrier_slots_per_block) named-barrier slots.
  // 0 means the barrier limit does not apply (what cuda_occupancy.h does before sm_90).
  int barrier_slots_per_block = 0;
  std::string notes;  // where a constant is less certain than the rest

  int max_warps_per_sm() const { return max_threads_per_sm / warp_size; }
};

// Compute capabilities with built-in constants: 8.0 8.6 8.7 8.9 9.0 10.0 12.0.
const std::vector<NvidiaArch>& known_nvidia_archs();

// Accepts "sm_90a", "sm_90", "compute_90", "90", "9.0", "sm_100f". Throws std::invalid_argument
// naming the known capabilities when the name is not recognised or not known.
const NvidiaArch& nvidia_arch(std::string_view name);
const NvidiaArch* find_nvidia_arch(int major, int minor);

enum class OccupancyLimiter { Warps, Registers, SharedMemory, Blocks, Barriers };
const char* to_string(OccupancyLimiter limiter);

struct OccupancyInput {
  int threads_per_block = 0;
  int registers_per_thread = 0;
  std::int64_t static_shared_bytes = 0;
  std::int64_t dynamic_shared_bytes = 0;
  int barriers = 1;  // named barriers per block (ptxas "used N barriers")
  // Preferred shared memory carveout in percent of the maximum (CU_FUNC_ATTRIBUTE_PREFERRED_
  // SHARED_MEMORY_CARVEOUT). Unset: the driver default, which cuda_occupancy.h models as the
  // largest carveout.
  std::optional<int> carveout_percent;
};

// A suggestion of the form "N fewer registers -> K blocks/SM".
struct OccupancyHint {
  OccupancyLimiter resource = OccupancyLimiter::Registers;
  std::int64_t current = 0;  // current value of the resource (registers, bytes, threads...)
  std::int64_t needed = 0;   // value that lets the resource's own limit admit target_blocks
  int target_blocks = 0;
  int resulting_blocks = 0;  // blocks per SM with that change alone (other limits applied)
  std::string message;
};

constexpr int kUnlimitedBlocks = INT_MAX;

struct OccupancyResult {
  bool launchable = false;
  std::string not_launchable_reason;  // set when !launchable

  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0.0;  // active warps / max warps
  std::vector<OccupancyLimiter> limiters;  // every resource whose limit equals the result

  // Blocks per SM each resource alone would allow (kUnlimitedBlocks when it does not limit).
  int blocks_limit_warps = 0;
  int blocks_limit_registers = 0;
  int blocks_limit_shared_memory = 0;
  int blocks_limit_blocks = 0;
  int blocks_limit_barriers = kUnlimitedBlocks;

  int warps_per_block = 0;
  int registers_per_block = 0;              // as allocated (per-warp rounding)
  std::int64_t shared_bytes_per_block = 0;  // as allocated (reserved + rounding)
  std::int64_t shared_memory_per_sm = 0;    // the carveout this launch gets
  bool needs_shared_memory_optin = false;   // dynamic smem above the 48 KiB default

  std::vector<OccupancyHint> hints;  // what would raise occupancy (empty at 100%)

  bool limited_by(OccupancyLimiter limiter) const;
  std::string summary() const;  // "3 blocks/SM, 48/64 warps (75%), limited by registers"
};

// Throws std::invalid_argument for negative inputs or a carveout outside 0..100; every other
// problem (too many threads, registers or shared bytes) is reported as not launchable.
OccupancyResult nvidia_occupancy(const NvidiaArch& arch, const OccupancyInput& input);

// Largest registers per thread that still allows `blocks` blocks of `threads_per_block` per SM
// (registers alone); nullopt when no count does.
std::optional<int> max_registers_for_blocks(const NvidiaArch& arch, int threads_per_block, int blocks);

// Largest static+dynamic shared bytes per block that still allows `blocks` blocks per SM (shared
// memory alone, at the largest carveout or the given preference); nullopt when none does.
std::optional<std::int64_t> max_shared_bytes_for_blocks(const NvidiaArch& arch, int blocks,
                                                        std::optional<int> carveout_percent = std::nullopt);

nlohmann::json to_json(const OccupancyResult& result);

}  // namespace ktune::analysis
