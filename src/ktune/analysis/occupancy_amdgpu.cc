#include "ktune/analysis/occupancy_amdgpu.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace ktune::analysis {
namespace {

constexpr std::int64_t kKiB = 1024;

int align_to(int value, int granule) { return (value + granule - 1) / granule * granule; }
std::int64_t divide_round_up(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }

// LLVM's GCNSubtarget::getOccupancyWithNumSGPRs for gfx8/gfx9.
const std::vector<std::pair<int, int>> kGfx9SgprThresholds = {{80, 10}, {88, 9}, {100, 8}};

AmdgpuArch cdna_unified(std::string name, std::int64_t lds_kib, std::string notes) {
  AmdgpuArch arch;
  arch.name = std::move(name);
  arch.lds_per_cu = lds_kib * kKiB;
  arch.max_lds_per_workgroup = lds_kib * kKiB;
  arch.sgpr_thresholds = kGfx9SgprThresholds;
  arch.notes = std::move(notes);
  return arch;
}

std::vector<AmdgpuArch> make_archs() {
  std::vector<AmdgpuArch> archs;
  // gfx908 (MI100): separate 256-entry VGPR and AGPR files, granule 4, 10 waves per SIMD.
  AmdgpuArch gfx908;
  gfx908.name = "gfx908";
  gfx908.max_waves_per_simd = 10;
  gfx908.unified_vgprs = false;
  gfx908.vgpr_allocation_granule = 4;
  gfx908.vgprs_per_simd_lane = 256;
  gfx908.max_vgprs_per_wave = 256;
  gfx908.max_arch_vgprs_per_wave = 256;
  gfx908.sgpr_thresholds = kGfx9SgprThresholds;
  gfx908.notes = "AGPRs are a separate file of 256; the larger of the two counts limits waves";
  archs.push_back(gfx908);
  archs.push_back(cdna_unified("gfx90a", 64, ""));
  archs.push_back(cdna_unified("gfx940", 64, "early MI300 variant; same rules as gfx942"));
  archs.push_back(cdna_unified("gfx941", 64, "early MI300 variant; same rules as gfx942"));
  archs.push_back(cdna_unified("gfx942", 64, ""));
  archs.push_back(cdna_unified("gfx950", 160, "LDS 160 KiB per CU (LLVM's local memory size for gfx950)"));
  return archs;
}

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g%%", fraction * 100.0);
  return buffer;
}

std::string waves_text(double waves) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", waves);
  return buffer;
}

AmdgpuOccupancyResult compute(const AmdgpuArch& arch, const AmdgpuOccupancyInput& input);

