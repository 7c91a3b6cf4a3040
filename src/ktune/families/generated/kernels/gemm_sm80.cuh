// ktune's generated GEMM for sm_80 and later: mma.sync m16n8k16 (fp32 accumulate), ldmatrix
// from XOR-swizzled shared memory and a KT_STAGES-deep cp.async ring. No includes: NVRTC
// compiles gemm_params.h + gemm_common.cuh + this file as one source.
//
// Knobs (sm80_path.cc emits them): KT_TILE_M, KT_TILE_N, KT_TILE_K (CTA tile), KT_SUBGROUP_M,
// KT_SUBGROUP_N (warps along M and N), KT_STAGES, KT_MIN_BLOCKS (0: no occupancy hint),
// KT_THREADS (32 * warps), KT_VECTOR_BYTES (16, 8, 4 or 2: the widest global copy the
// alignment of A and B allows).
//
// Shared memory keeps each operand tile in its global orientation (rows x contiguous columns),
// so every global copy is a straight cp.async; ldmatrix (.trans for M-contiguous A and
// N-contiguous B) turns it into mma fragments. 16-byte chunks are XOR-swizzled within a row so
// that the eight rows one ldmatrix phase reads fall into eight different bank groups.
#ifndef KTUNE_GEMM_SM80_CUH
#define KTUNE_GEMM_SM80_CUH

#if !defined(KT_TILE_M) || !defined(KT_TILE_N) || !defined(KT_TILE_K) || !defined(KT_SUBGROUP_M) || \
    !defined(KT_SUBGROUP_N) || !defined(KT_STAGES) || !defined(KT_THREADS) || !defined(KT_VECTOR_BYTES) || \
    !defined(KT_MIN_BLOCKS)
#error "gemm_sm80.cuh needs the knob macros KT_TILE_M/N/K, KT_SUBGROUP_M/N, KT_STAGES, KT_THREADS, KT_VECTOR_BYTES, KT_MIN_BLOCKS"
#endif
#if !defined(KT_IN_TYPE) || !defined(KT_OUT_TYPE) || !defined(KT_A_K_CONTIGUOUS) || !defined(KT_B_K_CONTIGUOUS) || \
    !defined(KT_READS_C) || !defined(KT_HAS_BIAS) || !defined(KT_ACTIVATION) || !defined(KT_SPLIT_K)
#error "gemm_sm80.cuh needs the problem macros KT_IN_TYPE, KT_OUT_TYPE, KT_A/B_K_CONTIGUOUS, KT_READS_C, KT_HAS_BIAS, KT_ACTIVATION, KT_SPLIT_K"
#endif

#define KT80_WARP_M (KT_TILE_M / KT_SUBGROUP_M)
#define KT80_WARP_N (KT_TILE_N / KT_SUBGROUP_N)
#define KT80_MMAS_M (KT80_WARP_M / 16)
#define KT80_MMAS_N (KT80_WARP_N / 8)
#define KT80_K_STEPS (KT_TILE_K / 16)
#define KT80_A_STAGE_BYTES (KT_TILE_M * KT_TILE_K * 2)
#define KT80_B_STAGE_BYTES (KT_TILE_N * KT_TILE_K * 2)
#define KT80_RING_BYTES (KT_STAGES * (KT80_A_STAGE_BYTES + KT80_B_STAGE_BYTES))
// The epilogue reuses the ring: each warp stages 16 rows of its accumulators at a time, rows
// KT80_WARP_N + 8 floats apart (8 mod 32 words: the float2 writes hit distinct banks).
#define KT80_SCRATCH_STRIDE (KT80_WARP_N + 8)
#define KT80_SCRATCH_WARP_BYTES (16 * KT80_SCRATCH_STRIDE * 4)
#define KT80_SCRATCH_BYTES (KT_THREADS / 32 * KT80_SCRATCH_WARP_BYTES)
// Dynamic shared memory the kernel needs (sm80_launch_shape mirrors this).
#define KT80_SHARED_BYTES (KT80_RING_BYTES > KT80_SCRATCH_BYTES ? KT80_RING_BYTES : KT80_SCRATCH_BYTES)

