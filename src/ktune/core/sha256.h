#pragma once
// SHA-256 for content addressing (compile caches, kernel identity in the database).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ktune {

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  Sha256& update(const void* data, std::size_t size);
  std::array<std::uint8_t, 32> digest();
  std::string hex_digest();

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace ktune
