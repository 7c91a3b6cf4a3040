#pragma once
// A growable array of value positions stored as compactly as the largest position allows (1, 2
// or 4 bytes each): the bulk of a solved group is leaf positions, so width matters.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ktune::space {

class PackedPositions {
 public:
  PackedPositions() = default;
  // Positions stored will be below `max_positions`.
  explicit PackedPositions(std::uint64_t max_positions);

  std::size_t size() const { return data_.size() / width_; }
  std::size_t bytes_per_entry() const { return width_; }
  void push_back(std::uint32_t position);
  std::uint32_t operator[](std::size_t i) const;
  void truncate(std::size_t new_size) { data_.resize(new_size * width_); }
  // Index in [first, last) holding `position`, if any; that range must be ascending.
  std::size_t find(std::size_t first, std::size_t last, std::uint32_t position) const;
  void shrink_to_fit() { data_.shrink_to_fit(); }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  std::size_t width_ = 4;
  std::vector<std::uint8_t> data_;
};

}  // namespace ktune::space
