#pragma once
// Theoretical occupancy of an AMD GPU (CDNA) kernel launch: how many waves of a kernel are
// resident per SIMD and per CU, which resource stops more from fitting, and what change would
// let more in.
//
// Per wave (LLVM AMDGPUBaseInfo, gfx90a/gfx942/gfx950):
//   VGPRs used    = alignTo(arch VGPRs, 4) + AGPRs   (one unified 512-entry file per lane)
//   waves / SIMD  = min(512 / alignTo(VGPRs, 8), 8)  from VGPRs
//   waves / SIMD  = 8 (<= 100 SGPRs) or 7             from SGPRs (LLVM's table for gfx9)
// Per CU (4 SIMDs; the ROCm MI300 guide's formula, nW = waves per workgroup):
//   workgroups    = min(floor(waves_vgpr * 4 / nW), floor(LDS per CU / LDS per workgroup),
//                       16 workgroups when nW > 1 (barriers, LLVM's getMaxWorkGroupsPerCU))
//   waves / SIMD  = workgroups * nW / 4
// The compiler's own figure (the `; Occupancy: N` comment clang writes into the assembly) is
// computed too: LLVM spreads a CU's waves evenly over its SIMDs (ceil) and does not round the
// register limit down to whole workgroups, so it can exceed the residency above.

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::analysis {

struct AmdgpuArch {
  std::string name;  // "gfx942"
  int simds_per_cu = 4;
  int max_waves_per_simd = 8;
  int wavefront_size = 64;
  int max_workgroup_size = 1024;
  // VGPRs per lane. With unified_vgprs (gfx90a+), AGPRs come out of the same file: the count
  // that limits waves is alignTo(arch VGPRs, 4) + AGPRs; without (gfx908) it is max(VGPRs, AGPRs).
  bool unified_vgprs = true;
  int vgpr_allocation_granule = 8;
  int vgprs_per_simd_lane = 512;  // the file a SIMD's waves share, per lane
  int max_vgprs_per_wave = 512;
  int max_arch_vgprs_per_wave = 256;
  // SGPR count -> waves per SIMD: the smallest threshold the count fits under gives the waves;
  // above the last threshold `sgpr_waves_above` waves.
  std::vector<std::pair<int, int>> sgpr_thresholds;  // {max SGPRs, waves}
  int sgpr_waves_above = 7;
  std::int64_t lds_per_cu = 65536;
  std::int64_t max_lds_per_workgroup = 65536;
  // Workgroups of more than one wave each hold a barrier; a CU has this many (LLVM).
  int max_workgroups_per_cu = 16;
  std::string notes;

  int max_waves_per_cu() const { return max_waves_per_simd * simds_per_cu; }
};

// gfx908 gfx90a gfx940 gfx941 gfx942 gfx950.
const std::vector<AmdgpuArch>& known_amdgpu_archs();
// Accepts "gfx942", target ids ("gfx942:sramecc+:xnack-") and triples with a processor
// ("amdgcn-amd-amdhsa--gfx942"). Throws std::invalid_argument naming the known processors.
const AmdgpuArch& amdgpu_arch(std::string_view name);
const AmdgpuArch* find_amdgpu_arch(std::string_view name);
// "gfx942" from any of the spellings above; "" when there is no gfx name in it.
std::string amdgpu_processor_name(std::string_view name);

// VGPRs that count against the register file for `arch_vgprs` architectural VGPRs and `agprs`
// accumulation registers (what LLVM writes as .vgpr_count / TotalNumVgprs).
int amdgpu_total_vgprs(const AmdgpuArch& arch, int arch_vgprs, int agprs);
// VGPRs allocated to a wave for a total of `vgprs` (rounded up to the granule).
int amdgpu_allocated_vgprs(const AmdgpuArch& arch, int vgprs);
int amdgpu_waves_per_simd_for_vgprs(const AmdgpuArch& arch, int vgprs);
int amdgpu_waves_per_simd_for_sgprs(const AmdgpuArch& arch, int sgprs);
// Largest total VGPR count that still allows `waves` waves per SIMD; nullopt when none does.
std::optional<int> amdgpu_max_vgprs_for_waves(const AmdgpuArch& arch, int waves);
std::optional<int> amdgpu_max_sgprs_for_waves(const AmdgpuArch& arch, int waves);

enum class AmdgpuLimiter { WaveSlots, Vgprs, Sgprs, Lds, Workgroups };
const char* to_string(AmdgpuLimiter limiter);

struct AmdgpuOccupancyInput {
  int workgroup_size = 0;       // threads per workgroup at launch (x*y*z)
  int vgprs = 0;                // total VGPRs incl. AGPRs (metadata .vgpr_count)
  int sgprs = 0;                // metadata .sgpr_count; 0 when unknown (no SGPR limit applied)
  std::int64_t lds_bytes = 0;   // .group_segment_fixed_size + dynamic LDS
  int wavefront_size = 0;       // 0: the arch's (64)
  // The kernel's compile-time bound (.max_flat_workgroup_size); launches above it are invalid.
  std::optional<int> max_flat_workgroup_size;
};

struct AmdgpuOccupancyHint {
  AmdgpuLimiter resource = AmdgpuLimiter::Vgprs;
  std::int64_t current = 0;
  std::int64_t needed = 0;          // the value with which the result improves
  double resulting_waves_per_simd = 0;
  std::string message;              // "3 fewer VGPRs (99 -> 96) -> 5 waves per SIMD (...)"
};

constexpr int kAmdgpuUnlimited = INT_MAX;

struct AmdgpuOccupancyResult {
  bool launchable = false;
  std::string not_launchable_reason;

  int waves_per_workgroup = 0;
  int workgroups_per_cu = 0;
  int waves_per_cu = 0;
  double waves_per_simd = 0;     // waves_per_cu / SIMDs (the ROCm guide's occupancy)
  int max_waves_per_simd = 0;
  double occupancy = 0;          // waves_per_simd / max_waves_per_simd
  std::vector<AmdgpuLimiter> limiters;  // every resource whose limit equals the result

  // Waves per SIMD each register file alone allows.
  int waves_per_simd_limit_vgprs = 0;
  int waves_per_simd_limit_sgprs = 0;
  // Workgroups per CU each resource alone allows (kAmdgpuUnlimited when it does not limit).
  int workgroups_limit_wave_slots = 0;
  int workgroups_limit_vgprs = kAmdgpuUnlimited;
  int workgroups_limit_sgprs = kAmdgpuUnlimited;
  int workgroups_limit_lds = kAmdgpuUnlimited;
  int workgroups_limit_barriers = kAmdgpuUnlimited;

  int allocated_vgprs = 0;
  // LLVM's occupancy for this workgroup size (what `; Occupancy:` says when the kernel's flat
  // workgroup size is pinned to it).
  int compiler_occupancy = 0;

  std::vector<AmdgpuOccupancyHint> hints;

  bool limited_by(AmdgpuLimiter limiter) const;
  // "5 waves/SIMD (20/CU, 5 workgroups of 4 waves), 62.5%, limited by VGPRs"
  std::string summary() const;
};

// Throws std::invalid_argument for negative inputs or a wavefront size other than 32/64; every
// other problem (too many threads, VGPRs or LDS bytes) is reported as not launchable.
AmdgpuOccupancyResult amdgpu_occupancy(const AmdgpuArch& arch, const AmdgpuOccupancyInput& input);

nlohmann::json to_json(const AmdgpuOccupancyResult& result);

}  // namespace ktune::analysis
