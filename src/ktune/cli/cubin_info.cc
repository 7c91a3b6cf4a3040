#include "ktune/cli/cubin_info.h"

#include <cstdlib>
#include <cstring>
#include <sstream>

#include "ktune/amdgpu/elf64.h"
#include "ktune/amdgpu/process.h"

namespace ktune::cli {
namespace {

constexpr std::uint16_t kEmCuda = 190;
constexpr std::uint8_t kFormatNoValue = 1, kFormatByte = 2, kFormatHalf = 3, kFormatSized = 4;
constexpr std::uint8_t kAttrMaxThreads = 0x05, kAttrRequiredThreads = 0x10, kAttrFrameSize = 0x11,
                       kAttrMinStackSize = 0x12, kAttrParamSize = 0x19, kAttrMaxRegCount = 0x1b,
                       kAttrMaxStackSize = 0x23, kAttrRegCount = 0x2f, kAttrNumBarriers = 0x4c;

std::uint32_t le32(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}
std::uint16_t le16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8));
}

struct Attribute {
  std::uint8_t format = 0;
  std::uint8_t id = 0;
  std::uint16_t half = 0;     // byte/half formats: the value
  std::string_view payload;   // sized format: the data
};

std::vector<Attribute> parse_attributes(std::string_view data, const std::string& section) {
  std::vector<Attribute> out;
  std::size_t at = 0;
  while (at < data.size()) {
    if (data.size() - at < 2)
      throw CubinError("section " + section + ": truncated attribute at offset " + std::to_string(at));
    Attribute a;
    a.format = static_cast<std::uint8_t>(data[at]);
    a.id = static_cast<std::uint8_t>(data[at + 1]);
    at += 2;
    if (a.format == kFormatNoValue) {
      at += 2;  // padding to 4 bytes
    } else if (a.format == kFormatByte || a.format == kFormatHalf) {
      if (data.size() - at < 2)
        throw CubinError("section " + section + ": truncated attribute 0x" + std::to_string(a.id));
      a.half = a.format == kFormatByte ? static_cast<std::uint8_t>(data[at]) : le16(data, at);
      at += 2;
    } else if (a.format == kFormatSized) {
      if (data.size() - at < 2) throw CubinError("section " + section + ": truncated attribute size");
      const std::uint16_t size = le16(data, at);
      at += 2;
      if (size > data.size() - at)
        throw CubinError("section " + section + ": attribute at offset " + std::to_string(at - 4) + " claims " +
                         std::to_string(size) + " bytes, " + std::to_string(data.size() - at) + " left");
      a.payload = data.substr(at, size);
      at += size;
    } else {
      throw CubinError("section " + section + ": unknown attribute format " + std::to_string(a.format) +
                       " at offset " + std::to_string(at - 2));
    }
    out.push_back(a);
  }
  return out;
}

std::optional<std::array<int, 3>> three(const Attribute& a) {
  if (a.payload.size() < 12) return std::nullopt;
  return std::array<int, 3>{static_cast<int>(le32(a.payload, 0)), static_cast<int>(le32(a.payload, 4)),
                            static_cast<int>(le32(a.payload, 8))};
}

}  // namespace

