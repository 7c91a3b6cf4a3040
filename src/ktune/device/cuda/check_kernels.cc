#include "ktune/device/cuda/check_kernels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "ktune/core/sha256.h"
#include "ktune/device/compile_cache.h"
#include "ktune/verify/poison.h"

namespace ktune::device::cuda {
namespace kc = ktune::cuda;

const char* check_kernels_source() {
  return R"(
// ktune's verification kernels. One thread per element (grid-stride); per-warp reduction, then
// one atomic per warp into the result block.
typedef unsigned long long u64;
typedef long long i64;

struct Result {            // must match CompareResult in check_kernels.cc
  u64 mismatches, unwritten, nan_count, unbounded, ref_nonzero;
  u64 max_abs_bits, max_rel_bits;
  double diff_sq, ref_sq;
};

__device__ double f16_to_double(unsigned short h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v;
  if (exponent == 0) v = ldexp((double)mantissa, -24);
  else if (exponent == 31) v = mantissa ? __longlong_as_double(0x7ff8000000000000ll) : __longlong_as_double(0x7ff0000000000000ll);
  else v = ldexp((double)(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}
__device__ double bf16_to_double(unsigned short h) { return (double)__uint_as_float(((unsigned)h) << 16); }

template <int K> struct Elem;
template <> struct Elem<0> { typedef unsigned short T; static __device__ double value(T x) { return f16_to_double(x); } };
template <> struct Elem<1> { typedef unsigned short T; static __device__ double value(T x) { return bf16_to_double(x); } };
template <> struct Elem<2> { typedef float T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<3> { typedef double T; static __device__ double value(T x) { return x; } };
template <> struct Elem<4> { typedef signed char T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<5> { typedef unsigned char T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<6> { typedef short T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<7> { typedef unsigned short T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<8> { typedef int T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<9> { typedef unsigned T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<10> { typedef i64 T; static __device__ double value(T x) { return (double)x; } };
template <> struct Elem<11> { typedef u64 T; static __device__ double value(T x) { return (double)x; } };

// |o - r| exactly for integers (then rounded once to double, as the host's long double does).
template <typename T> __device__ u64 bits_of(T x) {
  union { T t; unsigned char c[sizeof(T)]; } u;
  u.t = x;
  u64 b = 0;
  for (int k = 0; k < (int)sizeof(T); ++k) b |= (u64)u.c[k] << (8 * k);
  return b;
}

template <typename T> __device__ double int_abs_diff(T o, T r) {
  if (o >= r) return (double)((u64)o - (u64)r);
  return (double)((u64)r - (u64)o);
}

__device__ u64 warp_sum(u64 v) {
  for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(0xffffffffu, v, s);
  return v;
}
__device__ double warp_sum(double v) {
  for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(0xffffffffu, v, s);
  return v;
}
__device__ double warp_max(double v) {
  for (int s = 16; s > 0; s >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, s));
  return v;
}

template <int K>
__device__ void compare(const void* out_p, const void* ref_p, u64 n, double atol, double rtol, u64 poison_bits,
                        double poison_value, int is_float, Result* res) {
  typedef typename Elem<K>::T T;
  const T* out = (const T*)out_p;
  const T* ref = (const T*)ref_p;
  u64 mismatches = 0, unwritten = 0, nans = 0, unbounded = 0, nonzero = 0;
  double max_abs = 0, max_rel = 0, diff_sq = 0, ref_sq = 0;
  const u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T ob = out[i], rb = ref[i];
    const u64 bits = bits_of<T>(ob);
    const double r = Elem<K>::value(rb);
    double o = Elem<K>::value(ob);
    bool ok;
    if (isfinite(r) && r != 0) { ref_sq += r * r; ++nonzero; }
    if (bits == poison_bits && (is_float || r != poison_value)) {
      ok = false;
      ++unwritten;
      unbounded = 1;
    } else {
      if (isnan(o)) ++nans;
      if (isnan(r)) {
        ok = isnan(o);
      } else if (isinf(r) || !isfinite(o)) {
        ok = o == r;
        if (isfinite(r)) unbounded = 1;
      } else {
        const double err = is_float ? fabs(o - r) : int_abs_diff<T>(ob, rb), magnitude = fabs(r);
        ok = err <= atol + rtol * magnitude;
        diff_sq += err * err;
        max_abs = fmax(max_abs, err);
        if (magnitude > 0) max_rel = fmax(max_rel, err / magnitude);
      }
    }
    if (!ok) ++mismatches;
  }
  mismatches = warp_sum(mismatches);
  unwritten = warp_sum(unwritten);
  nans = warp_sum(nans);
  unbounded = warp_sum(unbounded);
  nonzero = warp_sum(nonzero);
  diff_sq = warp_sum(diff_sq);
  ref_sq = warp_sum(ref_sq);
  max_abs = warp_max(max_abs);
  max_rel = warp_max(max_rel);
  if ((threadIdx.x & 31) == 0) {
    if (mismatches) atomicAdd(&res->mismatches, mismatches);
    if (unwritten) atomicAdd(&res->unwritten, unwritten);
    if (nans) atomicAdd(&res->nan_count, nans);
    if (unbounded) atomicAdd(&res->unbounded, unbounded);
    if (nonzero) atomicAdd(&res->ref_nonzero, nonzero);
    if (diff_sq != 0) atomicAdd(&res->diff_sq, diff_sq);
    if (ref_sq != 0) atomicAdd(&res->ref_sq, ref_sq);
    // Non-negative doubles order like their bit patterns.
    atomicMax(&res->max_abs_bits, (u64)__double_as_longlong(max_abs));
    atomicMax(&res->max_rel_bits, (u64)__double_as_longlong(max_rel));
  }
}

#define KT_COMPARE(K)                                                                                          \
  extern "C" __global__ void kt_compare_##K(const void* out, const void* ref, u64 n, double atol, double rtol, \
                                             u64 poison_bits, double poison_value, int is_float, Result* res) { \
    compare<K>(out, ref, n, atol, rtol, poison_bits, poison_value, is_float, res);                            \
  }
KT_COMPARE(0) KT_COMPARE(1) KT_COMPARE(2) KT_COMPARE(3) KT_COMPARE(4) KT_COMPARE(5)
KT_COMPARE(6) KT_COMPARE(7) KT_COMPARE(8) KT_COMPARE(9) KT_COMPARE(10) KT_COMPARE(11)

// First index at which two word arrays differ (*first starts at ~0).
extern "C" __global__ void kt_first_diff(const unsigned* a, const unsigned* b, u64 words, u64* first) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  u64 found = ~0ull;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
    if (a[i] != b[i]) { found = i; break; }
  if (found != ~0ull) atomicMin(first, found);
}

// Words that differ from a pattern (guard bands against their canary).
extern "C" __global__ void kt_count_ne(const unsigned* p, u64 words, unsigned pattern, u64* count) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  u64 c = 0;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride) c += p[i] != pattern;
  c = warp_sum(c);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}

// Elements whose bits under `mask` are all set (a float's exponent: NaN, infinity, and every
// poison pattern), with the lowest such index in count[1] (~0 when none).
template <typename T>
__device__ void count_masked(const T* p, u64 n, T mask, u64* result) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  u64 c = 0, first = ~0ull;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    if ((p[i] & mask) == mask) {
      ++c;
      if (i < first) first = i;
    }
  c = warp_sum(c);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(result, c);
  if (first != ~0ull) atomicMin(result + 1, first);
}
extern "C" __global__ void kt_count_masked16(const unsigned short* p, u64 n, unsigned mask, u64* result) {
  count_masked<unsigned short>(p, n, (unsigned short)mask, result);
}
extern "C" __global__ void kt_count_masked32(const unsigned* p, u64 n, unsigned mask, u64* result) {
  count_masked<unsigned>(p, n, mask, result);
}

// out[i] = p[index[i]]: a sample of a large output, copied back instead of all of it.
extern "C" __global__ void kt_gather16(const unsigned short* p, const i64* index, u64 n, unsigned short* out) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) out[i] = p[index[i]];
}
extern "C" __global__ void kt_gather32(const unsigned* p, const i64* index, u64 n, unsigned* out) {
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) out[i] = p[index[i]];
}
)";
}

