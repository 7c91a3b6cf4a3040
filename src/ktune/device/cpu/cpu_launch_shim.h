#pragma once
// The generated translation unit that lets ktune call a user's C++ function of any
// signature through one C entry point:
//
//   extern "C" int ktune_launch(void** args, char* error, unsigned long error_size);
//
// args[i] points at the i-th argument's value, as in cuLaunchKernel: for an array, at a
// T* holding the buffer address; for a scalar, at the T itself. The shim #includes the
// user's sources by absolute path (one translation unit), so the call converts arguments
// exactly as a hand-written call would, and a signature mismatch is a compile error.

#include <string>
#include <string_view>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device::cpu {

// Throws DeviceError for an invalid entry name or an unusable source path.
std::string generate_launch_shim(const CompileRequest& request);

// "float32*,int32": what the shim was generated for. Exported by the shim as
// ktune_signature and checked again when arguments are bound.
std::string signature_text(const std::vector<ArgumentSignature>& signature);
std::string signature_text(const std::vector<HostArgument>& arguments);

}  // namespace ktune::device::cpu
