#pragma once
// An AMDGPU code object (.hsaco, or the relocatable .o before linking): the ELF header's facts
// (machine, OS ABI, code object version, target id from e_flags) and the kernels' metadata
// from the NT_AMDGPU_METADATA note.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/amdgpu/kernel_metadata.h"

namespace ktune::amdgpu {

class CodeObjectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A target feature's state in e_flags (code object v4+): not supported by the processor, "any"
// (the code runs either way), or compiled for off/on.
enum class TargetFeature { Unsupported, Any, Off, On };
const char* to_string(TargetFeature feature);

struct ElfFacts {
  std::uint16_t machine = 0;  // 224 = EM_AMDGPU
  std::uint8_t os_abi = 0;    // 64 HSA, 65 PAL, 66 Mesa3D
  std::string os_abi_name;    // "AMDGPU_HSA"
  std::uint8_t abi_version = 0;
  int code_object_version = 0;  // 2..6 for HSA (abi_version + 2); 0 when not HSA
  std::uint16_t elf_type = 0;   // 1 REL, 3 DYN
  std::string elf_type_name;    // "REL", "DYN"
  std::uint32_t e_flags = 0;
  int mach = 0;                 // e_flags & 0xff (EF_AMDGPU_MACH)
  std::string processor;        // "gfx942"; "" for an unknown mach value
  TargetFeature xnack = TargetFeature::Unsupported;
  TargetFeature sramecc = TargetFeature::Unsupported;
  int generic_version = 0;      // code object v6 generic targets ("gfx9-4-generic")
  // "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"; features in "any" state are left out, as
  // the metadata's amdhsa.target does.
  std::string target_id;
};

struct KernelSymbol {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t code_bytes = 0;  // symbol size
};

struct CodeObject {
  ElfFacts elf;
  CodeObjectMetadata metadata;
  std::vector<KernelSymbol> kernel_code;  // STT_FUNC symbols of kernels with their code size
  std::vector<std::string> warnings;      // e.g. e_flags target and metadata target disagree

  const KernelMetadata* find_kernel(std::string_view name) const { return metadata.find(name); }
};

// The processor name for an EF_AMDGPU_MACH value (0x4c -> "gfx942"); "" when unknown.
std::string amdgpu_mach_name(int mach);
// The inverse; -1 when unknown.
int amdgpu_mach_value(std::string_view processor);

// Throws CodeObjectError (with the ELF/MessagePack/metadata problem in the message) for bytes
// that are not an AMDGPU code object with readable metadata.
CodeObject parse_code_object(std::string_view bytes);
// Reads the file (up to 1 GiB) and parses it; the error names the path.
CodeObject read_code_object(const std::string& path);

// ELF header facts only (no note needed).
ElfFacts elf_facts(std::uint8_t os_abi, std::uint8_t abi_version, std::uint16_t machine, std::uint16_t elf_type,
                   std::uint32_t e_flags);

nlohmann::json to_json(const ElfFacts& facts);
nlohmann::json to_json(const CodeObject& code_object);

}  // namespace ktune::amdgpu
