#include "ktune/families/gemm/gemm_reference.h"

#include <gtest/gtest.h>

#include <cstring>

#include <chrono>
#include <cmath>
#include <limits>

#include "ktune/core/sanitized_build.h"
#include "ktune/verify/poison.h"

namespace ktune::gemm {
namespace {

GemmProblem problem(std::int64_t m, std::int64_t n, std::int64_t k, Precision precision = Precision::BF16) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.precision = precision;
  p.out = default_output(precision);
  return p;
}

TEST(Fp8E4M3, KnownValues) {
  EXPECT_EQ(f8e4m3_to_double(0x00), 0.0);
  EXPECT_EQ(f8e4m3_to_double(0x38), 1.0);
  EXPECT_EQ(f8e4m3_to_double(0xB8), -1.0);
  EXPECT_EQ(f8e4m3_to_double(0x7E), 448.0);
  EXPECT_EQ(f8e4m3_to_double(0x08), std::ldexp(1.0, -6));  // smallest normal
  EXPECT_EQ(f8e4m3_to_double(0x01), std::ldexp(1.0, -9));  // smallest subnormal
  EXPECT_EQ(f8e4m3_to_double(0x07), 7 * std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(f8e4m3_to_double(0x7F)));
  EXPECT_TRUE(std::isnan(f8e4m3_to_double(0xFF)));
  EXPECT_EQ(f8e4m3_to_double(0x3C), 1.5);
}

TEST(Fp8E4M3, EncodingRoundsToNearestEvenAndSaturates) {
  for (unsigned code = 0; code < 256; ++code) {
    const auto bits = static_cast<std::uint8_t>(code);
    const double v = f8e4m3_to_double(bits);
    if (std::isnan(v)) continue;
    if (v == 0.0) continue;  // -0 and +0 are both fine
    EXPECT_EQ(f8e4m3_from_double(v), bits) << code;
  }
  // 1.0 = 0x38, next is 1.125 = 0x39: 1.0625 is a tie, goes to the even code 0x38.
  EXPECT_EQ(f8e4m3_from_double(1.0625), 0x38);
  // 1.125 (0x39) and 1.25 (0x3A): 1.1875 ties to 0x3A.
  EXPECT_EQ(f8e4m3_from_double(1.1875), 0x3A);
  EXPECT_EQ(f8e4m3_from_double(1.07), 0x39);
  EXPECT_EQ(f8e4m3_from_double(1000.0), 0x7E);
  EXPECT_EQ(f8e4m3_from_double(-1e9), 0xFE);
  EXPECT_EQ(f8e4m3_from_double(std::nan("")), 0x7F);
  EXPECT_EQ(f8e4m3_from_double(std::ldexp(1.0, -11)), 0x00);   // below half the smallest subnormal
  EXPECT_EQ(f8e4m3_from_double(std::ldexp(1.5, -10)), 0x01);   // rounds up to the smallest subnormal
}

TEST(GemmNumeric, StorageRoundTrip) {
  std::vector<std::byte> buffer(16);
  for (Storage s : {Storage::F16, Storage::BF16, Storage::F32, Storage::F8E4M3}) {
    store_value(buffer.data(), 1, s, 0.75);
    EXPECT_EQ(load_value(buffer.data(), 1, s), 0.75) << storage_name(s);
    store_value(buffer.data(), 2, s, 1.0 / 3.0);
    const double back = load_value(buffer.data(), 2, s);
    EXPECT_NEAR(back, 1.0 / 3.0, unit_roundoff(s) / 3.0 * 1.01) << storage_name(s);
  }
  EXPECT_EQ(element_type_of(Storage::BF16), ElementType::BF16);
  EXPECT_EQ(element_type_of(Storage::F8E4M3), std::nullopt);
}

TEST(GemmNumeric, Gelu) {
  EXPECT_EQ(gelu_tanh(0.0), 0.0);
  EXPECT_NEAR(gelu_tanh(1.0), 0.8411919906082768, 1e-15);
  EXPECT_NEAR(gelu_tanh(-1.0), -0.15880800939172324, 1e-15);
  EXPECT_NEAR(gelu_tanh(10.0), 10.0, 1e-12);
  EXPECT_EQ(apply_activation(Activation::Relu, -2.0), 0.0);
  EXPECT_EQ(apply_activation(Activation::Relu, 2.0), 2.0);
  // The erf form differs from the tanh form by less than the model's activation allowance.
  const ErrorModel model = [] {
    GemmProblem p = problem(1, 1, 1);
    p.activation = Activation::Gelu;
    return error_model(p);
  }();
  for (double x = -6; x <= 6; x += 0.01) {
    const double erf_form = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    EXPECT_LE(std::fabs(erf_form - gelu_tanh(x)), model.activation_rel * std::fabs(x) + 1e-12) << x;
  }
}

TEST(GemmOperands, RandomNeverZeroDeterministic) {
  GemmProblem p = problem(33, 17, 65);
  p.beta = 0.5;
  p.bias = true;
  const GemmOperands a = make_operands(p, 42, 1);
  const GemmOperands b = make_operands(p, 42, 3);
  const GemmOperands c = make_operands(p, 43, 2);
  EXPECT_EQ(a.a, b.a);  // thread count does not change the data
  EXPECT_EQ(a.b, b.b);
  EXPECT_EQ(a.c, b.c);
  EXPECT_EQ(a.bias, b.bias);
  EXPECT_NE(a.a, c.a);
  ASSERT_EQ(a.a.size(), 33u * 65u * 2u);
  ASSERT_EQ(a.b.size(), 65u * 17u * 2u);
  ASSERT_EQ(a.c.size(), 33u * 17u * 2u);
  ASSERT_EQ(a.bias.size(), 17u * 2u);
  int negative = 0;
  for (std::size_t i = 0; i < a.a.size() / 2; ++i) {
    const double v = load_value(a.a.data(), i, Storage::BF16);
    EXPECT_NE(v, 0.0);
    EXPECT_LE(std::fabs(v), 1.0);
    EXPECT_GE(std::fabs(v), 0.0625);
    negative += v < 0;
  }
  EXPECT_GT(negative, 33 * 65 / 4);  // both signs
  EXPECT_LT(negative, 33 * 65 * 3 / 4);

  GemmProblem f8 = problem(16, 16, 32, Precision::F8E4M3);
  const GemmOperands q = make_operands(f8, 1, 0);
  ASSERT_EQ(q.a.size(), 16u * 32u);
  for (std::size_t i = 0; i < q.a.size(); ++i) EXPECT_NE(load_value(q.a.data(), i, Storage::F8E4M3), 0.0);
  EXPECT_TRUE(make_operands(problem(4, 4, 4), 1).c.empty());  // beta == 0 reads no C
}

// The textbook definition, for checking the blocked reference.
double naive(const GemmProblem& p, const GemmOperands& o, std::int64_t bi, std::int64_t i, std::int64_t j) {
  double sum = 0;
  for (std::int64_t kk = 0; kk < p.k; ++kk)
    sum += load_value(o.a.data(), static_cast<std::size_t>(p.a_offset(bi, i, kk)), p.a_storage()) *
           load_value(o.b.data(), static_cast<std::size_t>(p.b_offset(bi, kk, j)), p.b_storage());
  double pre = static_cast<double>(p.alpha_f32()) * sum;
  if (p.reads_c())
    pre += static_cast<double>(p.beta_f32()) *
           load_value(o.c.data(), static_cast<std::size_t>(p.d_offset(bi, i, j)), p.out);
  if (p.bias) pre += load_value(o.bias.data(), static_cast<std::size_t>(j), p.bias_storage());
  if (p.activation == Activation::Relu) return pre > 0 ? pre : 0;
  if (p.activation == Activation::Gelu) return 0.5 * pre * (1 + std::tanh(std::sqrt(2 / M_PI) * (pre + 0.044715 * pre * pre * pre)));
  return pre;
}

TEST(GemmReference, FullMatchesNaiveTripleLoop) {
  for (const char* layout : {"nn", "nt", "tn", "tt"}) {
    for (Precision precision : {Precision::F16, Precision::BF16, Precision::F32, Precision::TF32, Precision::F8E4M3}) {
      for (Activation act : {Activation::None, Activation::Relu, Activation::Gelu}) {
        GemmProblem p = problem(7, 13, 19, precision);
        set_layout(p, layout);
        p.batch = 2;
        p.alpha = 1.5;
        p.beta = act == Activation::Relu ? 0.0 : -0.75;
        p.bias = act != Activation::None;
        p.activation = act;
        if (precision == Precision::F16) p.out = Storage::F32;
        const GemmOperands o = make_operands(p, 7);
        const GemmReference ref = compute_reference(p, o, {ReferenceMode::Full, 0, 1, 2});
        ASSERT_EQ(ref.mode, ReferenceMode::Full);
        ASSERT_EQ(ref.elements.size(), static_cast<std::size_t>(p.d_elements()));
        for (std::int64_t bi = 0; bi < p.batch; ++bi)
          for (std::int64_t i = 0; i < p.m; ++i)
            for (std::int64_t j = 0; j < p.n; ++j) {
              const ReferenceElement& e = ref.elements[static_cast<std::size_t>(p.d_offset(bi, i, j))];
              ASSERT_EQ(e.index, p.d_offset(bi, i, j));
              const double expected = naive(p, o, bi, i, j);
              ASSERT_NEAR(e.value, expected, 1e-12 * (1 + std::fabs(expected)))
                  << p.name() << " at " << bi << "," << i << "," << j;
              EXPECT_GT(e.abs_products, 0.0);
            }
      }
    }
  }
}

TEST(GemmReference, SampledAgreesWithFullAndCoversTheEdges) {
  GemmProblem p = problem(70, 90, 33);
  p.batch = 3;
  p.bias = true;
  const GemmOperands o = make_operands(p, 3);
  const GemmReference full = compute_reference(p, o, {ReferenceMode::Full, 0, 1, 0});
  const GemmReference sampled = compute_reference(p, o, {ReferenceMode::Sampled, 500, 9, 0});
  ASSERT_EQ(sampled.mode, ReferenceMode::Sampled);
  EXPECT_LT(sampled.elements.size(), full.elements.size());
  std::set<std::int64_t> seen;
  for (const ReferenceElement& e : sampled.elements) {
    const ReferenceElement& f = full.elements[static_cast<std::size_t>(e.index)];
    EXPECT_EQ(e.value, f.value);  // the same dot product (summation order may differ only in the last bits)
    seen.insert(e.index);
  }
  for (std::int64_t bi = 0; bi < p.batch; ++bi) {
    EXPECT_TRUE(seen.count(p.d_offset(bi, 0, 0)));
    EXPECT_TRUE(seen.count(p.d_offset(bi, p.m - 1, p.n - 1)));
    EXPECT_TRUE(seen.count(p.d_offset(bi, 0, p.n - 1)));
    EXPECT_TRUE(seen.count(p.d_offset(bi, p.m - 1, 0)));
    for (std::int64_t j = 0; j < p.n; ++j) EXPECT_TRUE(seen.count(p.d_offset(bi, p.m - 1, j)));
    for (std::int64_t i = 0; i < p.m; ++i) EXPECT_TRUE(seen.count(p.d_offset(bi, i, p.n - 1)));
  }
  for (std::size_t s = 1; s < sampled.elements.size(); ++s)
    EXPECT_LT(sampled.elements[s - 1].index, sampled.elements[s].index);
}

TEST(GemmReference, AutoModeByCost) {
  EXPECT_TRUE(full_reference_fits(problem(1000, 1000, 1000)));
  EXPECT_TRUE(full_reference_fits(problem(64, 64, 65536)));
  EXPECT_FALSE(full_reference_fits(problem(4096, 4096, 4096)));
  EXPECT_FALSE(full_reference_fits(problem(8192, 8192, 16)));  // too many outputs to keep
  const GemmProblem big = problem(600, 8000, 8);
  EXPECT_FALSE(full_reference_fits(big));
}

TEST(GemmReference, RejectsMismatchedOperands) {
  const GemmProblem p = problem(4, 4, 4);
  GemmOperands o = make_operands(p, 1);
  o.a.pop_back();
  EXPECT_THROW(compute_reference(p, o), GemmError);
}

// D as a GPU would produce it: fp32 accumulation in k order, rounded to the output storage.
std::vector<std::byte> simulate_gpu(const GemmProblem& p, const GemmOperands& o, std::int64_t skip_k = -1) {
  std::vector<std::byte> d(static_cast<std::size_t>(p.d_elements()) * storage_size(p.out));
  for (std::int64_t bi = 0; bi < p.batch; ++bi)
    for (std::int64_t i = 0; i < p.m; ++i)
      for (std::int64_t j = 0; j < p.n; ++j) {
        float acc = 0;
        for (std::int64_t kk = 0; kk < p.k; ++kk) {
          if (kk == skip_k) continue;
          acc += static_cast<float>(load_value(o.a.data(), static_cast<std::size_t>(p.a_offset(bi, i, kk)), p.a_storage())) *
                 static_cast<float>(load_value(o.b.data(), static_cast<std::size_t>(p.b_offset(bi, kk, j)), p.b_storage()));
        }
        float pre = p.alpha_f32() * acc;
        if (p.bias) pre += static_cast<float>(load_value(o.bias.data(), static_cast<std::size_t>(j), p.bias_storage()));
        const double value = apply_activation(p.activation, pre);
        store_value(d.data(), static_cast<std::size_t>(p.d_offset(bi, i, j)), p.out, value);
      }
  return d;
}

TEST(GemmCheck, AcceptsAnFp32AccumulatedResult) {
  for (Precision precision : {Precision::BF16, Precision::F16, Precision::F32}) {
    GemmProblem p = problem(24, 40, 4096, precision);
    p.bias = true;
    p.activation = Activation::Gelu;
    const GemmOperands o = make_operands(p, 11);
    const GemmReference ref = compute_reference(p, o);
    std::vector<std::byte> d = simulate_gpu(p, o);
    const GemmCheck check = check_output(p, ref, d);
    EXPECT_TRUE(check.pass) << precision_name(precision) << ": " << check.summary();
    EXPECT_EQ(check.checked, static_cast<std::size_t>(p.d_elements()));
    EXPECT_LT(check.max_error_ratio, 1.0);
    EXPECT_GT(check.max_error_ratio, 0.0);
  }
}

TEST(GemmCheck, CatchesAMissingTerm) {
  // Dropping one of K products must be caught: the bound is far below one product's size.
  GemmProblem p = problem(16, 16, 1024, Precision::F32);
  const GemmOperands o = make_operands(p, 5);
  const GemmReference ref = compute_reference(p, o);
  const GemmCheck check = check_output(p, ref, simulate_gpu(p, o, 100));
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.mismatches, check.checked);  // every element lost a product >= 1/256
  ASSERT_TRUE(check.first);
  EXPECT_FALSE(check.first->unwritten);
  EXPECT_NE(check.summary().find("FAIL"), std::string::npos);

