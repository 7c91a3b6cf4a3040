#include "ktune/device/hip/static_rank.h"

#include <cmath>

#include "ktune/device/hip/hip_backend.h"

namespace ktune::device::hip {
namespace {

int count_of(const nlohmann::json& counts, const char* key) {
  if (!counts.is_object() || !counts.contains(key) || !counts[key].is_number_integer()) return 0;
  return counts[key].get<int>();
}

std::string format_waves(double waves) {
  if (std::floor(waves) == waves) return std::to_string(static_cast<int>(waves));
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2g", waves);
  return buffer;
}

std::string format_bytes(std::int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace

StaticAssessment assess_static(const std::string& arch, const nlohmann::json& resources, const LaunchGeometry& geometry,
                               bool expect_matrix) {
  StaticAssessment a;
  const ScreenResult screen = screen_amdgpu(arch, resources, geometry);
  a.launchable = screen.launchable;
  a.not_launchable_reason = screen.reason;
  a.occupancy = screen.details;
  a.waves_per_simd = screen.details.value("waves_per_simd", 0.0);
  a.max_waves_per_simd = screen.details.value("max_waves_per_simd", 0);
  if (screen.details.contains("limiters") && screen.details["limiters"].is_array()) {
    for (const auto& l : screen.details["limiters"])
      if (l.is_string()) a.occupancy_limiters += (a.occupancy_limiters.empty() ? "" : ", ") + l.get<std::string>();
  }
  a.spills = resources.value("vgpr_spill_count", 0) + resources.value("sgpr_spill_count", 0);
  a.scratch_bytes = resources.value("private_segment_fixed_size", std::int64_t{0});
  a.lds_bytes = resources.value("lds_bytes", std::int64_t{0}) + geometry.shared_bytes;
  a.vgprs = resources.value("vgpr_count", 0);

  const nlohmann::json isa = resources.value("isa", nlohmann::json::object());
  const nlohmann::json counts = isa.value("counts", nlohmann::json::object());
  if (!isa.contains("counts")) a.isa_notes.push_back("no ISA checks (compiled without assembly)");
  const int narrow_loop = count_of(counts, "global_load_narrow_in_loop");
  const int wide = count_of(counts, "global_load_128");
  if (narrow_loop > 0)
    a.isa_problems.push_back(std::to_string(narrow_loop) + " narrow global loads in loops (not dwordx4)");
  else if (wide > 0)
    a.isa_strengths.push_back("dwordx4 loads");
  const int lds_narrow_loop = count_of(counts, "shared_narrow_in_loop");
  if (lds_narrow_loop > 0)
    a.isa_problems.push_back(std::to_string(lds_narrow_loop) + " narrow LDS accesses in loops (not b128)");
  else if (count_of(counts, "shared_128_in_loop") > 0)
    a.isa_strengths.push_back("b128 LDS");
  if (count_of(counts, "matrix") > 0) {
    std::string shapes;
    if (isa.contains("matrix_shapes") && isa["matrix_shapes"].is_array())
      for (const auto& s : isa["matrix_shapes"])
        if (s.is_string()) shapes += (shapes.empty() ? " " : "/") + s.get<std::string>();
    a.isa_strengths.push_back("MFMA" + shapes);
  } else if (expect_matrix && isa.contains("counts")) {
    a.isa_problems.push_back("no MFMA in a matrix kernel");
  }
  if (const int waits = count_of(counts, "full_wait_vm_in_loop"); waits > 0)
    a.isa_notes.push_back(std::to_string(waits) + " s_waitcnt vmcnt(0) in loops");
  return a;
}

bool ranks_above(const StaticAssessment& a, const StaticAssessment& b) {
  if (a.launchable != b.launchable) return a.launchable;
  if (a.waves_per_simd != b.waves_per_simd) return a.waves_per_simd > b.waves_per_simd;
  if (a.spills != b.spills) return a.spills < b.spills;
  if (a.scratch_bytes != b.scratch_bytes) return a.scratch_bytes < b.scratch_bytes;
  if (a.isa_problems.size() != b.isa_problems.size()) return a.isa_problems.size() < b.isa_problems.size();
  if (a.lds_bytes != b.lds_bytes) return a.lds_bytes > b.lds_bytes;
  return a.vgprs < b.vgprs;
}

std::string StaticAssessment::why() const {
  if (!launchable) return "cannot launch: " + not_launchable_reason;
  std::string text = format_waves(waves_per_simd) + " waves/SIMD";
  if (!occupancy_limiters.empty() && waves_per_simd < max_waves_per_simd) text += " (limited by " + occupancy_limiters + ")";
  if (spills > 0) text += ", " + std::to_string(spills) + " spills";
  else if (scratch_bytes > 0) text += ", " + std::to_string(scratch_bytes) + " B scratch";
  else text += ", no spills";
  for (const auto& s : isa_strengths) text += ", " + s;
  for (const auto& p : isa_problems) text += ", " + p;
  if (lds_bytes > 0) text += ", " + format_bytes(lds_bytes) + " LDS";
  return text;
}

nlohmann::json to_json(const StaticAssessment& a) {
  nlohmann::json j = {{"launchable", a.launchable},
                      {"waves_per_simd", a.waves_per_simd},
                      {"max_waves_per_simd", a.max_waves_per_simd},
                      {"spills", a.spills},
                      {"scratch_bytes", a.scratch_bytes},
                      {"lds_bytes", a.lds_bytes},
                      {"vgprs", a.vgprs},
                      {"isa_problems", a.isa_problems},
                      {"isa_strengths", a.isa_strengths},
                      {"isa_notes", a.isa_notes},
                      {"why", a.why()}};
  if (!a.launchable) j["not_launchable_reason"] = a.not_launchable_reason;
  if (!a.occupancy_limiters.empty()) j["limiters"] = a.occupancy_limiters;
  return j;
}

}  // namespace ktune::device::hip
