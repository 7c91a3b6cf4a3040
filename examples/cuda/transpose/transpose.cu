// Out-of-place transpose: out[c][r] = in[r][c], in is rows x cols, row-major fp32.
//
// A block moves a TILE_R x TILE_C tile through shared memory: it reads the tile row by row
// (coalesced along in's rows) and writes it column by column (coalesced along out's rows).
// Threads take VEC consecutive floats per access, TILE_R * TILE_C / (THREADS * VEC) accesses
// each way. PAD floats at the end of each shared row shift the columns across banks, so the
// column-wise reads of the second phase do not all hit one bank. The spec makes rows and
// cols multiples of the tile; there is no edge handling. The kernel is a C++ function in a
// namespace (its entry is ktune_examples::transpose), not extern "C".

#ifndef TILE_R
#define TILE_R 32
#endif
#ifndef TILE_C
#define TILE_C 32
#endif
#ifndef THREADS
#define THREADS 256
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef PAD
#define PAD 1
#endif

namespace ktune_examples {
namespace transpose_detail {

static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(TILE_R % VEC == 0 && TILE_C % VEC == 0, "vectors do not straddle tile rows");
static_assert(TILE_R * TILE_C % (THREADS * VEC) == 0, "the tile splits evenly over the threads");

template <int W>
struct VecOf;
template <>
struct VecOf<1> {
  using type = float;
};
template <>
struct VecOf<2> {
  using type = float2;
};
template <>
struct VecOf<4> {
  using type = float4;
};
using Vec = typename VecOf<VEC>::type;

constexpr int kRounds = TILE_R * TILE_C / (THREADS * VEC);

}  // namespace transpose_detail
using namespace transpose_detail;

__global__ void __launch_bounds__(THREADS) transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE_R][TILE_C + PAD];
  const long long r0 = static_cast<long long>(blockIdx.y) * TILE_R;
  const long long c0 = static_cast<long long>(blockIdx.x) * TILE_C;

#pragma unroll
  for (int round = 0; round < kRounds; ++round) {
    const int v = threadIdx.x + round * THREADS;
    const int r = v / (TILE_C / VEC);
    const int c = (v % (TILE_C / VEC)) * VEC;
    const Vec value = *reinterpret_cast<const Vec*>(in + (r0 + r) * cols + c0 + c);
    const float* parts = reinterpret_cast<const float*>(&value);
#pragma unroll
    for (int i = 0; i < VEC; ++i) tile[r][c + i] = parts[i];
  }
  __syncthreads();

  // The output tile is TILE_C rows (in's columns) of TILE_R floats (in's rows).
#pragma unroll
  for (int round = 0; round < kRounds; ++round) {
    const int v = threadIdx.x + round * THREADS;
    const int oc = v / (TILE_R / VEC);         // row of the output tile = column of the input tile
    const int orow = (v % (TILE_R / VEC)) * VEC;  // first of VEC input rows
    Vec value;
    float* parts = reinterpret_cast<float*>(&value);
#pragma unroll
    for (int i = 0; i < VEC; ++i) parts[i] = tile[orow + i][oc];
    *reinterpret_cast<Vec*>(out + (c0 + oc) * rows + r0 + orow) = value;
  }
}

}  // namespace ktune_examples
