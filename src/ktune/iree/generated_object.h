#pragma once
// ktune's own generated GEMM kernels as an IREE dispatch's executable object: a candidate
// family of a dispatch next to IREE's own knobs. For a dispatch that dispatch_gemm.h
// recognizes, the generated kernel (families/generated) is emitted with an entry point named
// as IREE's export that takes the dispatch's bindings in IREE's order (IREE's CUDA ABI: one
// device pointer per binding, then the push constants, here none), compiled to PTX with NVRTC,
// and wrapped in a hal.executable with the dispatch's own target and layout, our workgroup
// size, dynamic shared memory and grid. `--iree-hal-substitute-executable-object=NAME=FILE.mlir`
// replaces the dispatch's executable with it in the dispatch's benchmark and in the whole model.
//
// Both kernel paths. mma.sync objects are PTX for IREE's target (the driver JITs them for the
// GPU). wgmma objects are sm_90a PTX, for a Hopper GPU only (the `device` they were planned
// for): their TMA reads tensor maps, which a dispatch cannot be passed (its only parameters are
// its buffers), so each CTA builds its own in global memory (kt90_build_tensor_maps in
// gemm_sm90.cuh: tensormap.replace field by field, then the tensormap proxy fence). No split-K,
// whose workspace and counters have no binding in the dispatch's layout.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/generated/generated_kernel.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/dispatch_gemm.h"

namespace ktune::iree {

struct ObjectCandidate {
  generated::GeneratedKnobs knobs;
  double estimate_seconds = 0;  // the generated family's cost model
  // "ktune/128x128x32/w2x2/s3/g8/b1" (mma.sync), "ktune/wgmma/128x256x64/w2x1/s4/g8/b1[/persistent]":
  // also the space's value
  std::string label;
  generated::DeviceTraits device;  // what the launch is planned for (SM count, arch)
  nlohmann::json to_json() const;
};

// Static shared memory of a wgmma object: its two tensor maps are staged in 256 bytes, which
// ptxas rounds to 1024 next to the kernel's 1024-byte-aligned dynamic shared memory.
inline constexpr int kObjectMapStagingBytes = 1024;

// The device the objects are built for when the GPU is not known: the dispatch's target (its
// arch, its shared memory), so only mma.sync.
generated::DeviceTraits object_device(const ConfiguredDispatch& dispatch);

// The best `max` settings by the cost model for `device` (both paths on sm_90, a quarter of
// them kept for the other path); empty with `why_none` set when none can run.
std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const generated::DeviceTraits& device, std::size_t max,
                                               std::string* why_none = nullptr);
// The same for the dispatch's target (object_device).
std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const ConfiguredDispatch& dispatch, std::size_t max,
                                               std::string* why_none = nullptr);

// The CUDA translation unit: the generated kernel plus an entry `export_name` over the bindings.
std::string emit_object_source(const DispatchGemm& gemm, const ObjectCandidate& candidate, const ConfiguredDispatch& dispatch);

// The hal.executable that replaces the dispatch's (`configured_text` is its configured source,
// for the variant's target and the export's layout), linking `ptx`.
std::string emit_object_executable(const DispatchGemm& gemm, const ObjectCandidate& candidate, const ConfiguredDispatch& dispatch,
                                   const std::string& configured_text, const std::filesystem::path& ptx);

// Which GPU ktune's kernels are planned for (`ktune model tune --object-arch`):
//   "target": none, the dispatch's own target (mma.sync PTX for IREE's arch, JITed anywhere);
//   "auto":   CUDA device `ordinal` when the driver answers (so wgmma on a Hopper GPU), else
//             none, with the reason in `note`;
//   "sm_80", "sm_90a", ...: that architecture with its SM count and shared memory.
// A spelling that is none of these throws std::invalid_argument.
struct ObjectDeviceChoice {
  std::optional<generated::DeviceTraits> device;
  std::string note;  // what was chosen, or why auto fell back to the target
};
ObjectDeviceChoice resolve_object_device(const std::string& spec, int ordinal);

struct ObjectBuild {
  bool ok = false;
  std::string error;
  std::filesystem::path executable, ptx, source;
  double nvrtc_seconds = 0;
  nlohmann::json resources;  // registers, spills (ptxas, for the dispatch's arch), launch
};

// Writes kernel.cu, kernel.ptx and executable.mlir for `candidate` into `dir`. Never throws for
// a kernel NVRTC refuses: ok == false with its log.
ObjectBuild write_object_candidate(const DumpedDispatch& dispatch, const DispatchGemm& gemm, const ObjectCandidate& candidate,
                                   const std::filesystem::path& dir, const cuda::NvrtcCompiler& nvrtc);

}  // namespace ktune::iree
