#include <cuda_fp16.h>
extern "C" __global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[32][33]; __shared__ float Bs[32][33];
  int tx = threadIdx.x, ty = threadIdx.y; int row = blockIdx.y*32+ty, col = blockIdx.x*32+tx; float acc = 0;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = (row < M && k0+tx < K) ? A[row*K+k0+tx] : 0.f;
    Bs[ty][tx] = (col < N && k0+ty < K) ? B[(k0+ty)*N+col] : 0.f;
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[ty][k]*Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row*N+col] = acc;
}
template <int N> __global__ void tk(float* x) { x[threadIdx.x] *= N; }
template __global__ void tk<4>(float*);
