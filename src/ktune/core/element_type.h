#pragma once
// Element types of kernel arguments, shared by the spec, verification and every backend.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ktune {

enum class ElementType { F16, BF16, F32, F64, I8, U8, I16, U16, I32, U32, I64, U64 };

std::size_t element_size(ElementType t);
std::string_view element_type_name(ElementType t);
// Accepts float16/half/f16, bfloat16/bf16, float32/float/f32, float64/double/f64,
// int8..int64, uint8..uint64 (also i32, u32 ...).
std::optional<ElementType> parse_element_type(std::string_view name);
bool is_floating(ElementType t);
// The C/C++ spelling used in generated launch shims ("float", "std::int32_t", ...).
std::string_view element_c_type(ElementType t);

// Conversions used by data initialisation and verification (f16/bf16 handled in software).
double load_element(const void* base, std::size_t index, ElementType t);
void store_element(void* base, std::size_t index, ElementType t, double value);

}  // namespace ktune
