// A kernel whose MODE parameter makes it fail in each way a candidate can fail.
// 0, 1: correct.  2: does not compile.  3: segfault.  4: abort.  5: loops forever.
// 6: wrong result.  7: throws.  8: leaves part of the output unwritten.
// 9: writes 4 floats past the end of y.  10: writes 1 float before y.  11: changes its input x.
// (9-11 compute y correctly: only the guard bands and the input check catch them: memory_error.)
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#ifndef MODE
#define MODE 0
#endif

#if MODE == 2
#error "MODE 2 is a deliberate compile error"
#endif

extern "C" void scale(float* x, float* y, std::int32_t n) {
#if MODE == 3
  volatile float* nowhere = nullptr;
  nowhere[n] = 1.0f;
#elif MODE == 4
  std::abort();
#elif MODE == 5
  volatile bool forever = true;
  while (forever) {
  }
#elif MODE == 7
  throw std::runtime_error("MODE 7 throws from the kernel");
#endif
  for (std::int32_t i = 0; i < n; ++i) {
#if MODE == 8
    if (i % 2) continue;
#endif
    y[i] = 2.0f * x[i];
  }
#if MODE == 6
  y[n / 2] += 1.0f;
#elif MODE == 9
  for (std::int32_t i = n; i < n + 4; ++i) y[i] = 7.0f;
#elif MODE == 10
  y[-1] = 7.0f;
#elif MODE == 11
  x[n - 1] += 1.0f;
#endif
#if MODE == 1
  (void)0;
#endif
}

extern "C" void scale_reference(float* x, float* y, std::int32_t n) {
  for (std::int32_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
