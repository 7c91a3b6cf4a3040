// Standalone GPU check and timing of ktune's sm_80 generated GEMM (gemm_sm80.cuh), without
// ktune itself: build_sm80_harness.sh compiles this file once per kernel configuration with
// -DKT_HARNESS_INSTANCE=<id> and the knob/problem macros (each such object holds one kernel and
// a function describing it), and once without it for the driver below, which checks every
// configuration against an fp32 reference kernel and times the ones marked for timing.
//
//   sm80_harness [check] [time]     (both by default); exit status 1 when any check fails.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "../../src/ktune/families/generated/kernels/gemm_params.h"

struct KtHarnessInstance {
  const char* name;
  const void* kernel;  // __global__ void(KtuneGemmParams)
  int in_type, out_type, a_k_contiguous, b_k_contiguous, reads_c, bias, activation, split_k;
  int tile_m, tile_n, tile_k, subgroup_m, subgroup_n, stages, vector_bytes, threads, shared_bytes;
  int timed;
};

#define KT_HARNESS_CAT2(a, b) a##b
#define KT_HARNESS_CAT(a, b) KT_HARNESS_CAT2(a, b)

#ifdef KT_HARNESS_INSTANCE
// ---- one kernel configuration ---------------------------------------------------------------
#define ktune_gemm_sm80 KT_HARNESS_CAT(ktune_gemm_sm80_, KT_HARNESS_INSTANCE)
#include "../../src/ktune/families/generated/kernels/gemm_common.cuh"
#include "../../src/ktune/families/generated/kernels/gemm_sm80.cuh"

#ifndef KT_HARNESS_TIMED
#define KT_HARNESS_TIMED 0
#endif
#define KT_HARNESS_STR2(x) #x
#define KT_HARNESS_STR(x) KT_HARNESS_STR2(x)

KtHarnessInstance KT_HARNESS_CAT(kt_harness_instance_, KT_HARNESS_INSTANCE)() {
  KtHarnessInstance info;
  info.name = KT_HARNESS_STR(KT_HARNESS_INSTANCE);
  info.kernel = reinterpret_cast<const void*>(&ktune_gemm_sm80);
  info.in_type = KT_IN_TYPE;
  info.out_type = KT_OUT_TYPE;
  info.a_k_contiguous = KT_A_K_CONTIGUOUS;
  info.b_k_contiguous = KT_B_K_CONTIGUOUS;
  info.reads_c = KT_READS_C;
  info.bias = KT_HAS_BIAS;
  info.activation = KT_ACTIVATION;
  info.split_k = KT_SPLIT_K;
  info.tile_m = KT_TILE_M;
  info.tile_n = KT_TILE_N;
  info.tile_k = KT_TILE_K;
  info.subgroup_m = KT_SUBGROUP_M;
  info.subgroup_n = KT_SUBGROUP_N;
  info.stages = KT_STAGES;
  info.vector_bytes = KT_VECTOR_BYTES;
  info.threads = KT_THREADS;
  info.shared_bytes = KT80_SHARED_BYTES;
  info.timed = KT_HARNESS_TIMED;
  return info;
}

#else
// ---- the driver -------------------------------------------------------------------------------
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define KT_INSTANCE(id) KtHarnessInstance kt_harness_instance_##id();
#include "sm80_instances.inc"
#undef KT_INSTANCE

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                           \
    cudaError_t err_ = (call);                                                                   \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(2);                                                                              \
    }                                                                                            \
  } while (0)

namespace {

__device__ float to_float(uint16_t v, int type) {
  if (type == 1) return __uint_as_float(static_cast<uint32_t>(v) << 16);
  __half_raw raw;
  raw.x = v;
  return __half2float(__half(raw));
}
__device__ uint16_t from_float(float f, int type) {
  if (type == 1) {
    __nv_bfloat16 h = __float2bfloat16_rn(f);
    return *reinterpret_cast<uint16_t*>(&h);
  }
  __half h = __float2half_rn(f);
  return *reinterpret_cast<uint16_t*>(&h);
}
__device__ float load_storage(const void* base, long long i, int type) {
  if (type == 2) return static_cast<const float*>(base)[i];
  return to_float(static_cast<const uint16_t*>(base)[i], type);
}

__device__ uint32_t hash32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}
// Uniform in [-1, 1), rounded to the storage type.
__global__ void fill_random(void* out, long long count, int type, uint64_t seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const float v = static_cast<float>(hash32(seed * 0x9e3779b97f4a7c15ULL + i)) / 2147483648.0f - 1.0f;
    if (type == 2)
      static_cast<float*>(out)[i] = v;
    else
      static_cast<uint16_t*>(out)[i] = from_float(v, type);
  }
}

