// Standalone GPU check and benchmark of ktune's sm_90a generated GEMM (gemm_sm90.cuh).
//
// Every kernel variant (knobs + problem traits) is compiled ahead of time into its own cubin by
// build_sm90_harness.sh (the harness writes each variant's defines with --list-builds), then loaded
// with the driver API: the same way ktune loads NVRTC output. Each case runs against a plain
// fp32 GPU reference (outputs poisoned with NaN first, random inputs); timed cases report the
// median of 30 cudaEvent-timed launches with L2 flushed (256 MB written) before each.
//
//   sm90_harness --list-builds DIR      writes each variant's defines to DIR/<name>.h and prints
//                                       "<name> -include DIR/<name>.h" (for the build script)
//   sm90_harness <cubin dir> [--quick]  check (and time) every case

#include <cublasLt.h>
#include <cuda.h>
#include <dlfcn.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <type_traits>
#include <map>
#include <optional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/ktune/families/generated/sm90_path.h"

using ktune::generated::GeneratedKnobs;
using ktune::generated::KernelPath;
using ktune::generated::ProblemTraits;

#define CHECK_CUDA(x)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)
#define CHECK_CU(x)                                                                                \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char* s_ = nullptr;                                                                    \
      driver.get_error_string(r_, &s_);                                                                   \
      std::fprintf(stderr, "%s:%d %s: %d %s\n", __FILE__, __LINE__, #x, int(r_), s_ ? s_ : "?"); \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

// ---- variants and cases ---------------------------------------------------------------------

struct Variant {
  GeneratedKnobs knobs;
  ProblemTraits traits;  // types, layouts, epilogue (sizes come from the case)
  bool splitk_code = false;
  bool pingpong = false;  // KT_PINGPONG: not a GeneratedKnobs field (yet); 2 consumers, 1x1 subgroups

  std::string name() const {
    const auto& k = knobs;
    std::ostringstream s;
    s << "t" << k.tile_m << "x" << k.tile_n << "x" << k.tile_k << "_w" << k.subgroup_m << "x" << k.subgroup_n << "_s"
      << k.stages << "_p" << k.persistent << "_b" << k.min_blocks_per_sm << "_i" << traits.in_type << "o"
      << traits.out_type << "_" << (traits.a_k_contiguous ? "n" : "t") << (traits.b_k_contiguous ? "t" : "n") << "_c"
      << traits.reads_c << "b" << traits.bias << "a" << traits.activation << "_sk" << splitk_code
      << (pingpong ? "_pp" : "");
    return s.str();
  }
  // What the emitter puts before the kernel sources for this variant: the problem-trait macros
  // and sm90_defines (knobs and kt_wgmma's operand lists, which need quotes and commas, so they
  // travel as a header given to nvcc with -include rather than as -D flags).
  std::string header() const {
    std::ostringstream s;
    s << "#define KT_IN_TYPE " << traits.in_type << "\n#define KT_OUT_TYPE " << traits.out_type
      << "\n#define KT_A_K_CONTIGUOUS " << traits.a_k_contiguous << "\n#define KT_B_K_CONTIGUOUS "
      << traits.b_k_contiguous << "\n#define KT_READS_C " << traits.reads_c << "\n#define KT_HAS_BIAS " << traits.bias
      << "\n#define KT_ACTIVATION " << traits.activation << "\n#define KT_SPLIT_K " << splitk_code << "\n"
      << ktune::generated::sm90_defines(knobs);
    if (pingpong) s << "#define KT_PINGPONG 1\n";
    return s.str();
  }
};

struct Case {
  Variant v;
  std::int64_t m, n, k, batch;
  bool timed;
};

// sm90_rejects, and for pingpong (which the host path does not know yet) the same question
// asked of the two-consumer shape it shares registers and threads with.
std::optional<std::string> rejects(const Variant& v, const ProblemTraits& t) {
  if (!v.pingpong) return ktune::generated::sm90_rejects(v.knobs, t);
  if (!v.knobs.persistent || v.knobs.subgroup_m != 1 || v.knobs.subgroup_n != 1)
    return std::string("pingpong needs persistent and 1x1 subgroups");
  GeneratedKnobs twin = v.knobs;  // 2 consumers along M, each tile_m rows: same threads, same accumulators
  twin.tile_m *= 2;
  twin.subgroup_m = 2;
  if (auto why = ktune::generated::sm90_rejects(twin, t)) {
    // the twin's larger A tile may not fit where the real one does; only registers/strides matter
    if (why->find("shared memory") == std::string::npos && why->find("228 KB") == std::string::npos &&
        why->find("TMA box") == std::string::npos)
      return why;
  }
  GeneratedKnobs own = v.knobs;
  own.subgroup_m = 1;
  if (auto why = ktune::generated::sm90_rejects(own, t)) {
    if (why->find("accumulators") == std::string::npos) return why;
  }
  return std::nullopt;
}

GeneratedKnobs knobs(int tm, int tn, int tk, int sm, int sn, int stages, bool persistent, int split = 1,
                     int min_blocks = 1, int swizzle = 8) {
  GeneratedKnobs k;
  k.path = KernelPath::Wgmma;
  k.tile_m = tm;
  k.tile_n = tn;
  k.tile_k = tk;
  k.subgroup_m = sm;
  k.subgroup_n = sn;
  k.stages = stages;
  k.persistent = persistent;
  k.split_k = split;
  k.min_blocks_per_sm = min_blocks;
  k.swizzle_group = swizzle;
  return k;
}

ProblemTraits traits(const char* layout, int in_type = 1, int out_type = 1, bool reads_c = false, bool bias = false,
                     int act = 0) {
  ProblemTraits t;
  t.in_type = in_type;
  t.out_type = out_type;
  t.a_k_contiguous = layout[0] == 'n';
  t.b_k_contiguous = layout[1] == 't';
  t.reads_c = reads_c;
  t.bias = bias;
  t.activation = act;
  return t;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  auto add = [&](GeneratedKnobs k, ProblemTraits t, std::int64_t m, std::int64_t n, std::int64_t kk,
                 std::int64_t batch = 1, bool timed = false, bool pingpong = false) {
    Variant v{k, t, k.split_k > 1, pingpong};
    cases.push_back(Case{v, m, n, kk, batch, timed});
  };
  // Staged (shared memory + bulk copy) stores: 3 stages of 128x256 leave room for them.
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    add(knobs(128, 256, 64, 2, 1, 3, true), traits(layout), 1000, 3000, 2000);
    add(knobs(128, 256, 64, 2, 1, 3, false), traits(layout), 264, 520, 136, 3);
  }
  add(knobs(128, 256, 64, 2, 1, 3, true), traits("nn", 1, 1, true, true, 2), 1000, 3000, 2000, 2);
  add(knobs(256, 128, 64, 2, 1, 3, true), traits("tn", 0, 0, true, true, 1), 1000, 3000, 2000);
  // Pingpong: every layout, odd sizes, split-K with the full epilogue.
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    add(knobs(64, 256, 64, 1, 1, 5, true), traits(layout), 1000, 3000, 2000, 1, false, true);
    add(knobs(128, 128, 64, 1, 1, 6, true), traits(layout), 264, 520, 136, 3, false, true);
  }
  add(knobs(64, 256, 64, 1, 1, 5, true, 4), traits("nn", 1, 2, true, true, 2), 1000, 3000, 2000, 2, false, true);
  add(knobs(128, 128, 64, 1, 1, 6, true, 4), traits("tt", 0, 0, true, true, 1), 264, 520, 1032, 2, false, true);
  const GeneratedKnobs big = knobs(128, 256, 64, 2, 1, 4, false);
  const GeneratedKnobs big_p = knobs(128, 256, 64, 2, 1, 4, true);
  // Every layout, odd sizes, both grid kinds.
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    for (const GeneratedKnobs& k : {big, big_p}) {
      add(k, traits(layout), 1000, 3000, 2000);
      add(k, traits(layout), 127, 255, 520);  // only "nt" has 16-byte TMA strides here
      add(k, traits(layout), 264, 520, 136, 3);
    }
    add(big, traits(layout), 4096, 4096, 4096);
  }
  // Epilogues, output types, f16, split-K (with and without persistence, batched).
  add(big, traits("nn", 1, 2, true, true, 2), 1000, 3000, 2000);
  add(big_p, traits("tt", 0, 0, true, true, 1), 1000, 3000, 2000, 2);
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    add(knobs(128, 256, 64, 2, 1, 4, false, 4), traits(layout, 1, 2, true, true, 2), 1000, 3000, 2000);
    add(knobs(128, 128, 64, 2, 1, 4, true, 4), traits(layout, 0, 1, false, true, 2), 264, 520, 1032, 2);
  }
  add(knobs(128, 256, 64, 2, 1, 4, false, 4), traits("nn"), 127, 264, 4096);
  // Other tile shapes.
  add(knobs(128, 128, 64, 1, 1, 4, false), traits("nn"), 1000, 3000, 2000);
  add(knobs(128, 128, 128, 2, 1, 3, true), traits("tn"), 1000, 3000, 2000);
  add(knobs(256, 128, 64, 2, 1, 4, true), traits("nn"), 1000, 3000, 2000);
  add(knobs(128, 192, 64, 2, 1, 4, false), traits("nn"), 1000, 3000, 2000);
  add(knobs(64, 256, 64, 1, 2, 4, false), traits("nt"), 1000, 3000, 2000);
  add(knobs(128, 96, 64, 1, 1, 4, false), traits("nt"), 1000, 3000, 2000);
  add(knobs(192, 128, 64, 3, 1, 4, true), traits("nn"), 1000, 3000, 2000);
  add(knobs(192, 256, 64, 3, 1, 3, true), traits("nn"), 1000, 3000, 2000);  // rejected: registers
  // Timed shapes.
  const std::vector<GeneratedKnobs> timed_knobs = {
      big,
      big_p,
      knobs(128, 256, 64, 2, 1, 3, true),
      knobs(128, 256, 64, 2, 1, 3, false),
      knobs(256, 128, 64, 2, 1, 3, true),
      knobs(128, 256, 64, 2, 1, 4, true, 1, 1, 16),
      knobs(256, 128, 64, 2, 1, 4, true),
      knobs(128, 192, 64, 2, 1, 5, true),
      knobs(128, 256, 64, 2, 1, 4, true, 1, 1, 4),
      knobs(256, 192, 64, 2, 1, 4, true),
      knobs(128, 128, 64, 2, 1, 6, true),
  };
  for (const GeneratedKnobs& k : timed_knobs) {
    add(k, traits("nn"), 4096, 4096, 4096, 1, true);
    add(k, traits("nn"), 8192, 8192, 8192, 1, true);
    add(k, traits("nn"), 4096, 14336, 4096, 1, true);
  }
  for (const GeneratedKnobs& k : {knobs(64, 256, 64, 1, 1, 5, true), knobs(64, 256, 64, 1, 1, 4, true),
                                  knobs(128, 128, 64, 1, 1, 6, true), knobs(128, 192, 64, 1, 1, 4, true),
                                  knobs(64, 256, 64, 1, 1, 5, true, 1, 1, 16)}) {
    add(k, traits("nn"), 4096, 4096, 4096, 1, true, true);
    add(k, traits("nn"), 8192, 8192, 8192, 1, true, true);
    add(k, traits("nn"), 4096, 14336, 4096, 1, true, true);
  }
  add(big_p, traits("nn", 0, 0), 4096, 4096, 4096, 1, true);
  add(big_p, traits("nt"), 4096, 4096, 4096, 1, true);
  add(big_p, traits("tn"), 4096, 4096, 4096, 1, true);
  add(big_p, traits("tt"), 4096, 4096, 4096, 1, true);
  return cases;
}

