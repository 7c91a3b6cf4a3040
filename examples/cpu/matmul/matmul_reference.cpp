// Reference for matmul.cpp: plain triple loop accumulating in double.
#include <cstdint>

extern "C" void matmul_reference(const float* A, const float* B, float* C, std::int32_t M, std::int32_t N,
                                 std::int32_t K) {
  for (std::int32_t i = 0; i < M; ++i)
    for (std::int32_t j = 0; j < N; ++j) {
      double sum = 0.0;
      for (std::int32_t k = 0; k < K; ++k) sum += double{A[std::int64_t{i} * K + k]} * double{B[std::int64_t{k} * N + j]};
      C[std::int64_t{i} * N + j] = static_cast<float>(sum);
    }
}
