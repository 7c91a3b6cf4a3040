#include "ktune/device/device_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ktune/device/cpu/cpu_memory.h"
#include "ktune/device/device.h"
#include "ktune/verify/poison.h"

namespace ktune::device {
namespace {

std::vector<std::byte> floats(std::initializer_list<float> values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

std::byte* data(DeviceBuffer& b) { return reinterpret_cast<std::byte*>(b.address()); }

TEST(DeviceMemory, GuardBandsAreSizedAndAligned) {
  if (!guard_bands_enabled()) GTEST_SKIP() << kGuardBandsVariable << "=0";
  EXPECT_EQ(guard_bytes_for(0), 64u << 10);
  EXPECT_EQ(guard_bytes_for(8u << 20), 1u << 20);
  EXPECT_EQ(guard_bytes_for(std::size_t{1} << 34), 4u << 20);
  EXPECT_EQ(guard_bytes_for((1u << 20) + 8) % 256, 0u);
}

TEST(DeviceMemory, IntactBuffersPassAndOverrunsAreNamedByDistance) {
  if (!guard_bands_enabled()) GTEST_SKIP() << kGuardBandsVariable << "=0";
  cpu::CpuMemory memory;
  auto buffer = memory.allocate(1000);
  EXPECT_EQ(buffer->address() % 256, 0u);
  EXPECT_FALSE(memory.check_guards(*buffer));
  data(*buffer)[1000 + 3] = std::byte{1};  // 4th byte past the end
  data(*buffer)[1000 + 9] = std::byte{1};
  auto v = memory.check_guards(*buffer);
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->before);
  EXPECT_EQ(v->distance, 3u);
  EXPECT_EQ(v->changed, 2u);
  EXPECT_NE(v->describe().find("past the end"), std::string::npos);
  EXPECT_FALSE(memory.check_guards(*buffer)) << "a violation refills the bands";
  data(*buffer)[-1] = std::byte{7};
  v = memory.check_guards(*buffer);
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->before);
  EXPECT_EQ(v->distance, 0u);
}

// ctest runs this file a second time with KTUNE_GUARD_BANDS=0 (as sanitized workers are).
TEST(DeviceMemory, GuardBandsCanBeTurnedOff) {
  if (guard_bands_enabled()) GTEST_SKIP() << "run with " << kGuardBandsVariable << "=0";
  EXPECT_EQ(guard_bytes_for(0), 0u);
  EXPECT_EQ(guard_bytes_for(8u << 20), 0u);
  cpu::CpuMemory memory;
  auto buffer = memory.allocate(1000);
  EXPECT_EQ(buffer->guard_bytes(), 0u);
  EXPECT_EQ(buffer->address() % 256, 0u);
  EXPECT_FALSE(memory.check_guards(*buffer));
  const auto values = floats({1, 2, 3});
  auto small = memory.allocate(values.size());
  memory.upload(*small, values);
  std::vector<std::byte> back(values.size());
  memory.download(*small, back);
  EXPECT_EQ(back, values);
}

TEST(DeviceMemory, FillCopyDifferenceAndCompare) {
  cpu::CpuMemory memory;
  auto out = memory.allocate(4 * sizeof(float));
  auto ref = memory.allocate(4 * sizeof(float));
  memory.upload(*ref, floats({1, 2, 3, 4}));
  memory.fill(*out, verify::poison_pattern(ElementType::F32));
  verify::Comparison c = memory.compare(*out, *ref, ElementType::F32, {});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.unwritten, 4u);
  memory.copy(*out, *ref);
  EXPECT_FALSE(memory.first_difference(*out, *ref));
  EXPECT_TRUE(memory.compare(*out, *ref, ElementType::F32, {}).pass);
  data(*out)[9] = std::byte{0x55};
  EXPECT_EQ(memory.first_difference(*out, *ref), std::optional<std::size_t>(9));
  std::vector<std::byte> back(16);
  memory.download(*ref, back);
  EXPECT_EQ(back, floats({1, 2, 3, 4}));
  EXPECT_THROW(memory.upload(*ref, floats({1})), DeviceError);
  EXPECT_THROW(memory.fill(*out, std::vector<std::byte>(3)), DeviceError);
}

}  // namespace
}  // namespace ktune::device