struct RefArgs {
  const void* a;
  const void* b;
  const void* c;
  const void* bias;
  float* d;
  long long m, n, k, lda, ldb, ldc, sa, sb, sc;
  int in_type, out_type, a_k, b_k, act;
  float alpha, beta;
};
// fp32 reference: 16 x 16 output tiles through shared memory, one thread per output.
__global__ void reference_gemm(RefArgs r) {
  __shared__ float ta[16][17];
  __shared__ float tb[16][17];
  const int batch = blockIdx.z;
  const long long i = blockIdx.y * 16LL + threadIdx.y;
  const long long j = blockIdx.x * 16LL + threadIdx.x;
  const uint16_t* a = static_cast<const uint16_t*>(r.a) + batch * r.sa;
  const uint16_t* b = static_cast<const uint16_t*>(r.b) + batch * r.sb;
  float sum = 0.0f;
  for (long long k0 = 0; k0 < r.k; k0 += 16) {
    {  // ta[y][x] = A(blockrow + y, k0 + x)
      const long long ai = blockIdx.y * 16LL + threadIdx.y, ak = k0 + threadIdx.x;
      float v = 0.0f;
      if (ai < r.m && ak < r.k) v = to_float(r.a_k ? a[ai * r.lda + ak] : a[ak * r.lda + ai], r.in_type);
      ta[threadIdx.y][threadIdx.x] = v;
      // tb[y][x] = B(k0 + y, blockcol + x)
      const long long bk = k0 + threadIdx.y, bj = blockIdx.x * 16LL + threadIdx.x;
      float w = 0.0f;
      if (bk < r.k && bj < r.n) w = to_float(r.b_k ? b[bj * r.ldb + bk] : b[bk * r.ldb + bj], r.in_type);
      tb[threadIdx.y][threadIdx.x] = w;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) sum += ta[threadIdx.y][kk] * tb[kk][threadIdx.x];
    __syncthreads();
  }
  if (i >= r.m || j >= r.n) return;
  float v = r.alpha * sum;
  if (r.c) v += r.beta * load_storage(r.c, batch * r.sc + i * r.ldc + j, r.out_type);
  if (r.bias) v += load_storage(r.bias, j, r.out_type);
  if (r.act == 1) v = v > 0.0f ? v : 0.0f;
  if (r.act == 2) v = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  r.d[batch * r.m * r.n + i * r.n + j] = v;
}

// errors[0] = max |d - ref| (as uint bits of a non-negative float), [1] = max |ref|,
// [2] = non-finite outputs, [3] = bytes of the guard tail that changed, [4] = non-zero
// workspace words, [5] = non-zero counters.
__global__ void compare(const void* d, const float* ref, long long count, int out_type, unsigned int* errors) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const float v = load_storage(d, i, out_type);
    if (!isfinite(v)) {
      atomicAdd(&errors[2], 1u);
      continue;
    }
    atomicMax(&errors[0], __float_as_uint(fabsf(v - ref[i])));
    atomicMax(&errors[1], __float_as_uint(fabsf(ref[i])));
  }
}
__global__ void count_changed(const unsigned char* bytes, long long count, unsigned char expected,
                              unsigned int* counter) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    if (bytes[i] != expected) atomicAdd(counter, 1u);
}
__global__ void count_nonzero(const unsigned int* words, long long count, unsigned int* counter) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    if (words[i] != 0u) atomicAdd(counter, 1u);
}

struct Shape {
  long long m, n, k;
  int batch;
};

long long round_up(long long x, long long to) { return (x + to - 1) / to * to; }

