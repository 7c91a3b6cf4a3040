// y[i] = a * x[i] + b over n float32: a memory-bound stream, 4 bytes read and 4 written per
// element (32M elements: 128 MiB in, 128 MiB out). Tuned by ktune (-DNAME=VALUE) and by Kernel
// Tuner (#define NAME VALUE prepended to this file) from the same source; see README.md here.
//
// Geometry: block BLOCK, grid ceil(n / (BLOCK * VEC * ITEMS)). Block k handles the BLOCK * ITEMS
// consecutive VEC-float vectors starting at vector k * BLOCK * ITEMS; each thread issues its ITEMS
// loads before its ITEMS stores (coalesced: thread t takes vectors t, t + BLOCK, ...). STREAM = 1
// uses the streaming (evict-first) cache hints __ldcs/__stcs, STREAM = 0 plain loads and stores.
// Any n works: the floats after the last whole vector are done by the first threads of the grid.
// Plain C++11 (Kernel Tuner's default dialect); both tools compile it with -std=c++17.

#ifndef BLOCK
#define BLOCK 256  // threads per block
#endif
#ifndef VEC
#define VEC 4  // floats per load and store: 1, 2 or 4
#endif
#ifndef ITEMS
#define ITEMS 2  // vectors per thread, all loaded before any is stored
#endif
#ifndef STREAM
#define STREAM 0  // 1: __ldcs/__stcs (streaming), 0: plain
#endif

static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK is a multiple of 32, at most 1024");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");

namespace scale_shift_detail {

template <int W>
struct Vec;
template <>
struct Vec<1> {
  typedef float type;
  __device__ static float apply(float v, float a, float b) { return a * v + b; }
};
template <>
struct Vec<2> {
  typedef float2 type;
  __device__ static float2 apply(float2 v, float a, float b) { return make_float2(a * v.x + b, a * v.y + b); }
};
template <>
struct Vec<4> {
  typedef float4 type;
  __device__ static float4 apply(float4 v, float a, float b) {
    return make_float4(a * v.x + b, a * v.y + b, a * v.z + b, a * v.w + b);
  }
};

template <typename T>
__device__ __forceinline__ T load(const T* p) {
#if STREAM
  return __ldcs(p);
#else
  return *p;
#endif
}

template <typename T>
__device__ __forceinline__ void store(T* p, T v) {
#if STREAM
  __stcs(p, v);
#else
  *p = v;
#endif
}

}  // namespace scale_shift_detail

extern "C" __global__ void __launch_bounds__(BLOCK)
    scale_shift(const float* __restrict__ x, float* __restrict__ y, float a, float b, int n) {
  using namespace scale_shift_detail;
  typedef Vec<VEC>::type V;
  const V* xv = reinterpret_cast<const V*>(x);
  V* yv = reinterpret_cast<V*>(y);
  const long long vectors = n / VEC;
  const long long base = static_cast<long long>(blockIdx.x) * (BLOCK * ITEMS) + threadIdx.x;
  V v[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (base + i * BLOCK < vectors) v[i] = load(xv + base + i * BLOCK);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (base + i * BLOCK < vectors) store(yv + base + i * BLOCK, Vec<VEC>::apply(v[i], a, b));
  if (VEC > 1) {
    const long long thread = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
    const long long tail = vectors * VEC + thread;
    if (tail < n) y[tail] = a * x[tail] + b;
  }
}