void add_hints(const AmdgpuArch& arch, const AmdgpuOccupancyInput& input, AmdgpuOccupancyResult& r) {
  if (!r.launchable || r.waves_per_simd >= r.max_waves_per_simd) return;
  auto describe = [&](const AmdgpuOccupancyResult& after) {
    return waves_text(after.waves_per_simd) + " waves per SIMD (" + std::to_string(after.waves_per_cu) +
           " per CU), occupancy " + percent(r.occupancy) + " -> " + percent(after.occupancy);
  };
  if (r.limited_by(AmdgpuLimiter::Vgprs)) {
    for (int target = r.waves_per_simd_limit_vgprs + 1; target <= arch.max_waves_per_simd; ++target) {
      auto needed = amdgpu_max_vgprs_for_waves(arch, target);
      if (!needed) break;
      AmdgpuOccupancyInput changed = input;
      changed.vgprs = *needed;
      AmdgpuOccupancyResult after = compute(arch, changed);
      if (after.waves_per_cu <= r.waves_per_cu) continue;
      AmdgpuOccupancyHint hint;
      hint.resource = AmdgpuLimiter::Vgprs;
      hint.current = input.vgprs;
      hint.needed = *needed;
      hint.resulting_waves_per_simd = after.waves_per_simd;
      hint.message = std::to_string(input.vgprs - *needed) + " fewer VGPRs (" + std::to_string(input.vgprs) +
                     " -> " + std::to_string(*needed) + ") -> " + describe(after);
      r.hints.push_back(std::move(hint));
      break;
    }
  }
  if (r.limited_by(AmdgpuLimiter::Sgprs)) {
    for (int target = r.waves_per_simd_limit_sgprs + 1; target <= arch.max_waves_per_simd; ++target) {
      auto needed = amdgpu_max_sgprs_for_waves(arch, target);
      if (!needed) break;
      AmdgpuOccupancyInput changed = input;
      changed.sgprs = *needed;
      AmdgpuOccupancyResult after = compute(arch, changed);
      if (after.waves_per_cu <= r.waves_per_cu) continue;
      AmdgpuOccupancyHint hint;
      hint.resource = AmdgpuLimiter::Sgprs;
      hint.current = input.sgprs;
      hint.needed = *needed;
      hint.resulting_waves_per_simd = after.waves_per_simd;
      hint.message = std::to_string(input.sgprs - *needed) + " fewer SGPRs (" + std::to_string(input.sgprs) +
                     " -> " + std::to_string(*needed) + ") -> " + describe(after);
      r.hints.push_back(std::move(hint));
      break;
    }
  }
  if (r.limited_by(AmdgpuLimiter::Lds)) {
    for (int target = r.workgroups_limit_lds + 1; target <= r.workgroups_limit_wave_slots; ++target) {
      const std::int64_t needed = arch.lds_per_cu / target;
      AmdgpuOccupancyInput changed = input;
      changed.lds_bytes = needed;
      AmdgpuOccupancyResult after = compute(arch, changed);
      if (after.waves_per_cu <= r.waves_per_cu) continue;
      AmdgpuOccupancyHint hint;
      hint.resource = AmdgpuLimiter::Lds;
      hint.current = input.lds_bytes;
      hint.needed = needed;
      hint.resulting_waves_per_simd = after.waves_per_simd;
      hint.message = std::to_string(input.lds_bytes - needed) + " fewer LDS bytes per workgroup (" +
                     std::to_string(input.lds_bytes) + " -> " + std::to_string(needed) + ") -> " + describe(after);
      r.hints.push_back(std::move(hint));
      break;
    }
  }
  if (r.limited_by(AmdgpuLimiter::Workgroups) && r.waves_per_workgroup > 1) {
    AmdgpuOccupancyHint hint;
    hint.resource = AmdgpuLimiter::Workgroups;
    hint.current = input.workgroup_size;
    hint.needed = input.workgroup_size;
    hint.resulting_waves_per_simd = r.waves_per_simd;
    hint.message = "a CU holds at most " + std::to_string(arch.max_workgroups_per_cu) +
                   " multi-wave workgroups; workgroups of " + std::to_string(r.waves_per_workgroup) +
                   " waves fill " + std::to_string(r.waves_per_cu) + " of " +
                   std::to_string(arch.max_waves_per_cu()) + " wave slots: use larger workgroups";
    r.hints.push_back(std::move(hint));
  }
}

// LLVM's AMDGPUSubtarget::getOccupancyWithLocalMemSize for a flat workgroup size pinned to the
// launch size: the CU's waves are spread over its SIMDs rounding up.
int compiler_lds_occupancy(const AmdgpuArch& arch, int waves_per_workgroup, std::int64_t lds_bytes) {
  const int max_waves = arch.max_waves_per_cu();
  const int workgroups_per_cu =
      waves_per_workgroup == 1 ? max_waves : std::min(max_waves / waves_per_workgroup, arch.max_workgroups_per_cu);
  if (workgroups_per_cu == 0) return 0;
  const std::int64_t groups_by_lds = arch.lds_per_cu / std::max<std::int64_t>(lds_bytes, 1);
  if (groups_by_lds == 0) return 1;
  const std::int64_t groups = std::min<std::int64_t>(workgroups_per_cu, groups_by_lds);
  const std::int64_t waves = divide_round_up(groups * waves_per_workgroup, arch.simds_per_cu);
  return static_cast<int>(std::min<std::int64_t>(waves, arch.max_waves_per_simd));
}

