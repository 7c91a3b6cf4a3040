#pragma once
// How close an output must be to its reference.

#include <optional>

#include <nlohmann/json.hpp>

#include "ktune/core/element_type.h"

namespace ktune::verify {

struct Tolerance {
  double atol = 1e-6;
  double rtol = 1e-5;
  std::optional<double> max_rel_l2;  // also require ||out - ref||2 / ||ref||2 <= this

  bool operator==(const Tolerance&) const = default;
};

// Per-type starting points, the defaults of torch.testing.assert_close: f16 rtol 1e-3 atol 1e-5,
// bf16 rtol 1.6e-2 atol 1e-5, f32 rtol 1.3e-6 atol 1e-5, f64 rtol 1e-7 atol 1e-7, integers exact.
// Long reductions in f16/bf16 (a GEMM with large K) usually need max_rel_l2 and a looser atol.
Tolerance default_tolerance(ElementType type);

// Throws std::invalid_argument naming the field when a value is negative or not finite.
void validate(const Tolerance& tolerance);

// Keys atol, rtol, max_rel_l2 (null or absent: none), all optional over `base`. Unknown keys,
// wrong types and invalid values throw std::invalid_argument naming the key.
Tolerance tolerance_from_json(const nlohmann::json& j, Tolerance base = {});
nlohmann::json tolerance_to_json(const Tolerance& tolerance);

}  // namespace ktune::verify
