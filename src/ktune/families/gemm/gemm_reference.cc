#include "ktune/families/gemm/gemm_reference.h"

#include <algorithm>
#include <memory>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <thread>

#include "ktune/verify/poison.h"

namespace ktune::gemm {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

int thread_count(int requested) {
  if (requested > 0) return requested;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

// Runs work(item) for item in [0, count) on `threads` threads; rethrows the first exception.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& work) {
  const int n = static_cast<int>(std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1))));
  if (n <= 1) {
    for (std::size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) {
    pool.emplace_back([&] {
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= count) return;
        try {
          work(i);
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          next.store(count);
          return;
        }
      }
    });
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// Fills `count` elements of `storage` with random sign * uniform [1/16, 1) magnitudes.
void fill_random(HostBytes& data, std::int64_t count, Storage storage, std::uint64_t seed,
                 std::uint64_t stream, int threads) {
  const auto n = static_cast<std::size_t>(count);
  data.clear();
  data.resize(n * storage_size(storage));  // not zeroed: every element is written below
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  parallel_for(chunks, threads, [&](std::size_t chunk) {
    std::mt19937_64 rng(splitmix64(seed ^ splitmix64(stream * 0x100000001B3ull + chunk)));
    const std::size_t begin = chunk * kChunk;
    const std::size_t end = std::min(n, begin + kChunk);
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t x = rng();
      const double unit = static_cast<double>(x >> 11) * 0x1.0p-53;  // [0, 1)
      const double magnitude = 0.0625 + 0.9375 * unit;
      store_value(data.data(), i, storage, (x & 1u) ? -magnitude : magnitude);
    }
  });
}

void check_operands(const GemmProblem& p, const GemmOperands& o) {
  auto expect = [](const HostBytes& v, std::int64_t elements, Storage s, const char* what) {
    if (v.size() != static_cast<std::size_t>(elements) * storage_size(s))
      throw GemmError(std::string("operand ") + what + " has " + std::to_string(v.size()) + " bytes, the problem needs " +
                      std::to_string(static_cast<std::size_t>(elements) * storage_size(s)));
  };
  expect(o.a, p.a_elements(), p.a_storage(), "A");
  expect(o.b, p.b_elements(), p.b_storage(), "B");
  expect(o.c, p.c_elements(), p.out, "C");
  expect(o.bias, p.bias_elements(), p.bias_storage(), "bias");
}

ReferenceElement finish_element(const GemmProblem& p, const GemmOperands& o, std::int64_t bi, std::int64_t i,
                                 std::int64_t j, double sum, double abs_sum) {
  const double alpha = p.alpha_f32();
  const double beta = p.beta_f32();
  ReferenceElement e;
  e.index = p.d_offset(bi, i, j);
  double addend = 0, abs_addend = 0;
  if (p.reads_c()) {
    const double c = load_value(o.c.data(), static_cast<std::size_t>(e.index), p.out);
    addend += beta * c;
    abs_addend += std::fabs(beta * c);
  }
  if (p.bias) {
    const double b = load_value(o.bias.data(), static_cast<std::size_t>(j), p.bias_storage());
    addend += b;
    abs_addend += std::fabs(b);
  }
  e.pre = alpha * sum + addend;
  e.value = apply_activation(p.activation, e.pre);
  e.abs_products = std::fabs(alpha) * abs_sum;
  e.abs_addends = abs_addend;
  return e;
}

