// Feeds arbitrary text to the assembly-side metadata readers: the `.amdgpu_metadata` YAML
// block (yaml-cpp underneath, bounded for depth and alias expansion), the kernel-info
// comments, and the ISA lint. MetadataError / std::invalid_argument (lint: no kernels) are
// the expected failures; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string_view>

#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/analysis/isa_lint.h"

namespace {

[[noreturn]] void bug(const char* what, const char* detail) {
  std::fprintf(stderr, "amdgpu_metadata_fuzz: %s: %s\n", what, detail);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ktune::amdgpu;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Whole input as YAML, and as assembly with a metadata block.
  try {
    (void)to_json(parse_metadata_yaml(text)).dump();
  } catch (const MetadataError&) {
  } catch (const std::exception& e) {
    bug("unexpected exception from parse_metadata_yaml", e.what());
  }
  try {
    (void)to_json(parse_asm_metadata(text)).dump();
  } catch (const MetadataError&) {
  } catch (const std::exception& e) {
    bug("unexpected exception from parse_asm_metadata", e.what());
  }
  try {
    for (const auto& info : parse_asm_kernel_info(text)) (void)info.occupancy;
  } catch (const std::exception& e) {
    bug("unexpected exception from parse_asm_kernel_info", e.what());
  }
  for (auto dialect : {ktune::analysis::IsaDialect::Auto, ktune::analysis::IsaDialect::Amdgpu,
                       ktune::analysis::IsaDialect::Ptx, ktune::analysis::IsaDialect::Sass}) {
    try {
      const auto report = ktune::analysis::lint_isa(text, dialect);
      for (const auto& f : report.findings) {
        for (const auto& l : f.lines) {
          if (l.number < 1) bug("finding line number below 1", f.message.c_str());
        }
      }
      (void)ktune::analysis::to_json(report).dump();
    } catch (const std::invalid_argument&) {
    } catch (const std::exception& e) {
      bug("unexpected exception from lint_isa", e.what());
    }
  }
  return 0;
}
