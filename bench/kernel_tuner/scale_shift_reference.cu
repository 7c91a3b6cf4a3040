// ktune's reference for scale_shift.cu: y[i] = a * x[i] + b in double, rounded once to float.
// Launched once per session with a candidate's geometry: a grid-stride loop over every thread of
// whatever grid it gets, so the result does not depend on the geometry.

extern "C" __global__ void scale_shift_reference(const float* __restrict__ x, float* __restrict__ y, float a, float b, int n) {
  const long long threads_per_block = static_cast<long long>(blockDim.x) * blockDim.y * blockDim.z;
  const long long block = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  const long long thread = threadIdx.x + blockDim.x * (threadIdx.y + static_cast<long long>(blockDim.y) * threadIdx.z);
  const long long all = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
  for (long long i = block * threads_per_block + thread; i < n; i += all)
    y[i] = static_cast<float>(static_cast<double>(a) * x[i] + static_cast<double>(b));
}