  GemmProblem b = problem(16, 16, 1024, Precision::BF16);
  const GemmOperands ob = make_operands(b, 5);
  const GemmCheck cb = check_output(b, compute_reference(b, ob), simulate_gpu(b, ob, 100));
  EXPECT_FALSE(cb.pass);
  EXPECT_GT(cb.mismatches, cb.checked / 3) << cb.summary();  // bf16 output rounding hides some
}

// The device path: D scanned clean on the GPU, only the sampled elements copied back. Same
// verdict and numbers as the check of all of D.
TEST(GemmCheck, SampledValuesAgreeWithTheWholeOutput) {
  for (Precision precision : {Precision::BF16, Precision::F16, Precision::F32}) {
    const GemmProblem p = problem(48, 40, 512, precision);
    const GemmOperands o = make_operands(p, 7);
    const GemmReference ref = compute_reference(p, o, {ReferenceMode::Sampled, 64, 3, 1});
    for (std::int64_t skip_k : {std::int64_t{-1}, std::int64_t{10}}) {
      const std::vector<std::byte> d = simulate_gpu(p, o, skip_k);
      const std::size_t size = storage_size(p.out);
      std::vector<std::byte> values(ref.elements.size() * size);
      for (std::size_t i = 0; i < ref.elements.size(); ++i)
        std::memcpy(values.data() + i * size, d.data() + static_cast<std::size_t>(ref.elements[i].index) * size, size);
      const GemmCheck whole = check_output(p, ref, d);
      const GemmCheck sampled = check_sampled_values(p, ref, values);
      SCOPED_TRACE(std::string(precision_name(precision)) + (skip_k < 0 ? " right" : " missing a product"));
      EXPECT_EQ(sampled.pass, whole.pass) << sampled.summary();
      EXPECT_EQ(sampled.pass, skip_k < 0);
      EXPECT_EQ(sampled.checked, whole.checked);
      EXPECT_EQ(sampled.mismatches, whole.mismatches);
      EXPECT_EQ(sampled.scanned, whole.scanned);
      EXPECT_DOUBLE_EQ(sampled.max_error_ratio, whole.max_error_ratio);
      ASSERT_EQ(sampled.first.has_value(), whole.first.has_value());
      if (sampled.first) {
        EXPECT_EQ(sampled.first->row, whole.first->row);
        EXPECT_EQ(sampled.first->col, whole.first->col);
      }
    }
    EXPECT_THROW(check_sampled_values(p, ref, std::vector<std::byte>(3)), GemmError);
  }
}

