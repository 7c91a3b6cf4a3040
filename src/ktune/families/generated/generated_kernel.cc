#include "ktune/families/generated/generated_kernel.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/families/generated/generated_sources.h"
#include "ktune/families/generated/sm80_path.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::generated {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Largest power of two <= 16 dividing `bytes` (0 divides by everything).
int alignment_of(std::int64_t bytes) {
  int a = 16;
  while (a > 1 && bytes % a != 0) a /= 2;
  return a;
}

const char* type_suffix(int in_type) {
  switch (in_type) {
    case 0: return "F16";
    case 2: return "E4M3";
    case 3: return "TF32";
    default: return "BF16";
  }
}

}  // namespace

std::string generator_version() {
  static const std::string version = [] {
    std::string all;
    for (std::string_view part : {gemm_params_source(), gemm_common_source(), gemm_sm80_source(), gemm_sm90_source()}) {
      all += part;
      all += '\0';
    }
    return "gen-" + sha256_hex(all).substr(0, 12);
  }();
  return version;
}

std::optional<std::string> unsupported_reason(const gemm::GemmProblem& problem) {
  using gemm::Precision;
  // fp8 and tf32 run on wgmma only, which reads them K-major: an operand stored otherwise is
  // transposed into a K-major copy before the GEMM (repack.h). Strict f32 runs on the tf32
  // kernel as three TF32 products (split copies of both operands, repack.h).
  const gemm::Storage in = problem.a_storage();
  if (problem.precision == Precision::F8E4M3) {
    if (problem.out == gemm::Storage::F8E4M3) return "an fp8 output is not supported (bf16, f16 or f32)";
    if (problem.bias && problem.bias_storage() != problem.out)
      return "the kernels read the bias in the output's type; fp8 with an f32 output has a bf16 bias";
  } else if (problem.out != in && problem.out != gemm::Storage::F32) {
    return "the output must be the input type or f32";
  }
  if (problem.batch > 65535) return "a batch above 65535 does not fit the grid's z dimension";
  return std::nullopt;
}

std::optional<std::string> path_unavailable_reason(KernelPath path, const DeviceTraits& device) {
  if (path == KernelPath::Wgmma && device.compute_capability != 90)
    return "wgmma and TMA kernels are built for sm_90a, which only compute capability 9.0 runs (this device is " +
           std::to_string(device.compute_capability / 10) + "." + std::to_string(device.compute_capability % 10) + ")";
  if (path == KernelPath::MmaSync && device.compute_capability < 80)
    return "mma.sync bf16/f16 kernels need compute capability 8.0 or newer";
  return std::nullopt;
}

ProblemTraits problem_traits(const gemm::GemmProblem& problem) {
  if (auto reason = unsupported_reason(problem)) throw gemm::GemmError(*reason);
  ProblemTraits t;
  switch (problem.precision) {
    case gemm::Precision::F16: t.in_type = 0; break;
    case gemm::Precision::F8E4M3: t.in_type = 2; break;
    case gemm::Precision::TF32: t.in_type = 3; break;
    case gemm::Precision::F32:
      t.in_type = 3;
      t.f32_split = true;
      break;
    default: t.in_type = 1; break;
  }
  t.out_type = problem.out == gemm::Storage::F32 ? 2 : (problem.out == gemm::Storage::BF16 ? 1 : 0);
  t.a_k_contiguous = !problem.a_transposed;
  t.b_k_contiguous = problem.b_transposed;
  t.reads_c = problem.reads_c();
  t.alpha_one = problem.alpha_f32() == 1.0f;
  t.bias = problem.bias;
  t.activation = problem.activation == gemm::Activation::Relu ? 1 : (problem.activation == gemm::Activation::Gelu ? 2 : 0);
  t.m = problem.m;
  t.n = problem.n;
  t.k = problem.k;
  t.batch = problem.batch;
  const std::int64_t element = static_cast<std::int64_t>(gemm::storage_size(problem.a_storage()));
  const std::int64_t lda = problem.a_transposed ? problem.m : problem.k;
  const std::int64_t ldb = problem.b_transposed ? problem.k : problem.n;
  t.a_alignment_bytes = alignment_of(lda * element);
  t.b_alignment_bytes = alignment_of(ldb * element);
  if (problem.batch > 1) {
    t.a_alignment_bytes = std::min(t.a_alignment_bytes, alignment_of(problem.m * problem.k * element));
    t.b_alignment_bytes = std::min(t.b_alignment_bytes, alignment_of(problem.k * problem.n * element));
  }
  t.ab_alignment_bytes = std::min(t.a_alignment_bytes, t.b_alignment_bytes);
  return t;
}

