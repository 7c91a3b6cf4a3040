#pragma once
// Element conversions for the storages a GEMM uses (fp8 e4m3 included, which core's
// ElementType does not have), the GELU the reference applies, and the error model that turns
// an fp64 reference into a per-element acceptance bound.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "ktune/core/element_type.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::gemm {

// fp8 e4m3 as NVIDIA's __nv_fp8_e4m3 (OCP FP8): bias 7, no infinities, 0x7F/0xFF are NaN,
// largest finite 448. Encoding rounds to nearest, ties to even, and saturates to +-448
// (__NV_SATFINITE); NaN encodes as 0x7F.
double f8e4m3_to_double(std::uint8_t bits);
std::uint8_t f8e4m3_from_double(double value);

// Element `index` of an array of `storage` at `base`, as a double (exact for every storage).
double load_value(const void* base, std::size_t index, Storage storage);
// Rounds `value` to `storage` (nearest even) and writes it.
void store_value(void* base, std::size_t index, Storage storage, double value);
// The core element type with the same bits (for output poisoning); nullopt for fp8.
std::optional<ElementType> element_type_of(Storage storage);

// GELU with the tanh approximation, as cuBLASLt's GELU epilogue computes it:
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
double gelu_tanh(double x);
double apply_activation(Activation activation, double x);

// How far a correct GPU result may be from the exact (fp64) result of the same stored inputs.
// For one output element with
//   S   = |alpha| sum_k |A(i,k) B(k,j)|        (the products' magnitude; never cancels)
//   E   = |beta C(i,j)| + |bias(j)|
//   pre = alpha sum_k A(i,k) B(k,j) + beta C(i,j) + bias(j),  ref = act(pre)
// the bound is
//   slope * (S (input_rel + accum_unit (2 sqrt(K) + 8) + output_unit * partials) + 4 u32 E)
//     + activation_rel |pre| + 2 output_unit |ref| + floor
// where partials = min(r, 10 r / sqrt(K)) when a split-K run reduces its r partial sums in the
// output type (cuBLASLt's in-place and output-type reduction schemes), else 0. The terms:
// inputs converted to the math format (TF32 truncates to 10 mantissa bits), an fp32
// accumulator that may truncate instead of round (tensor cores), its error growing like
// sqrt(K) for zero-mean data (ours is; a 2.5x margin over the worst sign pattern of such data),
// the output rounding, and GELU evaluated with hardware tanh or erf instead of the reference's
// tanh (either is within 2^-12 |pre|). Rigorous worst-case bounds (K u) would be useless for
// K = 65536; these are statistical for random zero-mean inputs, which is what the tuner feeds.
struct ErrorModel {
  double input_rel = 0;        // relative error of one product from input conversion
  double accum_unit = 0;       // unit roundoff of the accumulator, allowing truncation
  double output_unit = 0;      // unit roundoff of the output storage (2^-p)
  double activation_slope = 1; // Lipschitz constant of the activation (GELU: 1.13)
  double activation_rel = 0;   // approximation error of the activation, relative to |pre|
  double floor = 0;            // smallest spacing of the output near zero (f16 subnormals)
  std::int64_t k = 1;

  // The bound for one element (see above). split_partials: r when r partial sums are
  // rounded to the output type, else 0 or 1.
  double bound(double S, double E, double pre, double ref, int split_partials = 0) const;
};

ErrorModel error_model(const GemmProblem& problem);

// Unit roundoff of a storage: 2^-11 f16, 2^-8 bf16, 2^-24 f32, 2^-4 e4m3.
double unit_roundoff(Storage storage);

}  // namespace ktune::gemm
