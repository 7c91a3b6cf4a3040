// Feeds arbitrary bytes to the AMDGPU code object reader: ELF64 headers, section and program
// headers, notes, symbols, the MessagePack metadata note and the kernel metadata in it.
// CodeObjectError is the expected way to fail; any other exception, a crash or a sanitizer
// report is a bug. A parsed object must also serialise to JSON.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/elf64.h"

namespace {

[[noreturn]] void bug(const char* what, const char* detail) {
  std::fprintf(stderr, "amdgpu_elf_fuzz: %s: %s\n", what, detail);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ktune::amdgpu::CodeObject co = ktune::amdgpu::parse_code_object(bytes);
    (void)ktune::amdgpu::to_json(co).dump();
  } catch (const ktune::amdgpu::CodeObjectError&) {
  } catch (const std::exception& e) {
    bug("unexpected exception from parse_code_object", e.what());
  }
  // The ELF layer alone, including symbols, which parse_code_object reads only for kernels.
  try {
    const ktune::amdgpu::Elf64File elf = ktune::amdgpu::parse_elf64(bytes);
    (void)elf.notes();
    (void)elf.symbols();
    for (const auto& s : elf.sections) (void)elf.section_data(s);
  } catch (const ktune::amdgpu::Elf64Error&) {
  } catch (const std::exception& e) {
    bug("unexpected exception from the ELF reader", e.what());
  }
  return 0;
}
