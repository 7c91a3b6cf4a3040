#pragma once
// One `iree-compile` of a model for a target, with the executables dumped: the model's
// dispatches as IREE configured them (configured_*.mlir, parsed) and their standalone
// benchmark sources (*_benchmark.mlir). Needs no GPU: compiling for cuda or hip runs anywhere.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "ktune/iree/configured_dispatch.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::iree {

class IreeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "cuda:sm_80" or "hip:gfx942" (also "rocm:gfx942"), or "cpu:host" (IREE's llvm-cpu on the
// local-task driver: what CI runs whole without a GPU): the HAL device and the chip.
struct Target {
  std::string device;  // "cuda", "hip" or "cpu"
  std::string chip;    // "sm_80", "gfx942", "host"
  std::string text() const { return device + ":" + chip; }
  std::vector<std::string> compile_flags() const;  // --iree-hal-target-device=..., --iree-cuda-target=...
  // The runtime's --device for device `ordinal`: "cuda", "cuda://1", "hip", "local-task".
  std::string runtime_device(int ordinal) const {
    if (device == "cpu") return "local-task";
    return device + (ordinal > 0 ? "://" + std::to_string(ordinal) : "");
  }
};
// Throws IreeError naming what is wrong.
Target parse_target(const std::string& text);

struct DumpedDispatch {
  std::string name;                     // the executable's name, e.g. main_dispatch_0
  std::filesystem::path configured;    // configured_<module>_<name>.mlir
  std::filesystem::path benchmark;     // <module>_<name>_<variant>_benchmark.mlir (may be empty)
  // The dispatch's own binary (.hsaco, .ptx) and assembly (.rocmasm) when executables are not
  // linked (CompileOptions::link_executables); empty when IREE linked them into one file.
  std::filesystem::path object, assembly;
  ConfiguredDispatch config;
};

struct CompiledModel {
  std::filesystem::path model, vmfb, dump_dir;
  Target target;
  std::vector<std::string> command;  // the exact iree-compile command line (of the attempt that counted)
  bool retried_single_threaded = false;  // the first attempt stalled (run_compiler.h)
  double seconds = 0;
  std::vector<DumpedDispatch> dispatches;  // in dispatch order (by the number in the name)
};

// The dispatch named `name` (the executable's name, as `ktune model dispatches` lists it); throws
// IreeError naming the dispatches the model has.
const DumpedDispatch& find_dispatch(const CompiledModel& model, const std::string& name);

struct CompileOptions {
  std::vector<std::string> extra_flags;  // passed to iree-compile after ktune's own
  // false: --iree-hal-link-executables=false, one binary per dispatch (what executable
  // substitution replaces and `ktune model dump` hands out for editing).
  bool link_executables = true;
  double timeout_seconds = 600;
};

// Compiles `model` into `out_dir` (model.vmfb, dump/). Throws IreeError with the model's path,
// the command and iree-compile's own message when it fails, and DispatchParseError when a dump
// cannot be read.
CompiledModel compile_model(const IreeTools& tools, const std::filesystem::path& model, const Target& target,
                            const std::filesystem::path& out_dir, const CompileOptions& options = {});

}  // namespace ktune::iree
