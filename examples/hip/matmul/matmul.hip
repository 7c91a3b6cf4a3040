// LDS-tiled SGEMM for AMD GPUs: C[M][N] = A[M][K] * B[K][N], row-major fp32 (see matmul.yaml).
//
// A workgroup computes a BM x BN tile of C, stepping through K in slices of BK. Each slice of
// A (stored transposed, so a thread's TM rows are contiguous in LDS) and of B is staged in LDS,
// and each thread accumulates a TM x TN sub-tile in VGPRs. VEC is the width of the global
// loads in floats (4: global_load_dwordx4). The spec's constraints make M, N, K multiples of
// the tiles; there is no edge handling.
//
// Written to compile both with ROCm's hipcc/hiprtc and offline with a stock clang (ktune's
// prelude supplies threadIdx, __syncthreads, __launch_bounds__ without ROCm headers).

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
#define VEC 4
#endif

typedef float ktune_float4 __attribute__((ext_vector_type(4)));

#define KTUNE_THREADS ((BM / TM) * (BN / TN))

static_assert(BM % TM == 0 && BN % TN == 0, "the thread tile must divide the workgroup tile");
static_assert(VEC == 1 || VEC == 4, "VEC is 1 or 4");
static_assert(BK % VEC == 0 && BN % VEC == 0, "vector loads must not straddle tile rows");
static_assert(KTUNE_THREADS <= 1024, "at most 1024 threads per workgroup");

extern "C" __global__ void __launch_bounds__(KTUNE_THREADS)
matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[BK][BM];  // transposed slice of A
  __shared__ float Bs[BK][BN];
  (void)M;
  const int tid = static_cast<int>(threadIdx.x);
  const int thread_row = tid / (BN / TN);
  const int thread_col = tid % (BN / TN);
  const int row0 = static_cast<int>(blockIdx.y) * BM;
  const int col0 = static_cast<int>(blockIdx.x) * BN;

  float acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BM * BK / VEC; e += KTUNE_THREADS) {
      const int r = e / (BK / VEC);
      const int c = (e % (BK / VEC)) * VEC;
      const float* src = A + static_cast<long>(row0 + r) * K + k0 + c;
#if VEC == 4
      const ktune_float4 v = *reinterpret_cast<const ktune_float4*>(src);
      As[c + 0][r] = v.x;
      As[c + 1][r] = v.y;
      As[c + 2][r] = v.z;
      As[c + 3][r] = v.w;
#else
      As[c][r] = *src;
#endif
    }
    for (int e = tid; e < BK * BN / VEC; e += KTUNE_THREADS) {
      const int r = e / (BN / VEC);
      const int c = (e % (BN / VEC)) * VEC;
      const float* src = B + static_cast<long>(k0 + r) * N + col0 + c;
#if VEC == 4
      *reinterpret_cast<ktune_float4*>(&Bs[r][c]) = *reinterpret_cast<const ktune_float4*>(src);
#else
      Bs[r][c] = *src;
#endif
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
      for (int i = 0; i < TM; ++i) a[i] = As[k][thread_row * TM + i];
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][thread_col * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[static_cast<long>(row0 + thread_row * TM + i) * N + col0 + thread_col * TN + j] = acc[i][j];
}
