#pragma once
// Element-wise comparison of a kernel's output with a reference.

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/element_type.h"
#include "ktune/verify/tolerance.h"

namespace ktune::verify {

struct Comparison {
  bool pass = true;
  std::size_t count = 0;       // elements compared
  std::size_t mismatches = 0;  // elements that fail, for any reason (unwritten ones included)
  std::size_t unwritten = 0;   // output element still holds the poison pattern
  std::size_t nan_count = 0;   // NaNs the kernel wrote (poison excluded), matching or not
  double max_abs_error = 0;    // over elements where output and reference are both finite
  double max_rel_error = 0;    // same, and reference != 0
  double rel_l2 = 0;           // ||out - ref||2 / ||ref||2; +inf if an output is unwritten or
                               // non-finite where the reference is finite
  std::optional<std::size_t> first_mismatch;
  double first_expected = 0, first_actual = 0;  // at first_mismatch
  bool first_unwritten = false;
  std::optional<double> max_rel_l2;  // the limit that applied, for the summary

  // One line: "pass: ..." or "FAIL: ..." with counts, first mismatch and errors.
  std::string summary() const;
};

// Element i passes when |out - ref| <= atol + rtol * |ref|, all in double. A NaN in the output
// passes only where the reference is NaN; an infinity only where the reference is the same
// infinity. An output element equal to the poison pattern counts as unwritten and fails; for
// integer outputs, which have no spare bit pattern, only where the reference differs from the
// pattern's value. When ||ref|| = 0, rel_l2 is the absolute ||out - ref||. If max_rel_l2 is set it
// must hold as well. The sums use scaled accumulation, so they neither overflow nor underflow.
// Throws std::invalid_argument when the sizes differ or are not whole elements, or the tolerance
// is invalid.
Comparison compare(std::span<const std::byte> out, std::span<const std::byte> ref, ElementType type,
                   const Tolerance& tolerance);
// Output and reference of different types (e.g. a bf16 output against an fp64 reference); the
// buffers must hold the same number of elements.
Comparison compare(std::span<const std::byte> out, ElementType out_type, std::span<const std::byte> ref,
                   ElementType ref_type, const Tolerance& tolerance);

// Non-finite numbers are written as the strings "nan", "inf", "-inf" (JSON has no such numbers);
// first_mismatch is null when every element passed.
nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace ktune::verify