TEST(GemmCheck, UnwrittenAndNonFiniteElements) {
  GemmProblem p = problem(40, 50, 64);
  const GemmOperands o = make_operands(p, 2);
  const GemmReference full = compute_reference(p, o);
  std::vector<std::byte> d = simulate_gpu(p, o);
  ASSERT_TRUE(check_output(p, full, d).pass);

  std::vector<std::byte> poisoned(d.size());
  poison_output(p, poisoned);
  EXPECT_TRUE(verify::is_poison(poisoned.data(), 0, ElementType::BF16));
  // Copy one element of poison in: reported as unwritten, at its place.
  std::memcpy(d.data() + 2 * p.d_offset(0, 7, 9), poisoned.data(), 2);
  GemmCheck check = check_output(p, full, d);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.unwritten, 1u);
  EXPECT_EQ(check.mismatches, 1u);
  ASSERT_TRUE(check.first);
  EXPECT_TRUE(check.first->unwritten);
  EXPECT_EQ(check.first->row, 7);
  EXPECT_EQ(check.first->col, 9);
  EXPECT_NE(check.summary().find("never written"), std::string::npos);

  // A sampled reference that misses the element still sees it in the scan.
  GemmReference sampled = compute_reference(p, o, {ReferenceMode::Sampled, 16, 1, 1});
  std::erase_if(sampled.elements, [&](const ReferenceElement& e) { return e.index == p.d_offset(0, 7, 9); });
  check = check_output(p, sampled, d);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.unwritten, 1u);
  EXPECT_EQ(check.mismatches, 0u);
  ASSERT_TRUE(check.first);
  EXPECT_EQ(check.first->row, 7);

  d = simulate_gpu(p, o);
  store_value(d.data(), static_cast<std::size_t>(p.d_offset(0, 3, 4)), p.out, std::numeric_limits<double>::infinity());
  check = check_output(p, full, d);
  EXPECT_FALSE(check.pass);
  EXPECT_EQ(check.non_finite, 1u);
  const nlohmann::json j = check.to_json();
  EXPECT_EQ(j.at("pass"), false);
  EXPECT_EQ(j.at("first_mismatch").at("actual"), "inf");

  d.pop_back();
  EXPECT_THROW(check_output(p, full, d), GemmError);
}

