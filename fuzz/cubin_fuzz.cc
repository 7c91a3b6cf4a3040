// Fuzzes the cubin reader behind `ktune inspect FILE.cubin`: any bytes must give a CubinInfo or
// a CubinError, never a crash, a hang or another exception.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ktune/cli/cubin_info.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ktune::cli::CubinInfo info = ktune::cli::parse_cubin(bytes);
    for (const auto& kernel : info.kernels)
      if (kernel.name.empty()) std::abort();  // an entry point always has a name
  } catch (const ktune::cli::CubinError&) {
  }
  // The cuobjdump text parser sees the same bytes: it must never throw.
  (void)ktune::cli::parse_cuobjdump_resource_usage(bytes);
  return 0;
}
