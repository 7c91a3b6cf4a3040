#pragma once
// Offline AMDGPU compilation with a stock LLVM (Debian's clang-N/lld-N/llvm-N), no ROCm and
// no GPU: HIP or OpenCL C -> assembly (.s, with its `.amdgpu_metadata` block and clang's
// occupancy comments) -> code object (.hsaco). The code object is assembled from that same
// .s, so the text a linter reads is exactly the code that was produced.
//
// Tool search: $KTUNE_AMDGPU_CLANG (a clang binary; nothing else is tried), else clang-N in
// PATH for N = 22 down to 17, then clang. ld.lld and llvm-objdump are taken from the same
// LLVM (next to clang's real path, or ld.lld-N / llvm-objdump-N in PATH).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ktune::amdgpu {

enum class SourceLanguage { Hip, OpenCl };
const char* to_string(SourceLanguage language);

struct CompileRequest {
  std::string source;
  SourceLanguage language = SourceLanguage::Hip;
  // Processor or target id: "gfx942", "gfx942:sramecc+:xnack-".
  std::string arch = "gfx942";
  std::vector<std::pair<std::string, std::string>> defines;  // {"BM", "64"} -> -DBM=64; "" value -> -DNAME
  std::vector<std::string> include_paths;
  std::vector<std::string> options;  // extra clang options ("-O2", "-ffast-math"); -O3 comes first
  // Directory for <name>.hip/.cl, <name>.s, <name>.o, <name>.hsaco; created when missing.
  // Empty: a fresh directory under $TMPDIR (or /tmp), left for the caller.
  std::string output_dir;
  std::string name = "kernel";
  // Without ROCm's headers HIP has no threadIdx, __syncthreads, float4, ...; OpenCL C has no
  // get_local_id without ROCm's device libraries. A small prelude defines them from clang
  // builtins (see prelude_text()). Off when the sources bring their own.
  bool builtins_prelude = true;
  double timeout_seconds = 300;
};

struct CompileResult {
  bool ok = false;
  std::string error;             // first error line and the step that failed, when !ok
  std::string log;               // every tool's output
  std::string source_path;
  std::string asm_path;
  std::string asm_text;
  std::string code_object_path;  // linked .hsaco
  std::vector<std::string> commands;  // each step's command line
  double seconds = 0;
};

class Toolchain {
 public:
  // The newest LLVM that can target `arch` (or exactly LLVM `llvm_major` when given). nullopt
  // when none is installed; `why_not` then says what was looked for.
  static std::optional<Toolchain> find(std::string_view arch, std::optional<int> llvm_major = std::nullopt,
                                       std::string* why_not = nullptr);
  // Every LLVM found (newest first), whether or not it targets a given processor.
  static std::vector<Toolchain> installed();

  const std::string& clang() const { return clang_; }
  const std::string& lld() const { return lld_; }
  const std::string& objdump() const { return objdump_; }
  int major_version() const { return major_; }
  const std::string& version_string() const { return version_; }  // "19.1.7"
  // Processors `clang --print-supported-cpus` lists for amdgcn.
  const std::vector<std::string>& processors() const { return processors_; }
  bool supports(std::string_view arch) const;

  CompileResult compile(const CompileRequest& request) const;
  // llvm-objdump -d --mcpu=<processor>; nullopt with `error` set when it fails.
  std::optional<std::string> disassemble(const std::string& code_object_path, std::string_view arch,
                                         std::string* error = nullptr) const;

  // The prelude -include'd for a language (empty when none).
  static std::string prelude_text(SourceLanguage language);

 private:
  static std::optional<Toolchain> probe(const std::string& clang_path, std::string* why_not);
  std::string clang_;
  std::string lld_;
  std::string objdump_;
  int major_ = 0;
  std::string version_;
  std::vector<std::string> processors_;
};

}  // namespace ktune::amdgpu