TEST(GemmCheck, SplitKPartialsWidenTheBound) {
  GemmProblem p = problem(8, 8, 4096);
  ErrorModel model = error_model(p);
  EXPECT_GT(model.bound(100, 0, 10, 10, 8), model.bound(100, 0, 10, 10, 0));
  EXPECT_EQ(model.bound(100, 0, 10, 10, 1), model.bound(100, 0, 10, 10, 0));
  GemmProblem t = problem(8, 8, 4096, Precision::TF32);
  EXPECT_GT(error_model(t).input_rel, 0.0);
}

TEST(GemmCheck, ScanClassifiesEveryOutputStorage) {
  for (Precision precision : {Precision::BF16, Precision::F16, Precision::F32}) {
    GemmProblem p = problem(64, 96, 32, precision);
    const GemmOperands o = make_operands(p, 4);
    const GemmReference ref = compute_reference(p, o, {ReferenceMode::Sampled, 8, 3, 1});
    std::vector<std::byte> d = simulate_gpu(p, o);
    ASSERT_TRUE(check_output(p, ref, d).pass) << precision_name(precision);
    std::vector<std::byte> poisoned(d.size());
    poison_output(p, poisoned);
    const std::size_t size = storage_size(p.out);
    std::memcpy(d.data() + size * 100, poisoned.data(), size);                                      // unwritten
    store_value(d.data(), 200, p.out, std::nan(""));                                                 // a computed NaN
    store_value(d.data(), 300, p.out, -std::numeric_limits<double>::infinity());                   // overflow
    store_value(d.data(), 400, p.out, load_value(d.data(), 400, p.out) * 2 + 1);                    // finite: scan ignores it
    const GemmCheck c = check_output(p, ref, d);
    EXPECT_FALSE(c.pass);
    EXPECT_EQ(c.unwritten, 1u) << precision_name(precision);
    EXPECT_EQ(c.non_finite, 2u) << precision_name(precision);
    EXPECT_EQ(c.scanned, static_cast<std::size_t>(p.d_elements()));
  }
}