AmdgpuOccupancyResult compute(const AmdgpuArch& arch, const AmdgpuOccupancyInput& input) {
  AmdgpuOccupancyResult r;
  const int wave_size = input.wavefront_size == 0 ? arch.wavefront_size : input.wavefront_size;
  r.max_waves_per_simd = arch.max_waves_per_simd;
  r.waves_per_simd_limit_vgprs = amdgpu_waves_per_simd_for_vgprs(arch, input.vgprs);
  r.waves_per_simd_limit_sgprs = amdgpu_waves_per_simd_for_sgprs(arch, input.sgprs);
  r.allocated_vgprs = amdgpu_allocated_vgprs(arch, input.vgprs);

  auto not_launchable = [&](std::string reason) {
    r.launchable = false;
    r.not_launchable_reason = std::move(reason);
    r.workgroups_limit_wave_slots = 0;
    return r;
  };
  if (input.workgroup_size == 0) return not_launchable("workgroup size is 0");
  r.waves_per_workgroup = static_cast<int>(divide_round_up(input.workgroup_size, wave_size));
  r.compiler_occupancy =
      std::min({compiler_lds_occupancy(arch, r.waves_per_workgroup, input.lds_bytes),
                r.waves_per_simd_limit_vgprs, r.waves_per_simd_limit_sgprs});

  if (input.workgroup_size > arch.max_workgroup_size) {
    return not_launchable("workgroup of " + std::to_string(input.workgroup_size) + " threads exceeds " +
                          arch.name + "'s maximum of " + std::to_string(arch.max_workgroup_size));
  }
  if (input.max_flat_workgroup_size && input.workgroup_size > *input.max_flat_workgroup_size) {
    return not_launchable("workgroup of " + std::to_string(input.workgroup_size) +
                          " threads exceeds the kernel's max_flat_workgroup_size " +
                          std::to_string(*input.max_flat_workgroup_size) +
                          " (it was compiled for at most that many; raise __launch_bounds__ / "
                          "amdgpu_flat_work_group_size)");
  }
  if (input.vgprs > arch.max_vgprs_per_wave) {
    return not_launchable(std::to_string(input.vgprs) + " VGPRs exceed " + arch.name + "'s " +
                          std::to_string(arch.max_vgprs_per_wave) + " per wave");
  }
  if (input.lds_bytes > arch.max_lds_per_workgroup) {
    return not_launchable(std::to_string(input.lds_bytes) + " LDS bytes per workgroup exceed " + arch.name +
                          "'s " + std::to_string(arch.max_lds_per_workgroup));
  }
  const int register_waves = std::min(r.waves_per_simd_limit_vgprs, r.waves_per_simd_limit_sgprs);
  if (r.waves_per_workgroup > register_waves * arch.simds_per_cu) {
    const int needed_waves = static_cast<int>(divide_round_up(r.waves_per_workgroup, arch.simds_per_cu));
    std::string reason = "a workgroup of " + std::to_string(r.waves_per_workgroup) + " waves needs " +
                         std::to_string(needed_waves) + " waves per SIMD resident at once, but ";
    if (r.waves_per_simd_limit_vgprs < needed_waves) {
      auto budget = amdgpu_max_vgprs_for_waves(arch, needed_waves);
      reason += std::to_string(input.vgprs) + " VGPRs allow " + std::to_string(r.waves_per_simd_limit_vgprs) +
                (budget ? " (at most " + std::to_string(*budget) + " VGPRs fit)" : std::string());
    } else {
      reason += std::to_string(input.sgprs) + " SGPRs allow " + std::to_string(r.waves_per_simd_limit_sgprs);
    }
    return not_launchable(reason);
  }
  r.launchable = true;

  const int wave_slots = arch.max_waves_per_cu();
  r.workgroups_limit_wave_slots = wave_slots / r.waves_per_workgroup;
  // A register file only limits below the wave-slot count; at the maximum the slots decide.
  if (r.waves_per_simd_limit_vgprs < arch.max_waves_per_simd) {
    r.workgroups_limit_vgprs = r.waves_per_simd_limit_vgprs * arch.simds_per_cu / r.waves_per_workgroup;
  }
  if (r.waves_per_simd_limit_sgprs < arch.max_waves_per_simd) {
    r.workgroups_limit_sgprs = r.waves_per_simd_limit_sgprs * arch.simds_per_cu / r.waves_per_workgroup;
  }
  if (input.lds_bytes > 0) {
    r.workgroups_limit_lds = static_cast<int>(std::min<std::int64_t>(arch.lds_per_cu / input.lds_bytes, INT_MAX));
  }
  if (r.waves_per_workgroup > 1) r.workgroups_limit_barriers = arch.max_workgroups_per_cu;

  r.workgroups_per_cu = std::min({r.workgroups_limit_wave_slots, r.workgroups_limit_vgprs, r.workgroups_limit_sgprs,
                                  r.workgroups_limit_lds, r.workgroups_limit_barriers});
  r.waves_per_cu = r.workgroups_per_cu * r.waves_per_workgroup;
  r.waves_per_simd = static_cast<double>(r.waves_per_cu) / arch.simds_per_cu;
  r.occupancy = r.waves_per_simd / arch.max_waves_per_simd;

  const std::pair<AmdgpuLimiter, int> limits[] = {
      {AmdgpuLimiter::WaveSlots, r.workgroups_limit_wave_slots}, {AmdgpuLimiter::Vgprs, r.workgroups_limit_vgprs},
      {AmdgpuLimiter::Sgprs, r.workgroups_limit_sgprs},           {AmdgpuLimiter::Lds, r.workgroups_limit_lds},
      {AmdgpuLimiter::Workgroups, r.workgroups_limit_barriers}};
  for (const auto& [limiter, limit] : limits) {
    if (limit == r.workgroups_per_cu) r.limiters.push_back(limiter);
  }
  return r;
}

}  // namespace

