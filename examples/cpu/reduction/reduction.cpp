// Sum of a float array into out[0], with ACCUMULATORS independent partial sums (to hide FP-add
// latency), UNROLL, CHUNK-sized pairwise blocks (accuracy and locality) and THREADS workers.
#include <cstdint>
#include <thread>
#include <vector>

#ifndef ACCUMULATORS
#define ACCUMULATORS 4
#endif
#ifndef UNROLL
#define UNROLL 2
#endif
#ifndef CHUNK
#define CHUNK 4096
#endif
#ifndef THREADS
#define THREADS 1
#endif

namespace {

float sum_chunk(const float* x, std::int64_t n) {
  float acc[ACCUMULATORS] = {};
  constexpr std::int64_t kStep = ACCUMULATORS * UNROLL;
  std::int64_t i = 0;
  for (; i + kStep <= n; i += kStep) {
#pragma GCC unroll 64
    for (int u = 0; u < UNROLL; ++u)
#pragma GCC unroll 64
      for (int a = 0; a < ACCUMULATORS; ++a) acc[a] += x[i + u * ACCUMULATORS + a];
  }
  for (; i < n; ++i) acc[0] += x[i];
  float total = 0.0f;
  for (int a = 0; a < ACCUMULATORS; ++a) total += acc[a];
  return total;
}

double sum_range(const float* x, std::int64_t n) {
  double total = 0.0;
  for (std::int64_t start = 0; start < n; start += CHUNK)
    total += sum_chunk(x + start, n - start < CHUNK ? n - start : CHUNK);
  return total;
}

}  // namespace

extern "C" void reduce_sum(const float* x, float* out, std::int64_t n) {
  if (THREADS == 1) {
    out[0] = static_cast<float>(sum_range(x, n));
    return;
  }
  std::vector<double> partial(THREADS);
  std::vector<std::thread> workers;
  const std::int64_t per = (n + THREADS - 1) / THREADS;
  for (int t = 0; t < THREADS; ++t) {
    const std::int64_t begin = t * per;
    const std::int64_t end = begin + per < n ? begin + per : n;
    workers.emplace_back([&, t, begin, end] { partial[t] = begin < end ? sum_range(x + begin, end - begin) : 0.0; });
  }
  double total = 0.0;
  for (int t = 0; t < THREADS; ++t) {
    workers[t].join();
    total += partial[t];
  }
  out[0] = static_cast<float>(total);
}
