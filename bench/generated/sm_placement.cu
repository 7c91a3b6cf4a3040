// Where the hardware places CTAs: blockIdx -> SM for a plain launch and for cluster launches of
// 2, 4 and 8, and SM -> GPC (the CTAs of one cluster share a GPC; clusters of 16 need the
// non-portable size, which also shows how many SMs each GPC holds). Prints one JSON object.
// Explains which CTAs of a generated GEMM can have their L2 requests merged (LRC, per GPC).
//   nvcc -arch=sm_90a -o sm_placement sm_placement.cu && ./sm_placement > placement.json
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void record(int* smid, long long* start) {
  if (threadIdx.x == 0) {
    int s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    smid[blockIdx.x] = s;
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    start[blockIdx.x] = t;
  }
  // Keep every CTA resident long enough that no SM takes two.
  long long t0 = clock64();
  while (clock64() - t0 < 2000000) {
  }
}

static std::vector<int> launch(int blocks, int cluster, std::vector<long long>* starts) {
  int* d;
  long long* t;
  cudaMalloc(&d, blocks * sizeof(int));
  cudaMalloc(&t, blocks * sizeof(long long));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = cluster > 1 ? 1 : 0;
  if (cluster > 8) cudaFuncSetAttribute(record, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaError_t e = cudaLaunchKernelEx(&cfg, record, d, t);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::vector<int> out(blocks, -1);
  std::vector<long long> ts(blocks, 0);
  if (e == cudaSuccess) {
    cudaMemcpy(out.data(), d, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(ts.data(), t, blocks * sizeof(long long), cudaMemcpyDeviceToHost);
  } else {
    fprintf(stderr, "cluster %d: %s\n", cluster, cudaGetErrorString(e));
    cudaGetLastError();
  }
  cudaFree(d);
  cudaFree(t);
  if (starts) *starts = ts;
  return out;
}

static void print_list(const char* key, const std::vector<int>& v, bool last = false) {
  printf("\"%s\": [", key);
  for (size_t i = 0; i < v.size(); ++i) printf("%s%d", i ? "," : "", v[i]);
  printf("]%s\n", last ? "" : ",");
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("{\"sm_count\": %d,\n", sms);
  std::vector<long long> starts;
  print_list("plain", launch(sms, 1, &starts));
  std::vector<int> rel(starts.size());
  for (size_t i = 0; i < starts.size(); ++i) rel[i] = static_cast<int>(starts[i] - starts[0]);
  print_list("plain_start_ns", rel);
  for (int c : {2, 4, 8, 16}) {
    char key[32];
    snprintf(key, sizeof key, "cluster%d", c);
    print_list(key, launch(sms / c * c, c, nullptr), c == 16);
  }
  printf("}\n");
  return 0;
}
