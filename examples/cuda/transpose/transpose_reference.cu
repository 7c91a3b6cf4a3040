// Reference transpose: one element at a time, striding over the whole matrix with whatever
// grid and block the candidate was launched with.

namespace ktune_examples {

__global__ void transpose_reference(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  const long long threads_per_block = static_cast<long long>(blockDim.x) * blockDim.y * blockDim.z;
  const long long block = blockIdx.x + static_cast<long long>(gridDim.x) * (blockIdx.y + static_cast<long long>(gridDim.y) * blockIdx.z);
  const long long thread = threadIdx.x + static_cast<long long>(blockDim.x) * (threadIdx.y + static_cast<long long>(blockDim.y) * threadIdx.z);
  const long long stride = threads_per_block * gridDim.x * gridDim.y * gridDim.z;
  const long long total = static_cast<long long>(rows) * cols;
  for (long long idx = block * threads_per_block + thread; idx < total; idx += stride) {
    const long long r = idx / cols;
    const long long c = idx % cols;
    out[c * rows + r] = in[idx];
  }
}

}  // namespace ktune_examples
