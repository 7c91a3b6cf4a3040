#pragma once
// Output poisoning: fill an output buffer with a recognisable pattern before a verified run, so an
// element the kernel never wrote is reported as "unwritten" instead of passing by luck (a zeroed
// buffer hides a kernel that skips its last tile when the expected value is ~0).
//
// Patterns (see README.md for why):
//   float32  0x7FC5A5A5          quiet NaN, payload 0x45A5A5
//   float64  0x7FF8A5A5A5A5A5A5  quiet NaN, payload 0x8A5A5A5A5A5A5
//   float16  0x7E5A              quiet NaN, payload 0x05A (not 0x7FFF: NVIDIA's canonical f16 NaN)
//   bfloat16 0x7FC1              quiet NaN, payload 0x01 (not 0x7FC0/0x7FFF: canonical NaNs)
//   integers every byte 0xA5     (i8 -91, u8 165, i32 -1515870811, ...)
// Quiet NaNs survive copies through floating-point registers unchanged; the payloads differ from
// the NaNs hardware produces, so a computed NaN is reported as a NaN, not as unwritten.

#include <cstddef>
#include <span>

#include "ktune/core/element_type.h"

namespace ktune::verify {

// Throws std::invalid_argument when data.size() is not a multiple of the element size.
void poison(std::span<std::byte> data, ElementType type);
// Whether element `index` of an array of `type` at `base` holds the poison pattern, bit for bit.
bool is_poison(const void* base, std::size_t index, ElementType type);
// The pattern of one element (element_size(type) bytes).
std::span<const std::byte> poison_pattern(ElementType type);

}  // namespace ktune::verify