// Owns device buffers for one problem; lives for one (instance, shape) run.
struct Problem {
  const KtHarnessInstance& in;
  Shape s;
  long long lda, ldb, sa, sb;
  void *a = nullptr, *b = nullptr, *c = nullptr, *bias = nullptr, *d = nullptr;
  float* ref = nullptr;
  float* workspace = nullptr;
  unsigned int* counters = nullptr;
  long long d_bytes = 0, guard_bytes = 4096;
  int tiles_m, tiles_n;

  Problem(const KtHarnessInstance& instance, Shape shape, bool need_ref) : in(instance), s(shape) {
    // Leading dimensions padded to the kernel's vector width: odd sizes still take 16-byte copies.
    const long long e = in.vector_bytes / 2;
    const long long a_rows = in.a_k_contiguous ? s.m : s.k, a_cols = in.a_k_contiguous ? s.k : s.m;
    const long long b_rows = in.b_k_contiguous ? s.n : s.k, b_cols = in.b_k_contiguous ? s.k : s.n;
    lda = round_up(a_cols, e);
    ldb = round_up(b_cols, e);
    sa = a_rows * lda;
    sb = b_rows * ldb;
    const int out_bytes = in.out_type == 2 ? 4 : 2;
    CUDA_CHECK(cudaMalloc(&a, sa * s.batch * 2 + 16));
    CUDA_CHECK(cudaMalloc(&b, sb * s.batch * 2 + 16));
    fill_random<<<1024, 256>>>(a, sa * s.batch, in.in_type, 11);
    fill_random<<<1024, 256>>>(b, sb * s.batch, in.in_type, 22);
    if (in.reads_c) {
      CUDA_CHECK(cudaMalloc(&c, s.m * s.n * s.batch * out_bytes));
      fill_random<<<1024, 256>>>(c, s.m * s.n * s.batch, in.out_type, 33);
    }
    if (in.bias) {
      CUDA_CHECK(cudaMalloc(&bias, s.n * out_bytes));
      fill_random<<<64, 256>>>(bias, s.n, in.out_type, 44);
    }
    d_bytes = s.m * s.n * s.batch * out_bytes;
    CUDA_CHECK(cudaMalloc(&d, d_bytes + guard_bytes));
    if (need_ref) CUDA_CHECK(cudaMalloc(&ref, s.m * s.n * s.batch * sizeof(float)));
    tiles_m = static_cast<int>((s.m + in.tile_m - 1) / in.tile_m);
    tiles_n = static_cast<int>((s.n + in.tile_n - 1) / in.tile_n);
    if (in.split_k) {
      CUDA_CHECK(cudaMalloc(&workspace, s.m * s.n * s.batch * sizeof(float)));
      CUDA_CHECK(cudaMemset(workspace, 0, s.m * s.n * s.batch * sizeof(float)));
      CUDA_CHECK(cudaMalloc(&counters, static_cast<size_t>(tiles_m) * tiles_n * s.batch * sizeof(unsigned)));
      CUDA_CHECK(cudaMemset(counters, 0, static_cast<size_t>(tiles_m) * tiles_n * s.batch * sizeof(unsigned)));
    }
  }
  ~Problem() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(bias);
    cudaFree(d);
    cudaFree(ref);
    cudaFree(workspace);
    cudaFree(counters);
  }

  float alpha() const { return 0.75f; }
  float beta() const { return in.reads_c ? -0.5f : 0.0f; }

  // Returns the split actually used (slices all non-empty).
  int make_params(KtuneGemmParams& p, int split) const {
    std::memset(&p, 0, sizeof(p));
    p.a = a;
    p.b = b;
    p.c = c;
    p.d = d;
    p.bias = bias;
    p.m = s.m;
    p.n = s.n;
    p.k = s.k;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = s.n;
    p.ldd = s.n;
    p.batch_stride_a = sa;
    p.batch_stride_b = sb;
    p.batch_stride_c = s.m * s.n;
    p.batch_stride_d = s.m * s.n;
    p.batch = s.batch;
    const long long k_tiles = std::max(1LL, (s.k + in.tile_k - 1) / in.tile_k);
    long long slices = std::min<long long>(split, k_tiles);
    const long long per = (k_tiles + slices - 1) / slices;
    slices = (k_tiles + per - 1) / per;
    p.split_k = static_cast<int>(slices);
    p.k_per_split = per * in.tile_k;
    p.workspace = slices > 1 ? workspace : nullptr;
    p.counters = slices > 1 ? counters : nullptr;
    p.tiles_m = tiles_m;
    p.tiles_n = tiles_n;
    p.swizzle_group = 8;
    p.alpha = alpha();
    p.beta = beta();
    return p.split_k;
  }

  void launch(const KtuneGemmParams& p, cudaStream_t stream = 0) const {
    dim3 grid(static_cast<unsigned>(p.tiles_m * p.tiles_n), static_cast<unsigned>(p.split_k),
              static_cast<unsigned>(p.batch));
    void* args[] = {const_cast<KtuneGemmParams*>(&p)};
    CUDA_CHECK(cudaLaunchKernel(in.kernel, grid, dim3(in.threads), args, in.shared_bytes, stream));
  }
};

