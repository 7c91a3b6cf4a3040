#include "ktune/verify/poison.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ktune::verify {
namespace {

template <typename T>
std::array<std::byte, sizeof(T)> bytes_of(T value) {
  std::array<std::byte, sizeof(T)> out;
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

const auto kF16 = bytes_of<std::uint16_t>(0x7E5A);
const auto kBF16 = bytes_of<std::uint16_t>(0x7FC1);
const auto kF32 = bytes_of<std::uint32_t>(0x7FC5A5A5u);
const auto kF64 = bytes_of<std::uint64_t>(0x7FF8A5A5A5A5A5A5ull);
const auto kInt = bytes_of<std::uint64_t>(0xA5A5A5A5A5A5A5A5ull);

}  // namespace

std::span<const std::byte> poison_pattern(ElementType type) {
  switch (type) {
    case ElementType::F16: return kF16;
    case ElementType::BF16: return kBF16;
    case ElementType::F32: return kF32;
    case ElementType::F64: return kF64;
    default: return std::span<const std::byte>(kInt).first(element_size(type));
  }
}

void poison(std::span<std::byte> data, ElementType type) {
  std::size_t size = element_size(type);
  if (data.size() % size != 0)
    throw std::invalid_argument("poison: buffer of " + std::to_string(data.size()) + " bytes is not a whole number of " +
                                std::string(element_type_name(type)) + " elements");
  auto pattern = poison_pattern(type);
  for (std::size_t offset = 0; offset < data.size(); offset += size) std::memcpy(&data[offset], pattern.data(), size);
}

bool is_poison(const void* base, std::size_t index, ElementType type) {
  std::size_t size = element_size(type);
  return std::memcmp(static_cast<const std::byte*>(base) + index * size, poison_pattern(type).data(), size) == 0;
}

}  // namespace ktune::verify