namespace {

struct CompareResult {  // the kernels' Result
  std::uint64_t mismatches, unwritten, nan_count, unbounded, ref_nonzero;
  std::uint64_t max_abs_bits, max_rel_bits;
  double diff_sq, ref_sq;
};
static_assert(sizeof(CompareResult) <= 128);

constexpr unsigned kThreads = 256;

}  // namespace

std::string cached_cubin(const kc::NvrtcCompiler& nvrtc, const std::filesystem::path& cache_dir,
                         const std::string& source, const std::string& program_name, const std::string& arch,
                         const std::string& suffix) {
  // Cached on disk: every worker process needs it, and NVRTC takes a good part of a second.
  CompileCache cache(cache_dir);
  Sha256 h;
  h.update(source).update(nvrtc.version_string()).update(arch);
  const std::string key = h.hex_digest();
  if (auto cubin = cache.read(key, suffix); cubin && !cubin->empty()) return *cubin;
  kc::NvrtcRequest request;
  request.source = source;
  request.program_name = program_name;
  request.arch = arch;
  request.resource_usage = false;
  kc::NvrtcResult compiled = nvrtc.compile(request);
  if (!compiled.ok) throw DeviceError("compiling " + program_name + " failed: " + compiled.error);
  try {
    cache.write(key, suffix, compiled.cubin);
  } catch (const DeviceError&) {
    // An unwritable cache costs the next worker a compile, nothing more.
  }
  return compiled.cubin;
}

