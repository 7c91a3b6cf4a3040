#include "ktune/amdgpu/elf64.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "ktune/amdgpu/code_object.h"

namespace ktune::amdgpu {
namespace {

std::string testdata(const std::string& name) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/amdgpu/testdata/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void put_u16(std::string& b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<char>(v & 0xff);
  b[at + 1] = static_cast<char>(v >> 8);
}

std::string elf_error(const std::string& bytes) {
  try {
    Elf64File f = parse_elf64(bytes);
    f.notes();
    f.symbols();
  } catch (const Elf64Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Elf64, ReadsARealCodeObject) {
  const std::string bytes = testdata("kernels_hip_gfx942.hsaco");
  const Elf64File elf = parse_elf64(bytes);
  EXPECT_EQ(elf.header.machine, kEmAmdgpu);
  EXPECT_EQ(elf.header.os_abi, kElfOsAbiAmdgpuHsa);
  EXPECT_EQ(elf.header.abi_version, 3);  // code object v5 (clang-19's default)
  EXPECT_EQ(elf.header.type, 3);         // shared object
  EXPECT_EQ(elf.header.flags, 0x54cu);   // gfx942, xnack any, sramecc any
  ASSERT_NE(elf.find_section(".text"), nullptr);
  ASSERT_NE(elf.find_section(".note"), nullptr);
  EXPECT_FALSE(elf.segments.empty());
  const auto notes = elf.notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].owner, "AMDGPU");
  EXPECT_EQ(notes[0].type, kNtAmdgpuMetadata);
  EXPECT_GT(notes[0].desc.size(), 100u);
  bool found_kernel = false;
  bool found_descriptor = false;
  for (const auto& sym : elf.symbols()) {
    if (sym.name == "matmul_tiled" && sym.type == 2) found_kernel = sym.size > 0;
    if (sym.name == "matmul_tiled.kd") found_descriptor = sym.size == 64;  // kernel descriptor
  }
  EXPECT_TRUE(found_kernel);
  EXPECT_TRUE(found_descriptor);
}

TEST(Elf64, NotesFromSegmentsWhenSectionHeadersAreGone) {
  std::string bytes = testdata("kernels_hip_gfx942.hsaco");
  // Strip the section header table reference; PT_NOTE must still find the metadata.
  put_u64(bytes, 40, 0);
  put_u16(bytes, 60, 0);
  const Elf64File elf = parse_elf64(bytes);
  EXPECT_TRUE(elf.sections.empty());
  const auto notes = elf.notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].type, kNtAmdgpuMetadata);
  EXPECT_TRUE(elf.symbols().empty());
}

TEST(Elf64, MalformedHeadersGiveClearErrors) {
  EXPECT_EQ(elf_error(""), "not an ELF file (no \\x7fELF magic)");
  EXPECT_EQ(elf_error("\x7f" "ELF"), "ELF header truncated: file has 4 bytes, the header needs 64");
  std::string bytes = testdata("kernels_hip_gfx942.hsaco");
  std::string b = bytes;
  b[4] = 1;
  EXPECT_EQ(elf_error(b), "not an ELF64 file (EI_CLASS 1, expected 2)");
  b = bytes;
  b[5] = 2;
  EXPECT_EQ(elf_error(b), "not a little-endian ELF file (EI_DATA 2, expected 1)");
  b = bytes;
  put_u64(b, 40, 0xfffffffffffffff0ull);  // section headers far outside the file
  EXPECT_NE(elf_error(b).find("section headers (16 at 0xfffffffffffffff0) run past the end of the file"),
            std::string::npos)
      << elf_error(b);
  b = bytes;
  put_u64(b, 32, bytes.size() - 10);  // program headers cut off
  EXPECT_NE(elf_error(b).find("program headers"), std::string::npos);
  b = bytes;
  put_u16(b, 58, 32);
  EXPECT_EQ(elf_error(b), "section header entry size 32, expected 64");
  b = bytes;
  put_u16(b, 62, 200);
  EXPECT_EQ(elf_error(b), "section name table index 200 is not a section (file has 16)");
  // Truncating the file anywhere gives an error or a smaller valid view, never a crash.
  for (std::size_t n = 0; n < bytes.size(); n += 97) EXPECT_NE(elf_error(bytes.substr(0, n)), "");
}

TEST(Elf64, MalformedNotes) {
  // namesz 7 ("AMDGPU\0"), descsz 100, but the area ends after the name.
  std::string note;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) note.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  u32(7);
  u32(100);
  u32(32);
  note += std::string("AMDGPU\0\0", 8);
  try {
    parse_elf_notes(note, 0x200);
    FAIL();
  } catch (const Elf64Error& e) {
    EXPECT_STREQ(e.what(),
                 "note at file offset 0x200 (name 7 bytes, desc 100 bytes) runs past the end of its note area (20 bytes)");
  }
  EXPECT_THROW(parse_elf_notes(std::string(5, '\0'), 0), Elf64Error);
  // An empty note (all sizes 0) is fine.
  EXPECT_EQ(parse_elf_notes(std::string(12, '\0'), 0).size(), 1u);
}

TEST(Elf64, ElfFactsDecodeFlags) {
  // gfx942:sramecc+:xnack- from the OpenCL test object.
  const CodeObject co = parse_code_object(testdata("kernels_cl_gfx942.hsaco"));
  EXPECT_EQ(co.elf.e_flags, 0xe4cu);
  EXPECT_EQ(co.elf.processor, "gfx942");
  EXPECT_EQ(co.elf.sramecc, TargetFeature::On);
  EXPECT_EQ(co.elf.xnack, TargetFeature::Off);
  EXPECT_EQ(co.elf.target_id, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  EXPECT_EQ(co.metadata.target, co.elf.target_id);
  EXPECT_TRUE(co.warnings.empty());

  const ElfFacts v6 = elf_facts(64, 4, 224, 3, 0x100055f);  // clang-22 gfx9-4-generic
  EXPECT_EQ(v6.code_object_version, 6);
  EXPECT_EQ(v6.processor, "gfx9-4-generic");
  EXPECT_EQ(v6.generic_version, 1);
  EXPECT_EQ(v6.xnack, TargetFeature::Any);
  EXPECT_EQ(v6.target_id, "amdgcn-amd-amdhsa--gfx9-4-generic");
  const ElfFacts v3 = elf_facts(64, 1, 224, 3, 0x3f | 0x100);  // v3: xnack on bit
  EXPECT_EQ(v3.code_object_version, 3);
  EXPECT_EQ(v3.xnack, TargetFeature::On);
  EXPECT_EQ(v3.sramecc, TargetFeature::Off);
  EXPECT_EQ(v3.target_id, "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack+");
  const ElfFacts unknown = elf_facts(65, 0, 224, 1, 0x7e);
  EXPECT_EQ(unknown.processor, "");
  EXPECT_EQ(unknown.os_abi_name, "AMDGPU_PAL");
  EXPECT_EQ(unknown.target_id, "amdgcn-amd-amdpal--unknown-mach-126");
  EXPECT_EQ(amdgpu_mach_value("gfx950"), 0x4f);
  EXPECT_EQ(amdgpu_mach_name(0x3f), "gfx90a");
}

}  // namespace
}  // namespace ktune::amdgpu
