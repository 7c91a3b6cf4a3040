// A 256-bin histogram of bytes, accumulated with atomics into a zeroed output: the output's
// `init: zeros` must be restored before each verified run, or every run after the first would
// count twice. Knobs: threads per block, bytes per thread per step, blocks, and whether each
// block first counts into a private shared-memory histogram (fewer global atomics).
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef GRID
#define GRID 264
#endif
#ifndef PRIVATE
#define PRIVATE 1
#endif

extern "C" __global__ void histogram(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, int n) {
#if PRIVATE
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
#endif
  const int stride = GRID * BLOCK * ITEMS;
  for (int base = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS; base < n; base += stride) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (base + k >= n) break;
#if PRIVATE
      atomicAdd(&local[data[base + k]], 1u);
#else
      atomicAdd(&bins[data[base + k]], 1u);
#endif
    }
  }
#if PRIVATE
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
#endif
}

extern "C" __global__ void histogram_reference(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins,
                                               int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[data[i]], 1u);
}
