#include "ktune/families/gemm/gemm_numeric.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace ktune::gemm {
namespace {

// The 127 non-negative finite e4m3 values, indexed by their code (0x00 .. 0x7E), increasing.
const std::array<double, 127>& f8_positive_values() {
  static const std::array<double, 127> values = [] {
    std::array<double, 127> v{};
    for (unsigned code = 0; code < 127; ++code) v[code] = f8e4m3_to_double(static_cast<std::uint8_t>(code));
    return v;
  }();
  return values;
}

}  // namespace

double f8e4m3_to_double(std::uint8_t bits) {
  const bool negative = (bits & 0x80u) != 0;
  const unsigned exponent = (bits >> 3) & 0xFu;
  const unsigned mantissa = bits & 0x7u;
  double magnitude;
  if (exponent == 0xF && mantissa == 0x7) return std::nan("");
  if (exponent == 0) magnitude = std::ldexp(static_cast<double>(mantissa), -9);  // subnormal: m/8 * 2^-6
  else magnitude = std::ldexp(1.0 + static_cast<double>(mantissa) / 8.0, static_cast<int>(exponent) - 7);
  return negative ? -magnitude : magnitude;
}

std::uint8_t f8e4m3_from_double(double value) {
  if (std::isnan(value)) return 0x7F;
  const std::uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  const double magnitude = std::fabs(value);
  const auto& table = f8_positive_values();
  if (magnitude >= table.back()) return static_cast<std::uint8_t>(sign | 0x7E);
  // First value >= magnitude; the answer is it or its predecessor.
  const auto it = std::lower_bound(table.begin(), table.end(), magnitude);
  unsigned hi = static_cast<unsigned>(it - table.begin());
  if (table[hi] == magnitude || hi == 0) return static_cast<std::uint8_t>(sign | hi);
  const unsigned lo = hi - 1;
  const double below = magnitude - table[lo];
  const double above = table[hi] - magnitude;
  unsigned code;
  if (below < above) code = lo;
  else if (above < below) code = hi;
  else code = (lo % 2 == 0) ? lo : hi;  // a tie goes to the even mantissa
  return static_cast<std::uint8_t>(sign | code);
}

std::optional<ElementType> element_type_of(Storage storage) {
  switch (storage) {
    case Storage::F16: return ElementType::F16;
    case Storage::BF16: return ElementType::BF16;
    case Storage::F32: return ElementType::F32;
    case Storage::F8E4M3: return std::nullopt;
  }
  return std::nullopt;
}

double load_value(const void* base, std::size_t index, Storage storage) {
  if (storage == Storage::F8E4M3) return f8e4m3_to_double(static_cast<const std::uint8_t*>(base)[index]);
  return load_element(base, index, *element_type_of(storage));
}

void store_value(void* base, std::size_t index, Storage storage, double value) {
  if (storage == Storage::F8E4M3) {
    static_cast<std::uint8_t*>(base)[index] = f8e4m3_from_double(value);
    return;
  }
  store_element(base, index, *element_type_of(storage), value);
}

double gelu_tanh(double x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
}

double apply_activation(Activation activation, double x) {
  switch (activation) {
    case Activation::None: return x;
    case Activation::Relu: return x > 0 ? x : 0.0;
    case Activation::Gelu: return gelu_tanh(x);
  }
  return x;
}

double unit_roundoff(Storage storage) {
  switch (storage) {
    case Storage::F16: return std::ldexp(1.0, -11);
    case Storage::BF16: return std::ldexp(1.0, -8);
    case Storage::F32: return std::ldexp(1.0, -24);
    case Storage::F8E4M3: return std::ldexp(1.0, -4);
  }
  return 1.0;
}

ErrorModel error_model(const GemmProblem& problem) {
  ErrorModel m;
  m.k = problem.k;
  m.output_unit = unit_roundoff(problem.out);
  switch (problem.precision) {
    case Precision::F16:
    case Precision::BF16:
      // Products of 16-bit floats are exact in fp32; only the accumulation rounds.
      m.accum_unit = std::ldexp(1.0, -23);
      break;
    case Precision::F32:
      m.accum_unit = std::ldexp(1.0, -23);
      break;
    case Precision::TF32:
      // Each input loses up to 13 of its 23 mantissa bits (truncation: < 2^-10 relative).
      m.input_rel = std::ldexp(1.0, -9);
      m.accum_unit = std::ldexp(1.0, -23);
      break;
    case Precision::F8E4M3:
      // Hopper's fp8 tensor cores accumulate with reduced precision between cuBLASLt's
      // periodic promotions to fp32. Not calibrated on hardware yet; see README.md.
      m.accum_unit = std::ldexp(1.0, -16);
      break;
  }
  if (problem.activation == Activation::Gelu) {
    m.activation_slope = 1.13;
    m.activation_rel = std::ldexp(1.0, -11);
  }
  if (problem.out == Storage::F16) m.floor = std::ldexp(1.0, -24);
  return m;
}

double ErrorModel::bound(double S, double E, double pre, double ref, int split_partials) const {
  const double sqrt_k = std::sqrt(static_cast<double>(k));
  double partials = 0;
  if (split_partials > 1) {
    const double r = static_cast<double>(split_partials);
    partials = std::min(r, 10.0 * r / sqrt_k);
  }
  const double u32 = std::ldexp(1.0, -24);
  const double pre_error = S * (input_rel + accum_unit * (2.0 * sqrt_k + 8.0) + output_unit * partials) + 4.0 * u32 * E;
  return activation_slope * pre_error + activation_rel * std::fabs(pre) + 2.0 * output_unit * std::fabs(ref) + floor;
}

}  // namespace ktune::gemm
