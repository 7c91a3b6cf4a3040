// Fuzzes the gemm spec reader behind `ktune tune gemm.yaml` / `tune gemm --spec`: any bytes must
// give a valid GemmSpec or a SourceError naming the file, never a crash or another exception;
// an accepted problem must describe, hash and round-trip through its canonical JSON.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ktune/core/source_error.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_kernel.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ktune::gemm::GemmSpec spec = ktune::gemm::parse_gemm_spec(text, "fuzz.yaml");
    const ktune::gemm::GemmProblem& p = spec.problem;
    (void)p.name();
    (void)p.hash();
    if (!(ktune::gemm::problem_from_json(p.to_json()) == p)) std::abort();
    if (!ktune::generated::unsupported_reason(p)) (void)ktune::generated::problem_traits(p);
  } catch (const ktune::SourceError& e) {
    if (e.file() != "fuzz.yaml") std::abort();
  }
  return 0;
}