std::string format_number(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

nlohmann::json number_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

GemmOperands make_operands(const GemmProblem& problem, std::uint64_t seed, int threads) {
  validate(problem);
  const int t = thread_count(threads);
  GemmOperands o;
  o.seed = seed;
  fill_random(o.a, problem.a_elements(), problem.a_storage(), seed, 1, t);
  fill_random(o.b, problem.b_elements(), problem.b_storage(), seed, 2, t);
  if (problem.reads_c()) fill_random(o.c, problem.c_elements(), problem.out, seed, 3, t);
  if (problem.bias) fill_random(o.bias, problem.bias_elements(), problem.bias_storage(), seed, 4, t);
  return o;
}

std::string_view reference_mode_name(ReferenceMode mode) {
  switch (mode) {
    case ReferenceMode::Auto: return "auto";
    case ReferenceMode::Full: return "full";
    case ReferenceMode::Sampled: return "sampled";
  }
  return "?";
}

std::optional<ReferenceMode> parse_reference_mode(std::string_view name) {
  if (name == "auto") return ReferenceMode::Auto;
  if (name == "full") return ReferenceMode::Full;
  if (name == "sampled") return ReferenceMode::Sampled;
  return std::nullopt;
}

bool full_reference_fits(const GemmProblem& p) {
  const double macs = static_cast<double>(p.batch) * static_cast<double>(p.m) * static_cast<double>(p.n) *
                      static_cast<double>(p.k);
  const double converted = static_cast<double>(p.a_elements()) + static_cast<double>(p.b_elements());
  return macs <= 0x1.0p31 && static_cast<double>(p.d_elements()) <= 0x1.0p22 && converted <= 0x1.0p26;
}

ReferenceElement reference_element(const GemmProblem& p, const GemmOperands& o, std::int64_t bi, std::int64_t i,
                                   std::int64_t j) {
  double sum = 0, abs_sum = 0;
  for (std::int64_t kk = 0; kk < p.k; ++kk) {
    const double a = load_value(o.a.data(), static_cast<std::size_t>(p.a_offset(bi, i, kk)), p.a_storage());
    const double b = load_value(o.b.data(), static_cast<std::size_t>(p.b_offset(bi, kk, j)), p.b_storage());
    sum += a * b;
    abs_sum += std::fabs(a * b);
  }
  return finish_element(p, o, bi, i, j, sum, abs_sum);
}

// The operands are converted to float, not double: every storage (f16, bf16, f32, e4m3) is
// exactly a float, so nothing is lost, and the copies take half the memory (B of a 8192^2
// problem: 256 MB instead of 512 MB, whose page faults were most of a 0.46 s reference).
// Products and sums are formed in double (dot_fp64).

// A of every batch as row-major M x K (row i of batch bi at (bi * M + i) * K), converted on all
// threads.
// Uninitialized (make_unique_for_overwrite): the converting threads touch the pages first, in
// parallel; a std::vector would zero 256 MB (B of 8192^2) on one thread before they start.
using FloatBuffer = std::unique_ptr<float[]>;

FloatBuffer a_rows_fp32(const GemmProblem& p, const GemmOperands& o, int threads) {
  const auto M = static_cast<std::size_t>(p.m), K = static_cast<std::size_t>(p.k);
  FloatBuffer rows = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(p.a_elements()));
  parallel_for(static_cast<std::size_t>(p.batch) * M, threads, [&](std::size_t row) {
    const auto bi = static_cast<std::int64_t>(row / M), i = static_cast<std::int64_t>(row % M);
    float* out = rows.get() + row * K;
    for (std::size_t kk = 0; kk < K; ++kk)
      out[kk] = static_cast<float>(load_value(o.a.data(), static_cast<std::size_t>(p.a_offset(bi, i, static_cast<std::int64_t>(kk))),
                           p.a_storage()));
  });
  return rows;
}

// B of every batch transposed to N x K (column j of batch bi at (bi * N + j) * K), so that every
// output is a dot product of two contiguous rows. Converted in blocks of 64 columns on all
// threads: each block reads 64 neighbouring elements per K row and writes 64 rows it owns.
FloatBuffer b_columns_fp32(const GemmProblem& p, const GemmOperands& o, int threads) {
  const auto N = static_cast<std::size_t>(p.n), K = static_cast<std::size_t>(p.k);
  constexpr std::size_t kBlock = 64;
  const std::size_t blocks = (N + kBlock - 1) / kBlock;
  FloatBuffer columns = std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(p.b_elements()));
  parallel_for(static_cast<std::size_t>(p.batch) * blocks, threads, [&](std::size_t item) {
    const auto bi = static_cast<std::int64_t>(item / blocks);
    const std::size_t j0 = (item % blocks) * kBlock, j1 = std::min(N, j0 + kBlock);
    float* base = columns.get() + static_cast<std::size_t>(bi) * N * K;
    for (std::size_t kk = 0; kk < K; ++kk)
      for (std::size_t j = j0; j < j1; ++j)
        base[j * K + kk] = static_cast<float>(load_value(
            o.b.data(), static_cast<std::size_t>(p.b_offset(bi, static_cast<std::int64_t>(kk), static_cast<std::int64_t>(j))),
            p.b_storage()));
  });
  return columns;
}

