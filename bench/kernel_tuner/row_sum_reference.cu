// ktune's reference for row_sum.cu: each row summed in double by one thread. ktune launches it
// once per session with a candidate's geometry, so it strides over the rows with every thread of
// whatever grid it gets; the result does not depend on the geometry.

extern "C" __global__ void row_sum_reference(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  const long long threads_per_block = static_cast<long long>(blockDim.x) * blockDim.y * blockDim.z;
  const long long block = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  const long long thread = threadIdx.x + blockDim.x * (threadIdx.y + static_cast<long long>(blockDim.y) * threadIdx.z);
  const long long all = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
  for (long long r = block * threads_per_block + thread; r < rows; r += all) {
    const float* p = x + r * cols;
    double s = 0;
    for (int c = 0; c < cols; ++c) s += p[c];
    y[r] = static_cast<float>(s);
  }
}
