// y = 2 x on a CUDA GPU, where MODE makes the kernel fail in each way a GPU candidate can fail.
// A C++ kernel in a namespace (entry ktune_faults::scale), with a real tuning knob (BLOCK).
//  0, 1: correct (grid-stride loop; one element per thread).
//  2: does not compile.
//  3: writes to an unmapped address      -> CUDA_ERROR_ILLEGAL_ADDRESS (sticky: runtime_error)
//  4: __trap()                           -> CUDA_ERROR_LAUNCH_FAILED   (sticky: runtime_error)
//  5: reads a float4 at a 4-byte offset  -> CUDA_ERROR_MISALIGNED_ADDRESS (sticky: runtime_error)
//  6: spins forever                      -> the worker's watchdog ends it (timeout)
//  7: one element wrong                  -> wrong_result
//  8: launched with 2048 threads a block -> screened before launch (resource_limit)
//  9: leaves the odd elements unwritten  -> wrong_result (poisoned output)
// 10: asks for 300 KiB of dynamic shared memory -> screened before launch (resource_limit)
// 11: y right, plus 64 floats written past its end -> memory_error (guard band of 'y')
// 12: y right, but it also changes its input x    -> memory_error (input check of 'x')
// 13: y right, but the last thread reads x[n], one past the end: inside the guard band, so no
//     fault and no wrong value -> ok; `ktune tune --sanitize all` flags it (memcheck: sanitized
//     workers allocate without guard bands, so x[n] is past the allocation).
// 14: y right, but threads read a shared-memory slot another warp writes, with no barrier
//     between -> ok; `ktune tune --sanitize all --sanitize-tools racecheck` flags the race.

#ifndef MODE
#define MODE 0
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

#if MODE == 2
#error "MODE 2 is a deliberate compile error"
#endif

namespace ktune_faults {

__global__ void scale(float* __restrict__ x, float* __restrict__ y, int n) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
#if MODE == 14
  __shared__ float stage[BLOCK];
#endif
#if MODE == 3
  if (first == 0) *reinterpret_cast<volatile float*>(16) = 1.0f;
#elif MODE == 4
  if (first == 0) __trap();
#elif MODE == 5
  if (first == 0) {
    const float4 v = *reinterpret_cast<const float4*>(reinterpret_cast<const char*>(x) + 4);
    y[0] = v.x + v.y + v.z + v.w;
  }
#elif MODE == 6
  // The clock only moves forward, which the compiler cannot know: a loop it cannot remove
  // (a spin on a volatile local was optimised away).
  const long long start = clock64();
  while (clock64() - start >= 0) {
  }
#endif
#if MODE == 11
  if (first < 64) y[n + first] = 7.0f;
#endif
#if MODE == 1
  if (first < n) y[first] = 2.0f * x[first];
#else
  for (int i = first; i < n; i += gridDim.x * blockDim.x) {
#if MODE == 9
    if (i % 2) continue;
#endif
#if MODE == 13
    y[i] = 2.0f * x[i] + 0.0f * x[i + 1];  // 0 * (canary as float) is 0: the value stays right
#elif MODE == 14
    // Stage x[i], then read the slot of the thread 32 ahead (another warp) without a barrier:
    // read-after-write and write-after-read races. The value read is discarded (a volatile
    // load is still made), so y stays right.
    stage[threadIdx.x] = x[i];
    volatile float neighbour = static_cast<volatile float*>(stage)[(threadIdx.x + 32) % BLOCK];
    (void)neighbour;
    y[i] = 2.0f * x[i];
#elif MODE == 7
    // Written by whichever thread owns element n/2 (the grid is smaller than n).
    y[i] = 2.0f * x[i] + (i == n / 2 ? 1.0f : 0.0f);
#else
    y[i] = 2.0f * x[i];
#endif
  }
#endif
#if MODE == 12
  // After every thread of this block has read its elements: the block's first element only.
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x == 0) x[0] = -1.0f;
#endif
}

__global__ void scale_reference(float* __restrict__ x, float* __restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = 2.0f * x[i];
}

}  // namespace ktune_faults
