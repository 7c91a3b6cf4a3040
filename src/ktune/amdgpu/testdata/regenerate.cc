// Rebuilds the committed code objects and assembly in this directory with ktune's own
// toolchain: `ninja amdgpu_testdata_regenerate && build/src/ktune/amdgpu/amdgpu_testdata_regenerate`.
// Needs clang-19 (gfx90a, gfx942) and clang-22 (gfx950) with their lld.

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "ktune/amdgpu/toolchain.h"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main() {
  using namespace ktune::amdgpu;
  const std::string dir = KTUNE_SOURCE_DIR "/src/ktune/amdgpu/testdata";
  struct Job {
    const char* source;
    SourceLanguage language;
    const char* arch;
    int llvm;
    const char* name;
  };
  const Job jobs[] = {
      {"kernels.hip", SourceLanguage::Hip, "gfx942", 19, "kernels_hip_gfx942"},
      {"kernels.hip", SourceLanguage::Hip, "gfx90a", 19, "kernels_hip_gfx90a"},
      {"kernels.hip", SourceLanguage::Hip, "gfx950", 22, "kernels_hip_gfx950"},
      {"kernels.cl", SourceLanguage::OpenCl, "gfx942:sramecc+:xnack-", 19, "kernels_cl_gfx942"},
      {"kernels.cl", SourceLanguage::OpenCl, "gfx90a", 19, "kernels_cl_gfx90a"},
  };
  int failures = 0;
  for (const Job& job : jobs) {
    std::string why;
    auto toolchain = Toolchain::find(job.arch, job.llvm, &why);
    if (!toolchain) {
      std::fprintf(stderr, "%s: %s\n", job.name, why.c_str());
      ++failures;
      continue;
    }
    CompileRequest request;
    request.source = read(dir + "/" + job.source);
    request.language = job.language;
    request.arch = job.arch;
    request.name = job.name;
    request.output_dir = "/tmp/ktune-amdgpu-testdata";
    CompileResult result = toolchain->compile(request);
    if (!result.ok) {
      std::fprintf(stderr, "%s: %s\n%s", job.name, result.error.c_str(), result.log.c_str());
      ++failures;
      continue;
    }
    std::ofstream(dir + "/" + job.name + ".s", std::ios::binary) << result.asm_text;
    std::ofstream(dir + "/" + job.name + ".hsaco", std::ios::binary) << read(result.code_object_path);
    std::printf("%s: LLVM %s\n", job.name, toolchain->version_string().c_str());
  }
  return failures == 0 ? 0 : 1;
}