// ---- device helpers --------------------------------------------------------------------------

__device__ float load_elem(const void* p, long long i, int type) {
  if (type == 2) return static_cast<const float*>(p)[i];
  const unsigned short h = static_cast<const unsigned short*>(p)[i];
  if (type == 1) return __uint_as_float(static_cast<unsigned>(h) << 16);
  return __half2float(__ushort_as_half(h));
}

__device__ unsigned hash32(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<unsigned>(x);
}

__global__ void fill_random(void* p, long long count, int type, unsigned seed) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < count; i += 256ll * gridDim.x) {
    const float v = (hash32(i * 0x9E3779B97F4A7C15ull + seed) & 0xFFFFFF) / 8388608.0f - 1.0f;  // [-1, 1)
    if (type == 2) {
      static_cast<float*>(p)[i] = v;
    } else if (type == 1) {
      static_cast<unsigned short*>(p)[i] = __bfloat16_as_ushort(__float2bfloat16_rn(v));
    } else {
      static_cast<unsigned short*>(p)[i] = __half_as_ushort(__float2half_rn(v));
    }
  }
}

struct RefArgs {
  const void *a, *b, *c, *bias;
  float* out;
  long long m, n, k, lda, ldb;
  long long bsa, bsb;
  int in_type, out_type;
  bool a_kc, b_kc, reads_c, has_bias;
  int act;
  float alpha, beta;
};

