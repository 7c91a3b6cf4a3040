// Reference SGEMM: every thread strides over C, accumulating in double. Launched with the
// candidate's grid and block, whatever they are.
extern "C" __global__ void matmul_reference(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K) {
  const long threads = static_cast<long>(blockDim.x) * blockDim.y * blockDim.z;
  const long block = blockIdx.x + static_cast<long>(gridDim.x) * (blockIdx.y + static_cast<long>(gridDim.y) * blockIdx.z);
  const long thread = threadIdx.x + static_cast<long>(blockDim.x) * (threadIdx.y + static_cast<long>(blockDim.y) * threadIdx.z);
  const long stride = threads * gridDim.x * gridDim.y * gridDim.z;
  for (long idx = block * threads + thread; idx < static_cast<long>(M) * N; idx += stride) {
    const long row = idx / N, col = idx % N;
    double sum = 0;
    for (int k = 0; k < K; ++k) sum += static_cast<double>(A[row * K + k]) * static_cast<double>(B[static_cast<long>(k) * N + col]);
    C[idx] = static_cast<float>(sum);
  }
}