CubinInfo parse_cubin(std::string_view bytes) {
  amdgpu::Elf64File elf;
  try {
    elf = amdgpu::parse_elf64(bytes);
  } catch (const amdgpu::Elf64Error& e) {
    throw CubinError(std::string("not a readable ELF64 file: ") + e.what());
  }
  if (elf.header.machine != kEmCuda)
    throw CubinError("ELF machine " + std::to_string(elf.header.machine) + " is not NVIDIA CUDA (190)");
  CubinInfo info;
  info.os_abi = elf.header.os_abi;
  info.abi_version = elf.header.abi_version;
  info.e_flags = elf.header.flags;
  info.sm = static_cast<int>(info.abi_version >= 8 ? (info.e_flags >> 8) & 0xff : info.e_flags & 0xff);
  info.arch = "sm_" + std::to_string(info.sm);

  std::vector<amdgpu::Elf64Symbol> symbols;
  try {
    symbols = elf.symbols();
  } catch (const amdgpu::Elf64Error& e) {
    throw CubinError(std::string("symbol table: ") + e.what());
  }
  auto symbol_name = [&](std::uint32_t index) -> std::string {
    if (index == 0 || index > symbols.size()) return {};
    return symbols[index - 1].name;
  };

  constexpr std::string_view kInfoPrefix = ".nv.info.";
  for (const auto& section : elf.sections) {
    if (section.name.rfind(kInfoPrefix, 0) != 0) continue;
    CubinKernel k;
    k.name = section.name.substr(kInfoPrefix.size());
    if (k.name.empty())
      throw CubinError("section '" + section.name + "' names no kernel: a per-kernel .nv.info section is '.nv.info.<kernel>'");
    for (const auto& a : parse_attributes(elf.section_data(section), section.name)) {
      switch (a.id) {
        case kAttrNumBarriers: k.barriers = a.half; break;
        case kAttrMaxRegCount: k.max_registers = a.half; break;
        case kAttrParamSize: k.parameter_bytes = a.half; break;
        case kAttrMaxThreads: k.max_threads = three(a); break;
        case kAttrRequiredThreads: k.required_threads = three(a); break;
        default: break;
      }
    }
    if (const auto* text = elf.find_section(".text." + k.name)) k.code_bytes = text->size;
    if (const auto* shared = elf.find_section(".nv.shared." + k.name))
      k.shared_section_bytes = static_cast<std::int64_t>(shared->size);
    info.kernels.push_back(std::move(k));
  }
  info.shared_includes_reserved = elf.find_section(".nv.shared.reserved.0") != nullptr;

  if (const auto* global = elf.find_section(".nv.info")) {
    for (const auto& a : parse_attributes(elf.section_data(*global), ".nv.info")) {
      if (a.format != kFormatSized || a.payload.size() < 8) continue;
      const std::string name = symbol_name(le32(a.payload, 0));
      const std::uint32_t value = le32(a.payload, 4);
      for (auto& k : info.kernels) {
        if (k.name != name) continue;
        switch (a.id) {
          case kAttrRegCount: k.registers = static_cast<int>(value); break;
          case kAttrFrameSize: k.frame_bytes = value; break;
          case kAttrMinStackSize: k.min_stack_bytes = value; break;
          case kAttrMaxStackSize: k.max_stack_bytes = value; break;
          default: break;
        }
      }
    }
  } else {
    info.notes.push_back("the cubin has no .nv.info section: register counts and stack sizes are unknown");
  }
  for (const auto& k : info.kernels)
    if (!k.registers) info.notes.push_back("no EIATTR_REGCOUNT for kernel " + k.name);
  if (info.kernels.empty()) info.notes.push_back("no .nv.info.<kernel> sections: the cubin has no kernels");
  return info;
}

std::vector<CuobjdumpUsage> parse_cuobjdump_resource_usage(std::string_view text) {
  std::vector<CuobjdumpUsage> out;
  std::istringstream in{std::string(text)};
  std::string line;
  CuobjdumpUsage* current = nullptr;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    std::string_view l(line);
    l.remove_prefix(first);
    if (l.rfind("Function ", 0) == 0 && l.back() == ':') {
      out.push_back({std::string(l.substr(9, l.size() - 10)), {}});
      current = &out.back();
      continue;
    }
    if (!current || l.find(':') == std::string_view::npos || l.rfind("REG:", 0) != 0) continue;
    std::istringstream fields{std::string(l)};
    std::string field;
    while (fields >> field) {
      const auto colon = field.rfind(':');
      if (colon == std::string::npos) continue;
      char* end = nullptr;
      const long long v = std::strtoll(field.c_str() + colon + 1, &end, 10);
      if (end && *end == '\0' && end != field.c_str() + colon + 1) current->values[field.substr(0, colon)] = v;
    }
  }
  return out;
}

std::string find_cuobjdump() {
  if (std::string p = amdgpu::find_program("cuobjdump"); !p.empty()) return p;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* home = std::getenv(env); home && *home) {
      if (std::string p = amdgpu::find_program(std::string(home) + "/bin/cuobjdump"); !p.empty()) return p;
    }
  }
  return amdgpu::find_program("/usr/local/cuda/bin/cuobjdump");
}

}  // namespace ktune::cli