const char* type_name(int t) { return t == 0 ? "f16" : t == 1 ? "bf16" : "f32"; }
std::string describe(const KtHarnessInstance& in) {
  char text[256];
  std::snprintf(text, sizeof text, "%s %s%s %s->%s %dx%dx%d w%dx%d s%d v%d%s%s%s%s", in.name,
                in.a_k_contiguous ? "n" : "t", in.b_k_contiguous ? "t" : "n", type_name(in.in_type),
                type_name(in.out_type), in.tile_m, in.tile_n, in.tile_k, in.subgroup_m, in.subgroup_n, in.stages,
                in.vector_bytes, in.reads_c ? " beta" : "", in.bias ? " bias" : "",
                in.activation == 1 ? " relu" : in.activation == 2 ? " gelu" : "", in.split_k ? " splitk" : "");
  return text;
}

bool check_one(const KtHarnessInstance& in, Shape shape, int split) {
  Problem pr(in, shape, true);
  KtuneGemmParams p;
  const int used_split = pr.make_params(p, split);
  RefArgs r{pr.a, pr.b, pr.c, pr.bias, pr.ref, shape.m, shape.n, shape.k, pr.lda, pr.ldb, shape.n, pr.sa, pr.sb,
            shape.m * shape.n, in.in_type, in.out_type, in.a_k_contiguous, in.b_k_contiguous, in.activation,
            p.alpha, p.beta};
  reference_gemm<<<dim3(static_cast<unsigned>((shape.n + 15) / 16), static_cast<unsigned>((shape.m + 15) / 16),
                        static_cast<unsigned>(shape.batch)),
                   dim3(16, 16)>>>(r);
  CUDA_CHECK(cudaGetLastError());
  unsigned int* errors;
  CUDA_CHECK(cudaMalloc(&errors, 8 * sizeof(unsigned)));
  bool ok = true;
  double worst = 0.0;
  // Twice: the second launch finds the workspace and counters the first one left behind.
  for (int round = 0; round < 2; ++round) {
    CUDA_CHECK(cudaMemset(pr.d, 0xff, pr.d_bytes + pr.guard_bytes));  // NaN in every output type
    CUDA_CHECK(cudaMemset(errors, 0, 8 * sizeof(unsigned)));
    pr.launch(p);
    CUDA_CHECK(cudaGetLastError());
    const long long count = shape.m * shape.n * shape.batch;
    compare<<<1024, 256>>>(pr.d, pr.ref, count, in.out_type, errors);
    count_changed<<<16, 256>>>(static_cast<unsigned char*>(pr.d) + pr.d_bytes, pr.guard_bytes, 0xff, errors + 3);
    if (used_split > 1) {
      count_nonzero<<<1024, 256>>>(reinterpret_cast<unsigned*>(pr.workspace), count, errors + 4);
      count_nonzero<<<64, 256>>>(pr.counters, static_cast<long long>(pr.tiles_m) * pr.tiles_n * shape.batch,
                                 errors + 5);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned host[8];
    CUDA_CHECK(cudaMemcpy(host, errors, sizeof host, cudaMemcpyDeviceToHost));
    float max_err, max_ref;
    std::memcpy(&max_err, &host[0], 4);
    std::memcpy(&max_ref, &host[1], 4);
    const double rel = max_err / std::max(1e-6, static_cast<double>(max_ref));
    const double tol = in.out_type == 1 ? 1e-2 : in.out_type == 0 ? 2e-3 : 1e-4;
    worst = std::max(worst, rel);
    if (!(rel <= tol) || host[2] || host[3] || host[4] || host[5]) {
      std::printf("FAIL %-60s %lldx%lldx%lld b%d split %d (round %d): rel err %.3g (tol %.1g), %u non-finite, "
                  "%u guard bytes changed, %u workspace words and %u counters left non-zero\n",
                  describe(in).c_str(), shape.m, shape.n, shape.k, shape.batch, used_split, round, rel, tol, host[2],
                  host[3], host[4], host[5]);
      ok = false;
      break;
    }
  }
  if (ok)
    std::printf("ok   %-60s %lldx%lldx%lld b%d split %d: rel err %.3g\n", describe(in).c_str(), shape.m, shape.n,
                shape.k, shape.batch, used_split, worst);
  cudaFree(errors);
  return ok;
}

double time_one(const KtHarnessInstance& in, Shape shape, void* flush, size_t flush_bytes) {
  Problem pr(in, shape, false);
  KtuneGemmParams p;
  pr.make_params(p, 1);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) pr.launch(p);
  std::vector<float> ms;
  for (int rep = 0; rep < 25; ++rep) {
    CUDA_CHECK(cudaMemsetAsync(flush, rep & 0xff, flush_bytes));  // evicts A, B and D from L2
    CUDA_CHECK(cudaEventRecord(start));
    pr.launch(p);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CUDA_CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const double median = ms[ms.size() / 2];
  return 2.0 * shape.m * shape.n * shape.k * shape.batch / (median * 1e-3) / 1e12;
}

}  // namespace