#if KT_THREADS != 32 * KT_SUBGROUP_M * KT_SUBGROUP_N
#error "KT_THREADS must be 32 * KT_SUBGROUP_M * KT_SUBGROUP_N"
#endif
#if KT80_WARP_M % 16 != 0 || KT80_WARP_N % 16 != 0 || KT_TILE_K % 16 != 0 || KT_STAGES < 2
#error "gemm_sm80.cuh: warp tiles must be multiples of 16 x 16, KT_TILE_K a multiple of 16, KT_STAGES >= 2"
#endif

#if KT_MIN_BLOCKS > 0
#define KT80_LAUNCH_BOUNDS __launch_bounds__(KT_THREADS, KT_MIN_BLOCKS)
#else
#define KT80_LAUNCH_BOUNDS __launch_bounds__(KT_THREADS)
#endif

// Physical chunk of logical 16-byte chunk `chunk` in shared row `row` of a tile whose rows hold
// COLS elements. The XOR only depends on row & 7, and the eight rows r..r+7 an ldmatrix phase
// reads land on eight distinct 16-byte bank groups: rows of >= 128 bytes XOR with row & 7;
// 64-byte rows pair up into 128-byte lines, 32-byte rows go four to a line.
template <int COLS>
__device__ __forceinline__ int kt80_swizzle(int row) {
  constexpr int chunks = COLS / 8;
  static_assert(chunks == 2 || chunks == 4 || chunks % 8 == 0, "rows of 32, 64 or a multiple of 128 bytes");
  if constexpr (chunks % 8 == 0) {
    return row & 7;
  } else if constexpr (chunks == 4) {
    return (row >> 1) & 3;
  } else {
    return (row >> 2) & 1;
  }
}
template <int COLS>
__device__ __forceinline__ kt_u32 kt80_chunk_offset(int row, int chunk) {
  return static_cast<kt_u32>(row * (COLS * 2) + ((chunk ^ kt80_swizzle<COLS>(row)) << 4));
}

__device__ __forceinline__ kt_u32 kt80_shared_address(const void* pointer) {
  return static_cast<kt_u32>(__cvta_generic_to_shared(pointer));
}

// One thread's share of copying a ROWS x COLS operand panel (rows x contiguous columns, as
// stored in global memory) into a shared stage, for every K tile. Work is split into 16-byte
// chunks (one XOR-swizzle unit); a chunk is one 16-byte cp.async, or 16 / KT_VECTOR_BYTES
// narrower copies at fixed offsets, or 8 two-byte loads and one 16-byte shared store.
// Everything that does not change between K tiles is computed once: the chunks of one thread
// sit kRowStep rows apart in the same column, so one pointer, one row stride and two "elements
// left" counts describe them all (the 64-bit address state stays at a few registers).
// K_IN_COLUMNS: the K tile advances along the columns (K-contiguous operand), else along rows.
// Elements at or beyond (row_end, col_end) read as zero. EVICT_FIRST: the copies carry the L2
// evict-first policy (KT_A_EVICT_FIRST / KT_B_EVICT_FIRST, gemm_common.cuh).
template <int ROWS, int COLS, bool K_IN_COLUMNS, bool EVICT_FIRST = false>
struct Kt80Panel {
  static constexpr int kChunks = COLS / 8;  // per row
  static constexpr int kTotal = ROWS * kChunks;
  // Fast layout: every thread copies the same column of rows r0, r0 + kRowStep, ...
  static constexpr bool kUniform = KT_THREADS % kChunks == 0 && kTotal % KT_THREADS == 0;
  static constexpr int kRowStep = kUniform ? KT_THREADS / kChunks : 0;
  static constexpr int kIters = (kTotal + KT_THREADS - 1) / KT_THREADS;

  const kt_u16* base;   // the panel's matrix
  const kt_u16* first;  // this thread's first element at K tile 0 (uniform layout)
  long long ld;
  long long row0, col0, row_end, col_end;
  int rows_left, cols_left;  // from this thread's first element at K tile 0, clamped to +-2^30
  int row_first, col_first;

  __device__ __forceinline__ static int clamp30(long long v) {
    return static_cast<int>(v > (1LL << 30) ? (1LL << 30) : (v < -(1LL << 30) ? -(1LL << 30) : v));
  }

