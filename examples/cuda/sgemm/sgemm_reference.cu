// Reference SGEMM: one output at a time, accumulated in double. It is launched with the
// candidate's grid and block (whatever they are), so every thread strides over all of C.

extern "C" __global__ void sgemm_reference(const float* __restrict__ A, const float* __restrict__ B,
                                           float* __restrict__ C, int M, int N, int K) {
  const long long threads_per_block = static_cast<long long>(blockDim.x) * blockDim.y * blockDim.z;
  const long long block = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  const long long thread = threadIdx.x + static_cast<long long>(blockDim.x) * (threadIdx.y + static_cast<long long>(blockDim.y) * threadIdx.z);
  const long long stride = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
  const long long total = static_cast<long long>(M) * N;
  for (long long idx = block * threads_per_block + thread; idx < total; idx += stride) {
    const long long row = idx / N;
    const long long col = idx % N;
    double sum = 0;
    for (int k = 0; k < K; ++k) sum += static_cast<double>(A[row * K + k]) * static_cast<double>(B[static_cast<long long>(k) * N + col]);
    C[idx] = static_cast<float>(sum);
  }
}
