#include "ktune/amdgpu/elf64.h"

#include <cstdio>
#include <cstring>

namespace ktune::amdgpu {
namespace {

constexpr std::size_t kHeaderSize = 64;
constexpr std::size_t kSectionHeaderSize = 64;
constexpr std::size_t kProgramHeaderSize = 56;
constexpr std::size_t kSymbolSize = 24;
constexpr std::uint32_t kShtSymtab = 2;
constexpr std::uint32_t kShtNote = 7;
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint32_t kShtDynsym = 11;
constexpr std::uint32_t kPtNote = 4;
constexpr std::uint16_t kShnXindex = 0xffff;
// A code object has a few dozen sections; this bounds work on forged counts.
constexpr std::size_t kMaxNameLength = 4096;

std::uint64_t read_le(std::string_view bytes, std::uint64_t offset, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) {
    v = (v << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(offset) + static_cast<std::size_t>(i)]);
  }
  return v;
}

std::uint16_t u16(std::string_view b, std::uint64_t at) { return static_cast<std::uint16_t>(read_le(b, at, 2)); }
std::uint32_t u32(std::string_view b, std::uint64_t at) { return static_cast<std::uint32_t>(read_le(b, at, 4)); }
std::uint64_t u64(std::string_view b, std::uint64_t at) { return read_le(b, at, 8); }

