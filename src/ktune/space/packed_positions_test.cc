#include "ktune/space/packed_positions.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace ktune::space {
namespace {

void check_round_trip(std::uint64_t max_positions, std::size_t expected_width) {
  PackedPositions packed(max_positions);
  EXPECT_EQ(packed.bytes_per_entry(), expected_width);
  const auto top = static_cast<std::uint32_t>(max_positions - 1);
  std::vector<std::uint32_t> values = {0, 1, 2, top / 2, top - 1, top};
  for (auto v : values) packed.push_back(v);
  ASSERT_EQ(packed.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(packed[i], values[i]);
    EXPECT_EQ(packed.find(0, values.size(), values[i]), i);
  }
  EXPECT_EQ(packed.find(1, 3, 0), PackedPositions::npos);  // outside the range searched
  packed.truncate(2);
  EXPECT_EQ(packed.size(), 2u);
  EXPECT_EQ(packed[1], 1u);
}

TEST(PackedPositions, ChoosesTheNarrowestWidth) {
  check_round_trip(256, 1);
  check_round_trip(257, 2);
  check_round_trip(65536, 2);
  check_round_trip(65537, 4);
  EXPECT_THROW(PackedPositions((std::uint64_t{1} << 32) + 1), std::length_error);
}

TEST(PackedPositions, EmptyFindsNothing) {
  PackedPositions packed(10);
  EXPECT_EQ(packed.size(), 0u);
  EXPECT_EQ(packed.find(0, 0, 3), PackedPositions::npos);
}

}  // namespace
}  // namespace ktune::space
