// Device helpers shared by ktune's generated GEMM kernels (gemm_sm80.cuh, gemm_sm90.cuh):
// element conversions, the epilogue, split-K reduction and tile rasterisation. No includes:
// NVRTC compiles this without the toolkit headers.
//
// The emitter (generated_emitter.cc) defines, before this file:
//   KT_IN_TYPE          0 f16, 1 bf16                     (A and B storage)
//   KT_OUT_TYPE         0 f16, 1 bf16, 2 f32              (C, D and bias storage)
//   KT_A_K_CONTIGUOUS   1 when A is stored M x K (layout letter 1 'n'), 0 when K x M
//   KT_B_K_CONTIGUOUS   1 when B is stored N x K (layout letter 2 't'), 0 when K x N
//   KT_READS_C          1 when beta != 0
//   KT_ALPHA_ONE        1 when alpha is 1 (the kernel then ignores params.alpha); default 0
//   KT_HAS_BIAS         1 with a bias vector
//   KT_ACTIVATION       0 none, 1 relu, 2 gelu (tanh form)
//   KT_SPLIT_K          1 when the launch may use split_k > 1
//   KT_SWAP_AB          1 when the kernel computes D^T = B^T A^T (see below); default 0
//   KT_A_EVICT_FIRST, KT_B_EVICT_FIRST  1 when the kernel's A / B loads carry an L2
//                       evict-first policy (see below); default 0
//   plus the knobs of the kernel's own path (KT_TILE_M, KT_TILE_N, KT_TILE_K, ...).
#ifndef KTUNE_GEMM_COMMON_CUH
#define KTUNE_GEMM_COMMON_CUH

// KT_ALPHA_ONE: the problem's alpha is 1, known when the kernel is emitted (a kernel is emitted
// for one problem). With nothing else in the epilogue (KT_PLAIN_EPILOGUE) the accumulators are
// stored as they are, and the finishing variants (alpha, C, bias, activation; guarded edge tiles)
// are not compiled in at all: 128x256's kernel held three copies of its tile's epilogue of which
// a plain problem runs one (NVRTC time and code size: compile_timing.h).
#ifndef KT_ALPHA_ONE
#define KT_ALPHA_ONE 0
#endif
#define KT_PLAIN_EPILOGUE (KT_ALPHA_ONE && !KT_READS_C && !KT_HAS_BIAS && KT_ACTIVATION == 0)

typedef unsigned short kt_u16;
typedef unsigned int kt_u32;
typedef unsigned long long kt_u64;

// KT_SWAP_AB: the kernel runs the swapped problem D^T = B^T A^T (its M is the problem's N and
// its N the problem's M: params a/b, m/n and lda/ldb are swapped by the host, generated_kernel.cc),
// so a skinny M (decode: M = 1-64) becomes the wgmma N (16-64) instead of a 64-row wgmma M
// mostly wasted. C, D and bias keep the problem's own layout: the epilogue below maps the
// kernel's (i, j) to the problem's (j, i). cuBLAS runs its fp8 decode kernels this way.
#ifndef KT_SWAP_AB
#define KT_SWAP_AB 0
#endif

