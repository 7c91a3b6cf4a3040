#include "ktune/amdgpu/code_object.h"

#include <fstream>
#include <iterator>
#include <utility>

#include "ktune/amdgpu/elf64.h"
#include "ktune/amdgpu/msgpack.h"
#include "ktune/analysis/valid_utf8.h"

namespace ktune::amdgpu {
namespace {

using analysis::to_valid_utf8;

// EF_AMDGPU_MACH values (llvm/BinaryFormat/ELF.h); each was checked by compiling for the
// processor with clang-22 and reading e_flags back.
const std::pair<int, const char*> kMachNames[] = {
    {0x20, "gfx600"},  {0x21, "gfx601"},  {0x22, "gfx700"},  {0x23, "gfx701"},  {0x24, "gfx702"},
    {0x25, "gfx703"},  {0x26, "gfx704"},  {0x28, "gfx801"},  {0x29, "gfx802"},  {0x2a, "gfx803"},
    {0x2b, "gfx810"},  {0x2c, "gfx900"},  {0x2d, "gfx902"},  {0x2e, "gfx904"},  {0x2f, "gfx906"},
    {0x30, "gfx908"},  {0x31, "gfx909"},  {0x32, "gfx90c"},  {0x33, "gfx1010"}, {0x34, "gfx1011"},
    {0x35, "gfx1012"}, {0x36, "gfx1030"}, {0x37, "gfx1031"}, {0x38, "gfx1032"}, {0x39, "gfx1033"},
    {0x3a, "gfx602"},  {0x3b, "gfx705"},  {0x3c, "gfx805"},  {0x3d, "gfx1035"}, {0x3e, "gfx1034"},
    {0x3f, "gfx90a"},  {0x40, "gfx940"},  {0x41, "gfx1100"}, {0x42, "gfx1013"}, {0x43, "gfx1150"},
    {0x44, "gfx1103"}, {0x45, "gfx1036"}, {0x46, "gfx1101"}, {0x47, "gfx1102"}, {0x48, "gfx1200"},
    {0x49, "gfx1250"}, {0x4a, "gfx1151"}, {0x4b, "gfx941"},  {0x4c, "gfx942"},  {0x4e, "gfx1201"},
    {0x4f, "gfx950"},  {0x51, "gfx9-generic"}, {0x52, "gfx10-1-generic"}, {0x53, "gfx10-3-generic"},
    {0x54, "gfx11-generic"}, {0x55, "gfx1152"}, {0x58, "gfx1153"}, {0x59, "gfx12-generic"},
    {0x5a, "gfx1251"}, {0x5f, "gfx9-4-generic"},
};

constexpr std::uint32_t kMachMask = 0xff;
constexpr std::uint32_t kXnackV3 = 0x100;
constexpr std::uint32_t kSrameccV3 = 0x200;
constexpr std::uint32_t kXnackV4Mask = 0x300;
constexpr std::uint32_t kSrameccV4Mask = 0xc00;
constexpr std::uint32_t kGenericVersionShift = 24;
constexpr std::uint8_t kAbiVersionV3 = 1;
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 30;
constexpr std::uint8_t kSttFunc = 2;

TargetFeature v4_feature(std::uint32_t bits) {
  switch (bits) {
    case 0: return TargetFeature::Unsupported;
    case 1: return TargetFeature::Any;
    case 2: return TargetFeature::Off;
    default: return TargetFeature::On;
  }
}

const char* os_abi_name(std::uint8_t os_abi) {
  switch (os_abi) {
    case 0: return "NONE";
    case 64: return "AMDGPU_HSA";
    case 65: return "AMDGPU_PAL";
    case 66: return "AMDGPU_MESA3D";
    default: return "unknown";
  }
}

const char* elf_type_name(std::uint16_t type) {
  switch (type) {
    case 1: return "REL";
    case 2: return "EXEC";
    case 3: return "DYN";
    default: return "unknown";
  }
}

std::string feature_suffix(const char* name, TargetFeature f) {
  if (f == TargetFeature::On) return std::string(":") + name + "+";
  if (f == TargetFeature::Off) return std::string(":") + name + "-";
  return "";
}

}  // namespace

const char* to_string(TargetFeature feature) {
  switch (feature) {
    case TargetFeature::Unsupported: return "unsupported";
    case TargetFeature::Any: return "any";
    case TargetFeature::Off: return "off";
    case TargetFeature::On: return "on";
  }
  return "?";
}

std::string amdgpu_mach_name(int mach) {
  for (const auto& [value, name] : kMachNames) {
    if (value == mach) return name;
  }
  return "";
}

int amdgpu_mach_value(std::string_view processor) {
  for (const auto& [value, name] : kMachNames) {
    if (processor == name) return value;
  }
  return -1;
}

ElfFacts elf_facts(std::uint8_t os_abi, std::uint8_t abi_version, std::uint16_t machine, std::uint16_t elf_type,
                   std::uint32_t e_flags) {
  ElfFacts f;
  f.machine = machine;
  f.os_abi = os_abi;
  f.os_abi_name = os_abi_name(os_abi);
  f.abi_version = abi_version;
  f.code_object_version = os_abi == kElfOsAbiAmdgpuHsa ? abi_version + 2 : 0;
  f.elf_type = elf_type;
  f.elf_type_name = elf_type_name(elf_type);
  f.e_flags = e_flags;
  f.mach = static_cast<int>(e_flags & kMachMask);
  f.processor = amdgpu_mach_name(f.mach);
  if (os_abi == kElfOsAbiAmdgpuHsa && abi_version == kAbiVersionV3) {
    // Code object v3 had on/off bits only: clear means "off" or unsupported.
    f.xnack = (e_flags & kXnackV3) != 0 ? TargetFeature::On : TargetFeature::Off;
    f.sramecc = (e_flags & kSrameccV3) != 0 ? TargetFeature::On : TargetFeature::Off;
  } else if (os_abi != kElfOsAbiAmdgpuHsa || abi_version > kAbiVersionV3) {
    f.xnack = v4_feature((e_flags & kXnackV4Mask) >> 8);
    f.sramecc = v4_feature((e_flags & kSrameccV4Mask) >> 10);
    f.generic_version = static_cast<int>(e_flags >> kGenericVersionShift);
  }
  const char* os = os_abi == 65 ? "amdpal" : os_abi == 66 ? "mesa3d" : "amdhsa";
  const std::string processor = f.processor.empty() ? "unknown-mach-" + std::to_string(f.mach) : f.processor;
  f.target_id = std::string("amdgcn-amd-") + os + "--" + processor + feature_suffix("sramecc", f.sramecc) +
                feature_suffix("xnack", f.xnack);
  return f;
}

CodeObject parse_code_object(std::string_view bytes) {
  CodeObject co;
  try {
    const Elf64File elf = parse_elf64(bytes);
    if (elf.header.machine != kEmAmdgpu) {
      throw CodeObjectError("not an AMDGPU code object: e_machine is " + std::to_string(elf.header.machine) +
                            ", expected 224 (EM_AMDGPU)");
    }
    co.elf = elf_facts(elf.header.os_abi, elf.header.abi_version, elf.header.machine, elf.header.type,
                       elf.header.flags);
    if (co.elf.processor.empty()) {
      co.warnings.push_back("unknown EF_AMDGPU_MACH value " + std::to_string(co.elf.mach));
    }
    const Elf64Note* metadata_note = nullptr;
    const std::vector<Elf64Note> notes = elf.notes();
    for (const Elf64Note& note : notes) {
      if (note.owner == "AMDGPU" && note.type == kNtAmdgpuMetadata) {
        if (metadata_note != nullptr) throw CodeObjectError("more than one NT_AMDGPU_METADATA note");
        metadata_note = &note;
      }
    }
    if (metadata_note == nullptr) {
      throw CodeObjectError("no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32); code object v3 or later "
                            "from an HSA target is required (OS ABI " +
                            co.elf.os_abi_name + ", code object version " +
                            std::to_string(co.elf.code_object_version) + ")");
    }
    try {
      co.metadata = parse_metadata_msgpack(metadata_note->desc);
    } catch (const std::exception& e) {
      throw CodeObjectError("NT_AMDGPU_METADATA note: " + std::string(e.what()));
    }
    if (!co.metadata.target.empty() && co.metadata.target != co.elf.target_id) {
      co.warnings.push_back("metadata target " + co.metadata.target + " differs from e_flags' " + co.elf.target_id);
    }
    for (const Elf64Symbol& sym : elf.symbols()) {
      if (sym.type != kSttFunc) continue;
      for (const auto& k : co.metadata.kernels) {
        if (k.name == sym.name || k.symbol == sym.name + ".kd") {
          co.kernel_code.push_back({sym.name, sym.value, sym.size});
          break;
        }
      }
    }
  } catch (const Elf64Error& e) {
    throw CodeObjectError(std::string("malformed ELF: ") + e.what());
  }
  return co;
}

CodeObject read_code_object(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CodeObjectError("cannot open code object '" + path + "'");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw CodeObjectError("cannot read code object '" + path + "'");
  if (static_cast<std::uint64_t>(size) > kMaxFileBytes) {
    throw CodeObjectError("code object '" + path + "' is larger than 1 GiB");
  }
  in.seekg(0, std::ios::beg);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in.read(bytes.data(), size)) throw CodeObjectError("cannot read code object '" + path + "'");
  try {
    return parse_code_object(bytes);
  } catch (const CodeObjectError& e) {
    throw CodeObjectError(path + ": " + e.what());
  }
}

nlohmann::json to_json(const ElfFacts& f) {
  return {{"machine", f.machine},
          {"os_abi", f.os_abi},
          {"os_abi_name", f.os_abi_name},
          {"abi_version", f.abi_version},
          {"code_object_version", f.code_object_version},
          {"elf_type", f.elf_type_name},
          {"e_flags", f.e_flags},
          {"mach", f.mach},
          {"processor", f.processor},
          {"xnack", to_string(f.xnack)},
          {"sramecc", to_string(f.sramecc)},
          {"generic_version", f.generic_version},
          {"target_id", to_valid_utf8(f.target_id)}};
}

nlohmann::json to_json(const CodeObject& co) {
  nlohmann::json j = {{"elf", to_json(co.elf)}, {"metadata", to_json(co.metadata)}, {"warnings", nlohmann::json::array()}};
  for (const auto& w : co.warnings) j["warnings"].push_back(to_valid_utf8(w));
  nlohmann::json code = nlohmann::json::array();
  for (const auto& k : co.kernel_code) {
    code.push_back({{"name", to_valid_utf8(k.name)}, {"address", k.address}, {"code_bytes", k.code_bytes}});
  }
  j["kernel_code"] = code;
  return j;
}

}  // namespace ktune::amdgpu
