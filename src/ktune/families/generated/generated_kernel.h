#pragma once
// One generated GEMM kernel: from a GemmProblem and a knob setting to CUDA C++ source, the
// NVRTC target, the launch geometry and the filled parameter block. Pure host code: everything
// here runs (and is tested) without a GPU; generated_runner.h loads and launches.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/generated/generated_knobs.h"
#include "ktune/families/generated/kernels/gemm_params.h"
#include "ktune/families/generated/repack.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::generated {

// The device facts the family needs (from CudaDeviceProperties, or given offline).
struct DeviceTraits {
  int compute_capability = 90;  // major * 10 + minor
  int sm_count = 132;
  int max_shared_per_block = 227 * 1024;  // opt-in limit
  std::string name;
};

// "gen-" + the first 12 hex digits of the SHA-256 of the kernel sources: results measured with
// other sources belong to another kernel in the database.
std::string generator_version();

// Why ktune's generated kernels cannot compute `problem` at all (dtype, output), or nullopt.
std::optional<std::string> unsupported_reason(const gemm::GemmProblem& problem);
// Why `path` cannot run on the device (wgmma needs exactly sm_90; mma.sync needs sm_80+), or nullopt.
std::optional<std::string> path_unavailable_reason(KernelPath path, const DeviceTraits& device);

// Throws gemm::GemmError when unsupported_reason says so.
ProblemTraits problem_traits(const gemm::GemmProblem& problem);

// The problem the kernel itself computes: `traits` unless knobs.swap_ab, which swaps M and N,
// A's and B's contiguity and alignment (D^T = B^T A^T); on the wgmma path an fp8/tf32 operand
// that is not K-contiguous is read from its K-major copy (repack.h), so it is K-contiguous here.
// The functions of this header take the problem's traits and apply this themselves; the path
// files (sm90_path.h) take its result.
ProblemTraits kernel_traits(const GeneratedKnobs& knobs, const ProblemTraits& traits);

// Why `knobs` cannot run `traits` (the path's own rules plus split-K sanity), or nullopt.
std::optional<std::string> rejects(const GeneratedKnobs& knobs, const ProblemTraits& traits, const DeviceTraits& device);

std::string path_name(KernelPath path);  // "mma_sync", "wgmma"
std::optional<KernelPath> parse_path(const std::string& name);
// IREE-style intrinsic name: "MMA_F32_16x8x16_BF16", "WGMMA_F32_64x256x16_F16".
std::string intrinsic_name(const GeneratedKnobs& knobs, const ProblemTraits& traits);

// The complete translation unit NVRTC compiles: KT_* defines for the problem and the knobs,
// then gemm_params.h, gemm_common.cuh and the path's kernel file.
std::string emit_source(const GeneratedKnobs& knobs, const ProblemTraits& traits);

// Sets evict_first_a / evict_first_b on the problem's operands that the kernel reads once (the
// other dimension fits in one tile: the weights of a decode GEMM) and clears them elsewhere.
void stream_read_once_operands(GeneratedKnobs& knobs, const ProblemTraits& traits);
std::string kernel_symbol(KernelPath path);  // the extern "C" kernel name
// The NVRTC target: "sm_90a" for wgmma, "sm_<cc>" for mma.sync.
std::string compile_arch(KernelPath path, const DeviceTraits& device);

// Split-K with a separate reduction (knobs.split_reduce): after the GEMM, kReduceSymbol (same
// module, same parameter block, kReduceThreads threads) sums the slices, kReducePairs pairs of
// columns per CTA at a time (its four warp pairs each sum a quarter of the slices).
inline constexpr const char* kReduceSymbol = "ktune_splitk_reduce_sm90";
inline constexpr unsigned kReduceThreads = 256;
inline constexpr unsigned kReducePairs = 64;
// Slices whose loads it issues before waiting (four warp pairs, eight loads in flight each): a
// reduction over more slices waits on memory once per this many.
inline constexpr int kReduceSlicesPerRound = 32;
// Partials beyond this stay with the atomic scheme (a slice per split of D in f32 each).
inline constexpr long long kMaxSplitReduceBytes = 256LL << 20;

struct Launch {
  std::array<unsigned, 3> grid{1, 1, 1};
  LaunchShape shape;
  bool needs_split_k_buffers = false;  // workspace + counters
  // Floats of split-K workspace: batch*M*N for atomic adds (zeroed, left zero), split_k times
  // that for a separate reduction (written whole by every launch, never read before).
  std::int64_t split_k_workspace_floats = 0;
  std::int64_t counter_count = 0;      // batch * tiles_m * tiles_n (padded to whole clusters)
  Repacks repacks;                     // wgmma: operands copied to 16-byte rows first (repack.h)
  unsigned reduce_grid = 0;            // CTAs of the reduction kernel; 0: none
};
Launch plan_launch(const GeneratedKnobs& knobs, const ProblemTraits& traits, const DeviceTraits& device);

// The kernel parameter block for device buffers (null c/bias when the problem has none).
// tma_a/tma_b stay zero: the runner encodes them through the driver for the wgmma path. A
// repacked operand is read from its copy in operands.repack.
struct DeviceOperands {
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;
  void* d = nullptr;
  const void* bias = nullptr;
  float* workspace = nullptr;
  unsigned* counters = nullptr;
  void* repack = nullptr;  // launch.repacks.bytes() of scratch when launch.repacks.any()
};
// With swap_ab the block describes the swapped problem (a = B, b = A, m = N, n = M, lda = ldb...)
// while C, D and bias keep the problem's layout (the kernel stores transposed).
KtuneGemmParams make_params(const GeneratedKnobs& knobs, const ProblemTraits& traits, const gemm::GemmProblem& problem,
                            const DeviceOperands& operands, const Launch& launch, const DeviceTraits& device);

// sm90_encode_tensor_maps for the kernel's own problem (wgmma; `traits` are the problem's).
void encode_tensor_maps(KtuneGemmParams& params, const GeneratedKnobs& knobs, const ProblemTraits& traits,
                        EncodeTiledFn encode);

}  // namespace ktune::generated
