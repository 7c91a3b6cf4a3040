#include "ktune/core/element_type.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ktune {
namespace {

struct TypeInfo {
  ElementType type;
  std::size_t size;
  std::string_view name;
  std::string_view c_type;
  bool floating;
};

constexpr TypeInfo kTypes[] = {
    {ElementType::F16, 2, "float16", "__half", true},
    {ElementType::BF16, 2, "bfloat16", "__nv_bfloat16", true},
    {ElementType::F32, 4, "float32", "float", true},
    {ElementType::F64, 8, "float64", "double", true},
    {ElementType::I8, 1, "int8", "std::int8_t", false},
    {ElementType::U8, 1, "uint8", "std::uint8_t", false},
    {ElementType::I16, 2, "int16", "std::int16_t", false},
    {ElementType::U16, 2, "uint16", "std::uint16_t", false},
    {ElementType::I32, 4, "int32", "std::int32_t", false},
    {ElementType::U32, 4, "uint32", "std::uint32_t", false},
    {ElementType::I64, 8, "int64", "std::int64_t", false},
    {ElementType::U64, 8, "uint64", "std::uint64_t", false},
};

const TypeInfo& info(ElementType t) { return kTypes[static_cast<int>(t)]; }

std::uint16_t float_to_half(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::int32_t exp = static_cast<std::int32_t>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    std::uint32_t shift = static_cast<std::uint32_t>(14 - exp);
    std::uint32_t half = mant >> shift;
    std::uint32_t rem = mant & ((1u << shift) - 1);
    std::uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return static_cast<std::uint16_t>(half);
}

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = (h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + rounding) >> 16);
}

float bf16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

template <typename T>
T read(const void* base, std::size_t index) {
  T v;
  std::memcpy(&v, static_cast<const char*>(base) + index * sizeof(T), sizeof(T));
  return v;
}
template <typename T>
void write(void* base, std::size_t index, T v) {
  std::memcpy(static_cast<char*>(base) + index * sizeof(T), &v, sizeof(T));
}

}  // namespace

std::size_t element_size(ElementType t) { return info(t).size; }
std::string_view element_type_name(ElementType t) { return info(t).name; }
std::string_view element_c_type(ElementType t) { return info(t).c_type; }
bool is_floating(ElementType t) { return info(t).floating; }

std::optional<ElementType> parse_element_type(std::string_view name) {
  struct Alias {
    std::string_view name;
    ElementType type;
  };
  static constexpr Alias kAliases[] = {
      {"f16", ElementType::F16},   {"half", ElementType::F16},     {"fp16", ElementType::F16},
      {"bf16", ElementType::BF16}, {"float", ElementType::F32},    {"f32", ElementType::F32},
      {"fp32", ElementType::F32},  {"double", ElementType::F64},   {"f64", ElementType::F64},
      {"fp64", ElementType::F64},  {"i8", ElementType::I8},        {"u8", ElementType::U8},
      {"i16", ElementType::I16},   {"u16", ElementType::U16},      {"i32", ElementType::I32},
      {"int", ElementType::I32},   {"u32", ElementType::U32},      {"i64", ElementType::I64},
      {"u64", ElementType::U64},
  };
  for (const auto& t : kTypes)
    if (t.name == name) return t.type;
  for (const auto& a : kAliases)
    if (a.name == name) return a.type;
  return std::nullopt;
}

double load_element(const void* base, std::size_t index, ElementType t) {
  switch (t) {
    case ElementType::F16: return half_to_float(read<std::uint16_t>(base, index));
    case ElementType::BF16: return bf16_to_float(read<std::uint16_t>(base, index));
    case ElementType::F32: return read<float>(base, index);
    case ElementType::F64: return read<double>(base, index);
    case ElementType::I8: return read<std::int8_t>(base, index);
    case ElementType::U8: return read<std::uint8_t>(base, index);
    case ElementType::I16: return read<std::int16_t>(base, index);
    case ElementType::U16: return read<std::uint16_t>(base, index);
    case ElementType::I32: return read<std::int32_t>(base, index);
    case ElementType::U32: return read<std::uint32_t>(base, index);
    case ElementType::I64: return static_cast<double>(read<std::int64_t>(base, index));
    case ElementType::U64: return static_cast<double>(read<std::uint64_t>(base, index));
  }
  return 0;
}

void store_element(void* base, std::size_t index, ElementType t, double v) {
  switch (t) {
    case ElementType::F16: write(base, index, float_to_half(static_cast<float>(v))); return;
    case ElementType::BF16: write(base, index, float_to_bf16(static_cast<float>(v))); return;
    case ElementType::F32: write(base, index, static_cast<float>(v)); return;
    case ElementType::F64: write(base, index, v); return;
    case ElementType::I8: write(base, index, static_cast<std::int8_t>(v)); return;
    case ElementType::U8: write(base, index, static_cast<std::uint8_t>(v)); return;
    case ElementType::I16: write(base, index, static_cast<std::int16_t>(v)); return;
    case ElementType::U16: write(base, index, static_cast<std::uint16_t>(v)); return;
    case ElementType::I32: write(base, index, static_cast<std::int32_t>(v)); return;
    case ElementType::U32: write(base, index, static_cast<std::uint32_t>(v)); return;
    case ElementType::I64: write(base, index, static_cast<std::int64_t>(v)); return;
    case ElementType::U64: write(base, index, static_cast<std::uint64_t>(v)); return;
  }
}

}  // namespace ktune
