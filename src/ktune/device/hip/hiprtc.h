#pragma once
// hiprtc (libhiprtc.so), ROCm's runtime compiler, loaded with dlopen. The HIP backend compiles
// with a stock LLVM first (amdgpu/toolchain.h, works without ROCm); hiprtc is the fallback on
// ROCm machines without a Debian clang-19+.
//
// Library search: $KTUNE_HIPRTC_PATH (a file or a directory), then libhiprtc.so, .so.6, .so.5,
// then $ROCM_PATH/lib and /opt/rocm/lib.
//
// NOT RUN: no ROCm installation was available while this was written; only the loading logic
// is tested.

#include <string>
#include <vector>

#include "ktune/device/cuda/dynamic_library.h"

namespace ktune::hip {

using hiprtcResult = int;
using hiprtcProgram = struct _hiprtcProgram*;

struct HiprtcApi {
  hiprtcResult (*hiprtcVersion)(int* major, int* minor) = nullptr;
  const char* (*hiprtcGetErrorString)(hiprtcResult result) = nullptr;
  hiprtcResult (*hiprtcCreateProgram)(hiprtcProgram* program, const char* source, const char* name, int header_count,
                                      const char* const* headers, const char* const* header_names) = nullptr;
  hiprtcResult (*hiprtcDestroyProgram)(hiprtcProgram* program) = nullptr;
  hiprtcResult (*hiprtcCompileProgram)(hiprtcProgram program, int option_count, const char* const* options) = nullptr;
  hiprtcResult (*hiprtcGetProgramLogSize)(hiprtcProgram program, std::size_t* size) = nullptr;
  hiprtcResult (*hiprtcGetProgramLog)(hiprtcProgram program, char* log) = nullptr;
  hiprtcResult (*hiprtcGetCodeSize)(hiprtcProgram program, std::size_t* size) = nullptr;
  hiprtcResult (*hiprtcGetCode)(hiprtcProgram program, char* code) = nullptr;
};

struct HiprtcOutput {
  bool ok = false;
  std::string code;  // the code object (ELF) for the --offload-arch given
  std::string log;
};

std::vector<std::string> hiprtc_candidates();

class Hiprtc {
 public:
  // The error starts with "hiprtc not available: " and lists every location tried.
  static Loaded<Hiprtc> load();
  static Loaded<Hiprtc> load_from(const std::vector<std::string>& candidates);

  const HiprtcApi& api() const { return api_; }
  const std::string& library_path() const { return library_->path(); }
  std::string version_string() const;  // "6.2"

  // Compiles one translation unit with `options` (e.g. "--offload-arch=gfx942", "-DBM=64").
  // Compile errors are a result with ok == false and the program log.
  HiprtcOutput compile(const std::string& source, const std::string& name,
                       const std::vector<std::string>& options) const;

 private:
  std::shared_ptr<const DynamicLibrary> library_;
  HiprtcApi api_;
};

}  // namespace ktune::hip
