#pragma once
// NumPy's .npy format (version 1.0, C order, little-endian), the way iree-run-module and
// iree-benchmark-module take inputs (--input=@x.npy) and write outputs (--output=@y.npy).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "ktune/core/element_type.h"

namespace ktune::iree {

struct NpyArray {
  std::vector<std::int64_t> shape;
  ElementType type = ElementType::F32;
  std::vector<std::byte> data;
  std::size_t element_count() const;
};

class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "<f2" for F16, "<f4" for F32 ... NumPy has no bfloat16: BF16 is written as a raw two-byte
// void ("|V2"), and a two-byte void read back is taken as `void2_as` (read_npy).
std::string npy_descriptor(ElementType type);

// Throws NpyError naming the file when it cannot be written.
void write_npy(const std::filesystem::path& path, const NpyArray& array);
// Throws NpyError naming the file and what is wrong (not .npy, unsupported dtype, Fortran
// order, truncated data). `void2_as` says what a two-byte void ("|V2") holds.
NpyArray read_npy(const std::filesystem::path& path, ElementType void2_as = ElementType::BF16);

// A raw file of `type` elements (iree-run-module's `--output=@file.bin`, the one form it writes
// every element type in: its .npy writer refuses bf16), as a 1-D array. Throws NpyError naming
// the file when it cannot be read or is not a whole number of elements.
NpyArray read_raw(const std::filesystem::path& path, ElementType type);

}  // namespace ktune::iree