namespace {

// The operands as the kernel's A and B: swapped for swap_ab, before any copy.
ProblemTraits swapped_traits(const GeneratedKnobs& knobs, const ProblemTraits& traits) {
  if (!knobs.swap_ab) return traits;
  ProblemTraits t = traits;
  std::swap(t.m, t.n);
  // A' = B^T is K-contiguous where B is; B' = A^T where A is.
  t.a_k_contiguous = traits.b_k_contiguous;
  t.b_k_contiguous = traits.a_k_contiguous;
  std::swap(t.a_alignment_bytes, t.b_alignment_bytes);
  return t;
}

}  // namespace

ProblemTraits kernel_traits(const GeneratedKnobs& knobs, const ProblemTraits& traits) {
  const ProblemTraits swapped = swapped_traits(knobs, traits);
  return knobs.path == KernelPath::Wgmma ? sm90_read_traits(swapped) : swapped;
}

std::optional<std::string> rejects(const GeneratedKnobs& knobs, const ProblemTraits& user_traits,
                                   const DeviceTraits& device) {
  if (auto reason = path_unavailable_reason(knobs.path, device)) return reason;
  const ProblemTraits traits = kernel_traits(knobs, user_traits);
  if (knobs.swap_ab && knobs.path != KernelPath::Wgmma) return "swap_ab is a wgmma-path knob";
  // The copies would have to follow the swap (repack.h); decode shapes never need them.
  if (knobs.swap_ab && sm90_repacks(swapped_traits(knobs, user_traits)).any())
    return "swap_ab does not combine with repacked (misaligned or transposed) operands";
  if (knobs.split_k < 1) return "split_k must be at least 1";
  if (knobs.split_reduce) {
    if (knobs.split_k < 2) return "split_reduce sums split-K slices: it needs split_k >= 2";
    if (knobs.path != KernelPath::Wgmma) return "split_reduce is a wgmma-path knob";
    // Every slice keeps a whole copy of D in f32.
    const double bytes = 4.0 * knobs.split_k * static_cast<double>(traits.batch) * traits.m * traits.n;
    if (bytes > kMaxSplitReduceBytes)
      return "split_reduce needs " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
             " MiB of f32 partials (split_k x batch x M x N), more than " +
             std::to_string(kMaxSplitReduceBytes / (1 << 20)) + " MiB";
  }
  if (knobs.promote < 0) return "promote must be 0 (off) or a number of K tiles";
  if (user_traits.f32_split && (knobs.promote < 1 || knobs.promote * knobs.tile_k > kF32ChainK))
    return "strict f32 promotes the tensor cores' sums at least every " + std::to_string(kF32ChainK) +
           " K elements (promote 1.." + std::to_string(kF32ChainK / std::max(1, knobs.tile_k)) + " K tiles of " +
           std::to_string(knobs.tile_k) + ")";
  if (knobs.swizzle_group < 1) return "the rasterisation group must be at least 1";
  if (knobs.tile_k < 1) return "the reduction tile must be positive";
  // The database config keeps 1-16 (knobs_from_config); refinement's "one stage more" must not leave it.
  if (knobs.stages > 16) return "at most 16 pipeline stages";
  const std::int64_t k_tiles = ceil_div(traits.k, knobs.tile_k);
  if (knobs.split_k > k_tiles)
    return "split_k " + std::to_string(knobs.split_k) + " exceeds the " + std::to_string(k_tiles) + " K tiles of " +
           std::to_string(knobs.tile_k);
  const std::int64_t per_split = ceil_div(k_tiles, knobs.split_k);
  if ((knobs.split_k - 1) * per_split >= k_tiles)
    return "split_k " + std::to_string(knobs.split_k) + " leaves a K slice empty (" + std::to_string(k_tiles) +
           " K tiles, " + std::to_string(per_split) + " per slice)";
  const std::int64_t tiles = ceil_div(traits.m, knobs.tile_m) * ceil_div(traits.n, knobs.tile_n);
  if (tiles > 0x7fffffff / std::max(1, knobs.split_k)) return "too many tiles for the grid";
  std::optional<std::string> own = knobs.path == KernelPath::Wgmma ? sm90_rejects(knobs, traits) : sm80_rejects(knobs, traits);
  if (own) return own;
  if (knobs.split_tail) {
    if (knobs.path != KernelPath::Wgmma) return "split_tail is a wgmma-path knob";
    const SplitTail tail = sm90_split_tail(knobs, traits, device.sm_count);
    if (tail.tiles == 0)
      return "split_tail: the " + std::to_string(tail.units) + " persistent units take the tiles in " +
             (tail.from < tail.units ? "less than one round" : "whole rounds") + " (nothing to split)";
  }
  const Launch launch = plan_launch(knobs, user_traits, device);
  if (launch.shape.dynamic_shared_bytes > device.max_shared_per_block)
    return "needs " + std::to_string(launch.shape.dynamic_shared_bytes) + " bytes of shared memory; the device allows " +
           std::to_string(device.max_shared_per_block);
  return std::nullopt;
}

