// Kernels for the ISA lint tests (PTX and SASS): vector loads, scalar loads in a loop,
// local-memory spills and tensor-core mma.
#include <cuda_fp16.h>

extern "C" __global__ void vec4_copy(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float4 v = in[i];
    v.x *= 2.f; v.y *= 2.f; v.z *= 2.f; v.w *= 2.f;
    out[i] = v;
  }
}

extern "C" __global__ void scalar_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  float s = 0.f;
  for (int j = threadIdx.x; j < n; j += blockDim.x) s += in[j] * in[j];
  out[threadIdx.x] = s;
}

extern "C" __global__ void local_array(const float* __restrict__ in, float* __restrict__ out, const int* __restrict__ idx) {
  float r[16];
  for (int j = 0; j < 16; ++j) r[j] = in[threadIdx.x + j * 256];
  out[threadIdx.x] = r[idx[threadIdx.x] & 15];
}

// 48 live values under a 32-register cap (launch bounds 1024 threads x 2 blocks): spills.
extern "C" __global__ void __launch_bounds__(1024, 2) spill(const float* __restrict__ in, float* __restrict__ out) {
  float v[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) v[i] = in[threadIdx.x + i * 1024];
  float acc = 0;
#pragma unroll
  for (int r = 0; r < 1; ++r)
#pragma unroll
    for (int i = 0; i < 48; ++i) {
      acc = acc * v[(i * 7 + r) % 48] + v[i];
      v[i] = acc * 0.5f + v[(i + 1) % 48];
    }
#pragma unroll
  for (int i = 0; i < 48; ++i) out[threadIdx.x + i * 1024] = v[i];
}

// One m16n8k16 f16 mma per iteration (sm_80+).
extern "C" __global__ void mma_loop(const unsigned* __restrict__ a, const unsigned* __restrict__ b, float* __restrict__ c, int k_steps) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  int lane = threadIdx.x & 31;
  for (int k = 0; k < k_steps; ++k) {
    unsigned a0 = a[k * 128 + lane], a1 = a[k * 128 + 32 + lane], a2 = a[k * 128 + 64 + lane], a3 = a[k * 128 + 96 + lane];
    unsigned b0 = b[k * 64 + lane], b1 = b[k * 64 + 32 + lane];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  c[lane * 4 + 0] = d0; c[lane * 4 + 1] = d1; c[lane * 4 + 2] = d2; c[lane * 4 + 3] = d3;
}
