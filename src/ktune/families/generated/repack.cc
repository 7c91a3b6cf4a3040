#include "ktune/families/generated/repack.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ktune::generated {

namespace {

std::int64_t round_up(std::int64_t value, std::int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

RepackPlan plan(int alignment_bytes, int element_bytes, std::int64_t inner, std::int64_t outer, std::int64_t batch) {
  RepackPlan p;
  p.active = alignment_bytes < 16;
  p.element_bytes = element_bytes;
  p.inner = inner;
  p.outer = outer;
  p.batch = batch;
  p.ld_src = inner;
  p.stride_src = inner * outer;
  p.ld_dst = round_up(inner, 16 / element_bytes);
  p.stride_dst = p.ld_dst * outer;
  return p;
}

// `outer` (K) rows of `inner` (M or N) elements, copied as `inner` rows of K.
RepackPlan transposed(int element_bytes, std::int64_t inner, std::int64_t outer, std::int64_t batch) {
  RepackPlan p = plan(1, element_bytes, inner, outer, batch);  // always active
  p.transpose = true;
  p.ld_dst = round_up(outer, 16 / element_bytes);
  p.stride_dst = p.ld_dst * inner;
  return p;
}

// Either copy above, splitting f32 elements into `pattern`'s three K segments (repack.h).
RepackPlan split(RepackPlan p, int pattern, std::int64_t k) {
  p.active = true;
  p.split = pattern;
  p.segment = f32_split_segment(k);
  p.ld_dst = 3 * p.segment;
  p.stride_dst = p.ld_dst * p.rows_dst();
  return p;
}

// fp8 and tf32 wgmma take no transposed shared-memory operand.
bool k_major_only(const ProblemTraits& t) { return in_type_bytes(t.in_type) != 2; }

}  // namespace

Repacks sm90_repacks(const ProblemTraits& t) {
  const int bytes = in_type_bytes(t.in_type);
  Repacks r;
  if (t.f32_split) {
    r.a = split(t.a_k_contiguous ? plan(1, bytes, t.k, t.m, t.batch) : transposed(bytes, t.m, t.k, t.batch), 1, t.k);
    r.b = split(t.b_k_contiguous ? plan(1, bytes, t.k, t.n, t.batch) : transposed(bytes, t.n, t.k, t.batch), 2, t.k);
    return r;
  }
  // tf32's M-contiguous A is read into registers (KT_A_REGS in gemm_sm90.cuh): no transpose.
  if (t.a_k_contiguous)
    r.a = plan(t.a_alignment_bytes, bytes, t.k, t.m, t.batch);
  else
    r.a = k_major_only(t) && bytes == 1 ? transposed(bytes, t.m, t.k, t.batch)
                                        : plan(t.a_alignment_bytes, bytes, t.m, t.k, t.batch);
  if (t.b_k_contiguous)
    r.b = plan(t.b_alignment_bytes, bytes, t.k, t.n, t.batch);
  else
    r.b = k_major_only(t) ? transposed(bytes, t.n, t.k, t.batch) : plan(t.b_alignment_bytes, bytes, t.n, t.k, t.batch);
  return r;
}

ProblemTraits sm90_read_traits(const ProblemTraits& traits) {
  ProblemTraits t = traits;
  const Repacks r = sm90_repacks(traits);
  if (r.a.transpose) {
    t.a_k_contiguous = true;
    t.a_alignment_bytes = 16;
  }
  if (r.b.transpose) {
    t.b_k_contiguous = true;
    t.b_alignment_bytes = 16;
  }
  if (traits.f32_split) {
    t.k = kernel_k(traits);
    t.a_k_contiguous = t.b_k_contiguous = true;
    t.a_alignment_bytes = t.b_alignment_bytes = 16;
    t.f32_split = false;  // the kernel sees a plain tf32 problem
  }
  t.ab_alignment_bytes = std::min(t.a_alignment_bytes, t.b_alignment_bytes);
  return t;
}

std::vector<RepackLaunch> repack_launches(const Repacks& repacks, const void* a, const void* b, void* scratch,
                                          int sm_count) {
  RepackLaunch l;
  int count = 0;
  auto add = [&](const RepackPlan& p, const void* source, std::int64_t offset) {
    if (!p.active) return;
    // A thread per 16-byte vector of the copy; transposed: one 64x64 tile per CTA at a time.
    // At most 16 CTAs per SM for each operand, walking the rest.
    const std::int64_t columns = p.split ? p.segment : p.ld_dst;
    const std::int64_t vectors = p.outer * p.batch * (columns * p.element_bytes / 16);
    const std::int64_t units = p.transpose ? p.batch * ((p.inner + 63) / 64) * ((columns + 63) / 64)
                                           : (vectors + kRepackThreads - 1) / kRepackThreads;
    const std::int64_t ctas = std::min<std::int64_t>(units, static_cast<std::int64_t>(std::max(1, sm_count)) * 16);
    KtuneRepackParams& op = l.params.op[count];
    l.params.ctas[count] = static_cast<unsigned>(std::max<std::int64_t>(1, ctas));
    op.src = source;
    op.dst = static_cast<unsigned char*>(scratch) + offset;
    op.inner = p.inner;
    op.outer = p.outer;
    op.batch = p.batch;
    op.ld_src = p.ld_src;
    op.ld_dst = p.ld_dst;
    op.stride_src = p.stride_src;
    op.stride_dst = p.stride_dst;
    op.transpose = p.transpose ? 1 : 0;
    op.split = p.split;
    op.segment = p.segment;
    ++count;
  };
  add(repacks.a, a, 0);
  add(repacks.b, b, repacks.b_offset());
  if (count == 0) return {};
  l.grid = {l.params.ctas[0] + l.params.ctas[1], 1, 1};
  return {l};
}

float round_to_tf32(float x) {
  if (!std::isfinite(x)) return x;
  // Adding half of the dropped 13 bits' unit to the magnitude rounds ties away from zero.
  const std::uint32_t bits = (std::bit_cast<std::uint32_t>(x) + 0x1000u) & 0xffffe000u;
  return std::bit_cast<float>(bits);
}

Tf32Split split_tf32(float x) {
  float big = round_to_tf32(x);
  // Within 2^-11 of FLT_MAX rounding goes to infinity, and big + small would be inf - inf:
  // truncate there instead (small stays exact). An infinite x keeps big = x, small = 0.
  if (std::isinf(big) && std::isfinite(x)) big = std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & 0xffffe000u);
  return {big, std::isfinite(big) ? round_to_tf32(x - big) : 0.0f};
}

}  // namespace ktune::generated