std::string path_name(KernelPath path) { return path == KernelPath::Wgmma ? "wgmma" : "mma_sync"; }

std::optional<KernelPath> parse_path(const std::string& name) {
  if (name == "wgmma") return KernelPath::Wgmma;
  if (name == "mma_sync") return KernelPath::MmaSync;
  return std::nullopt;
}

std::string intrinsic_name(const GeneratedKnobs& knobs, const ProblemTraits& traits) {
  if (knobs.path == KernelPath::Wgmma)
    return "WGMMA_F32_64x" + std::to_string(knobs.tile_n / std::max(1, knobs.subgroup_n)) + "x" +
           std::to_string(32 / in_type_bytes(traits.in_type)) + "_" + (traits.f32_split ? "3xTF32" : type_suffix(traits.in_type));
  return std::string("MMA_F32_16x8x16_") + type_suffix(traits.in_type);
}

std::string emit_source(const GeneratedKnobs& knobs, const ProblemTraits& user_traits) {
  const ProblemTraits traits = kernel_traits(knobs, user_traits);
  std::ostringstream out;
  out << "// ktune generated GEMM kernel: " << path_name(knobs.path) << " " << intrinsic_name(knobs, user_traits) << "\n"
      << "#define KT_IN_TYPE " << traits.in_type << "\n"
      << "#define KT_OUT_TYPE " << traits.out_type << "\n"
      << "#define KT_A_K_CONTIGUOUS " << (traits.a_k_contiguous ? 1 : 0) << "\n"
      << "#define KT_B_K_CONTIGUOUS " << (traits.b_k_contiguous ? 1 : 0) << "\n"
      << "#define KT_READS_C " << (traits.reads_c ? 1 : 0) << "\n"
      << "#define KT_ALPHA_ONE " << (traits.alpha_one ? 1 : 0) << "\n"
      << "#define KT_HAS_BIAS " << (traits.bias ? 1 : 0) << "\n"
      << "#define KT_ACTIVATION " << traits.activation << "\n"
      << "#define KT_SPLIT_K " << (knobs.split_k > 1 ? 1 : 0) << "\n";
  // The kernel's A is the problem's B where the kernel is swapped.
  const bool kernel_a_evicts = knobs.swap_ab ? knobs.evict_first_b : knobs.evict_first_a;
  const bool kernel_b_evicts = knobs.swap_ab ? knobs.evict_first_a : knobs.evict_first_b;
  if (kernel_a_evicts) out << "#define KT_A_EVICT_FIRST 1\n";
  if (kernel_b_evicts) out << "#define KT_B_EVICT_FIRST 1\n";
  out << (knobs.path == KernelPath::Wgmma ? sm90_defines(knobs, traits.in_type) : sm80_defines(knobs, traits));
  out << "\n" << gemm_params_source() << "\n" << gemm_common_source() << "\n";
  out << (knobs.path == KernelPath::Wgmma ? gemm_sm90_source() : gemm_sm80_source()) << "\n";
  return out.str();
}

