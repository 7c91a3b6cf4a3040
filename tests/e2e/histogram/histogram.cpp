// Counts into a zeroed output (`init: zeros`): correct only if the output is reset to zeros
// before each verified run. SPLIT only changes the loop order.
#include <cstdint>

#ifndef SPLIT
#define SPLIT 1
#endif

extern "C" void histogram(const std::uint8_t* data, std::uint32_t* bins, std::int32_t n) {
  for (int s = 0; s < SPLIT; ++s)
    for (std::int32_t i = s; i < n; i += SPLIT) bins[data[i] % 16] += 1;
}

extern "C" void histogram_reference(const std::uint8_t* data, std::uint32_t* bins, std::int32_t n) {
  for (std::int32_t i = 0; i < n; ++i) bins[data[i] % 16] += 1;
}
