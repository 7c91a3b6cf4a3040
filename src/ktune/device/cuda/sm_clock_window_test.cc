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

// A window nobody takes stays bounded and keeps the latest readings.
TEST(SmClockWindow, AWindowNeverTakenStaysBounded) {
  SmClockWindow w;
  for (std::size_t i = 0; i < SmClockWindow::kMaxReadings; ++i) w.add(1980);
  for (int i = 0; i < 10; ++i) w.add(1500);
  const nlohmann::json s = w.summary();
  EXPECT_EQ(s.at("samples").get<std::size_t>(), SmClockWindow::kMaxReadings / 2 + 10);
  EXPECT_EQ(s.at("min").get<unsigned>(), 1500u);
}

}  // namespace
}  // namespace ktune::device::cuda