  __device__ __forceinline__ Kt80Panel(const kt_u16* g, long long ld_, long long row0_, long long col0_,
                                       long long row_end_, long long col_end_)
      : base(g), ld(ld_), row0(row0_), col0(col0_), row_end(row_end_), col_end(col_end_) {
    const int tid = static_cast<int>(threadIdx.x);
    row_first = kUniform ? tid / kChunks : 0;
    col_first = kUniform ? (tid % kChunks) * 8 : 0;
    first = g + (row0 + row_first) * ld + col0 + col_first;
    rows_left = clamp30(row_end - row0 - row_first);
    cols_left = clamp30(col_end - col0 - col_first);
  }

  // Bytes of a copy of `size` bytes that lie inside the matrix, from the elements left in its row.
  template <int SIZE>
  __device__ __forceinline__ static int inside_bytes(int cols_inside) {
    return cols_inside >= SIZE / 2 ? SIZE : (cols_inside > 0 ? cols_inside * 2 : 0);
  }

  // One 16-byte chunk: `cols_inside` elements of its row from `src` on are inside the matrix
  // (<= 0 for none; the row is outside when `row_inside` is false). Out-of-matrix bytes become
  // zeros; a copy of 0 bytes reads nothing, so `src` need not be valid then.
  __device__ __forceinline__ static void copy_chunk(kt_u32 dst, const kt_u16* src, bool row_inside,
                                                    int cols_inside) {
#if KT_VECTOR_BYTES == 16
    const int bytes = row_inside ? inside_bytes<16>(cols_inside) : 0;
    if constexpr (EVICT_FIRST)
      asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;" ::"r"(dst), "l"(src), "r"(bytes),
                   "l"(kt_evict_first_policy())
                   : "memory");
    else
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
#elif KT_VECTOR_BYTES >= 4
    constexpr int kElements = KT_VECTOR_BYTES / 2;
#pragma unroll
    for (int j = 0; j < 16 / KT_VECTOR_BYTES; ++j) {
      const int bytes = row_inside ? inside_bytes<KT_VECTOR_BYTES>(cols_inside - j * kElements) : 0;
      if constexpr (EVICT_FIRST)
        asm volatile("cp.async.ca.shared.global.L2::cache_hint [%0], [%1], %2, %3, %4;" ::"r"(dst + j * KT_VECTOR_BYTES),
                     "l"(src + j * kElements), "n"(KT_VECTOR_BYTES), "r"(bytes), "l"(kt_evict_first_policy())
                     : "memory");
      else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(dst + j * KT_VECTOR_BYTES),
                     "l"(src + j * kElements), "n"(KT_VECTOR_BYTES), "r"(bytes)
                     : "memory");
    }
#else
    // 2-byte alignment: cp.async has no 2-byte form, so these loads are synchronous.
    kt_u32 packed[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const kt_u32 lo = row_inside && cols_inside > 2 * j ? src[2 * j] : 0u;
      const kt_u32 hi = row_inside && cols_inside > 2 * j + 1 ? src[2 * j + 1] : 0u;
      packed[j] = lo | (hi << 16);
    }
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(packed[0]), "r"(packed[1]),
                 "r"(packed[2]), "r"(packed[3])
                 : "memory");
#endif
  }

  // Copies the panel of K tile `k_tile` (K offset k_tile * KT_TILE_K) to the stage at `smem`.
  __device__ __forceinline__ void load(kt_u32 smem, int k_tile) const {
    const int k_offset = k_tile * KT_TILE_K;
    if constexpr (kUniform) {
      const kt_u16* src = K_IN_COLUMNS ? first + k_offset : first + k_offset * ld;
      const int rl = K_IN_COLUMNS ? rows_left : rows_left - k_offset;
      const int cl = K_IN_COLUMNS ? cols_left - k_offset : cols_left;
#pragma unroll
      for (int it = 0; it < kIters; ++it) {
        const int r = row_first + it * kRowStep;
        copy_chunk(smem + kt80_chunk_offset<COLS>(r, col_first >> 3), src + static_cast<long long>(it * kRowStep) * ld,
                   rl > it * kRowStep, cl);
      }
    } else {
      const long long r0 = K_IN_COLUMNS ? row0 : row0 + k_offset;
      const long long c0 = K_IN_COLUMNS ? col0 + k_offset : col0;
#pragma unroll
      for (int it = 0; it < kIters; ++it) {
        const int index = static_cast<int>(threadIdx.x) + it * KT_THREADS;
        if (kTotal % KT_THREADS != 0 && index >= kTotal) break;
        const int r = index / kChunks;
        const int c = (index % kChunks) * 8;
        copy_chunk(smem + kt80_chunk_offset<COLS>(r, c >> 3), base + (r0 + r) * ld + c0 + c, r0 + r < row_end,
                   clamp30(col_end - c0 - c));
      }
    }
  }
};

