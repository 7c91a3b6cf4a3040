// Kernels for the amdgpu tests: LDS tiling, MFMA 16x16 and 32x32 (AGPRs), and a forced spill.
// Compiled by regenerate.sh with the ktune HIP prelude (threadIdx, __syncthreads, float4).
#define TILE 16

extern "C" __global__ void __launch_bounds__(256)
matmul_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < N; k0 += TILE) {
    As[ty][tx] = A[row * N + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef float floatx16 __attribute__((ext_vector_type(16)));

extern "C" __global__ void __launch_bounds__(64)
mfma16(const half4* __restrict__ a, const half4* __restrict__ b, floatx4* __restrict__ c, int k_steps) {
  int i = threadIdx.x;
  floatx4 acc = c[i];
  for (int k = 0; k < k_steps; ++k) {
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a[i + k * 64], b[i + k * 64], acc, 0, 0, 0);
  }
  c[i] = acc;
}

// Eight 32x32 accumulators (128 registers) put the accumulators in AGPRs.
extern "C" __global__ void __launch_bounds__(256)
mfma32_agpr(const half4* __restrict__ a, const half4* __restrict__ b, floatx16* __restrict__ c, int n) {
  int i = threadIdx.x;
  floatx16 acc0 = {}, acc1 = {}, acc2 = {}, acc3 = {}, acc4 = {}, acc5 = {}, acc6 = {}, acc7 = {};
  for (int k = 0; k < n; ++k) {
    half4 x = a[i + k * 64], y = b[i + k * 64];
    acc0 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc0, 0, 0, 0);
    acc1 = __builtin_amdgcn_mfma_f32_32x32x8f16(y, x, acc1, 0, 0, 0);
    acc2 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, x, acc2, 0, 0, 0);
    acc3 = __builtin_amdgcn_mfma_f32_32x32x8f16(y, y, acc3, 0, 0, 0);
    acc4 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, y, acc4, 1, 0, 0);
    acc5 = __builtin_amdgcn_mfma_f32_32x32x8f16(y, x, acc5, 1, 0, 0);
    acc6 = __builtin_amdgcn_mfma_f32_32x32x8f16(x, x, acc6, 1, 0, 0);
    acc7 = __builtin_amdgcn_mfma_f32_32x32x8f16(y, y, acc7, 1, 0, 0);
  }
  c[i * 8 + 0] = acc0; c[i * 8 + 1] = acc1; c[i * 8 + 2] = acc2; c[i * 8 + 3] = acc3;
  c[i * 8 + 4] = acc4; c[i * 8 + 5] = acc5; c[i * 8 + 6] = acc6; c[i * 8 + 7] = acc7;
}

// 24 float4 values live at once under a 1024-thread bound and a 32-VGPR request: spills.
extern "C" __global__ void __launch_bounds__(1024) __attribute__((amdgpu_num_vgpr(32)))
spill_kernel(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  float4 r[24];
  int i = threadIdx.x + blockIdx.x * 1024;
#pragma unroll
  for (int j = 0; j < 24; ++j) r[j] = in[i + j * n];
#pragma unroll
  for (int it = 0; it < 4; ++it) {
#pragma unroll
    for (int j = 0; j < 24; ++j) {
      r[j].x = r[j].x * r[(j + 1) % 24].y + r[(j + 5) % 24].z;
      r[j].w += r[j].x;
    }
  }
  float4 s = {0, 0, 0, 0};
#pragma unroll
  for (int j = 0; j < 24; ++j) {
    s.x += r[j].x;
    s.y += r[j].y * r[j].w;
    s.z += r[j].z;
    s.w += r[j].w;
  }
  out[i] = s;
}

// Narrow loads in a loop (one float per iteration) for the ISA lint.
extern "C" __global__ void __launch_bounds__(256)
scalar_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  float s = 0.f;
  for (int j = threadIdx.x; j < n; j += 256) s += in[j] * in[j];
  out[threadIdx.x] = s;
}