int main(int argc, char** argv) {
  bool do_check = argc < 2, do_time = argc < 2;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "check")) do_check = true;
    if (!std::strcmp(argv[i], "time")) do_time = true;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);

  std::vector<KtHarnessInstance> instances;
#define KT_INSTANCE(id) instances.push_back(kt_harness_instance_##id());
#include "sm80_instances.inc"
#undef KT_INSTANCE
  for (const auto& in : instances)
    CUDA_CHECK(cudaFuncSetAttribute(in.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, in.shared_bytes));

  int failures = 0, checks = 0;
  if (do_check) {
    const Shape shapes[] = {{1, 1, 1, 2}, {7, 7, 7, 2}, {511, 513, 129, 2}, {1000, 3000, 2000, 1}, {4097, 64, 100, 2}};
    for (const auto& in : instances) {
      if (in.timed) continue;
      for (const Shape& shape : shapes) {
        for (int split : {1, 3}) {
          if (split > 1 && !in.split_k) continue;
          ++checks;
          if (!check_one(in, shape, split)) ++failures;
        }
      }
    }
    // Timed configurations: one odd and one large shape each.
    for (const auto& in : instances) {
      if (!in.timed) continue;
      for (const Shape& shape : {Shape{511, 513, 129, 2}, Shape{1000, 3000, 2000, 1}}) {
        ++checks;
        if (!check_one(in, shape, 1)) ++failures;
      }
    }
    std::printf("checks: %d, failures: %d\n", checks, failures);
  }
  if (do_time) {
    void* flush;
    const size_t flush_bytes = 256u << 20;
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    for (const auto& in : instances) {
      if (!in.timed) continue;
      std::vector<Shape> shapes;
      // The asked-for shapes (bf16 4096^3; f16 2048x10240x1280 and 1000x3000x2000), plus the other
      // type's big shape, which tells shape effects from type effects.
      if (in.in_type == 1) shapes = {{4096, 4096, 4096, 1}, {2048, 10240, 1280, 1}};
      else shapes = {{2048, 10240, 1280, 1}, {1000, 3000, 2000, 1}, {4096, 4096, 4096, 1}};
      for (const Shape& shape : shapes)
        std::printf("time %-60s %lldx%lldx%lld: %.1f TFLOP/s\n", describe(in).c_str(), shape.m, shape.n, shape.k,
                    time_one(in, shape, flush, flush_bytes));
    }
    cudaFree(flush);
  }
  return failures ? 1 : 0;
}
#endif