__device__ __forceinline__ void kt80_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>
__device__ __forceinline__ void kt80_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

__device__ __forceinline__ void kt80_ldmatrix(kt_u32 (&r)[4], kt_u32 address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}
__device__ __forceinline__ void kt80_ldmatrix_trans(kt_u32 (&r)[4], kt_u32 address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void kt80_mma(float (&c)[4], const kt_u32 (&a)[4], kt_u32 b0, kt_u32 b1) {
#if KT_IN_TYPE == 1
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// The A fragments (16 x 16 per mma row) and B fragments (16 x 8 per mma column) of K step
// `step` of the stage at `a_stage` / `b_stage`. Lane l addresses row l % 8 of matrix l / 8.
__device__ __forceinline__ void kt80_load_fragments(kt_u32 (&a)[KT80_MMAS_M][4], kt_u32 (&b)[KT80_MMAS_N][2],
                                                    kt_u32 a_stage, kt_u32 b_stage, int step, int warp_m,
                                                    int warp_n, int lane) {
  const int quad = lane >> 3;
  const int row_in = lane & 7;
#pragma unroll
  for (int mi = 0; mi < KT80_MMAS_M; ++mi) {
#if KT_A_K_CONTIGUOUS
    // Matrices: (m 0-7, k 0-7), (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15).
    const int row = warp_m * KT80_WARP_M + mi * 16 + (quad & 1) * 8 + row_in;
    const int chunk = step * 2 + (quad >> 1);
    kt80_ldmatrix(a[mi], a_stage + kt80_chunk_offset<KT_TILE_K>(row, chunk));
#else
    // Stored K x M: the same four matrices, read transposed.
    const int row = step * 16 + (quad >> 1) * 8 + row_in;
    const int chunk = (warp_m * KT80_WARP_M + mi * 16) / 8 + (quad & 1);
    kt80_ldmatrix_trans(a[mi], a_stage + kt80_chunk_offset<KT_TILE_M>(row, chunk));
#endif
  }
#pragma unroll
  for (int nj = 0; nj < KT80_MMAS_N / 2; ++nj) {
    kt_u32 t[4];
#if KT_B_K_CONTIGUOUS
    // Stored N x K. Matrices: (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
    const int row = warp_n * KT80_WARP_N + nj * 16 + (quad >> 1) * 8 + row_in;
    const int chunk = step * 2 + (quad & 1);
    kt80_ldmatrix(t, b_stage + kt80_chunk_offset<KT_TILE_K>(row, chunk));
#else
    // Stored K x N: the same matrices, read transposed.
    const int row = step * 16 + (quad & 1) * 8 + row_in;
    const int chunk = (warp_n * KT80_WARP_N + nj * 16) / 8 + (quad >> 1);
    kt80_ldmatrix_trans(t, b_stage + kt80_chunk_offset<KT_TILE_N>(row, chunk));
#endif
    b[2 * nj][0] = t[0];
    b[2 * nj][1] = t[1];
    b[2 * nj + 1][0] = t[2];
    b[2 * nj + 1][1] = t[3];
  }
}

// All mmas of one K step of the warp tile, serpentine over N so consecutive mmas share a fragment.
__device__ __forceinline__ void kt80_mma_step(float (&acc)[KT80_MMAS_M][KT80_MMAS_N][4],
                                              const kt_u32 (&a)[KT80_MMAS_M][4],
                                              const kt_u32 (&b)[KT80_MMAS_N][2]) {
#pragma unroll
  for (int mi = 0; mi < KT80_MMAS_M; ++mi)
#pragma unroll
    for (int ni = 0; ni < KT80_MMAS_N; ++ni) {
      const int nn = (mi & 1) ? KT80_MMAS_N - 1 - ni : ni;
      kt80_mma(acc[mi][nn], a[mi], b[nn][0], b[nn][1]);
    }
}

// The epilogue for accumulators (i, j .. j + 3) of a tile: bounds checked here; one 8-byte
// (16-bit output) or 16-byte (f32) store when all four are inside and the address allows it.
__device__ __forceinline__ void kt80_finish_quad(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                                 float4 acc) {
  if (i >= p.m || j >= p.n) return;
  float v[4] = {acc.x, acc.y, acc.z, acc.w};
#pragma unroll
  for (int e = 0; e < 4; ++e)
    if (e == 0 || j + e < p.n) v[e] = kt_epilogue_value(p, batch_index, i, j + e, v[e]);
  const long long index = batch_index * p.batch_stride_d + i * p.ldd + j;
  const unsigned long long address = reinterpret_cast<unsigned long long>(p.d) + index * KT_OUT_BYTES;
  if (j + 3 < p.n && (address & (4 * KT_OUT_BYTES - 1)) == 0) {
#if KT_OUT_TYPE == 2
    float4 out;
    out.x = v[0];
    out.y = v[1];
    out.z = v[2];
    out.w = v[3];
    *reinterpret_cast<float4*>(static_cast<float*>(p.d) + index) = out;
#else
    uint2 out;
#if KT_OUT_TYPE == 1
    out.x = kt_pack_bf16x2(v[0], v[1]);
    out.y = kt_pack_bf16x2(v[2], v[3]);
#else
    out.x = kt_pack_f16x2(v[0], v[1]);
    out.y = kt_pack_f16x2(v[2], v[3]);
#endif
    *reinterpret_cast<uint2*>(static_cast<kt_u16*>(p.d) + index) = out;
#endif
  } else {
    kt_store_d2(p, batch_index, i, j, v[0], v[1]);
    if (j + 2 < p.n) kt_store_d2(p, batch_index, i, j + 2, v[2], v[3]);
  }
}

// The kernel body, shared by the entry below and by entries with other ABIs (the IREE
// executable object that iree/generated_object.cc emits defines KT80_NO_DEFAULT_ENTRY and
// calls it with a parameter block of compile-time constants and its bindings).
static __device__ __forceinline__ void kt80_gemm(const KtuneGemmParams& p) {
  extern __shared__ __align__(128) unsigned char kt80_smem[];
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int warp_m = warp / KT_SUBGROUP_N;
  const int warp_n = warp % KT_SUBGROUP_N;
  const int batch_index = static_cast<int>(blockIdx.z);
  const int tile = static_cast<int>(blockIdx.x);
  int tile_m, tile_n;
  kt_tile_coords(p, tile, tile_m, tile_n);
  const long long m0 = static_cast<long long>(tile_m) * KT_TILE_M;
  const long long n0 = static_cast<long long>(tile_n) * KT_TILE_N;

  long long k_begin = 0;
  long long k_end = p.k;
#if KT_SPLIT_K
  if (p.split_k > 1) {
    k_begin = static_cast<long long>(blockIdx.y) * p.k_per_split;
    k_end = k_begin + p.k_per_split < p.k ? k_begin + p.k_per_split : p.k;
  }
#endif
  const int k_tiles = k_end > k_begin ? static_cast<int>((k_end - k_begin + KT_TILE_K - 1) / KT_TILE_K) : 0;

  const kt_u16* a = static_cast<const kt_u16*>(p.a) + batch_index * p.batch_stride_a;
  const kt_u16* b = static_cast<const kt_u16*>(p.b) + batch_index * p.batch_stride_b;
  const kt_u32 smem_a = kt80_shared_address(kt80_smem);
  const kt_u32 smem_b = smem_a + KT_STAGES * KT80_A_STAGE_BYTES;

#if KT_A_K_CONTIGUOUS
  const Kt80Panel<KT_TILE_M, KT_TILE_K, true, (KT_A_EVICT_FIRST != 0)> panel_a(a, p.lda, m0, k_begin, p.m, k_end);
#else
  const Kt80Panel<KT_TILE_K, KT_TILE_M, false, (KT_A_EVICT_FIRST != 0)> panel_a(a, p.lda, k_begin, m0, k_end, p.m);
#endif
#if KT_B_K_CONTIGUOUS
  const Kt80Panel<KT_TILE_N, KT_TILE_K, true, (KT_B_EVICT_FIRST != 0)> panel_b(b, p.ldb, n0, k_begin, p.n, k_end);
#else
  const Kt80Panel<KT_TILE_K, KT_TILE_N, false, (KT_B_EVICT_FIRST != 0)> panel_b(b, p.ldb, k_begin, n0, k_end, p.n);
#endif
  auto load_tile = [&](int stage, int k_tile) {
    panel_a.load(smem_a + static_cast<kt_u32>(stage * KT80_A_STAGE_BYTES), k_tile);
    panel_b.load(smem_b + static_cast<kt_u32>(stage * KT80_B_STAGE_BYTES), k_tile);
  };

  float acc[KT80_MMAS_M][KT80_MMAS_N][4];
#pragma unroll
  for (int mi = 0; mi < KT80_MMAS_M; ++mi)
#pragma unroll
    for (int ni = 0; ni < KT80_MMAS_N; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mi][ni][e] = 0.0f;

  // Prologue: tiles 0 .. STAGES-2 in flight, one commit group each (empty past the end, so
  // that wait_group counts stay the same).
#pragma unroll
  for (int s = 0; s < KT_STAGES - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    kt80_commit();
  }
  kt80_wait<KT_STAGES - 2>();
  __syncthreads();

  int read_stage = 0;
  int write_stage = KT_STAGES - 1;
  // Fragments are double-buffered in registers: the next K step's ldmatrix runs while this
  // step's mmas do, and the barrier between K tiles sits where the next tile's first fragments
  // are already requested. Buffer = step parity, which needs an even step count; 2-byte copies
  // go through registers themselves and leave no room for a second buffer.
  if constexpr (KT80_K_STEPS % 2 == 0 && KT_VECTOR_BYTES > 2) {
    kt_u32 frag_a[2][KT80_MMAS_M][4];
    kt_u32 frag_b[2][KT80_MMAS_N][2];
    kt80_load_fragments(frag_a[0], frag_b[0], smem_a, smem_b, 0, warp_m, warp_n, lane);
    for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
#pragma unroll
      for (int step = 0; step < KT80_K_STEPS; ++step) {
        if (step == 0) {
          // The stage written here was last read before the previous tile's barrier.
          const int next = k_tile + KT_STAGES - 1;
          if (next < k_tiles) load_tile(write_stage, next);
          kt80_commit();
          write_stage = write_stage == KT_STAGES - 1 ? 0 : write_stage + 1;
        }
        if (step == KT80_K_STEPS - 1) {
          kt80_wait<KT_STAGES - 2>();
          __syncthreads();
          read_stage = read_stage == KT_STAGES - 1 ? 0 : read_stage + 1;
        }
        const int next_step = step == KT80_K_STEPS - 1 ? 0 : step + 1;
        kt80_load_fragments(frag_a[(step + 1) & 1], frag_b[(step + 1) & 1],
                            smem_a + static_cast<kt_u32>(read_stage * KT80_A_STAGE_BYTES),
                            smem_b + static_cast<kt_u32>(read_stage * KT80_B_STAGE_BYTES), next_step, warp_m,
                            warp_n, lane);
        kt80_mma_step(acc, frag_a[step & 1], frag_b[step & 1]);
      }
    }
  } else {
    // Fragments loaded right before their mmas.
    for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
      const int next = k_tile + KT_STAGES - 1;
      if (next < k_tiles) load_tile(write_stage, next);
      kt80_commit();
      write_stage = write_stage == KT_STAGES - 1 ? 0 : write_stage + 1;
#pragma unroll
      for (int step = 0; step < KT80_K_STEPS; ++step) {
        kt_u32 frag_a[KT80_MMAS_M][4];
        kt_u32 frag_b[KT80_MMAS_N][2];
        kt80_load_fragments(frag_a, frag_b, smem_a + static_cast<kt_u32>(read_stage * KT80_A_STAGE_BYTES),
                            smem_b + static_cast<kt_u32>(read_stage * KT80_B_STAGE_BYTES), step, warp_m, warp_n,
                            lane);
        kt80_mma_step(acc, frag_a, frag_b);
      }
      kt80_wait<KT_STAGES - 2>();
      __syncthreads();
      read_stage = read_stage == KT_STAGES - 1 ? 0 : read_stage + 1;
    }
  }
  kt80_wait<0>();

  // Accumulator (mi, ni) holds rows +0 / +8 (registers 0-1 / 2-3), columns +0, +1 of its 16 x 8 block.
  const long long row_base = m0 + warp_m * KT80_WARP_M + (lane >> 2);
  const long long col_base = n0 + warp_n * KT80_WARP_N + (lane & 3) * 2;
#if KT_SPLIT_K
  if (p.split_k > 1) {
    __shared__ int kt80_last_flag;
#pragma unroll
    for (int mi = 0; mi < KT80_MMAS_M; ++mi)
#pragma unroll
      for (int ni = 0; ni < KT80_MMAS_N; ++ni)
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const long long i = row_base + mi * 16 + half * 8;
          const long long j = col_base + ni * 8;
          kt_splitk_add(p, batch_index, i, j, acc[mi][ni][2 * half]);
          kt_splitk_add(p, batch_index, i, j + 1, acc[mi][ni][2 * half + 1]);
        }
    if (!kt_splitk_arrive(p, batch_index, tile, 1, KT_THREADS, tid == 0, &kt80_last_flag)) return;
    // The last slice: the totals of one 16 x 8 block at a time, its four loaded before any is
    // used, then its two pairs out. Rolled, as in gemm_sm90.cuh: the totals come from the
    // workspace, not the accumulators, and the ordered takes would not overlap unrolled.
#pragma unroll 1
    for (int mi = 0; mi < KT80_MMAS_M; ++mi)
#pragma unroll 1
      for (int ni = 0; ni < KT80_MMAS_N; ++ni) {
        float v[4];
#pragma unroll
        for (int r = 0; r < 4; ++r)
          v[r] = kt_splitk_take(p, batch_index, row_base + mi * 16 + (r >> 1) * 8, col_base + ni * 8 + (r & 1));
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const long long i = row_base + mi * 16 + half * 8;
          const long long j = col_base + ni * 8;
          if (i < p.m && j < p.n) kt_finish_pair(p, batch_index, i, j, v[2 * half], v[2 * half + 1]);
        }
      }
    return;
  }