void stream_read_once_operands(GeneratedKnobs& knobs, const ProblemTraits& user_traits) {
  const ProblemTraits t = kernel_traits(knobs, user_traits);
  // Every CTA of a tile column reads the same B tile and of a tile row the same A tile: an
  // operand is read once where the other dimension is a single tile (a cluster, which shares a
  // tile by multicast, counts as one).
  const bool kernel_a_once = ceil_div(t.n, static_cast<std::int64_t>(knobs.tile_n) * std::max(1, knobs.cluster_n)) == 1;
  const bool kernel_b_once = ceil_div(t.m, static_cast<std::int64_t>(knobs.tile_m) * std::max(1, knobs.cluster_m)) == 1;
  knobs.evict_first_a = knobs.swap_ab ? kernel_b_once : kernel_a_once;
  knobs.evict_first_b = knobs.swap_ab ? kernel_a_once : kernel_b_once;
}

std::string kernel_symbol(KernelPath path) { return path == KernelPath::Wgmma ? "ktune_gemm_sm90" : "ktune_gemm_sm80"; }

std::string compile_arch(KernelPath path, const DeviceTraits& device) {
  if (path == KernelPath::Wgmma) return "sm_90a";
  return "sm_" + std::to_string(device.compute_capability);
}

Launch plan_launch(const GeneratedKnobs& knobs, const ProblemTraits& user_traits, const DeviceTraits& device) {
  const ProblemTraits traits = kernel_traits(knobs, user_traits);
  Launch launch;
  unsigned grid[3] = {1, 1, 1};
  if (knobs.path == KernelPath::Wgmma) {
    launch.shape = sm90_launch_shape(knobs, in_type_bytes(traits.in_type));
    sm90_grid(knobs, traits, device.sm_count, grid);
  } else {
    launch.shape = sm80_launch_shape(knobs, traits);
    sm80_grid(knobs, traits, grid);
  }
  launch.grid = {grid[0], grid[1], grid[2]};
  // Slices summed inside a cluster need no buffers in global memory.
  launch.needs_split_k_buffers = knobs.split_k > 1 && !knobs.split_cluster;
  const std::int64_t outputs = traits.batch * traits.m * traits.n;
  // Reduced slices are padded to 4 floats each (kt_slice_floats in gemm_sm90.cuh).
  if (launch.needs_split_k_buffers)
    launch.split_k_workspace_floats = knobs.split_reduce ? knobs.split_k * ((outputs + 3) / 4 * 4) : outputs;
  // A split tail's slices each keep their partial tile in a slot of their own (kt90_tail_fixup).
  if (launch.needs_split_k_buffers && knobs.split_tail && knobs.path == KernelPath::Wgmma)
    launch.split_k_workspace_floats = sm90_split_tail(knobs, traits, device.sm_count).tiles * cluster_size(knobs) *
                                      knobs.split_k * std::int64_t{knobs.tile_m} * knobs.tile_n;
  if (knobs.split_k > 1 && knobs.split_reduce) {
    // kReducePairs pairs of columns per CTA, at most 8 CTAs per SM walking the rest.
    const std::int64_t pairs = traits.batch * traits.m * ((traits.n + 1) / 2);
    launch.reduce_grid = static_cast<unsigned>(
        std::max<std::int64_t>(1, std::min<std::int64_t>(ceil_div(pairs, kReducePairs), std::max(1, device.sm_count) * 8)));
  }
  if (knobs.path == KernelPath::Wgmma) launch.repacks = sm90_repacks(swapped_traits(knobs, user_traits));
  // One split-K counter per tile, of the grid padded to whole clusters.
  const int cm = std::max(1, knobs.cluster_m), cn = std::max(1, knobs.cluster_n);
  launch.counter_count = traits.batch * ceil_div(ceil_div(traits.m, knobs.tile_m), cm) * cm *
                         ceil_div(ceil_div(traits.n, knobs.tile_n), cn) * cn;
  return launch;
}

