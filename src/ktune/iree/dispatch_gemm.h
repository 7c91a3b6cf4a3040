#pragma once
// Which IREE dispatches are a GEMM that ktune's own generated kernels compute, read from the
// dispatch's configured source: the root contraction (a linalg.generic with 2-D or batched
// 3-D operands whose body multiplies and accumulates, into a zero-filled accumulator) and at
// most one elementwise consumer fused after it, in the order the generated kernels apply
// them: + bias (a vector along N), + a matrix of the output's shape (beta = 1), max(x, 0), a
// cast to the output type. Anything else (other ops, dynamic shapes, push constants other than
// the result's byte offset, an epilogue in another order) makes the dispatch unsupported, with
// the reason.
//
// A push constant as the result's byte offset: IREE runs one executable for several dispatch
// sites that write into one buffer at different offsets (the transformer's q/k/v projections),
// passing the offset at run time (`hal.interface.constant.load`, cast, `util.assume.int`).
//
// The answer says where each operand lives in the dispatch's ABI (IREE packs several tensors
// into one binding at constant byte offsets), so an executable object can take the bindings in
// IREE's order and find its operands (generated_object.h).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/configured_dispatch.h"

namespace ktune::iree {

enum class GemmRole { A, B, Bias, C, D };
std::string role_name(GemmRole role);  // "a", "b", "bias", "c", "d"

struct GemmOperand {
  GemmRole role = GemmRole::A;
  int binding = 0;
  std::int64_t offset_bytes = 0;  // from the binding's base pointer
  int offset_constant = -1;       // >= 0: plus this push constant's value in bytes (D only)
};

struct DispatchGemm {
  gemm::GemmProblem problem;
  int binding_count = 0;              // the layout's bindings (the kernel's parameters)
  int constant_count = 0;             // the layout's push constants (parameters after the bindings)
  std::vector<GemmOperand> operands;  // A, B, [bias], [C], D
  nlohmann::json to_json() const;
  std::string describe() const;  // "8x512x512x128 nt f16->f32 +bias +c relu"
};

struct DispatchGemmResult {
  std::optional<DispatchGemm> gemm;
  std::string unsupported;  // why not, when gemm is empty
};

// Reads `text` (the configured_*.mlir that `dispatch` was parsed from).
DispatchGemmResult recognize_dispatch_gemm(const ConfiguredDispatch& dispatch, const std::string& text);
// Reads the dispatch's configured file.
DispatchGemmResult recognize_dispatch_gemm(const DumpedDispatch& dispatch);

}  // namespace ktune::iree
