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
// Only the mma.sync path: the wgmma path reads TMA descriptors that the host encodes per
// buffer, which an IREE dispatch cannot pass; and no split-K, whose workspace and counters
// have no binding in the dispatch's layout.

#include <cstddef>
#include <filesystem>
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
  std::string label;            // "ktune/128x128x32/w2x2/s3/g8/b1": also the space's value
  nlohmann::json to_json() const;
};

// The device the objects are built for: the dispatch's target (its arch, its shared memory).
generated::DeviceTraits object_device(const ConfiguredDispatch& dispatch);

// The best `max` settings by the cost model; empty with `why_none` set when none can run.
std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const ConfiguredDispatch& dispatch, std::size_t max,
                                               std::string* why_none = nullptr);

// The CUDA translation unit: the generated kernel plus an entry `export_name` over the bindings.
std::string emit_object_source(const DispatchGemm& gemm, const ObjectCandidate& candidate, const ConfiguredDispatch& dispatch);

// The hal.executable that replaces the dispatch's (`configured_text` is its configured source,
// for the variant's target and the export's layout), linking `ptx`.
std::string emit_object_executable(const DispatchGemm& gemm, const ObjectCandidate& candidate, const ConfiguredDispatch& dispatch,
                                   const std::string& configured_text, const std::filesystem::path& ptx);

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
