#pragma once
// Deterministic initialisation of kernel argument buffers. The same Init gives the same bytes on
// every machine: random values come from std::mt19937_64 (fully specified by the standard) mapped
// to the range by ktune's own arithmetic, not by std::uniform_*_distribution, whose output differs
// between standard libraries.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ktune/core/element_type.h"

namespace ktune::verify {

enum class InitKind {
  Random,    // floats uniform in [lo, hi) (before rounding to the element type); integers uniform in [lo, hi]
  Sequence,  // start, start + step, start + 2 step, ...
  Constant,  // value everywhere
  File,      // raw little-endian binary of exactly the buffer's size
  Zeros,     // all bytes zero (timing on zeros flatters some kernels: prefer Random for benchmarks)
};
std::string_view to_string(InitKind kind);  // "random", "sequence", "constant", "file", "zeros"
InitKind init_kind_from_string(std::string_view name);  // throws std::invalid_argument

struct Init {
  InitKind kind = InitKind::Random;
  double lo = 0, hi = 1;  // Random
  std::uint64_t seed = 0; // Random
  double start = 0, step = 1;  // Sequence
  double value = 0;       // Constant
  std::string file;       // File

  // Named constructors: aggregate initialisation of a subset of fields trips -Wmissing-field-initializers.
  static Init random(double lo, double hi, std::uint64_t seed);
  static Init sequence(double start, double step);
  static Init constant(double value);
  static Init zeros();
  static Init from_file(std::string path);

  bool operator==(const Init&) const = default;
};

// Fills `data` (a whole number of `type` elements). Throws std::invalid_argument when the size is
// not whole elements, a value does not fit the type (out of range, or not an integer for an
// integer type), or lo > hi; std::runtime_error naming the file and both sizes when a File cannot
// be read or has the wrong size.
void initialize(std::span<std::byte> data, ElementType type, const Init& init);

// {"kind": "random", "lo": -1, "hi": 1, "seed": 7} etc.; keys other than kind are optional and
// must belong to the kind. Unknown keys and wrong types throw std::invalid_argument naming the key.
Init init_from_json(const nlohmann::json& j);
nlohmann::json init_to_json(const Init& init);  // kind plus the fields that kind uses

}  // namespace ktune::verify