// sum a[k] b[k] and sum |a[k] b[k]| over two contiguous rows, four independent chains so the
// loop runs at the FMA throughput instead of its latency.
std::pair<double, double> dot_fp64(const float* a, const float* b, std::size_t K) {
  auto product = [&](std::size_t i) { return static_cast<double>(a[i]) * static_cast<double>(b[i]); };
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0, t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  std::size_t kk = 0;
  for (; kk + 4 <= K; kk += 4) {
    const double p0 = product(kk), p1 = product(kk + 1);
    const double p2 = product(kk + 2), p3 = product(kk + 3);
    s0 += p0, s1 += p1, s2 += p2, s3 += p3;
    t0 += std::fabs(p0), t1 += std::fabs(p1), t2 += std::fabs(p2), t3 += std::fabs(p3);
  }
  for (; kk < K; ++kk) {
    const double q = product(kk);
    s0 += q;
    t0 += std::fabs(q);
  }
  return {(s0 + s1) + (s2 + s3), (t0 + t1) + (t2 + t3)};
}

// Sampled references convert B once when its float copy stays under 512 MiB; A's rows are
// converted per sample (K values each).
constexpr std::int64_t kSampledCopyLimit = std::int64_t{1} << 27;

GemmReference compute_reference(const GemmProblem& p, const GemmOperands& o, const ReferenceOptions& options) {
  validate(p);
  check_operands(p, o);
  const auto start = std::chrono::steady_clock::now();
  const int threads = thread_count(options.threads);
  GemmReference ref;
  ReferenceMode mode = options.mode;
  if (mode == ReferenceMode::Auto) mode = full_reference_fits(p) ? ReferenceMode::Full : ReferenceMode::Sampled;
  ref.mode = mode;
  const auto M = static_cast<std::size_t>(p.m), N = static_cast<std::size_t>(p.n), K = static_cast<std::size_t>(p.k);

  if (mode == ReferenceMode::Full) {
    // A as row-major M x K and B transposed (N x K), as floats: every output is then a dot product
    // of two contiguous rows.
    const FloatBuffer a_rows = a_rows_fp32(p, o, threads);
    const FloatBuffer b_cols = b_columns_fp32(p, o, threads);
    ref.elements.resize(static_cast<std::size_t>(p.d_elements()));
    constexpr std::size_t kRows = 16, kCols = 64;
    const std::size_t row_blocks = (M + kRows - 1) / kRows;
    const std::size_t col_blocks = (N + kCols - 1) / kCols;
    const std::size_t items = static_cast<std::size_t>(p.batch) * row_blocks * col_blocks;
    parallel_for(items, threads, [&](std::size_t item) {
      const std::size_t bi = item / (row_blocks * col_blocks);
      const std::size_t rb = (item / col_blocks) % row_blocks, cb = item % col_blocks;
      const float* a_base = a_rows.get() + bi * M * K;
      const float* b_base = b_cols.get() + bi * N * K;
      for (std::size_t i = rb * kRows; i < std::min(M, (rb + 1) * kRows); ++i) {
        const float* a = a_base + i * K;
        for (std::size_t j = cb * kCols; j < std::min(N, (cb + 1) * kCols); ++j) {
          const auto [sum, abs_sum] = dot_fp64(a, b_base + j * K, K);
          ReferenceElement e = finish_element(p, o, static_cast<std::int64_t>(bi), static_cast<std::int64_t>(i),
                                              static_cast<std::int64_t>(j), sum, abs_sum);
          ref.elements[static_cast<std::size_t>(e.index)] = e;
        }
      }
    });
  } else {
    std::vector<std::int64_t> indices;
    auto add = [&](std::int64_t bi, std::int64_t i, std::int64_t j) { indices.push_back(p.d_offset(bi, i, j)); };
    // Edges of every batch: corners, the last row and the last column (up to 256 of each,
    // evenly spaced, both ends included).
    auto spread = [](std::int64_t extent, std::int64_t count) {
      std::vector<std::int64_t> v;
      if (extent <= count) {
        for (std::int64_t x = 0; x < extent; ++x) v.push_back(x);
      } else {
        for (std::int64_t s = 0; s < count; ++s) v.push_back(s * (extent - 1) / (count - 1));
      }
      return v;
    };
    const std::int64_t edge_batches = std::min<std::int64_t>(p.batch, 64);
    for (std::int64_t s = 0; s < edge_batches; ++s) {
      const std::int64_t bi = edge_batches == p.batch ? s : s * (p.batch - 1) / std::max<std::int64_t>(edge_batches - 1, 1);
      add(bi, 0, 0), add(bi, 0, p.n - 1), add(bi, p.m - 1, 0), add(bi, p.m - 1, p.n - 1);
      for (std::int64_t j : spread(p.n, 256)) add(bi, p.m - 1, j);
      for (std::int64_t i : spread(p.m, 256)) add(bi, i, p.n - 1);
    }
    std::size_t samples = options.samples;
    if (samples == 0)
      samples = static_cast<std::size_t>(std::clamp<double>(0x1.0p28 / static_cast<double>(p.k), 4096.0, 65536.0));
    std::mt19937_64 rng(splitmix64(options.seed));
    const auto total = static_cast<std::uint64_t>(p.d_elements());
    for (std::size_t s = 0; s < samples; ++s) indices.push_back(static_cast<std::int64_t>(rng() % total));
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    ref.elements.resize(indices.size());
    const std::int64_t mn = p.m * p.n;
    if (p.b_elements() <= kSampledCopyLimit) {
      const FloatBuffer b_cols = b_columns_fp32(p, o, threads);
      // Samples are sorted, so neighbouring ones often share A's row: each thread converts a
      // row once for the run of samples it serves.
      const std::size_t per_thread = (indices.size() + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
      parallel_for(static_cast<std::size_t>(threads), threads, [&](std::size_t t) {
        std::vector<float> a_row(K);
        std::int64_t converted = -1;
        for (std::size_t s = t * per_thread; s < std::min(indices.size(), (t + 1) * per_thread); ++s) {
          const std::int64_t index = indices[s];
          const std::int64_t bi = index / mn, i = (index % mn) / p.n, j = index % p.n;
          if (index / p.n != converted) {
            for (std::size_t kk = 0; kk < K; ++kk)
              a_row[kk] = static_cast<float>(load_value(
                  o.a.data(), static_cast<std::size_t>(p.a_offset(bi, i, static_cast<std::int64_t>(kk))), p.a_storage()));
            converted = index / p.n;
          }
          const auto [sum, abs_sum] =
              dot_fp64(a_row.data(), b_cols.get() + (static_cast<std::size_t>(bi) * N + static_cast<std::size_t>(j)) * K, K);
          ref.elements[s] = finish_element(p, o, bi, i, j, sum, abs_sum);
        }
      });
    } else {
      parallel_for(indices.size(), threads, [&](std::size_t s) {
        const std::int64_t index = indices[s];
        const std::int64_t bi = index / mn, i = (index % mn) / p.n, j = index % p.n;
        ref.elements[s] = reference_element(p, o, bi, i, j);
      });
    }
  }
  ref.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ref;
}

namespace {

// The comparison of the reference's elements: value(i, index) gives the i-th reference
// element's output (index into D) as {unwritten, value}.
template <typename Value>
void compare_elements(const GemmProblem& p, const GemmReference& reference, const CheckOptions& options,
                      GemmCheck& check, Value value) {
  const std::int64_t mn = p.m * p.n;
  const ErrorModel model = error_model(p);
  double err2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < reference.elements.size(); ++i) {
    const ReferenceElement& e = reference.elements[i];
    ++check.checked;
    const double bound = model.bound(e.abs_products, e.abs_addends, e.pre, e.value, options.split_partials);
    const auto [unwritten, actual] = value(i, static_cast<std::size_t>(e.index));
    const double error = std::fabs(actual - e.value);
    const bool ok = std::isfinite(actual) && error <= bound;
    if (std::isfinite(actual)) {
      check.max_abs_error = std::max(check.max_abs_error, error);
      if (bound > 0) check.max_error_ratio = std::max(check.max_error_ratio, error / bound);
      err2 += error * error;
    }
    ref2 += e.value * e.value;
    if (!ok) {
      ++check.mismatches;
      if (!check.first)
        check.first = GemmCheck::Mismatch{e.index / mn, (e.index % mn) / p.n, e.index % p.n, e.value, actual, bound, unwritten};
    }
  }
  check.max_rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
}

}  // namespace

