#pragma once
// A small reader for little-endian ELF64 files (AMDGPU code objects): the file header, section
// and program headers, notes and symbols. Reads untrusted bytes: every offset and size is
// checked against the file, and a malformed file gives an Elf64Error naming the field, never a
// crash or an out-of-bounds read.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ktune::amdgpu {

class Elf64Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Elf64Header {
  std::uint8_t os_abi = 0;       // e_ident[EI_OSABI]: 64 = ELFOSABI_AMDGPU_HSA
  std::uint8_t abi_version = 0;  // e_ident[EI_ABIVERSION]: HSA 0..4 = code object v2..v6
  std::uint16_t type = 0;        // ET_REL 1, ET_EXEC 2, ET_DYN 3
  std::uint16_t machine = 0;     // EM_AMDGPU 224
  std::uint32_t version = 0;
  std::uint64_t entry = 0;
  std::uint64_t phoff = 0;
  std::uint64_t shoff = 0;
  std::uint32_t flags = 0;
  std::uint16_t ehsize = 0;
  std::uint16_t phentsize = 0;
  std::uint16_t phnum = 0;
  std::uint16_t shentsize = 0;
  std::uint16_t shnum = 0;
  std::uint16_t shstrndx = 0;
};

struct Elf64Section {
  std::string name;
  std::uint32_t type = 0;  // SHT_NOTE 7, SHT_SYMTAB 2, SHT_DYNSYM 11, SHT_NOBITS 8
  std::uint64_t flags = 0;
  std::uint64_t addr = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
  std::uint64_t addralign = 0;
  std::uint64_t entsize = 0;
};

struct Elf64Segment {
  std::uint32_t type = 0;  // PT_LOAD 1, PT_DYNAMIC 2, PT_NOTE 4
  std::uint32_t flags = 0;
  std::uint64_t offset = 0;
  std::uint64_t vaddr = 0;
  std::uint64_t filesz = 0;
  std::uint64_t memsz = 0;
  std::uint64_t align = 0;
};

struct Elf64Note {
  std::string owner;  // "AMDGPU"
  std::uint32_t type = 0;
  std::string_view desc;  // points into the file bytes given to parse_elf64
  std::uint64_t file_offset = 0;  // of the note header
};

struct Elf64Symbol {
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
  std::uint8_t type = 0;     // STT_OBJECT 1, STT_FUNC 2, STT_AMDGPU_HSA_KERNEL 10
  std::uint8_t binding = 0;  // STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2
  std::uint16_t section_index = 0;
};

constexpr std::uint16_t kEmAmdgpu = 224;
constexpr std::uint8_t kElfOsAbiAmdgpuHsa = 64;
constexpr std::uint32_t kNtAmdgpuMetadata = 32;

// A parsed view of ELF bytes; string_views in it point into `bytes`, which must outlive it.
struct Elf64File {
  std::string_view bytes;
  Elf64Header header;
  std::vector<Elf64Section> sections;
  std::vector<Elf64Segment> segments;

  const Elf64Section* find_section(std::string_view name) const;
  // The section's contents (empty for SHT_NOBITS).
  std::string_view section_data(const Elf64Section& section) const;
  // Notes from SHT_NOTE sections, or from PT_NOTE segments when the file has no note sections.
  std::vector<Elf64Note> notes() const;
  // Symbols of .symtab, or of .dynsym when there is no .symtab.
  std::vector<Elf64Symbol> symbols() const;
};

// Throws Elf64Error for anything that is not a well-formed little-endian ELF64 file.
Elf64File parse_elf64(std::string_view bytes);

// Notes in one note area (section or segment contents), 4-byte aligned as the gABI specifies.
std::vector<Elf64Note> parse_elf_notes(std::string_view area, std::uint64_t area_offset);

}  // namespace ktune::amdgpu
