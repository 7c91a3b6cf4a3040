#include "ktune/measure/clock.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::measure {

double SteadyClock::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void FakeClock::advance(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0)
    throw std::invalid_argument("FakeClock::advance: step must be finite and >= 0, got " + std::to_string(seconds));
  now_ += seconds;
}

}  // namespace ktune::measure
