#pragma once
// The static model that ranks AMD configurations compiled offline (ktune tune --offline), so
// that a user with the GPU measures only the top few. It reads what the compiler produced
// (HipCompiler's resources: code-object metadata and ISA checks) and never claims a time.
//
// Ranking rule (ranks_above), in order; each step only breaks ties of the ones before:
//   1. launchable before not launchable (workgroup or LDS over the limits);
//   2. higher occupancy: waves per SIMD (the ROCm guide's formula, analysis::amdgpu_occupancy);
//   3. no spills: fewer VGPR+SGPR spills, then fewer scratch bytes per work-item;
//   4. fewer ISA problems: narrow (not dwordx4) global loads inside loops, narrow (not b128)
//      LDS accesses inside loops, and, for a matrix kernel (expect_matrix), no MFMA at all;
//   5. more LDS per workgroup (more reuse per global load at equal occupancy);
//   6. fewer VGPRs (headroom), then the caller's order.
// What it cannot see: arithmetic intensity, instruction counts, bank conflicts, clocks. It
// screens; only a measurement on the GPU decides.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/device.h"

namespace ktune::device::hip {

struct StaticAssessment {
  bool launchable = false;
  std::string not_launchable_reason;
  double waves_per_simd = 0;
  int max_waves_per_simd = 0;
  std::string occupancy_limiters;  // "VGPRs", "LDS", ... (comma separated)
  int spills = 0;                  // vgpr_spill_count + sgpr_spill_count
  std::int64_t scratch_bytes = 0;  // private_segment_fixed_size
  std::int64_t lds_bytes = 0;      // static + dynamic, per workgroup
  int vgprs = 0;
  std::vector<std::string> isa_problems;   // each counts once in step 4
  std::vector<std::string> isa_strengths;  // "dwordx4 loads", "b128 LDS", "MFMA 32x32x8"
  std::vector<std::string> isa_notes;      // reported, not ranked (e.g. vmcnt(0) in loops)
  nlohmann::json occupancy = nlohmann::json::object();

  // "8 waves/SIMD, no spills, dwordx4 loads, b128 LDS, 16 KiB LDS".
  std::string why() const;
};

// `arch`: processor or target id ("gfx942"); `resources`: HipCompiler's resources.
StaticAssessment assess_static(const std::string& arch, const nlohmann::json& resources,
                               const LaunchGeometry& geometry, bool expect_matrix);

// True when `a` ranks above `b` by the rule above (a strict weak ordering).
bool ranks_above(const StaticAssessment& a, const StaticAssessment& b);

nlohmann::json to_json(const StaticAssessment& assessment);

}  // namespace ktune::device::hip
