#include "ktune/device/cuda/sm_clock_window.h"

#include <gtest/gtest.h>

namespace ktune::device::cuda {
namespace {

TEST(SmClockWindow, NoReadingIsNull) {
  SmClockWindow w;
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(w.summary().is_null());
}

TEST(SmClockWindow, MedianMinMaxOfTheReadings) {
  SmClockWindow w;
  for (unsigned mhz : {1980u, 1755u, 1980u, 1590u, 1830u}) w.add(mhz);
  const nlohmann::json s = w.summary();
  EXPECT_EQ(s.at("median").get<unsigned>(), 1830u);
  EXPECT_EQ(s.at("min").get<unsigned>(), 1590u);
  EXPECT_EQ(s.at("max").get<unsigned>(), 1980u);
  EXPECT_EQ(s.at("samples").get<std::size_t>(), 5u);
}

TEST(SmClockWindow, AnEvenCountTakesTheLowerMiddleAndClearStartsAgain) {
  SmClockWindow w;
  for (unsigned mhz : {1600u, 1900u, 1700u, 1800u}) w.add(mhz);
  EXPECT_EQ(w.summary().at("median").get<unsigned>(), 1700u);
  w.clear();
  EXPECT_TRUE(w.summary().is_null());
  w.add(1500);
  EXPECT_EQ(w.summary().at("median").get<unsigned>(), 1500u);
}

}  // namespace
}  // namespace ktune::device::cuda