GemmCheck check_output(const GemmProblem& p, const GemmReference& reference, std::span<const std::byte> d,
                       const CheckOptions& options) {
  const std::size_t count = static_cast<std::size_t>(p.d_elements());
  if (d.size() != count * storage_size(p.out))
    throw GemmError("the output has " + std::to_string(d.size()) + " bytes, the problem needs " +
                    std::to_string(count * storage_size(p.out)));
  GemmCheck check;
  check.mode = std::string(reference_mode_name(reference.mode));
  const std::optional<ElementType> poison_type = element_type_of(p.out);
  const std::int64_t mn = p.m * p.n;
  auto locate = [&](std::int64_t index, double expected, double actual, double bound, bool unwritten) {
    GemmCheck::Mismatch m;
    m.batch = index / mn;
    m.row = (index % mn) / p.n;
    m.col = index % p.n;
    m.expected = expected;
    m.actual = actual;
    m.bound = bound;
    m.unwritten = unwritten;
    return m;
  };
  auto is_unwritten = [&](std::size_t index) {
    if (poison_type) return verify::is_poison(d.data(), index, *poison_type);
    return static_cast<std::uint8_t>(d[index]) == 0x7F;
  };

  // Scan all of D: an unwritten tile must not hide between samples. Poison patterns are NaNs,
  // so only elements whose exponent bits are all ones need a closer look (a cheap test on
  // the raw bits; D can have 10^8 elements).
  check.scanned = count;
  // Per chunk: unwritten and non-finite counts and the first offending index of each kind.
  struct ScanPart {
    std::size_t unwritten = 0, non_finite = 0;
    std::optional<std::size_t> first;  // lowest index that is unwritten or non-finite
  };
  auto classify = [&](std::size_t index, ScanPart& part) {
    if (is_unwritten(index)) {
      ++part.unwritten;
    } else if (!std::isfinite(load_value(d.data(), index, p.out))) {
      ++part.non_finite;
    } else {
      return;
    }
    if (!part.first) part.first = index;
  };
  auto scan_range = [&](std::size_t begin, std::size_t end) {
    ScanPart part;
    auto scan_bits = [&](auto word, std::uint64_t exponent_mask) {
      using Word = decltype(word);
      for (std::size_t index = begin; index < end; ++index) {
        Word bits;
        std::memcpy(&bits, d.data() + index * sizeof(Word), sizeof(Word));
        if ((static_cast<std::uint64_t>(bits) & exponent_mask) == exponent_mask) classify(index, part);
      }
    };
    switch (p.out) {
      case Storage::F16: scan_bits(std::uint16_t{}, 0x7C00u); break;
      case Storage::BF16: scan_bits(std::uint16_t{}, 0x7F80u); break;
      case Storage::F32: scan_bits(std::uint32_t{}, 0x7F800000u); break;
      case Storage::F8E4M3:
        for (std::size_t index = begin; index < end; ++index) classify(index, part);
        break;
    }
    return part;
  };
  // Large outputs (a tuning session checks 10^8 elements per candidate) are scanned on every
  // core; the result does not depend on the split.
  const std::size_t threads =
      count >= (std::size_t{1} << 22) ? std::max(1u, std::min(16u, std::thread::hardware_concurrency())) : 1;
  std::vector<ScanPart> parts(threads);
  if (threads == 1) {
    parts[0] = scan_range(0, count);
  } else {
    std::vector<std::thread> workers;
    const std::size_t chunk = (count + threads - 1) / threads;
    for (std::size_t t = 0; t < threads; ++t)
      workers.emplace_back([&, t] { parts[t] = scan_range(std::min(count, t * chunk), std::min(count, (t + 1) * chunk)); });
    for (std::thread& w : workers) w.join();
  }
  std::optional<GemmCheck::Mismatch> first_scan;
  for (const ScanPart& part : parts) {
    check.unwritten += part.unwritten;
    check.non_finite += part.non_finite;
    if (part.first && !first_scan) {
      const bool unwritten = is_unwritten(*part.first);
      first_scan = locate(static_cast<std::int64_t>(*part.first), 0,
                          unwritten ? std::nan("") : load_value(d.data(), *part.first, p.out), 0, unwritten);
    }
  }

  compare_elements(p, reference, options, check, [&](std::size_t, std::size_t index) {
    const bool unwritten = is_unwritten(index);
    return std::pair{unwritten, unwritten ? std::nan("") : load_value(d.data(), index, p.out)};
  });
  if (!check.first && first_scan) check.first = first_scan;
  check.pass = check.mismatches == 0 && check.unwritten == 0 && check.non_finite == 0;
  return check;
}