// 16x16 shared-memory tiled fp32 reference, blockIdx.z = batch.
__global__ void reference_gemm(RefArgs r) {
  __shared__ float as[16][17], bs[16][17];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const long long i = blockIdx.y * 16ll + ty, j = blockIdx.x * 16ll + tx;
  const long long b = blockIdx.z;
  float acc = 0.0f;
  for (long long k0 = 0; k0 < r.k; k0 += 16) {
    {
      const long long ai = blockIdx.y * 16ll + ty, ak = k0 + tx;
      float v = 0.0f;
      if (ai < r.m && ak < r.k)
        v = load_elem(r.a, b * r.bsa + (r.a_kc ? ai * r.lda + ak : ak * r.lda + ai), r.in_type);
      as[ty][tx] = v;
      const long long bk = k0 + ty, bj = blockIdx.x * 16ll + tx;
      float w = 0.0f;
      if (bk < r.k && bj < r.n)
        w = load_elem(r.b, b * r.bsb + (r.b_kc ? bj * r.ldb + bk : bk * r.ldb + bj), r.in_type);
      bs[ty][tx] = w;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) acc += as[ty][kk] * bs[kk][tx];
    __syncthreads();
  }
  if (i >= r.m || j >= r.n) return;
  float v = r.alpha * acc;
  if (r.reads_c) v += r.beta * load_elem(r.c, b * r.m * r.n + i * r.n + j, r.out_type);
  if (r.has_bias) v += load_elem(r.bias, j, r.out_type);
  if (r.act == 1) v = v > 0.0f ? v : 0.0f;
  if (r.act == 2) v = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  r.out[b * r.m * r.n + i * r.n + j] = v;
}

