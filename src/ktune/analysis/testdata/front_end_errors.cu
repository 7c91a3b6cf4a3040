extern "C" __global__ void broken(float* out) {
  out[threadIdx.x] = undefined_name + 1;
  int x = "text";
}
