__constant__ float table[256];
__device__ float gbuf[1024];
__device__ __noinline__ float helper(float* p, int n) { float s = 0; for (int i = 0; i < n; ++i) s += p[i] * table[i & 255]; return s; }
extern "C" __global__ void __launch_bounds__(256) spill(const float* in, float* out, int n) {
  float local[64];
  #pragma unroll
  for (int i = 0; i < 64; ++i) local[i] = in[threadIdx.x * 64 + i] * 1.5f + table[i];
  float acc = 0;
  #pragma unroll
  for (int j = 0; j < 64; ++j)
    #pragma unroll
    for (int i = 0; i < 64; ++i) acc += local[i] * local[(i + j) & 63];
  out[threadIdx.x] = acc + helper(local, n) + gbuf[threadIdx.x];
}
