// Builds a GEMM-like search space (12 parameters, > 10^7 valid configs), counts it and draws
// 10^4 uniform samples; fails (exit 1) if that takes 1 s or more in every attempt.
// Usage: ktune_space_bench [--attempts N]

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "ktune/space/search_space.h"

namespace {

using ktune::Value;
using ktune::space::Constraint;
using ktune::space::Parameter;
using ktune::space::SearchSpace;

constexpr double kLimitSeconds = 1.0;
constexpr std::uint64_t kMinimumValid = 10'000'000;
constexpr int kSamples = 10'000;

Parameter ints(const std::string& name, std::vector<std::int64_t> values) {
  Parameter p{name, {}, 0};
  for (auto v : values) p.values.push_back(Value::integer(v));
  return p;
}

std::vector<Parameter> gemm_parameters() {
  std::vector<Parameter> params = {
      ints("BM", {16, 32, 64, 128, 256}),
      ints("BN", {16, 32, 64, 128, 256}),
      ints("BK", {8, 16, 32, 64, 128}),
      ints("WM", {16, 32, 64, 128}),
      ints("WN", {16, 32, 64, 128}),
      ints("stages", {1, 2, 3, 4, 5, 6}),
      ints("vec", {1, 2, 4, 8}),
      ints("unroll", {1, 2, 4, 8, 16, 32}),
      ints("split_k", {1, 2, 3, 4, 6, 8, 12, 16}),
      ints("swizzle", {1, 2, 4, 8, 16}),
      ints("warps_per_sched", {1, 2, 4}),
  };
  Parameter epilogue{"epilogue", {Value::string("direct"), Value::string("smem"), Value::string("tma")}, 0};
  params.push_back(epilogue);
  return params;
}

std::vector<Constraint> gemm_constraints() {
  const char* texts[] = {
      "BM % WM == 0",
      "BN % WN == 0",
      "(BM / WM) * (BN / WN) * 32 <= max_threads",
      "(BM * BK + BK * BN) * stages * elem_bytes <= smem_bytes",
      "BK % vec == 0",
      "unroll <= BK",
      "K % (BK * split_k) == 0",
      "swizzle <= ceil_div(M, BM)",
      "warps_per_sched <= (BM / WM) * (BN / WN)",
      "epilogue != \"smem\" || BM * BN * 4 <= smem_bytes",
  };
  std::vector<Constraint> constraints;
  int line = 1;
  for (const char* text : texts) constraints.push_back({ktune::expr::Expr::parse(text), line++});
  return constraints;
}

ktune::Config gemm_constants() {
  return {
      {"M", Value::integer(4096)},          {"K", Value::integer(4608)},
      {"elem_bytes", Value::integer(2)},    {"smem_bytes", Value::integer(232448)},
      {"max_threads", Value::integer(1024)},
  };
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One timed run; returns the total seconds, or a negative number if the space is too small.
double run_once(bool verbose) {
  auto params = gemm_parameters();
  auto constraints = gemm_constraints();
  auto constants = gemm_constants();

  auto start = std::chrono::steady_clock::now();
  SearchSpace space(std::move(params), std::move(constraints), std::move(constants));
  const double construct = seconds_since(start);

  auto t = std::chrono::steady_clock::now();
  const std::uint64_t count = space.size();
  const double counting = seconds_since(t);

  t = std::chrono::steady_clock::now();
  std::mt19937_64 rng(42);
  std::size_t checksum = 0;
  for (int i = 0; i < kSamples; ++i) checksum += space.sample(rng).size();
  const double sampling = seconds_since(t);
  const double total = seconds_since(start);

  std::printf("valid configs %llu of %.4g (Cartesian)\n", static_cast<unsigned long long>(count),
              space.cartesian_size());
  std::printf("construct %.6f s, count %.6f s, %d samples %.4f s, total %.4f s (limit %.1f s)\n", construct, counting,
              kSamples, sampling, total, kLimitSeconds);
  if (verbose) {
    for (const auto& g : space.group_stats()) {
      std::string names;
      for (const auto& n : g.parameters) names += (names.empty() ? "" : ",") + n;
      std::printf("  group [%s]: %llu of %.4g\n", names.c_str(), static_cast<unsigned long long>(g.valid),
                  g.cartesian);
    }
    for (const auto& c : space.constraint_stats()) {
      std::printf("  rejected %10llu  %s\n", static_cast<unsigned long long>(c.rejected), c.text.c_str());
    }
  }
  if (checksum != static_cast<std::size_t>(kSamples) * space.parameters().size()) return -1;
  if (count < kMinimumValid) {
    std::printf("FAIL: the benchmark space has fewer than %llu valid configs\n",
                static_cast<unsigned long long>(kMinimumValid));
    return -1;
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  int attempts = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--attempts") == 0 && i + 1 < argc) {
      attempts = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--attempts N]\n", argv[0]);
      return 2;
    }
  }
  if (attempts < 1) attempts = 1;
  try {
    for (int attempt = 1; attempt <= attempts; ++attempt) {
      double total = run_once(attempt == 1);
      if (total < 0) return 1;
      if (total < kLimitSeconds) {
        std::printf("PASS (attempt %d)\n", attempt);
        return 0;
      }
      std::printf("attempt %d over the limit\n", attempt);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  std::printf("FAIL: over %.1f s in all %d attempts\n", kLimitSeconds, attempts);
  return 1;
}
