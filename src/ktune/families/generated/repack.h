#pragma once
// Operand repacking for the sm_90a (TMA) path. TMA addresses global memory through a tensor map
// whose strides must be multiples of 16 bytes, so an operand whose rows (or batch entries) start
// off 16-byte boundaries (K = 4097 f16, N = 511 ...) cannot be loaded by it. Such an operand is
// first copied by a small kernel of the same module (ktune_repack_sm90, gemm_sm90.cuh) into a
// scratch buffer whose leading dimension is rounded up to 16 bytes; the GEMM then reads the copy.
// The copy runs before every GEMM launch and is part of every measurement of such a kernel, and
// the model charges it (generated_space.cc). cuBLASLt falls back to kernels with narrow loads
// there (511x1000x4097 f16: 49 us against ~20 for this path, H100, session 15).
//
// The same copy transposes an fp8 or tf32 operand whose K is not its contiguous dimension (tf32
// "nn": B stored K x N): wgmma reads these types K-major only from shared memory (no transpose
// immediate, unlike 16-bit types), so the kernel reads a K-major copy instead. That copy moves
// the whole operand (4096^2 f32: 128 MB of traffic, ~50 us on an H100); it is measured and
// charged like the rest. tf32's A is the exception: the kernel reads an M-contiguous A into
// registers (KT_A_REGS), and a swapped kernel (swap_ab) turns an N-contiguous B into that A.
//
// Strict f32 (ProblemTraits::f32_split) runs on the tf32 kernel through a splitting copy of both
// operands (NVIDIA's "3xTF32"; CUTLASS and cuBLAS's FP32 emulation do the same): every element
// x becomes big = tf32(x) (round to nearest) and small = tf32(x - big), so x - big - small is
// below 2^-22 |x|, and the copy lays them out along K in three segments of f32_split_segment(K)
// elements,
//     A' = [small_a | big_a   | big_a]      B' = [big_b | small_b | big_b]
// so that the kernel's one GEMM over 3 segments sums small_a big_b + big_a small_b + big_a big_b
// (the dropped small_a small_b is below 2^-22 |a b|), the small terms first. Each product is then
// within ~2^-21 of the exact one, inside the strict f32 error bound (gemm_numeric.h), which plain
// TF32 (2^-10 per input) is not. Three times the tensor-core work at tf32's rate still beats
// fp32 FMA units (H100: ~495 against ~67 dense TFLOP/s).

#include <array>
#include <cstdint>
#include <vector>

#include "ktune/families/generated/generated_knobs.h"
#include "ktune/families/generated/kernels/gemm_params.h"

namespace ktune::generated {

inline constexpr const char* kRepackSymbol = "ktune_repack_sm90";
inline constexpr unsigned kRepackThreads = 256;

// One operand's copy, in elements: `outer` rows of `inner` contiguous elements per batch entry.
struct RepackPlan {
  bool active = false;
  // The copy is the source's transpose: `inner` rows of `outer` elements (K-major) out of
  // `outer` rows of `inner`.
  bool transpose = false;
  // f32_split: 1 writes [small | big | big], 2 writes [big | small | big], each segment
  // `segment` elements long (the source's K, zero-padded); 0 copies plainly.
  int split = 0;
  std::int64_t segment = 0;
  int element_bytes = 2;
  std::int64_t inner = 0, outer = 0, batch = 1;
  std::int64_t ld_src = 0, ld_dst = 0;          // row pitch before and after
  std::int64_t stride_src = 0, stride_dst = 0;  // batch entry pitch before and after
  std::int64_t rows_dst() const { return transpose ? inner : outer; }
  std::int64_t bytes() const { return active ? batch * stride_dst * element_bytes : 0; }
  // Bytes the copy moves: every element read once and written once (padding included).
  double traffic_bytes() const {
    return active ? static_cast<double>(batch) * (outer * inner + rows_dst() * ld_dst) * element_bytes : 0.0;
  }
};

struct Repacks {
  RepackPlan a, b;
  bool any() const { return a.active || b.active; }
  // B's copy starts here in the scratch buffer (256-byte aligned after A's).
  std::int64_t b_offset() const { return (a.bytes() + 255) / 256 * 256; }
  std::int64_t bytes() const { return b.active ? b_offset() + b.bytes() : a.bytes(); }
};

// The copies the wgmma path needs for this problem, given the operand layouts the kernel is asked
// to read (after swap_ab): none when every row and batch entry of A and B starts 16-byte
// aligned and fp8/tf32 operands are K-contiguous; both, splitting, for strict f32.
Repacks sm90_repacks(const ProblemTraits& traits);

// The layouts the wgmma kernel itself reads: an operand with a transposed copy is K-contiguous;
// a split f32 problem has K = kernel_k(traits) over K-contiguous copies.
ProblemTraits sm90_read_traits(const ProblemTraits& traits);

// One launch of ktune_repack_sm90 (kRepackThreads threads; a transposing copy uses a static
// 64x65-element shared tile): params.op[0] and, when both operands are copied, op[1], with
// params.ctas[i] CTAs each; grid[0] is their sum.
struct RepackLaunch {
  std::array<unsigned, 3> grid{1, 1, 1};
  KtuneRepackLaunch params{};
  int operands() const { return params.ctas[1] > 0 ? 2 : 1; }
};
// The launches that fill `scratch` from `a` and `b` before the GEMM: none, or one copying A, B
// or both.
std::vector<RepackLaunch> repack_launches(const Repacks& repacks, const void* a, const void* b, void* scratch,
                                          int sm_count);

// What the splitting copy does to one element, on the host (tests; the kernel uses
// cvt.rna.tf32.f32): round to TF32 with ties away from zero.
float round_to_tf32(float x);
struct Tf32Split {
  float big, small;
};
Tf32Split split_tf32(float x);

}  // namespace ktune::generated