const std::vector<AmdgpuArch>& known_amdgpu_archs() {
  static const std::vector<AmdgpuArch> archs = make_archs();
  return archs;
}

std::string amdgpu_processor_name(std::string_view name) {
  const auto at = name.find("gfx");
  if (at == std::string_view::npos) return "";
  std::size_t end = at + 3;
  while (end < name.size() && (std::isalnum(static_cast<unsigned char>(name[end])) != 0 || name[end] == '-')) ++end;
  std::string processor(name.substr(at, end - at));
  // "gfx9-4-generic" keeps its dashes; a target id's features start after ':'.
  return processor.size() > 3 ? processor : "";
}

const AmdgpuArch* find_amdgpu_arch(std::string_view name) {
  const std::string processor = amdgpu_processor_name(name);
  for (const AmdgpuArch& arch : known_amdgpu_archs()) {
    if (arch.name == processor) return &arch;
  }
  return nullptr;
}

const AmdgpuArch& amdgpu_arch(std::string_view name) {
  if (const AmdgpuArch* arch = find_amdgpu_arch(name)) return *arch;
  std::string known;
  for (const AmdgpuArch& arch : known_amdgpu_archs()) known += (known.empty() ? "" : " ") + arch.name;
  throw std::invalid_argument("unknown AMD GPU processor '" + std::string(name) + "' (occupancy rules known for: " +
                              known + ")");
}

int amdgpu_total_vgprs(const AmdgpuArch& arch, int arch_vgprs, int agprs) {
  if (arch.unified_vgprs && agprs > 0) return align_to(arch_vgprs, 4) + agprs;
  return std::max(arch_vgprs, agprs);
}

int amdgpu_allocated_vgprs(const AmdgpuArch& arch, int vgprs) {
  return align_to(std::max(vgprs, 1), arch.vgpr_allocation_granule);
}

int amdgpu_waves_per_simd_for_vgprs(const AmdgpuArch& arch, int vgprs) {
  // LLVM's getNumWavesPerEUWithNumVGPRs.
  if (vgprs < arch.vgpr_allocation_granule) return arch.max_waves_per_simd;
  const int rounded = align_to(vgprs, arch.vgpr_allocation_granule);
  return std::min(std::max(arch.vgprs_per_simd_lane / rounded, 1), arch.max_waves_per_simd);
}

int amdgpu_waves_per_simd_for_sgprs(const AmdgpuArch& arch, int sgprs) {
  if (sgprs <= 0) return arch.max_waves_per_simd;
  for (const auto& [max_sgprs, waves] : arch.sgpr_thresholds) {
    if (sgprs <= max_sgprs) return std::min(waves, arch.max_waves_per_simd);
  }
  return std::min(arch.sgpr_waves_above, arch.max_waves_per_simd);
}

std::optional<int> amdgpu_max_vgprs_for_waves(const AmdgpuArch& arch, int waves) {
  if (waves < 1 || waves > arch.max_waves_per_simd) return std::nullopt;
  const int per_wave = arch.vgprs_per_simd_lane / waves;
  const int aligned = per_wave / arch.vgpr_allocation_granule * arch.vgpr_allocation_granule;
  if (aligned < 1) return std::nullopt;
  return std::min(aligned, arch.max_vgprs_per_wave);
}

