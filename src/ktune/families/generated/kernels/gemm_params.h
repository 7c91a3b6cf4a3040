// The one kernel parameter of every generated GEMM kernel. Compiled twice: by the host
// compiler (ktune fills it) and by NVRTC (the kernel reads it), so it uses only built-in types
// and no includes. The kernel takes it as `const __grid_constant__ KtuneGemmParams p`, which
// keeps it in parameter space: TMA reads the tensor maps straight from there.
//
// Row-major terms (see gemm_problem.h): A is M x K, B is K x N, C and D are M x N.
//   A stored K-contiguous ('n') with lda = K, or M-contiguous ('t') with lda = M;
//   B stored N-contiguous ('n') with ldb = N, or K-contiguous ('t') with ldb = K;
//   C and D: ldc = ldd = N. Batch entries are batch_stride_* elements apart.
//
// Split-K (split_k > 1): slice s of the K loop covers [s * k_per_split, min(K, (s+1) * k_per_split)).
// Every slice adds its fp32 partial tile into `workspace` (batch * M * N floats, all zero
// between launches), then counts itself in counters[batch_index * tiles_m * tiles_n + tile];
// the slice that arrives last reads the sums back, writes zeros in their place, applies the
// epilogue, stores D and resets the counter, so the next launch finds everything zero again.
// A split tail (KT_SPLIT_TAIL, persistent): only the tiles from `tail_from` on (counting tiles
// of every batch entry in order) are split; the ones before it run whole, one item each.
#ifndef KTUNE_GEMM_PARAMS_H
#define KTUNE_GEMM_PARAMS_H

struct KtuneGemmParams {
  // cuTensorMapEncodeTiled results (CUtensorMap is 128 bytes, 64-byte aligned); zero when
  // the kernel does not use TMA.
  alignas(64) unsigned char tma_a[128];
  alignas(64) unsigned char tma_b[128];
  const void* a;
  const void* b;
  const void* c;     // null when beta == 0
  void* d;
  const void* bias;  // N elements of the output storage; null without bias
  float* workspace;          // split-K partial sums (see above); null when split_k == 1
  unsigned int* counters;    // split-K arrival counters; null when split_k == 1
  long long m, n, k;
  long long lda, ldb, ldc, ldd;
  long long batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d;
  long long k_per_split;     // a multiple of the kernel's K tile
  int batch;
  int split_k;               // >= 1
  int tiles_m, tiles_n;      // ceil(M / tile M), ceil(N / tile N)
  int swizzle_group;         // rows of tiles per rasterisation group (1: plain row order)
  int grid_tiles;            // persistent kernels: the number of CTAs that share the tiles
  long long tail_from;       // KT_SPLIT_TAIL: the first split tile (batch * tiles + tile); else 0
  // Clusters only (cluster_order.h): cluster c of each run of cluster_order_size consecutive
  // clusters along x takes the work of cluster cluster_order[c] of that run, so that the
  // clusters the hardware puts on one GPC work on neighbouring tiles. Null: in launch order.
  const unsigned short* cluster_order;
  int cluster_order_size;
  float alpha, beta;
  // Staged 16-bit tiles leave by TMA tensor stores through this map of D (KT_TMA_STORE), encoded
  // when D's rows and batch entries are 16-byte aligned; zero otherwise.
  alignas(64) unsigned char tma_d[128];
};

// ktune_repack_sm90's parameter (families/generated/repack.h): batch x outer rows of `inner`
// elements from `src` (pitches ld_src, stride_src) to `dst` (ld_dst, stride_dst; 16-byte rows,
// the padding zeroed), or with `transpose` their transpose (inner rows of `outer`, padded to
// ld_dst). All counts in elements. With `split` (strict f32, 1 or 2) each element is written as
// three TF32 parts, `segment` elements apart along the destination's rows (repack.h).
struct KtuneRepackParams {
  const void* src;
  void* dst;
  long long inner, outer, batch;
  long long ld_src, ld_dst;
  long long stride_src, stride_dst;
  long long segment;
  int transpose;
  int split;
};
// One launch copies one or both operands: blocks [0, ctas[0]) copy op[0], the next ctas[1]
// op[1] (two launches in a row cost the second one's launch latency and the first one's tail).
struct KtuneRepackLaunch {
  KtuneRepackParams op[2];
  unsigned ctas[2];
};

#endif  // KTUNE_GEMM_PARAMS_H