// True when [offset, offset+size) lies inside a file of `file_size` bytes (no overflow).
bool in_file(std::uint64_t offset, std::uint64_t size, std::uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

std::string hex(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

// A NUL-terminated string at `offset` inside `table`; throws when it runs off the end.
std::string string_at(std::string_view table, std::uint64_t offset, const char* what) {
  if (offset >= table.size()) {
    throw Elf64Error(std::string(what) + " name offset " + hex(offset) + " is outside its string table (" +
                     std::to_string(table.size()) + " bytes)");
  }
  const std::string_view rest = table.substr(static_cast<std::size_t>(offset));
  const std::size_t end = rest.find('\0');
  if (end == std::string_view::npos) {
    throw Elf64Error(std::string(what) + " name at " + hex(offset) + " is not NUL-terminated in its string table");
  }
  if (end > kMaxNameLength) throw Elf64Error(std::string(what) + " name longer than 4096 bytes");
  return std::string(rest.substr(0, end));
}

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

std::vector<Elf64Note> parse_notes_aligned(std::string_view area, std::uint64_t area_offset, std::uint64_t align) {
  std::vector<Elf64Note> notes;
  std::uint64_t pos = 0;
  while (pos < area.size()) {
    if (area.size() - pos < 12) {
      throw Elf64Error("note at file offset " + hex(area_offset + pos) + " is truncated: " +
                       std::to_string(area.size() - pos) + " bytes left, a note header needs 12");
    }
    const std::uint64_t namesz = u32(area, pos);
    const std::uint64_t descsz = u32(area, pos + 4);
    const std::uint32_t type = u32(area, pos + 8);
    const std::uint64_t name_at = pos + 12;
    const std::uint64_t desc_at = align_up(name_at + namesz, align);
    if (!in_file(name_at, namesz, area.size()) || !in_file(desc_at, descsz, area.size())) {
      throw Elf64Error("note at file offset " + hex(area_offset + pos) + " (name " + std::to_string(namesz) +
                       " bytes, desc " + std::to_string(descsz) + " bytes) runs past the end of its note area (" +
                       std::to_string(area.size()) + " bytes)");
    }
    Elf64Note note;
    std::string_view name = area.substr(static_cast<std::size_t>(name_at), static_cast<std::size_t>(namesz));
    // The name is NUL-terminated and namesz counts the NUL.
    if (!name.empty() && name.back() == '\0') name.remove_suffix(1);
    note.owner = std::string(name);
    note.type = type;
    note.desc = area.substr(static_cast<std::size_t>(desc_at), static_cast<std::size_t>(descsz));
    note.file_offset = area_offset + pos;
    notes.push_back(std::move(note));
    const std::uint64_t next = align_up(desc_at + descsz, align);
    pos = next > area.size() ? area.size() : next;
  }
  return notes;
}

}  // namespace

std::vector<Elf64Note> parse_elf_notes(std::string_view area, std::uint64_t area_offset) {
  return parse_notes_aligned(area, area_offset, 4);
}

Elf64File parse_elf64(std::string_view bytes) {
  Elf64File file;
  file.bytes = bytes;
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0) {
    throw Elf64Error("not an ELF file (no \\x7fELF magic)");
  }
  if (bytes.size() < kHeaderSize) {
    throw Elf64Error("ELF header truncated: file has " + std::to_string(bytes.size()) + " bytes, the header needs 64");
  }
  if (bytes[4] != 2) throw Elf64Error("not an ELF64 file (EI_CLASS " + std::to_string(int{bytes[4]}) + ", expected 2)");
  if (bytes[5] != 1) {
    throw Elf64Error("not a little-endian ELF file (EI_DATA " + std::to_string(int{bytes[5]}) + ", expected 1)");
  }
  Elf64Header& h = file.header;
  h.os_abi = static_cast<std::uint8_t>(bytes[7]);
  h.abi_version = static_cast<std::uint8_t>(bytes[8]);
  h.type = u16(bytes, 16);
  h.machine = u16(bytes, 18);
  h.version = u32(bytes, 20);
  h.entry = u64(bytes, 24);
  h.phoff = u64(bytes, 32);
  h.shoff = u64(bytes, 40);
  h.flags = u32(bytes, 48);
  h.ehsize = u16(bytes, 52);
  h.phentsize = u16(bytes, 54);
  h.phnum = u16(bytes, 56);
  h.shentsize = u16(bytes, 58);
  h.shnum = u16(bytes, 60);
  h.shstrndx = u16(bytes, 62);

  const std::uint64_t size = bytes.size();
  if (h.phnum > 0) {
    if (h.phentsize != kProgramHeaderSize) {
      throw Elf64Error("program header entry size " + std::to_string(h.phentsize) + ", expected 56");
    }
    if (!in_file(h.phoff, std::uint64_t{h.phnum} * kProgramHeaderSize, size)) {
      throw Elf64Error("program headers (" + std::to_string(h.phnum) + " at " + hex(h.phoff) +
                       ") run past the end of the file (" + std::to_string(size) + " bytes)");
    }
    for (std::uint16_t i = 0; i < h.phnum; ++i) {
      const std::uint64_t at = h.phoff + std::uint64_t{i} * kProgramHeaderSize;
      Elf64Segment s;
      s.type = u32(bytes, at);
      s.flags = u32(bytes, at + 4);
      s.offset = u64(bytes, at + 8);
      s.vaddr = u64(bytes, at + 16);
      s.filesz = u64(bytes, at + 32);
      s.memsz = u64(bytes, at + 40);
      s.align = u64(bytes, at + 48);
      file.segments.push_back(s);
    }
  }

  std::uint64_t section_count = h.shnum;
  if (h.shoff != 0) {
    if (h.shentsize != kSectionHeaderSize) {
      throw Elf64Error("section header entry size " + std::to_string(h.shentsize) + ", expected 64");
    }
    // Over 0xff00 sections the count lives in section 0's sh_size; code objects never need it,
    // but a file using it is still well-formed.
    if (section_count == 0 && in_file(h.shoff, kSectionHeaderSize, size)) section_count = u64(bytes, h.shoff + 32);
    if (section_count > size / kSectionHeaderSize || !in_file(h.shoff, section_count * kSectionHeaderSize, size)) {
      throw Elf64Error("section headers (" + std::to_string(section_count) + " at " + hex(h.shoff) +
                       ") run past the end of the file (" + std::to_string(size) + " bytes)");
    }
  } else {
    section_count = 0;
  }
  for (std::uint64_t i = 0; i < section_count; ++i) {
    const std::uint64_t at = h.shoff + i * kSectionHeaderSize;
    Elf64Section s;
    s.type = u32(bytes, at + 4);
    s.flags = u64(bytes, at + 8);
    s.addr = u64(bytes, at + 16);
    s.offset = u64(bytes, at + 24);
    s.size = u64(bytes, at + 32);
    s.link = u32(bytes, at + 40);
    s.info = u32(bytes, at + 44);
    s.addralign = u64(bytes, at + 48);
    s.entsize = u64(bytes, at + 56);
    if (i != 0 && s.type != kShtNobits && !in_file(s.offset, s.size, size)) {
      throw Elf64Error("section " + std::to_string(i) + " (offset " + hex(s.offset) + ", " + std::to_string(s.size) +
                       " bytes) runs past the end of the file (" + std::to_string(size) + " bytes)");
    }
    file.sections.push_back(s);
  }
  if (!file.sections.empty()) {
    std::uint64_t strndx = h.shstrndx;
    if (strndx == kShnXindex) strndx = file.sections[0].link;
    if (strndx != 0) {
      if (strndx >= file.sections.size()) {
        throw Elf64Error("section name table index " + std::to_string(strndx) + " is not a section (file has " +
                         std::to_string(file.sections.size()) + ")");
      }
      const std::string_view names = file.section_data(file.sections[static_cast<std::size_t>(strndx)]);
      for (std::size_t i = 1; i < file.sections.size(); ++i) {
        const std::uint32_t name_offset = u32(bytes, h.shoff + i * kSectionHeaderSize);
        file.sections[i].name = string_at(names, name_offset, "section");
      }
    }
  }
  return file;
}