std::optional<int> amdgpu_max_sgprs_for_waves(const AmdgpuArch& arch, int waves) {
  if (waves < 1 || waves > arch.max_waves_per_simd) return std::nullopt;
  std::optional<int> best;
  for (const auto& [max_sgprs, table_waves] : arch.sgpr_thresholds) {
    if (std::min(table_waves, arch.max_waves_per_simd) >= waves) best = max_sgprs;
  }
  // Above the last threshold there is no smaller budget to name.
  if (waves <= arch.sgpr_waves_above) return std::nullopt;
  return best;
}

const char* to_string(AmdgpuLimiter limiter) {
  switch (limiter) {
    case AmdgpuLimiter::WaveSlots: return "wave slots";
    case AmdgpuLimiter::Vgprs: return "VGPRs";
    case AmdgpuLimiter::Sgprs: return "SGPRs";
    case AmdgpuLimiter::Lds: return "LDS";
    case AmdgpuLimiter::Workgroups: return "workgroups per CU";
  }
  return "?";
}

bool AmdgpuOccupancyResult::limited_by(AmdgpuLimiter limiter) const {
  return std::find(limiters.begin(), limiters.end(), limiter) != limiters.end();
}

std::string AmdgpuOccupancyResult::summary() const {
  if (!launchable) return "not launchable: " + not_launchable_reason;
  std::string text = waves_text(waves_per_simd) + " waves/SIMD (" + std::to_string(waves_per_cu) + "/CU, " +
                     std::to_string(workgroups_per_cu) + " workgroups of " + std::to_string(waves_per_workgroup) +
                     " waves), " + percent(occupancy) + ", limited by ";
  for (std::size_t i = 0; i < limiters.size(); ++i) text += (i ? " and " : "") + std::string(to_string(limiters[i]));
  return text;
}

AmdgpuOccupancyResult amdgpu_occupancy(const AmdgpuArch& arch, const AmdgpuOccupancyInput& input) {
  if (input.workgroup_size < 0 || input.vgprs < 0 || input.sgprs < 0 || input.lds_bytes < 0) {
    throw std::invalid_argument("AMD GPU occupancy: negative workgroup size, register count or LDS bytes");
  }
  if (input.wavefront_size != 0 && input.wavefront_size != 32 && input.wavefront_size != 64) {
    throw std::invalid_argument("AMD GPU occupancy: wavefront size must be 32 or 64, not " +
                                std::to_string(input.wavefront_size));
  }
  AmdgpuOccupancyResult r = compute(arch, input);
  add_hints(arch, input, r);
  return r;
}

nlohmann::json to_json(const AmdgpuOccupancyResult& r) {
  auto limit = [](int value) { return value == kAmdgpuUnlimited ? nlohmann::json(nullptr) : nlohmann::json(value); };
  nlohmann::json j;
  j["launchable"] = r.launchable;
  if (!r.launchable) j["not_launchable_reason"] = r.not_launchable_reason;
  j["waves_per_workgroup"] = r.waves_per_workgroup;
  j["workgroups_per_cu"] = r.workgroups_per_cu;
  j["waves_per_cu"] = r.waves_per_cu;
  j["waves_per_simd"] = r.waves_per_simd;
  j["max_waves_per_simd"] = r.max_waves_per_simd;
  j["occupancy"] = r.occupancy;
  j["compiler_occupancy"] = r.compiler_occupancy;
  j["allocated_vgprs"] = r.allocated_vgprs;
  nlohmann::json limiters = nlohmann::json::array();
  for (AmdgpuLimiter l : r.limiters) limiters.push_back(to_string(l));
  j["limiters"] = limiters;
  j["waves_per_simd_limit"] = {{"vgprs", r.waves_per_simd_limit_vgprs}, {"sgprs", r.waves_per_simd_limit_sgprs}};
  j["workgroups_limit"] = {{"wave_slots", limit(r.workgroups_limit_wave_slots)},
                           {"vgprs", limit(r.workgroups_limit_vgprs)},
                           {"sgprs", limit(r.workgroups_limit_sgprs)},
                           {"lds", limit(r.workgroups_limit_lds)},
                           {"barriers", limit(r.workgroups_limit_barriers)}};
  nlohmann::json hints = nlohmann::json::array();
  for (const auto& h : r.hints) {
    hints.push_back({{"resource", to_string(h.resource)},
                     {"current", h.current},
                     {"needed", h.needed},
                     {"resulting_waves_per_simd", h.resulting_waves_per_simd},
                     {"message", h.message}});
  }
  j["hints"] = hints;
  j["summary"] = r.summary();
  return j;
}

}  // namespace ktune::analysis
