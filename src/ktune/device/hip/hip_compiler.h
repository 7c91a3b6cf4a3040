#pragma once
// HIP -> AMDGPU code object (.hsaco) for one processor (CompileRequest::target, e.g. "gfx942"
// or "gfx942:sramecc+:xnack-"), through a content-addressed on-disk cache. Compiles offline
// with a stock LLVM (amdgpu/toolchain.h: Debian's clang-19 for gfx90a/gfx942, clang-22 for
// gfx950), so it needs neither ROCm nor an AMD GPU; where no such LLVM is installed it falls
// back to ROCm's hiprtc when that loads. See README.md.

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "ktune/amdgpu/toolchain.h"
#include "ktune/device/compile_cache.h"
#include "ktune/device/device.h"
#include "ktune/device/hip/hiprtc.h"

namespace ktune::device::hip {

struct HipCompilerOptions {
  std::filesystem::path cache_directory;  // "" -> default_cache_root() / "hip"
  std::optional<int> llvm_major;          // use exactly this LLVM (amdgpu::Toolchain::find)
  bool allow_hiprtc = true;               // fall back to hiprtc when no LLVM targets the processor
  double timeout_seconds = 300;
};

// CompileResult::resources of a successful compile (a JSON object):
//   entry, lowered_name (the symbol to load), target (as requested), arch (processor),
//   compiler ("clang 19.1.7" / "hiprtc 6.2"), code_object_version, target_id (from e_flags),
//   vgpr_count (incl. AGPRs), agpr_count, sgpr_count, lds_bytes (= group_segment_fixed_size,
//   static LDS), private_segment_fixed_size (scratch bytes per work-item), vgpr_spill_count,
//   sgpr_spill_count, wavefront_size, max_flat_workgroup_size, kernarg_segment_size,
//   uses_dynamic_stack, code_bytes, code_object_bytes, signature (from the request, when given),
//   and with the LLVM toolchain also asm_path (the cached .s the code object was built from),
//   compiler_occupancy (clang's "; Occupancy:" comment) and isa: {counts, findings}
//   (analysis::lint_isa of the entry kernel).
class HipCompiler : public Compiler {
 public:
  explicit HipCompiler(HipCompilerOptions options = {});

  // Compiles request.sources[0]; the directory of every source is an include path, so further
  // sources are headers it #includes. Thread-safe; errors (no target, no compiler for the
  // target, compile errors, no kernel named entry in the code object) are results.
  CompileResult compile(const CompileRequest& request) override;

  // The LLVM toolchain for `target`, looked up once per processor; nullopt with `why_not`.
  std::optional<amdgpu::Toolchain> toolchain_for(const std::string& target, std::string* why_not = nullptr) const;
  const Loaded<ktune::hip::Hiprtc>& hiprtc() const;
  const HipCompilerOptions& options() const { return options_; }
  const CompileCache& cache() const { return cache_; }

 private:
  CompileResult compile_with_llvm(const CompileRequest& request, const amdgpu::Toolchain& toolchain,
                                  const std::string& source_text, const std::string& key);
  CompileResult compile_with_hiprtc(const CompileRequest& request, const ktune::hip::Hiprtc& rtc,
                                    const std::string& source_text, const std::string& key);

  HipCompilerOptions options_;
  CompileCache cache_;
  mutable std::mutex toolchains_mutex_;
  mutable std::map<std::string, std::pair<std::optional<amdgpu::Toolchain>, std::string>> toolchains_;
  mutable std::once_flag hiprtc_once_;
  mutable Loaded<ktune::hip::Hiprtc> hiprtc_;
};

// The resources (see above) of kernel `entry` in a code object; throws DeviceError when the
// bytes are not a code object or hold no kernel of that name (C++ kernels are matched by
// their mangled name too).
nlohmann::json code_object_resources(const std::string& code_object_bytes, const std::string& entry);

}  // namespace ktune::device::hip