struct CompareResult {
  float max_abs_err;
  float max_abs_ref;
  unsigned long long bad;  // NaN/Inf in D
};

__global__ void compare(const void* d, int out_type, const float* ref, long long count, CompareResult* out) {
  float err = 0.0f, mag = 0.0f;
  unsigned long long bad = 0;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < count; i += 256ll * gridDim.x) {
    const float x = load_elem(d, i, out_type);
    if (!isfinite(x)) {
      ++bad;
      continue;
    }
    err = fmaxf(err, fabsf(x - ref[i]));
    mag = fmaxf(mag, fabsf(ref[i]));
  }
  atomicMax(reinterpret_cast<int*>(&out->max_abs_err), __float_as_int(err));
  atomicMax(reinterpret_cast<int*>(&out->max_abs_ref), __float_as_int(mag));
  if (bad) atomicAdd(&out->bad, bad);
}


// ---- cuBLASLt, loaded at run time when the machine has it (no static library here) -----------

struct CublasLt {
  void* library = nullptr;
  decltype(&cublasLtCreate) create = nullptr;
  decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) pref_create = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&cublasLtMatmul) matmul = nullptr;
  cublasLtHandle_t handle = nullptr;
  void* workspace = nullptr;
  size_t workspace_bytes = 64ull << 20;

  bool load() {
    for (const char* name : {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"}) {
      library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (library) break;
    }
    if (!library) return false;
    auto sym = [this](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(library, name));
      return fn != nullptr;
    };
    if (!(sym(create, "cublasLtCreate") && sym(desc_create, "cublasLtMatmulDescCreate") &&
          sym(desc_set, "cublasLtMatmulDescSetAttribute") && sym(layout_create, "cublasLtMatrixLayoutCreate") &&
          sym(pref_create, "cublasLtMatmulPreferenceCreate") && sym(pref_set, "cublasLtMatmulPreferenceSetAttribute") &&
          sym(heuristic, "cublasLtMatmulAlgoGetHeuristic") && sym(matmul, "cublasLtMatmul")))
      return false;
    if (create(&handle) != CUBLAS_STATUS_SUCCESS) return false;
    return cudaMalloc(&workspace, workspace_bytes) == cudaSuccess;
  }

  // Row-major D (M x N) = A B as the column-major D^T = B^T A^T, cuBLASLt's default (first
  // heuristic) algorithm. Returns a launcher, or an empty function when cuBLASLt declines.
  std::function<void()> plan(const ProblemTraits& t, const void* a, const void* b, void* d) {
    const cudaDataType in = t.in_type == 1 ? CUDA_R_16BF : CUDA_R_16F;
    const cudaDataType out = t.out_type == 2 ? CUDA_R_32F : (t.out_type == 1 ? CUDA_R_16BF : CUDA_R_16F);
    cublasLtMatmulDesc_t desc;
    if (desc_create(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return {};
    const cublasOperation_t op_first = t.b_k_contiguous ? CUBLAS_OP_T : CUBLAS_OP_N;   // B^T
    const cublasOperation_t op_second = t.a_k_contiguous ? CUBLAS_OP_N : CUBLAS_OP_T;  // A^T
    desc_set(desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_first, sizeof op_first);
    desc_set(desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_second, sizeof op_second);
    cublasLtMatrixLayout_t la, lb, lc;
    const std::uint64_t m = t.m, n = t.n, k = t.k;
    if (t.b_k_contiguous) layout_create(&la, in, k, n, k); else layout_create(&la, in, n, k, n);
    if (t.a_k_contiguous) layout_create(&lb, in, k, m, k); else layout_create(&lb, in, m, k, m);
    layout_create(&lc, out, n, m, n);
    cublasLtMatmulPreference_t pref;
    pref_create(&pref);
    pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof workspace_bytes);
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    if (heuristic(handle, desc, la, lb, lc, lc, pref, 1, &result, &found) != CUBLAS_STATUS_SUCCESS || found == 0) return {};
    auto algo = std::make_shared<cublasLtMatmulAlgo_t>(result.algo);
    return [=, this]() {
      static const float alpha = 1.0f, beta = 0.0f;
      const cublasStatus_t status = matmul(handle, desc, &alpha, b, la, a, lb, &beta, d, lc, d, lc, algo.get(), workspace,
                                           workspace_bytes, nullptr);
      if (status != CUBLAS_STATUS_SUCCESS) std::printf("cublasLtMatmul failed: %d\n", int(status));
    };
  }
};