CheckKernels::CheckKernels(std::shared_ptr<CudaDeviceContext> context, const kc::NvrtcCompiler& nvrtc,
                           const std::filesystem::path& cache_dir)
    : context_(std::move(context)) {
  context_->enter();
  const kc::DriverApi& api = context_->api();
  const std::string cubin = cached_cubin(nvrtc, cache_dir, check_kernels_source(), "ktune_check_kernels.cu",
                                         context_->properties().arch(), ".check.cubin");
  context_->check(api.cuModuleLoadData(&module_, cubin.data()), "cuModuleLoadData(check kernels)");
  try {
    for (int k = 0; k < 12; ++k) {
      const std::string name = "kt_compare_" + std::to_string(k);
      context_->check(api.cuModuleGetFunction(&compare_[k], module_, name.c_str()), "cuModuleGetFunction(" + name + ")");
    }
    context_->check(api.cuModuleGetFunction(&first_diff_, module_, "kt_first_diff"), "cuModuleGetFunction(kt_first_diff)");
    context_->check(api.cuModuleGetFunction(&count_ne_, module_, "kt_count_ne"), "cuModuleGetFunction(kt_count_ne)");
    for (auto [f, name] : {std::pair{&count_masked_[0], "kt_count_masked16"}, {&count_masked_[1], "kt_count_masked32"},
                           {&gather_[0], "kt_gather16"}, {&gather_[1], "kt_gather32"}})
      context_->check(api.cuModuleGetFunction(f, module_, name), std::string("cuModuleGetFunction(") + name + ")");
    context_->check(api.cuMemAlloc(&result_, 128), "cuMemAlloc(check results)");
  } catch (...) {
    api.cuModuleUnload(module_);
    throw;
  }
  blocks_limit_ = std::max(1, context_->properties().multiprocessors) * 8;
}

CheckKernels::~CheckKernels() {
  if (context_->poisoned()) return;
  const kc::DriverApi& api = context_->api();
  if (result_) api.cuMemFree(result_);
  if (module_) api.cuModuleUnload(module_);
}

