// y = x, one float4 per thread: a memory-bound kernel for comparing ktune's timing with
// triton.testing.do_bench (bench/measure_agreement.py). N is a multiple of 4 (the spec says so).
extern "C" __global__ void copy_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
  const long long i = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (i < n) *reinterpret_cast<float4*>(y + i) = *reinterpret_cast<const float4*>(x + i);
}
