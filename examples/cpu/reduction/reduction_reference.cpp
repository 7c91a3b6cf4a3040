// Reference for reduction.cpp: a double-precision sum.
#include <cstdint>

extern "C" void reduce_sum_reference(const float* x, float* out, std::int64_t n) {
  double total = 0.0;
  for (std::int64_t i = 0; i < n; ++i) total += x[i];
  out[0] = static_cast<float>(total);
}
