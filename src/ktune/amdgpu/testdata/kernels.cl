// OpenCL C tiled matmul (reqd_work_group_size pins 256 work-items) for the amdgpu tests.
#define TILE 16
__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void mm_cl(global const float* restrict A, global const float* restrict B, global float* restrict C, int N) {
  local float As[TILE][TILE], Bs[TILE][TILE];
  int t = get_local_id(0);
  int tx = t % TILE, ty = t / TILE;
  int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;
  float acc = 0;
  for (int k0 = 0; k0 < N; k0 += TILE) {
    As[ty][tx] = A[row * N + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

kernel void vec_copy4(global const float4* restrict in, global float4* restrict out, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i] * 2.0f;
}