const Elf64Section* Elf64File::find_section(std::string_view name) const {
  for (const Elf64Section& s : sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string_view Elf64File::section_data(const Elf64Section& section) const {
  if (section.type == kShtNobits || !in_file(section.offset, section.size, bytes.size())) return {};
  return bytes.substr(static_cast<std::size_t>(section.offset), static_cast<std::size_t>(section.size));
}

std::vector<Elf64Note> Elf64File::notes() const {
  std::vector<Elf64Note> out;
  bool any_section = false;
  for (const Elf64Section& s : sections) {
    if (s.type != kShtNote) continue;
    any_section = true;
    auto notes = parse_notes_aligned(section_data(s), s.offset, s.addralign == 8 ? 8 : 4);
    out.insert(out.end(), notes.begin(), notes.end());
  }
  if (any_section) return out;
  for (const Elf64Segment& s : segments) {
    if (s.type != kPtNote) continue;
    if (!in_file(s.offset, s.filesz, bytes.size())) {
      throw Elf64Error("note segment (offset " + hex(s.offset) + ", " + std::to_string(s.filesz) +
                       " bytes) runs past the end of the file");
    }
    auto notes = parse_notes_aligned(bytes.substr(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.filesz)),
                                     s.offset, s.align == 8 ? 8 : 4);
    out.insert(out.end(), notes.begin(), notes.end());
  }
  return out;
}

std::vector<Elf64Symbol> Elf64File::symbols() const {
  const Elf64Section* table = nullptr;
  for (const Elf64Section& s : sections) {
    if (s.type == kShtSymtab) table = &s;
  }
  if (table == nullptr) {
    for (const Elf64Section& s : sections) {
      if (s.type == kShtDynsym) table = &s;
    }
  }
  std::vector<Elf64Symbol> out;
  if (table == nullptr) return out;
  if (table->entsize != kSymbolSize) {
    throw Elf64Error("symbol table '" + table->name + "' entry size " + std::to_string(table->entsize) +
                     ", expected 24");
  }
  if (table->link >= sections.size()) {
    throw Elf64Error("symbol table '" + table->name + "' links to string table " + std::to_string(table->link) +
                     ", which is not a section");
  }
  const std::string_view strings = section_data(sections[table->link]);
  const std::string_view data = section_data(*table);
  for (std::size_t at = kSymbolSize; at + kSymbolSize <= data.size(); at += kSymbolSize) {
    Elf64Symbol sym;
    const std::uint32_t name_offset = u32(data, at);
    const auto info = static_cast<std::uint8_t>(data[at + 4]);
    sym.type = info & 0x0f;
    sym.binding = info >> 4;
    sym.section_index = u16(data, at + 6);
    sym.value = u64(data, at + 8);
    sym.size = u64(data, at + 16);
    if (name_offset != 0) sym.name = string_at(strings, name_offset, "symbol");
    out.push_back(std::move(sym));
  }
  return out;
}

}  // namespace ktune::amdgpu
