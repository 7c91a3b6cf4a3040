#pragma once
// What a CUBIN says about its kernels without any NVIDIA tool: the architecture in e_flags and,
// per kernel, the `.nv.info` attributes ptxas writes (EIATTR_REGCOUNT, frame and stack sizes,
// barriers, launch bounds, parameter bytes) and the static shared memory section. Plus the two
// cuobjdump outputs ktune reads when cuobjdump is installed (GPU machines):
// `--dump-resource-usage` and `-sass`.
//
// Layout seen in CUDA 13 cubins (ELF ABI version 8): e_flags bits 8-15 hold the SM number
// (older ABIs: bits 0-7); `.nv.info` holds {format 4, attribute, u16 size, u32 symbol index,
// u32 value} records for REGCOUNT (0x2f), FRAME_SIZE (0x11), MIN_STACK_SIZE (0x12),
// MAX_STACK_SIZE (0x23); `.nv.info.<kernel>` holds the kernel's own (NUM_BARRIERS 0x4c as a byte,
// MAX_THREADS 0x05, REQNTID 0x10, MAXREG_COUNT 0x1b, CBANK_PARAM_SIZE 0x19). From sm_90 the
// `.nv.shared.<kernel>` section includes the 1 KiB the driver reserves per block (the cubin then
// has `.nv.shared.reserved.0`); cuobjdump's SHARED figure includes it too.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ktune::cli {

class CubinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CubinKernel {
  std::string name;  // the symbol (mangled for C++)
  std::uint64_t code_bytes = 0;
  std::optional<int> registers;
  std::optional<int> barriers;  // absent from .nv.info when the kernel uses none
  std::optional<std::int64_t> shared_section_bytes;  // .nv.shared.<kernel> size, as in the file
  std::optional<std::int64_t> frame_bytes;
  std::optional<std::int64_t> min_stack_bytes;
  std::optional<std::int64_t> max_stack_bytes;
  std::optional<int> max_registers;  // MAXREG_COUNT (-maxrregcount / launch bounds)
  std::optional<std::array<int, 3>> max_threads;  // __launch_bounds__ / .maxntid
  std::optional<std::array<int, 3>> required_threads;  // .reqntid
  std::optional<int> parameter_bytes;
};

struct CubinInfo {
  std::uint8_t os_abi = 0;
  std::uint8_t abi_version = 0;
  std::uint32_t e_flags = 0;
  int sm = 0;        // 90 for sm_90 / sm_90a
  std::string arch;  // "sm_90" (e_flags does not tell sm_90 from sm_90a in a way ktune decodes)
  // The .nv.shared.<kernel> sizes include the driver's reserved shared memory (sm_90+).
  bool shared_includes_reserved = false;
  std::vector<CubinKernel> kernels;  // entry points (kernels with a .nv.info.<name> section)
  std::vector<std::string> notes;    // attributes that could not be read
};

// Throws CubinError naming what is wrong (not ELF, not EM_CUDA, malformed .nv.info).
CubinInfo parse_cubin(std::string_view bytes);

// cuobjdump --dump-resource-usage: "Function NAME:" then "REG:10 STACK:0 SHARED:5120 LOCAL:0 ...".
struct CuobjdumpUsage {
  std::string name;
  std::map<std::string, std::int64_t> values;  // "REG" -> 10, "SHARED" -> 5120, "CONSTANT[0]" -> 556
};
std::vector<CuobjdumpUsage> parse_cuobjdump_resource_usage(std::string_view text);

// cuobjdump on PATH, else /usr/local/cuda/bin/cuobjdump (or $CUDA_HOME/bin); "" when absent.
std::string find_cuobjdump();

}  // namespace ktune::cli
