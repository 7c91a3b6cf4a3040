extern "C" __global__ void spill(const float* in, float* out) {
  float v[96];
  #pragma unroll
  for (int i = 0; i < 96; ++i) v[i] = in[threadIdx.x + i * 1024];
  float acc = 0;
  #pragma unroll
  for (int r = 0; r < 4; ++r)
  #pragma unroll
  for (int i = 0; i < 96; ++i) { acc = acc * v[(i * 7 + r) % 96] + v[i]; v[i] = acc * 0.5f + v[(i+1)%96]; }
  #pragma unroll
  for (int i = 0; i < 96; ++i) out[threadIdx.x + i * 1024] = v[i];
}
