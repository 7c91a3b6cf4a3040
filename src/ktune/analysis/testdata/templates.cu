#include <cuda_fp16.h>
__device__ __noinline__ float sq(float x) { return x * x; }
template <int BM, int BN>
__global__ void __launch_bounds__(BM * BN / 16) tile(const half* a, float* c) {
  __shared__ half s[BM * BN];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  s[t] = a[t]; __syncthreads();
  dyn[t] = __half2float(s[(t * 3) % (BM * BN)]);
  asm volatile("bar.sync 1, 64;");
  c[t] = sq(dyn[t]);
}
template __global__ void tile<64, 64>(const half*, float*);
template __global__ void tile<128, 32>(const half*, float*);