KtuneGemmParams make_params(const GeneratedKnobs& knobs, const ProblemTraits& user_traits,
                            const gemm::GemmProblem& problem, const DeviceOperands& operands, const Launch& launch,
                            const DeviceTraits& device) {
  const ProblemTraits traits = kernel_traits(knobs, user_traits);
  // A kernel emitted for alpha 1 has no alpha in its code: launching it for another would be wrong.
  if (traits.alpha_one && problem.alpha_f32() != 1.0f)
    throw gemm::GemmError("this generated kernel was compiled for alpha = 1; the problem has alpha = " +
                          std::to_string(problem.alpha_f32()));
  KtuneGemmParams p;
  std::memset(&p, 0, sizeof p);
  p.a = operands.a;
  p.b = operands.b;
  p.c = traits.reads_c ? operands.c : nullptr;
  p.d = operands.d;
  p.bias = traits.bias ? operands.bias : nullptr;
  p.workspace = knobs.split_k > 1 ? operands.workspace : nullptr;
  p.counters = knobs.split_k > 1 ? operands.counters : nullptr;
  p.m = problem.m;
  p.n = problem.n;
  p.k = traits.k;  // the problem's K, or the three segments of a split f32 problem
  p.lda = problem.a_transposed ? problem.m : problem.k;
  p.ldb = problem.b_transposed ? problem.k : problem.n;
  p.ldc = problem.n;
  p.ldd = problem.n;
  p.batch_stride_a = problem.m * problem.k;
  p.batch_stride_b = problem.k * problem.n;
  p.batch_stride_c = traits.reads_c ? problem.m * problem.n : 0;
  p.batch_stride_d = problem.m * problem.n;
  const std::int64_t k_tiles = ceil_div(traits.k, knobs.tile_k);
  p.k_per_split = ceil_div(k_tiles, knobs.split_k) * knobs.tile_k;
  p.batch = static_cast<int>(problem.batch);
  p.split_k = knobs.split_k;
  if (knobs.swap_ab) {
    // The kernel computes D^T = B^T A^T: B^T is its A (an N x K operand whose pitch is B's),
    // A^T its B. C and D keep the problem's pitches; the kernel's epilogue stores transposed.
    std::swap(p.a, p.b);
    std::swap(p.m, p.n);
    std::swap(p.lda, p.ldb);
    std::swap(p.batch_stride_a, p.batch_stride_b);
  }
  p.tiles_m = static_cast<int>(ceil_div(p.m, knobs.tile_m));
  p.tiles_n = static_cast<int>(ceil_div(p.n, knobs.tile_n));
  p.swizzle_group = knobs.swizzle_group;
  p.grid_tiles = static_cast<int>(launch.grid[0]);
  p.alpha = problem.alpha_f32();
  p.beta = problem.beta_f32();
  if (launch.repacks.a.active) {
    p.a = operands.repack;
    p.lda = launch.repacks.a.ld_dst;
    p.batch_stride_a = launch.repacks.a.stride_dst;
  }
  if (launch.repacks.b.active) {
    p.b = operands.repack ? static_cast<const unsigned char*>(operands.repack) + launch.repacks.b_offset() : nullptr;
    p.ldb = launch.repacks.b.ld_dst;
    p.batch_stride_b = launch.repacks.b.stride_dst;
  }
  if (knobs.path == KernelPath::Wgmma) sm90_set_launch_params(p, knobs, traits, device.sm_count);
  return p;
}

void encode_tensor_maps(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& traits,
                        EncodeTiledFn encode) {
  sm90_encode_tensor_maps(params, knobs, kernel_traits(knobs, traits), encode);
}

}  // namespace ktune::generated
