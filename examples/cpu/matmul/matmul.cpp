// Tiled single-precision matrix multiply C = A * B (row-major, M x K times K x N).
// Tunable: TILE_M, TILE_N, TILE_K (cache blocking), UNROLL_K (inner unroll), PACK_B (copy the B tile
// into a contiguous buffer first). ktune passes them as -D macros.
#include <algorithm>
#include <cstdint>
#include <vector>

#ifndef TILE_M
#define TILE_M 32
#endif
#ifndef TILE_N
#define TILE_N 64
#endif
#ifndef TILE_K
#define TILE_K 64
#endif
#ifndef UNROLL_K
#define UNROLL_K 1
#endif
#ifndef PACK_B
#define PACK_B 0
#endif

extern "C" void matmul(const float* A, const float* B, float* C, std::int32_t M, std::int32_t N, std::int32_t K) {
  for (std::int64_t i = 0; i < std::int64_t{M} * N; ++i) C[i] = 0.0f;
#if PACK_B
  std::vector<float> packed(static_cast<std::size_t>(TILE_K) * TILE_N);
#endif
  for (std::int32_t j0 = 0; j0 < N; j0 += TILE_N) {
    const std::int32_t nj = std::min(TILE_N, N - j0);
    for (std::int32_t k0 = 0; k0 < K; k0 += TILE_K) {
      const std::int32_t nk = std::min(TILE_K, K - k0);
#if PACK_B
      for (std::int32_t k = 0; k < nk; ++k)
        for (std::int32_t j = 0; j < nj; ++j) packed[static_cast<std::size_t>(k) * TILE_N + j] = B[std::int64_t{k0 + k} * N + j0 + j];
      const float* b_tile = packed.data();
      const std::int64_t ldb = TILE_N;
#else
      const float* b_tile = B + std::int64_t{k0} * N + j0;
      const std::int64_t ldb = N;
#endif
      for (std::int32_t i0 = 0; i0 < M; i0 += TILE_M) {
        const std::int32_t ni = std::min(TILE_M, M - i0);
        for (std::int32_t i = 0; i < ni; ++i) {
          float* c_row = C + std::int64_t{i0 + i} * N + j0;
          const float* a_row = A + std::int64_t{i0 + i} * K + k0;
          std::int32_t k = 0;
          for (; k + UNROLL_K <= nk; k += UNROLL_K) {
#pragma GCC unroll 16
            for (std::int32_t u = 0; u < UNROLL_K; ++u) {
              const float a = a_row[k + u];
              const float* b_row = b_tile + (k + u) * ldb;
              for (std::int32_t j = 0; j < nj; ++j) c_row[j] += a * b_row[j];
            }
          }
          for (; k < nk; ++k) {
            const float a = a_row[k];
            const float* b_row = b_tile + k * ldb;
            for (std::int32_t j = 0; j < nj; ++j) c_row[j] += a * b_row[j];
          }
        }
      }
    }
  }
}
