// y = 2 * x, UNROLL elements per step (tests/package_consumer/scale.yaml).
#include <cstdint>

#ifndef UNROLL
#define UNROLL 1
#endif

extern "C" void scale(const float* x, float* y, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + UNROLL <= n; i += UNROLL)
    for (int u = 0; u < UNROLL; ++u) y[i + u] = 2.0f * x[i + u];
  for (; i < n; ++i) y[i] = 2.0f * x[i];
}

extern "C" void scale_reference(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