TEST(GemmCheck, ScanOfALargeOutputIsQuick) {
  GemmProblem p = problem(4096, 4096, 16);
  const GemmOperands o = make_operands(p, 1);
  const GemmReference ref = compute_reference(p, o);
  ASSERT_EQ(ref.mode, ReferenceMode::Sampled);
  std::vector<std::byte> d(static_cast<std::size_t>(p.d_elements()) * 2);
  for (const ReferenceElement& e : ref.elements) store_value(d.data(), static_cast<std::size_t>(e.index), p.out, e.value);
  const auto start = std::chrono::steady_clock::now();
  const GemmCheck c = check_output(p, ref, d);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(c.pass) << c.summary();
  std::printf("check of 16M bf16 outputs (%zu sampled): %.3f s\n", c.checked, seconds);
  EXPECT_LT(seconds, 2.0 * kSanitizerTimeFactor);

  // The scan of an output this large runs on several threads: counts and the first offender
  // (lowest index) are the same as a sequential scan's, wherever the chunks split.
  std::vector<std::byte> poisoned(4);
  poison_output(p, poisoned);
  const std::size_t late = static_cast<std::size_t>(p.d_offset(0, 4000, 17));
  const std::size_t early = static_cast<std::size_t>(p.d_offset(0, 900, 5));
  std::memcpy(d.data() + 2 * late, poisoned.data(), 2);
  store_value(d.data(), early, p.out, std::numeric_limits<double>::infinity());
  store_value(d.data(), static_cast<std::size_t>(p.d_offset(0, 2500, 1)), p.out, std::nan(""));
  const GemmCheck bad = check_output(p, ref, d);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.unwritten, 1u);
  EXPECT_EQ(bad.non_finite, 2u);
  ASSERT_TRUE(bad.first);
  EXPECT_EQ(bad.first->row, 900);
  EXPECT_EQ(bad.first->col, 5);
  EXPECT_FALSE(bad.first->unwritten);
}

TEST(GemmReference, ThousandCubedTakesSeconds) {
  const GemmProblem p = problem(1000, 1000, 1000, Precision::F16);
  const GemmOperands o = make_operands(p, 1);
  const GemmReference ref = compute_reference(p, o);
  EXPECT_EQ(ref.mode, ReferenceMode::Full);
  std::printf("1000^3 fp64 reference: %.2f s on %u threads\n", ref.seconds, std::thread::hardware_concurrency());
  EXPECT_LT(ref.seconds, 60.0 * kSanitizerTimeFactor);
}

}  // namespace
}  // namespace ktune::gemm