void CheckKernels::launch(kc::CUfunction f, std::size_t work_items, void** params, const char* what) {
  const std::size_t wanted = (work_items + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(std::clamp<std::size_t>(wanted, 1, static_cast<std::size_t>(blocks_limit_)));
  const kc::DriverApi& api = context_->api();
  context_->check(api.cuLaunchKernel(f, blocks, 1, 1, kThreads, 1, 1, 0, context_->stream(), params, nullptr), what);
  context_->check(api.cuStreamSynchronize(context_->stream()), what);
}

void CheckKernels::read_result(void* host, std::size_t bytes) {
  context_->check(context_->api().cuMemcpyDtoH(host, result_, bytes), "cuMemcpyDtoH(check results)");
}

DeviceComparison CheckKernels::compare(kc::CUdeviceptr out, kc::CUdeviceptr ref, std::size_t n, ElementType type,
                                       const verify::Tolerance& tolerance) {
  verify::validate(tolerance);
  context_->enter();
  const kc::DriverApi& api = context_->api();
  context_->check(api.cuMemsetD8(result_, 0, 128), "cuMemsetD8(check results)");
  std::uint64_t poison_bits = 0;
  const auto pattern = verify::poison_pattern(type);
  std::memcpy(&poison_bits, pattern.data(), pattern.size());
  double poison_value = load_element(pattern.data(), 0, type);
  std::uint64_t count = n;
  double atol = tolerance.atol, rtol = tolerance.rtol;
  int is_float = is_floating(type) ? 1 : 0;
  void* params[] = {&out, &ref, &count, &atol, &rtol, &poison_bits, &poison_value, &is_float, &result_};
  launch(compare_[static_cast<int>(type)], n, params, "the compare kernel");
  CompareResult r{};
  read_result(&r, sizeof r);

  DeviceComparison d;
  verify::Comparison& c = d.comparison;
  c.count = n;
  c.mismatches = r.mismatches;
  c.unwritten = r.unwritten;
  c.nan_count = r.nan_count;
  c.max_abs_error = std::bit_cast<double>(r.max_abs_bits);
  c.max_rel_error = std::bit_cast<double>(r.max_rel_bits);
  c.max_rel_l2 = tolerance.max_rel_l2;
  if (r.unbounded) {
    c.rel_l2 = std::numeric_limits<double>::infinity();
  } else {
    const double diff = std::sqrt(r.diff_sq), norm = std::sqrt(r.ref_sq);
    c.rel_l2 = norm > 0 ? diff / norm : diff;
    // Squares past the double range, or a nonzero reference whose squares all underflowed:
    // the host's scaled norm must say.
    d.decided = std::isfinite(r.diff_sq) && std::isfinite(r.ref_sq) && (r.ref_nonzero == 0 || r.ref_sq > 0);
  }
  c.pass = c.mismatches == 0 && (!tolerance.max_rel_l2 || c.rel_l2 <= *tolerance.max_rel_l2);
  return d;
}

std::optional<std::size_t> CheckKernels::first_different_word(kc::CUdeviceptr a, kc::CUdeviceptr b, std::size_t words) {
  if (words == 0) return std::nullopt;
  context_->enter();
  context_->check(context_->api().cuMemsetD8(result_, 0xFF, 8), "cuMemsetD8(check results)");
  std::uint64_t count = words;
  void* params[] = {&a, &b, &count, &result_};
  launch(first_diff_, words, params, "the buffer comparison kernel");
  std::uint64_t first = 0;
  read_result(&first, sizeof first);
  if (first == ~std::uint64_t{0}) return std::nullopt;
  return static_cast<std::size_t>(first);
}

std::size_t CheckKernels::count_not_equal(kc::CUdeviceptr p, std::size_t words, std::uint32_t pattern) {
  if (words == 0) return 0;
  context_->enter();
  context_->check(context_->api().cuMemsetD8(result_, 0, 8), "cuMemsetD8(check results)");
  std::uint64_t count = words;
  unsigned value = pattern;
  void* params[] = {&p, &count, &value, &result_};
  launch(count_ne_, words, params, "the guard check kernel");
  std::uint64_t changed = 0;
  read_result(&changed, sizeof changed);
  return static_cast<std::size_t>(changed);
}

MaskedCount CheckKernels::count_masked(kc::CUdeviceptr p, std::size_t n, int element_bytes, std::uint32_t mask) {
  if (element_bytes != 2 && element_bytes != 4)
    throw DeviceError("count_masked: elements of " + std::to_string(element_bytes) + " bytes (2 or 4 only)");
  MaskedCount m;
  if (n == 0) return m;
  context_->enter();
  const kc::DriverApi& api = context_->api();
  context_->check(api.cuMemsetD8(result_, 0, 8), "cuMemsetD8(check results)");
  context_->check(api.cuMemsetD8(result_ + 8, 0xFF, 8), "cuMemsetD8(check results)");
  std::uint64_t count = n;
  unsigned value = mask;
  void* params[] = {&p, &count, &value, &result_};
  launch(count_masked_[element_bytes == 4], n, params, "the masked count kernel");
  std::uint64_t r[2] = {};
  read_result(r, sizeof r);
  m.count = static_cast<std::size_t>(r[0]);
  if (r[1] != ~std::uint64_t{0}) m.first = static_cast<std::size_t>(r[1]);
  return m;
}

void CheckKernels::gather(kc::CUdeviceptr p, int element_bytes, kc::CUdeviceptr indices, std::size_t n,
                          kc::CUdeviceptr out) {
  if (element_bytes != 2 && element_bytes != 4)
    throw DeviceError("gather: elements of " + std::to_string(element_bytes) + " bytes (2 or 4 only)");
  if (n == 0) return;
  context_->enter();
  std::uint64_t count = n;
  void* params[] = {&p, &indices, &count, &out};
  launch(gather_[element_bytes == 4], n, params, "the gather kernel");
}

}  // namespace ktune::device::cuda
