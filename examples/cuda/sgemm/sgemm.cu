// Tiled SGEMM: C[M][N] = A[M][K] * B[K][N], row-major fp32 (see sgemm.yaml for the knobs).
//
// A block computes a BM x BN tile of C, stepping through K in slices of BK. Each slice of A
// and B is staged in shared memory (A transposed, so a thread's TM rows are contiguous), and
// each thread accumulates a TM x TN sub-tile in registers. With DB = 1 the next slice is
// fetched into registers while the current one is multiplied, and shared memory holds two
// slices, so one barrier per slice suffices. The spec's constraints make M, N, K multiples
// of the tiles; there is no edge handling.

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 16
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif
#ifndef VEC
#define VEC 4  // widest global/shared access in floats: 1, 2 or 4
#endif
#ifndef UNROLL
#define UNROLL 4  // unroll factor of the loop over one BK slice
#endif
#ifndef DB
#define DB 0  // 1: double-buffered shared memory with register prefetch
#endif
#ifndef PAD_A
#define PAD_A 0  // floats added to each row of the transposed A slice (store bank conflicts)
#endif

namespace sgemm_detail {

constexpr int kThreads = (BM / TM) * (BN / TN);
constexpr int kStages = DB ? 2 : 1;
constexpr int kLdA = BM + PAD_A;  // row length of the transposed A slice in shared memory
constexpr int kStageFloats = BK * kLdA + BK * BN;

static_assert(BM % TM == 0 && BN % TN == 0, "the thread tile must divide the block tile");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(BK % VEC == 0 && BN % VEC == 0, "vector loads must not straddle tile rows");
static_assert(PAD_A % VEC == 0, "padding keeps vector alignment of A's rows");
static_assert(kThreads <= 1024, "at most 1024 threads per block");

// Global loads of one slice, spread evenly over the block. The last round may be partial.
constexpr int kVecsA = BM * BK / VEC;
constexpr int kVecsB = BK * BN / VEC;
constexpr int kRoundsA = (kVecsA + kThreads - 1) / kThreads;
constexpr int kRoundsB = (kVecsB + kThreads - 1) / kThreads;

// The widest access of W <= VEC floats that divides `count`, so that fragments stay aligned.
__host__ __device__ constexpr int width_for(int count) { return count % 4 == 0 && VEC >= 4 ? 4 : count % 2 == 0 && VEC >= 2 ? 2 : 1; }

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

template <int W>
__device__ __forceinline__ void load_vec(float* dst, const float* src) {
  const typename VecOf<W>::type v = *reinterpret_cast<const typename VecOf<W>::type*>(src);
  const float* parts = reinterpret_cast<const float*>(&v);
#pragma unroll
  for (int i = 0; i < W; ++i) dst[i] = parts[i];
}

template <int W>
__device__ __forceinline__ void store_vec(float* dst, const float* src) {
  typename VecOf<W>::type v;
  float* parts = reinterpret_cast<float*>(&v);
#pragma unroll
  for (int i = 0; i < W; ++i) parts[i] = src[i];
  *reinterpret_cast<typename VecOf<W>::type*>(dst) = v;
}

struct Prefetch {
  float a[kRoundsA][VEC];
  float b[kRoundsB][VEC];
};

__device__ __forceinline__ void fetch_slice(Prefetch& p, const float* __restrict__ A, const float* __restrict__ B,
                                            int row0, int col0, int k0, int N, int K, int tid) {
#pragma unroll
  for (int r = 0; r < kRoundsA; ++r) {
    const int v = tid + r * kThreads;
    if (kVecsA % kThreads == 0 || v < kVecsA) {
      const int m = v / (BK / VEC);
      const int k = (v % (BK / VEC)) * VEC;
      load_vec<VEC>(p.a[r], A + static_cast<long long>(row0 + m) * K + k0 + k);
    }
  }
#pragma unroll
  for (int r = 0; r < kRoundsB; ++r) {
    const int v = tid + r * kThreads;
    if (kVecsB % kThreads == 0 || v < kVecsB) {
      const int k = v / (BN / VEC);
      const int n = (v % (BN / VEC)) * VEC;
      load_vec<VEC>(p.b[r], B + static_cast<long long>(k0 + k) * N + col0 + n);
    }
  }
}

__device__ __forceinline__ void stage_slice(const Prefetch& p, float* __restrict__ As, float* __restrict__ Bs, int tid) {
#pragma unroll
  for (int r = 0; r < kRoundsA; ++r) {
    const int v = tid + r * kThreads;
    if (kVecsA % kThreads == 0 || v < kVecsA) {
      const int m = v / (BK / VEC);
      const int k = (v % (BK / VEC)) * VEC;
#pragma unroll
      for (int i = 0; i < VEC; ++i) As[(k + i) * kLdA + m] = p.a[r][i];
    }
  }
#pragma unroll
  for (int r = 0; r < kRoundsB; ++r) {
    const int v = tid + r * kThreads;
    if (kVecsB % kThreads == 0 || v < kVecsB) {
      const int k = v / (BN / VEC);
      const int n = (v % (BN / VEC)) * VEC;
      store_vec<VEC>(Bs + k * BN + n, p.b[r]);
    }
  }
}

__device__ __forceinline__ void multiply_slice(float (&acc)[TM][TN], const float* __restrict__ As,
                                               const float* __restrict__ Bs, int ty, int tx) {
  constexpr int kWa = width_for(TM);
  constexpr int kWb = width_for(TN);
#pragma unroll UNROLL
  for (int k = 0; k < BK; ++k) {
    float a[TM];
    float b[TN];
#pragma unroll
    for (int i = 0; i < TM; i += kWa) load_vec<kWa>(a + i, As + k * kLdA + ty * TM + i);
#pragma unroll
    for (int j = 0; j < TN; j += kWb) load_vec<kWb>(b + j, Bs + k * BN + tx * TN + j);
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

}  // namespace sgemm_detail
using namespace sgemm_detail;

extern "C" __global__ void __launch_bounds__(kThreads)
    sgemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ __align__(16) float smem[];
  (void)M;
  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN);
  const int ty = tid / (BN / TN);
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  Prefetch p;
  const int slices = K / BK;
  fetch_slice(p, A, B, row0, col0, 0, N, K, tid);
  stage_slice(p, smem, smem + BK * kLdA, tid);
  __syncthreads();

  for (int s = 0; s < slices; ++s) {
    float* stage = smem + (s % kStages) * kStageFloats;
    const bool more = s + 1 < slices;
    if (DB && more) fetch_slice(p, A, B, row0, col0, (s + 1) * BK, N, K, tid);
    multiply_slice(acc, stage, stage + BK * kLdA, ty, tx);
    if (more) {
      float* next = smem + ((s + 1) % kStages) * kStageFloats;
      if (!DB) {
        fetch_slice(p, A, B, row0, col0, (s + 1) * BK, N, K, tid);
        __syncthreads();  // everyone is done reading the only stage
      }
      stage_slice(p, next, next + BK * kLdA, tid);
    }
    __syncthreads();
  }

  constexpr int kWc = width_for(TN);
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    float* out = C + static_cast<long long>(row0 + ty * TM + i) * N + col0 + tx * TN;
#pragma unroll
    for (int j = 0; j < TN; j += kWc) store_vec<kWc>(out + j, acc[i] + j);
  }
}
