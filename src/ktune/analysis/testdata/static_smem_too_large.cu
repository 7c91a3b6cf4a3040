extern "C" __global__ void too_much_smem(float* out) {
  __shared__ float big[60000];
  big[threadIdx.x] = threadIdx.x; __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % 60000];
}