// ---- host --------------------------------------------------------------------------------------

// Driver entry points through cudart, so the binary loads without libcuda (--list-builds runs
// on the build machine).
struct Driver {
  decltype(&cuGetErrorString) get_error_string = nullptr;
  decltype(&cuModuleLoadData) module_load_data = nullptr;
  decltype(&cuModuleGetFunction) module_get_function = nullptr;
  decltype(&cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&cuLaunchKernel) launch_kernel = nullptr;
  decltype(&cuTensorMapEncodeTiled) tensor_map_encode_tiled = nullptr;
};
Driver driver;

template <typename F>
void resolve(F& fn, const char* symbol) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status) != cudaSuccess || p == nullptr) {
    std::fprintf(stderr, "driver entry point %s not found\n", symbol);
    std::exit(2);
  }
  fn = reinterpret_cast<F>(p);
}
void load_driver() {
  resolve(driver.get_error_string, "cuGetErrorString");
  resolve(driver.module_load_data, "cuModuleLoadData");
  resolve(driver.module_get_function, "cuModuleGetFunction");
  resolve(driver.func_set_attribute, "cuFuncSetAttribute");
  resolve(driver.launch_kernel, "cuLaunchKernel");
  resolve(driver.tensor_map_encode_tiled, "cuTensorMapEncodeTiled");
}

