// Sum of n floats in one launch: each block reduces its share (a grid-stride loop over GRID
// blocks) and writes a partial; the last block to finish adds the partials in a fixed order
// and writes *sum. The counter of finished blocks is reset by that last block, so the kernel
// is correct launch after launch without anyone zeroing memory in between, and its result is
// the same every run (no floating-point atomics).

#ifndef BLOCK
#define BLOCK 256  // threads per block
#endif
#ifndef ITEMS
#define ITEMS 4  // independent vector loads (and accumulators) per thread per step
#endif
#ifndef VEC
#define VEC 4  // floats per load: 1, 2 or 4
#endif
#ifndef BLOCK_REDUCE
#define BLOCK_REDUCE shuffle_reduce  // or tree_reduce
#endif

namespace reduction_detail {

static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK is a multiple of the warp size, at most 1024");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");

template <int W>
struct VecOf;
template <>
struct VecOf<1> {
  using type = float;
  __device__ static float sum(float v) { return v; }
};
template <>
struct VecOf<2> {
  using type = float2;
  __device__ static float sum(float2 v) { return v.x + v.y; }
};
template <>
struct VecOf<4> {
  using type = float4;
  __device__ static float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};

// Block-wide sums; the result is valid in thread 0. `scratch` holds BLOCK floats.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ float shuffle_reduce(float v, float* scratch) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = threadIdx.x < BLOCK / 32 ? scratch[threadIdx.x] : 0.0f;
  if (warp == 0) v = warp_sum(v);
  __syncthreads();  // scratch may be reused right after
  return v;
}

__device__ __forceinline__ float tree_reduce(float v, float* scratch) {
  scratch[threadIdx.x] = v;
  __syncthreads();
#pragma unroll
  for (int half = BLOCK / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
    __syncthreads();
  }
  v = scratch[0];
  __syncthreads();
  return v;
}

}  // namespace reduction_detail
using namespace reduction_detail;

extern "C" __global__ void __launch_bounds__(BLOCK)
    reduce_sum(const float* __restrict__ x, float* __restrict__ partials, unsigned int* __restrict__ blocks_done,
               float* __restrict__ sum, int n) {
  using V = typename VecOf<VEC>::type;
  __shared__ float scratch[BLOCK];
  __shared__ bool last_block;

  const V* xv = reinterpret_cast<const V*>(x);
  const long long vectors = n / VEC;
  const long long step = static_cast<long long>(gridDim.x) * BLOCK * ITEMS;
  float acc[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) acc[i] = 0.0f;

  // Whole steps: ITEMS coalesced vector loads per thread, all in bounds, no checks.
  long long base = static_cast<long long>(blockIdx.x) * BLOCK * ITEMS + threadIdx.x;
  for (; base + (ITEMS - 1) * BLOCK < vectors; base += step) {
    V v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) v[i] = xv[base + i * BLOCK];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) acc[i] += VecOf<VEC>::sum(v[i]);
  }
  // The last, partial step.
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (base + i * BLOCK < vectors) acc[i] += VecOf<VEC>::sum(xv[base + i * BLOCK]);
  // Floats after the last whole vector.
  const long long thread = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  if (thread < n - vectors * VEC) acc[0] += x[vectors * VEC + thread];

  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) total += acc[i];
  total = BLOCK_REDUCE(total, scratch);

  if (threadIdx.x == 0) {
    partials[blockIdx.x] = total;
    __threadfence();  // the partial is visible device-wide before the count says so
    last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;

  // Every other block's partial is visible (they fenced before counting); read them from L2.
  float v = 0.0f;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += BLOCK) v += __ldcg(partials + b);
  v = BLOCK_REDUCE(v, scratch);
  if (threadIdx.x == 0) {
    *sum = v;
    *blocks_done = 0;  // ready for the next launch
  }
}