// KT_A_EVICT_FIRST / KT_B_EVICT_FIRST (the kernel's operands, after any swap): the operand's
// global loads carry an L2 evict-first policy, so that an operand read once (the weights of a
// decode GEMM: the other operand fits in one row of tiles) recycles its own lines in L2 instead
// of evicting what was there before it (dirty lines among them, whose write-back the kernel
// would otherwise pay for while it streams). A performance hint only: the results are the same.
#ifndef KT_A_EVICT_FIRST
#define KT_A_EVICT_FIRST 0
#endif
#ifndef KT_B_EVICT_FIRST
#define KT_B_EVICT_FIRST 0
#endif
// The L2 cache policy of those loads (createpolicy, sm_80+: a 64-bit policy for .L2::cache_hint
// operands). Not volatile: the compiler may compute it once.
__device__ __forceinline__ kt_u64 kt_evict_first_policy() {
  kt_u64 policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

#if KT_OUT_TYPE == 2
#define KT_OUT_BYTES 4
#else
#define KT_OUT_BYTES 2
#endif

__device__ __forceinline__ float kt_f16_to_f32(kt_u16 h) {
  float f;
  asm("{ .reg .b16 t; mov.b16 t, %1; cvt.f32.f16 %0, t; }" : "=f"(f) : "h"(h));
  return f;
}
__device__ __forceinline__ float kt_bf16_to_f32(kt_u16 h) { return __uint_as_float(static_cast<kt_u32>(h) << 16); }
// Two floats rounded to nearest even into one 32-bit register: `lo` in the low half (the
// element at the lower address).
__device__ __forceinline__ kt_u32 kt_pack_f16x2(float lo, float hi) {
  kt_u32 r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
__device__ __forceinline__ kt_u32 kt_pack_bf16x2(float lo, float hi) {
  kt_u32 r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

// One element of the output storage (C, D, bias) at `base[index]`, as fp32.
__device__ __forceinline__ float kt_load_out(const void* base, long long index) {
#if KT_OUT_TYPE == 2
  return static_cast<const float*>(base)[index];
#elif KT_OUT_TYPE == 1
  return kt_bf16_to_f32(static_cast<const kt_u16*>(base)[index]);
#else
  return kt_f16_to_f32(static_cast<const kt_u16*>(base)[index]);
#endif
}

__device__ __forceinline__ float kt_activate(float x) {
#if KT_ACTIVATION == 1
  return x > 0.0f ? x : 0.0f;
#elif KT_ACTIVATION == 2
  // The tanh form cuBLASLt's GELU epilogue uses; tanhf (not tanh.approx) keeps the error far
  // inside the verifier's allowance.
  const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanhf(inner));
#else
  return x;
#endif
}

// alpha * acc + beta * C(i, j) + bias(j), activated. (i, j) must be inside M x N.
__device__ __forceinline__ float kt_epilogue_value(const KtuneGemmParams& p, int batch_index, long long i,
                                                   long long j, float acc) {
  float v = KT_ALPHA_ONE ? acc : p.alpha * acc;
#if KT_SWAP_AB
  const long long row = j, col = i;
#else
  const long long row = i, col = j;
#endif
  (void)row;  // unused without C and bias
  (void)col;
#if KT_READS_C
  v += p.beta * kt_load_out(p.c, batch_index * p.batch_stride_c + row * p.ldc + col);
#endif
#if KT_HAS_BIAS
  v += kt_load_out(p.bias, col);
#endif
  return kt_activate(v);
}

// Stores finished values D(i, j) (and D(i, j + 1) for the pair form). Bounds are the caller's
// job for the single form; the pair form checks j + 1 < N itself and uses one 4- or 8-byte store
// when the address allows it.
__device__ __forceinline__ void kt_store_d(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                           float v) {
#if KT_SWAP_AB
  const long long index = batch_index * p.batch_stride_d + j * p.ldd + i;
#else
  const long long index = batch_index * p.batch_stride_d + i * p.ldd + j;
#endif
#if KT_OUT_TYPE == 2
  static_cast<float*>(p.d)[index] = v;
#elif KT_OUT_TYPE == 1
  static_cast<kt_u16*>(p.d)[index] = static_cast<kt_u16>(kt_pack_bf16x2(v, 0.0f) & 0xffffu);
#else
  static_cast<kt_u16*>(p.d)[index] = static_cast<kt_u16>(kt_pack_f16x2(v, 0.0f) & 0xffffu);
#endif
}
__device__ __forceinline__ void kt_store_d2(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                            float v0, float v1) {
  const long long index = batch_index * p.batch_stride_d + i * p.ldd + j;
  // Swapped, (i, j) and (i, j + 1) are two rows of D: two single stores.
  if (!KT_SWAP_AB && j + 1 < p.n && (index & 1) == 0) {
#if KT_OUT_TYPE == 2
    float2 pair;
    pair.x = v0;
    pair.y = v1;
    *reinterpret_cast<float2*>(static_cast<float*>(p.d) + index) = pair;
#elif KT_OUT_TYPE == 1
    *reinterpret_cast<kt_u32*>(static_cast<kt_u16*>(p.d) + index) = kt_pack_bf16x2(v0, v1);
#else
    *reinterpret_cast<kt_u32*>(static_cast<kt_u16*>(p.d) + index) = kt_pack_f16x2(v0, v1);
#endif
  } else {
    kt_store_d(p, batch_index, i, j, v0);
    if (j + 1 < p.n) kt_store_d(p, batch_index, i, j + 1, v1);
  }
}

// The whole epilogue for accumulators (i, j) and (i, j + 1) of a tile, when not split: bounds
// checked here.
__device__ __forceinline__ void kt_finish_pair(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                               float acc0, float acc1) {
  if (i >= p.m || j >= p.n) return;
  const float v0 = kt_epilogue_value(p, batch_index, i, j, acc0);
  const float v1 = j + 1 < p.n ? kt_epilogue_value(p, batch_index, i, j + 1, acc1) : 0.0f;
  kt_store_d2(p, batch_index, i, j, v0, v1);
}

// ---- split-K ----------------------------------------------------------------------------

__device__ __forceinline__ float* kt_workspace_at(const KtuneGemmParams& p, int batch_index, long long i,
                                                  long long j) {
  return p.workspace + (static_cast<long long>(batch_index) * p.m + i) * p.n + j;
}
// Adds one partial sum into the workspace (skipped outside M x N).
__device__ __forceinline__ void kt_splitk_add(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                              float partial) {
  if (i >= p.m || j >= p.n) return;
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(kt_workspace_at(p, batch_index, i, j)), "f"(partial) : "memory");
}
// Adds the partials of (i, j) and (i, j + 1) (each skipped outside M x N) with one two-wide
// reduction (red.global.add.v2.f32, sm_90) where both are inside and the pair is 8-byte aligned:
// the L2's atomic units, not the traffic, bound split-K's adds (~45e9 per second on the H100,
// session 11), and a pair is one operation instead of two.
__device__ __forceinline__ void kt_splitk_add2(const KtuneGemmParams& p, int batch_index, long long i, long long j,
                                               float v0, float v1) {
#if __CUDA_ARCH__ >= 900
  if (i < p.m && j + 1 < p.n) {
    float* at = kt_workspace_at(p, batch_index, i, j);
    if ((reinterpret_cast<unsigned long long>(at) & 7) == 0) {
      asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(at), "f"(v0), "f"(v1) : "memory");
      return;
    }
  }
#endif
  kt_splitk_add(p, batch_index, i, j, v0);
  kt_splitk_add(p, batch_index, i, j + 1, v1);
}
// Called by every one of `thread_count` threads that took part in the tile, after their
// kt_splitk_add calls; `barrier_id` names a hardware barrier (bar.sync) those threads own and
// `flag` a shared word. True in every thread when this slice is the last of its tile: the
// threads then call kt_splitk_take for their elements and store D; `leader` (one thread)
// resets the counter.
__device__ __forceinline__ bool kt_splitk_arrive(const KtuneGemmParams& p, int batch_index, int tile, int barrier_id,
                                                 int thread_count, bool leader, volatile int* flag) {
  __threadfence();
  asm volatile("bar.sync %0, %1;" ::"r"(barrier_id), "r"(thread_count) : "memory");
  if (leader) {
    unsigned int* counter = p.counters + static_cast<long long>(batch_index) * p.tiles_m * p.tiles_n + tile;
    const unsigned int before = atomicAdd(counter, 1u);
    const bool last = before == static_cast<unsigned int>(p.split_k - 1);
    if (last) *counter = 0u;  // nobody else touches it this launch: every slice has arrived
    *flag = last ? 1 : 0;
  }
  asm volatile("bar.sync %0, %1;" ::"r"(barrier_id), "r"(thread_count) : "memory");
  const bool last = *flag != 0;
  if (last) __threadfence();
  return last;
}
// The total of every slice at (i, j) (0 outside M x N), leaving zero behind for the next launch
// (the store cannot overtake this thread's load of the same word). The last slice takes its
// whole tile into its accumulators before using any of them, so the loads are in flight
// together, then stores it pair by pair: taking and storing pair by
// pair cost one L2 round trip per pair, ~13 us on 256x128x16384's last slices (session 15).
__device__ __forceinline__ float kt_splitk_take(const KtuneGemmParams& p, int batch_index, long long i, long long j) {
  if (i >= p.m || j >= p.n) return 0.0f;
  float* at = kt_workspace_at(p, batch_index, i, j);
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(at) : "memory");
  asm volatile("st.global.cg.f32 [%0], %1;" ::"l"(at), "f"(0.0f) : "memory");
  return v;
}

// ---- rasterisation -----------------------------------------------------------------------

// Tile `linear` (0 .. tiles_m * tiles_n - 1) to (tile_m, tile_n), walking groups of
// `swizzle_group` tile rows column by column so that consecutive CTAs share A and B panels
// in L2 (Triton's GROUP_SIZE_M; IREE's workgroup reordering).
__device__ __forceinline__ void kt_tile_coords(const KtuneGemmParams& p, int linear, int& tile_m, int& tile_n) {
  const int group = p.swizzle_group > 1 ? p.swizzle_group : 1;
  const int tiles_per_group = group * p.tiles_n;
  const int group_id = linear / tiles_per_group;
  const int first_m = group_id * group;
  const int rows = p.tiles_m - first_m < group ? p.tiles_m - first_m : group;
  const int in_group = linear - group_id * tiles_per_group;
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

#endif  // KTUNE_GEMM_COMMON_CUH