int encode_tiled(void* map, int data_type, unsigned rank, void* address, const std::uint64_t* dims,
                 const std::uint64_t* strides, const std::uint32_t* box, const std::uint32_t* element_strides,
                 int interleave, int swizzle, int l2, int oob) {
  return static_cast<int>(driver.tensor_map_encode_tiled(
      static_cast<CUtensorMap*>(map), static_cast<CUtensorMapDataType>(data_type), rank, address, dims, strides, box,
      element_strides, static_cast<CUtensorMapInterleave>(interleave), static_cast<CUtensorMapSwizzle>(swizzle),
      static_cast<CUtensorMapL2promotion>(l2), static_cast<CUtensorMapFloatOOBfill>(oob)));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Buffers {
  void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *bias = nullptr;
  float* ref = nullptr;
  float* workspace = nullptr;
  unsigned* counters = nullptr;
  ~Buffers() {
    for (void* p : {a, b, c, d, bias, static_cast<void*>(ref), static_cast<void*>(workspace),
                    static_cast<void*>(counters)})
      if (p) cudaFree(p);
  }
};

int main(int argc, char** argv) {
  const std::vector<Case> cases = all_cases();
  if (argc > 2 && std::strcmp(argv[1], "--list-builds") == 0) {
    const std::string header_dir = argv[2];
    std::map<std::string, std::string> builds;
    for (const Case& c : cases) {
      ProblemTraits t = c.v.traits;
      t.m = c.m;
      t.n = c.n;
      t.k = c.k;
      t.batch = c.batch;
      if (!rejects(c.v, t)) builds[c.v.name()] = c.v.header();
    }
    for (const auto& [name, header] : builds) {
      const std::string path = header_dir + "/" + name + ".h";
      std::ofstream(path) << header;
      std::printf("%s -include %s\n", name.c_str(), path.c_str());
    }
    return 0;
  }
  if (argc < 2 || std::strcmp(argv[1], "--list-builds") == 0) {
    std::fprintf(stderr, "usage: %s <cubin dir> | --list-builds <header dir>\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const bool quick = argc > 2 && std::strcmp(argv[2], "--quick") == 0;

  CHECK_CUDA(cudaFree(nullptr));
  load_driver();
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  const int sm_count = prop.multiProcessorCount;

  void* flush = nullptr;
  const size_t flush_bytes = 256ull << 20;
  CHECK_CUDA(cudaMalloc(&flush, flush_bytes));
  CompareResult* cmp = nullptr;
  CHECK_CUDA(cudaMalloc(&cmp, sizeof(CompareResult)));
  cudaEvent_t ev0, ev1;
  CHECK_CUDA(cudaEventCreate(&ev0));
  CHECK_CUDA(cudaEventCreate(&ev1));

  CublasLt cublas;
  const bool cublas_ok = cublas.load();
  std::printf("cuBLASLt: %s\n", cublas_ok ? "loaded" : "not available (no comparison)");
  std::map<std::string, double> cublas_ms;  // problem -> median ms
  std::map<std::string, CUfunction> functions;
  int failures = 0, checked = 0, rejected = 0;
  for (const Case& c : cases) {
    if (quick && c.timed && c.m * c.n * c.k > 4096ll * 4096 * 4096) continue;
    ProblemTraits t = c.v.traits;
    t.m = c.m;
    t.n = c.n;
    t.k = c.k;
    t.batch = c.batch;
    const std::string name = c.v.name();
    char shape[96];
    std::snprintf(shape, sizeof shape, "%lldx%lldx%lld b%lld", static_cast<long long>(c.m),
                  static_cast<long long>(c.n), static_cast<long long>(c.k), static_cast<long long>(c.batch));
    if (auto why = rejects(c.v, t)) {
      std::printf("REJECT %-62s %-22s %s\n", name.c_str(), shape, why->c_str());
      ++rejected;
      continue;
    }
    CUfunction fn = nullptr;
    if (auto it = functions.find(name); it != functions.end()) {
      fn = it->second;
    } else {
      const std::string cubin = read_file(dir + "/" + name + ".cubin");
      if (cubin.empty()) {
        std::printf("MISSING %s.cubin\n", name.c_str());
        ++failures;
        continue;
      }
      CUmodule module;
      CHECK_CU(driver.module_load_data(&module, cubin.data()));
      CHECK_CU(driver.module_get_function(&fn, module, "ktune_gemm_sm90"));
      auto shape_info = ktune::generated::sm90_launch_shape(c.v.knobs);
      CHECK_CU(driver.func_set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shape_info.dynamic_shared_bytes));
      functions[name] = fn;
    }
    auto launch = ktune::generated::sm90_launch_shape(c.v.knobs);
    if (c.v.pingpong) launch.threads = 384;
    const int in_bytes = 2, out_bytes = t.out_type == 2 ? 4 : 2;
    const long long a_elems = c.m * c.k * c.batch, b_elems = c.k * c.n * c.batch, d_elems = c.m * c.n * c.batch;
    Buffers buf;
    CHECK_CUDA(cudaMalloc(&buf.a, a_elems * in_bytes));
    CHECK_CUDA(cudaMalloc(&buf.b, b_elems * in_bytes));
    CHECK_CUDA(cudaMalloc(&buf.d, d_elems * out_bytes));
    CHECK_CUDA(cudaMalloc(&buf.ref, d_elems * 4));
    fill_random<<<1024, 256>>>(buf.a, a_elems, t.in_type, 1);
    fill_random<<<1024, 256>>>(buf.b, b_elems, t.in_type, 2);
    if (t.reads_c) {
      CHECK_CUDA(cudaMalloc(&buf.c, d_elems * out_bytes));
      fill_random<<<1024, 256>>>(buf.c, d_elems, t.out_type, 3);
    }
    if (t.bias) {
      CHECK_CUDA(cudaMalloc(&buf.bias, c.n * out_bytes));
      fill_random<<<64, 256>>>(buf.bias, c.n, t.out_type, 4);
    }
    KtuneGemmParams p;
    std::memset(&p, 0, sizeof p);
    p.a = buf.a;
    p.b = buf.b;
    p.c = buf.c;
    p.d = buf.d;
    p.bias = buf.bias;
    p.m = c.m;
    p.n = c.n;
    p.k = c.k;
    p.lda = t.a_k_contiguous ? c.k : c.m;
    p.ldb = t.b_k_contiguous ? c.k : c.n;
    p.ldc = p.ldd = c.n;
    p.batch_stride_a = c.m * c.k;
    p.batch_stride_b = c.k * c.n;
    p.batch_stride_c = p.batch_stride_d = c.m * c.n;
    p.batch = static_cast<int>(c.batch);
    p.alpha = t.reads_c ? 0.75f : 1.0f;
    p.beta = t.reads_c ? 0.5f : 0.0f;
    ktune::generated::sm90_set_launch_params(p, c.v.knobs, t, sm_count);
    if (p.split_k > 1) {
      CHECK_CUDA(cudaMalloc(&buf.workspace, d_elems * 4));
      CHECK_CUDA(cudaMemset(buf.workspace, 0, d_elems * 4));
      const long long counters = static_cast<long long>(p.tiles_m) * p.tiles_n * c.batch;
      CHECK_CUDA(cudaMalloc(&buf.counters, counters * 4));
      CHECK_CUDA(cudaMemset(buf.counters, 0, counters * 4));
      p.workspace = buf.workspace;
      p.counters = buf.counters;
    }
    ktune::generated::sm90_encode_tensor_maps(p, c.v.knobs, t, &encode_tiled);
    unsigned grid[3];
    ktune::generated::sm90_grid(c.v.knobs, t, sm_count, grid);

    RefArgs r{buf.a, buf.b, buf.c, buf.bias, buf.ref, c.m, c.n, c.k, p.lda, p.ldb, p.batch_stride_a,
              p.batch_stride_b, t.in_type, t.out_type, t.a_k_contiguous, t.b_k_contiguous, t.reads_c, t.bias,
              t.activation, p.alpha, p.beta};
    reference_gemm<<<dim3(unsigned((c.n + 15) / 16), unsigned((c.m + 15) / 16), unsigned(c.batch)), dim3(16, 16)>>>(r);
    CHECK_CUDA(cudaGetLastError());

    void* args[] = {&p};
    auto run_once = [&]() {
      CHECK_CU(driver.launch_kernel(fn, grid[0], grid[1], grid[2], launch.threads, 1, 1, launch.dynamic_shared_bytes, nullptr,
                              args, nullptr));
    };
    // Two checked runs: the second proves split-K left workspace and counters clean.
    bool ok = true;
    float worst = 0.0f;
    unsigned long long bad_total = 0;
    for (int rep = 0; rep < 2; ++rep) {
      CHECK_CUDA(cudaMemset(buf.d, 0xFF, d_elems * out_bytes));  // NaN in f16, bf16 and f32
      run_once();
      // A wrong barrier protocol hangs; give up after 20 s instead of eating the GPU time.
      CHECK_CUDA(cudaEventRecord(ev1));
      const auto start = std::chrono::steady_clock::now();
      while (cudaEventQuery(ev1) == cudaErrorNotReady) {
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) {
          std::printf("HANG   %-62s %-22s (no completion after 20 s)\n", name.c_str(), shape);
          std::fflush(stdout);
          std::_Exit(4);
        }
      }
      CHECK_CUDA(cudaMemset(cmp, 0, sizeof(CompareResult)));
      compare<<<1024, 256>>>(buf.d, t.out_type, buf.ref, d_elems, cmp);
      CompareResult host{};
      cudaError_t e = cudaMemcpy(&host, cmp, sizeof host, cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) {
        std::printf("FAIL   %-62s %-22s launch error: %s\n", name.c_str(), shape, cudaGetErrorString(e));
        return 3;  // the context is gone
      }
      const float rel = host.max_abs_err / std::max(host.max_abs_ref, 1e-20f);
      worst = std::max(worst, rel);
      bad_total += host.bad;
      const float allowed = t.out_type == 2 ? 2e-3f : 1.6e-2f;
      if (host.bad != 0 || !(rel <= allowed)) ok = false;
    }
    ++checked;
    if (!ok) ++failures;
    std::printf("%s %-62s %-22s rel_err %.2e nonfinite %llu", ok ? "OK    " : "FAIL  ", name.c_str(), shape, worst,
                bad_total);
    // Median of 30 launches, each after 256 MB of writes that push A and B out of L2.
    auto time_median = [&](const std::function<void()>& launch_fn, double& min_ms) {
      for (int i = 0; i < 3; ++i) launch_fn();
      std::vector<float> ms;
      for (int rep = 0; rep < 30; ++rep) {
        CHECK_CUDA(cudaMemsetAsync(flush, rep & 0xFF, flush_bytes));
        CHECK_CUDA(cudaEventRecord(ev0));
        launch_fn();
        CHECK_CUDA(cudaEventRecord(ev1));
        CHECK_CUDA(cudaEventSynchronize(ev1));
        float t_ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&t_ms, ev0, ev1));
        ms.push_back(t_ms);
      }
      std::sort(ms.begin(), ms.end());
      min_ms = ms.front();
      return static_cast<double>(ms[ms.size() / 2]);
    };
    const double flop = 2.0 * c.m * c.n * c.k * c.batch;
    if (c.timed && ok) {
      double min_ms = 0;
      const double median = time_median(run_once, min_ms);
      std::printf("  median %.3f ms  %.1f TFLOP/s (min %.3f ms)", median, flop / (median * 1e-3) / 1e12, min_ms);
      // cuBLASLt on the same operands, once per problem.
      char key[128];
      std::snprintf(key, sizeof key, "%s %d%d%d%d", shape, t.in_type, t.out_type, int(t.a_k_contiguous),
                    int(t.b_k_contiguous));
      if (cublas_ok && !t.reads_c && !t.bias && t.activation == 0 && c.batch == 1) {
        auto it = cublas_ms.find(key);
        if (it == cublas_ms.end()) {
          std::function<void()> lt = cublas.plan(t, buf.a, buf.b, buf.d);
          double lt_median = -1;
          if (lt) {
            CHECK_CUDA(cudaMemset(buf.d, 0xFF, d_elems * out_bytes));
            lt();
            CHECK_CUDA(cudaMemset(cmp, 0, sizeof(CompareResult)));
            compare<<<1024, 256>>>(buf.d, t.out_type, buf.ref, d_elems, cmp);
            CompareResult host{};
            CHECK_CUDA(cudaMemcpy(&host, cmp, sizeof host, cudaMemcpyDeviceToHost));
            std::printf("\n       cuBLASLt rel_err %.2e nonfinite %llu", host.max_abs_err / std::max(host.max_abs_ref, 1e-20f),
                        host.bad);
            double lt_min = 0;
            lt_median = time_median(lt, lt_min);
          }
          it = cublas_ms.emplace(key, lt_median).first;
        }
        if (it->second > 0)
          std::printf("  | cuBLASLt %.3f ms %.1f TFLOP/s -> ratio %.3f", it->second, flop / (it->second * 1e-3) / 1e12,
                      it->second / median);
      }
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("checked %d, failed %d, rejected %d\n", checked, failures, rejected);
  return failures ? 1 : 0;
}
