// Row sums of a rows x cols row-major float32 matrix: y[r] = sum_c x[r * cols + c].
// Tuned by ktune (-DNAME=VALUE) and by Kernel Tuner (#define NAME VALUE prepended to this file)
// from the same source; see bench/kernel_tuner/README.md.
//
// Geometry: block (BLOCK_X, ROWS), grid ceil(rows / ROWS). Each row is summed by the BLOCK_X
// threads of one threadIdx.y: UNROLL independent vector loads (VEC floats each) in flight per
// thread per step, UNROLL accumulators, then warp shuffles and (BLOCK_X > 32) one shared-memory
// step across the row's warps. Any rows/cols work: rows past the end idle, a cols that is not a
// multiple of VEC takes the scalar path, and the floats after the last whole step are handled.
// Plain C++11 (Kernel Tuner's default dialect); both tools compile it with -std=c++17.

#ifndef BLOCK_X
#define BLOCK_X 128  // threads per row: a multiple of 32, at most 1024
#endif
#ifndef ROWS
#define ROWS 2  // rows per block (blockDim.y)
#endif
#ifndef VEC
#define VEC 4  // floats per load: 1, 2 or 4
#endif
#ifndef UNROLL
#define UNROLL 2  // vector loads (and accumulators) in flight per thread
#endif

static_assert(BLOCK_X % 32 == 0 && BLOCK_X * ROWS <= 1024, "BLOCK_X is a multiple of 32, BLOCK_X * ROWS <= 1024");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(UNROLL >= 1, "UNROLL >= 1");

namespace row_sum_detail {

template <int W>
struct Vec;
template <>
struct Vec<1> {
  typedef float type;
  __device__ static float sum(float v) { return v; }
};
template <>
struct Vec<2> {
  typedef float2 type;
  __device__ static float sum(float2 v) { return v.x + v.y; }
};
template <>
struct Vec<4> {
  typedef float4 type;
  __device__ static float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum of one row's elements [0, n) with W-float loads; p is W-float aligned when W > 1.
template <int W>
__device__ __forceinline__ float thread_partial(const float* __restrict__ p, int n) {
  typedef typename Vec<W>::type V;
  const V* pv = reinterpret_cast<const V*>(p);
  const int vectors = n / W;
  float acc[UNROLL];
#pragma unroll
  for (int i = 0; i < UNROLL; ++i) acc[i] = 0.0f;
  int base = threadIdx.x;
  // Whole steps: UNROLL coalesced loads per thread, all in bounds.
  for (; base + (UNROLL - 1) * BLOCK_X < vectors; base += UNROLL * BLOCK_X) {
    V v[UNROLL];
#pragma unroll
    for (int i = 0; i < UNROLL; ++i) v[i] = pv[base + i * BLOCK_X];
#pragma unroll
    for (int i = 0; i < UNROLL; ++i) acc[i] += Vec<W>::sum(v[i]);
  }
  // The last, partial step.
#pragma unroll
  for (int i = 0; i < UNROLL; ++i)
    if (base + i * BLOCK_X < vectors) acc[i] += Vec<W>::sum(pv[base + i * BLOCK_X]);
  // Floats after the last whole vector.
  if (static_cast<int>(threadIdx.x) < n - vectors * W) acc[0] += p[vectors * W + threadIdx.x];
  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < UNROLL; ++i) total += acc[i];
  return total;
}

}  // namespace row_sum_detail

extern "C" __global__ void __launch_bounds__(BLOCK_X * ROWS)
    row_sum(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  using namespace row_sum_detail;
  const int row = blockIdx.x * ROWS + threadIdx.y;
  float v = 0.0f;
  if (row < rows) {
    const float* p = x + static_cast<long long>(row) * cols;
    // Rows start W-float aligned only when cols is a multiple of W (the allocation is).
    v = (VEC > 1 && cols % VEC == 0) ? thread_partial<VEC>(p, cols) : thread_partial<1>(p, cols);
  }
  v = warp_sum(v);
#if BLOCK_X > 32
  __shared__ float scratch[ROWS][BLOCK_X / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) scratch[threadIdx.y][warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK_X / 32 ? scratch[threadIdx.y][lane] : 0.0f;
    v = warp_sum(v);
  }
#endif
  if (threadIdx.x == 0 && row < rows) y[row] = v;
}