GemmCheck check_sampled_values(const GemmProblem& p, const GemmReference& reference, std::span<const std::byte> values,
                               const CheckOptions& options) {
  if (values.size() != reference.elements.size() * storage_size(p.out))
    throw GemmError("the sampled values have " + std::to_string(values.size()) + " bytes, the reference has " +
                    std::to_string(reference.elements.size()) + " elements");
  GemmCheck check;
  check.mode = std::string(reference_mode_name(reference.mode));
  check.scanned = static_cast<std::size_t>(p.d_elements());  // by the caller, on the device: clean
  compare_elements(p, reference, options, check, [&](std::size_t i, std::size_t) {
    return std::pair{false, load_value(values.data(), i, p.out)};
  });
  check.pass = check.mismatches == 0;
  return check;
}


std::string GemmCheck::summary() const {
  std::string s = pass ? "pass: " : "FAIL: ";
  if (pass) {
    s += std::to_string(checked) + " " + mode + " element(s) within bound (max error " + format_number(max_error_ratio) +
         " of the bound, rel_l2 " + format_number(max_rel_l2) + "), " + std::to_string(scanned) + " scanned";
    return s;
  }
  s += std::to_string(mismatches) + " of " + std::to_string(checked) + " " + mode + " element(s) outside the bound, " +
       std::to_string(unwritten) + " unwritten, " + std::to_string(non_finite) + " non-finite (of " +
       std::to_string(scanned) + ")";
  if (first) {
    s += "; first at batch " + std::to_string(first->batch) + " row " + std::to_string(first->row) + " col " +
         std::to_string(first->col) + ": ";
    if (first->unwritten) s += "never written";
    else
      s += "expected " + format_number(first->expected) + ", got " + format_number(first->actual) + " (bound " +
           format_number(first->bound) + ")";
  }
  s += "; max error " + format_number(max_error_ratio) + "x the bound";
  return s;
}

nlohmann::json GemmCheck::to_json() const {
  nlohmann::json j = {{"pass", pass},
                      {"mode", mode},
                      {"scanned", scanned},
                      {"on_device", on_device},
                      {"checked", checked},
                      {"mismatches", mismatches},
                      {"unwritten", unwritten},
                      {"non_finite", non_finite},
                      {"max_abs_error", number_json(max_abs_error)},
                      {"max_error_ratio", number_json(max_error_ratio)},
                      {"rel_l2", number_json(max_rel_l2)},
                      {"summary", summary()}};
  if (first) {
    j["first_mismatch"] = {{"batch", first->batch},          {"row", first->row},
                           {"col", first->col},              {"expected", number_json(first->expected)},
                           {"actual", number_json(first->actual)}, {"bound", number_json(first->bound)},
                           {"unwritten", first->unwritten}};
  } else {
    j["first_mismatch"] = nullptr;
  }
  return j;
}

void poison_output(const GemmProblem& problem, std::span<std::byte> d) {
  if (const std::optional<ElementType> type = element_type_of(problem.out)) {
    verify::poison(d, *type);
    return;
  }
  std::memset(d.data(), 0x7F, d.size());
}

}  // namespace ktune::gemm
