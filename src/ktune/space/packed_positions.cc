#include "ktune/space/packed_positions.h"

#include <cstring>
#include <stdexcept>

namespace ktune::space {

PackedPositions::PackedPositions(std::uint64_t max_positions) {
  if (max_positions <= (1u << 8)) {
    width_ = 1;
  } else if (max_positions <= (1u << 16)) {
    width_ = 2;
  } else if (max_positions <= (std::uint64_t{1} << 32)) {
    width_ = 4;
  } else {
    throw std::length_error("a parameter has more than 2^32 values");
  }
}

void PackedPositions::push_back(std::uint32_t position) {
  const std::size_t at = data_.size();
  data_.resize(at + width_);
  std::uint8_t* out = data_.data() + at;
  switch (width_) {
    case 1: *out = static_cast<std::uint8_t>(position); break;
    case 2: {
      auto narrow = static_cast<std::uint16_t>(position);
      std::memcpy(out, &narrow, 2);
      break;
    }
    default: std::memcpy(out, &position, 4); break;
  }
}

std::uint32_t PackedPositions::operator[](std::size_t i) const {
  const std::uint8_t* in = data_.data() + i * width_;
  switch (width_) {
    case 1: return *in;
    case 2: {
      std::uint16_t narrow;
      std::memcpy(&narrow, in, 2);
      return narrow;
    }
    default: {
      std::uint32_t wide;
      std::memcpy(&wide, in, 4);
      return wide;
    }
  }
}

std::size_t PackedPositions::find(std::size_t first, std::size_t last, std::uint32_t position) const {
  while (first < last) {
    std::size_t mid = first + (last - first) / 2;
    std::uint32_t here = (*this)[mid];
    if (here == position) return mid;
    if (here < position) {
      first = mid + 1;
    } else {
      last = mid;
    }
  }
  return npos;
}

}  // namespace ktune::space