#endif
  // Through shared memory: a warp writes 16 x KT80_WARP_N accumulators, then reads them back
  // as 4 consecutive columns per lane, so that C, bias and D move in row-contiguous pieces.
  __syncthreads();  // every warp is done with the ring
  float* scratch = reinterpret_cast<float*>(kt80_smem + warp * KT80_SCRATCH_WARP_BYTES);
  const long long warp_row = m0 + warp_m * KT80_WARP_M;
  const long long warp_col = n0 + warp_n * KT80_WARP_N;
#pragma unroll
  for (int mi = 0; mi < KT80_MMAS_M; ++mi) {
#pragma unroll
    for (int ni = 0; ni < KT80_MMAS_N; ++ni)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        float2 pair;
        pair.x = acc[mi][ni][2 * half];
        pair.y = acc[mi][ni][2 * half + 1];
        *reinterpret_cast<float2*>(scratch + ((lane >> 2) + half * 8) * KT80_SCRATCH_STRIDE + ni * 8 +
                                   (lane & 3) * 2) = pair;
      }
    __syncwarp();
#pragma unroll
    for (int pass = 0; pass < KT80_WARP_N / 8; ++pass) {
      const int element = pass * 128 + lane * 4;
      const int row = element / KT80_WARP_N;
      const int col = element % KT80_WARP_N;
      const float4 v = *reinterpret_cast<const float4*>(scratch + row * KT80_SCRATCH_STRIDE + col);
      kt80_finish_quad(p, batch_index, warp_row + mi * 16 + row, warp_col + col, v);
    }
    __syncwarp();
  }
}

#ifndef KT80_NO_DEFAULT_ENTRY
extern "C" __global__ void KT80_LAUNCH_BOUNDS ktune_gemm_sm80(const __grid_constant__ KtuneGemmParams p) { kt80_gemm(p); }
#endif

#endif  // KTUNE_GEMM_SM80_CUH
