// Strategy overhead per proposal: for every strategy in strategy_names(), 200 asks + tells on a
// GEMM-like space of > 10^7 valid configs with a cheap synthetic objective (so the time is the
// strategy's own), one JSON line each:
//   {"strategy":"bayes","asks":200,"ms_per_ask_median":...,"ms_per_ask_max":...}
// The time per ask includes the matching tell. Not a test: wall times on a shared machine vary.
// Usage: ktune_strategy_overhead_bench [--asks N] [--batch B]

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/search/strategy.h"
#include "ktune/space/search_space.h"

namespace {

using ktune::Config;
using ktune::Value;
using ktune::space::Constraint;
using ktune::space::Parameter;
using ktune::space::SearchSpace;
using Clock = std::chrono::steady_clock;

Parameter ints(const std::string& name, std::vector<std::int64_t> values) {
  Parameter p{name, {}, 0};
  for (auto v : values) p.values.push_back(Value::integer(v));
  return p;
}

// The space of space_bench.cc: 12 parameters, 10 constraints, > 10^7 valid configs.
SearchSpace gemm_space() {
  std::vector<Parameter> params = {
      ints("BM", {16, 32, 64, 128, 256}),   ints("BN", {16, 32, 64, 128, 256}),
      ints("BK", {8, 16, 32, 64, 128}),     ints("WM", {16, 32, 64, 128}),
      ints("WN", {16, 32, 64, 128}),        ints("stages", {1, 2, 3, 4, 5, 6}),
      ints("vec", {1, 2, 4, 8}),            ints("unroll", {1, 2, 4, 8, 16, 32}),
      ints("split_k", {1, 2, 3, 4, 6, 8, 12, 16}), ints("swizzle", {1, 2, 4, 8, 16}),
      ints("warps_per_sched", {1, 2, 4}),
      Parameter{"epilogue", {Value::string("direct"), Value::string("smem"), Value::string("tma")}, 0},
  };
  const char* texts[] = {
      "BM % WM == 0", "BN % WN == 0", "(BM / WM) * (BN / WN) * 32 <= max_threads",
      "(BM * BK + BK * BN) * stages * elem_bytes <= smem_bytes", "BK % vec == 0", "unroll <= BK",
      "K % (BK * split_k) == 0", "swizzle <= ceil_div(M, BM)", "warps_per_sched <= (BM / WM) * (BN / WN)",
      "epilogue != \"smem\" || BM * BN * 4 <= smem_bytes",
  };
  std::vector<Constraint> constraints;
  int line = 1;
  for (const char* text : texts) constraints.push_back({ktune::expr::Expr::parse(text), line++});
  ktune::Config constants = {{"M", Value::integer(4096)},         {"K", Value::integer(4608)},
                             {"elem_bytes", Value::integer(2)},   {"smem_bytes", Value::integer(232448)},
                             {"max_threads", Value::integer(1024)}};
  return SearchSpace(std::move(params), std::move(constraints), std::move(constants));
}

// A smooth bowl in log2 of the tile sizes, with a failing corner (too many registers).
std::optional<double> synthetic_seconds(const Config& c) {
  auto lg = [&](const char* name) { return std::log2(static_cast<double>(c.at(name).as_int())); };
  if (lg("BM") + lg("BN") + lg("unroll") > 17) return std::nullopt;
  const double d = 0.3 * std::pow(lg("BM") - 7, 2) + 0.3 * std::pow(lg("BN") - 7, 2) + 0.2 * std::pow(lg("BK") - 5, 2) +
                   0.1 * std::pow(static_cast<double>(c.at("stages").as_int()) - 3, 2) +
                   0.2 * std::pow(lg("vec") - 2, 2) + 0.05 * std::pow(lg("unroll") - 2, 2) + 0.1 * lg("split_k") +
                   0.02 * lg("swizzle") + (c.at("epilogue").as_string() == "tma" ? 0.0 : 0.1);
  return 1e-3 * (1 + d);
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Times `asks` proposals, keeping `batch` outstanding; returns one duration per proposal.
std::vector<double> time_strategy(const std::string& name, const SearchSpace& space, int asks, int batch) {
  auto strategy = ktune::search::make_strategy(name, space, {1, nlohmann::json::object()});
  std::vector<double> ms;
  while (static_cast<int>(ms.size()) < asks) {
    std::vector<std::pair<Config, double>> outstanding;
    for (int b = 0; b < batch && static_cast<int>(ms.size() + outstanding.size()) < asks; ++b) {
      auto start = Clock::now();
      auto config = strategy->ask();
      const double took = ms_since(start);
      if (!config) return ms;
      outstanding.emplace_back(std::move(*config), took);
    }
    for (auto& [config, took] : outstanding) {
      const auto objective = synthetic_seconds(config);
      auto start = Clock::now();
      strategy->tell({config, objective});
      ms.push_back(took + ms_since(start));
    }
  }
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int asks = 200, batch = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--asks") == 0 && i + 1 < argc) {
      asks = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--batch") == 0 && i + 1 < argc) {
      batch = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--asks N] [--batch B]\n", argv[0]);
      return 2;
    }
  }
  try {
    const SearchSpace space = gemm_space();
    for (const auto& name : ktune::search::strategy_names()) {
      std::vector<double> ms = time_strategy(name, space, asks, batch);
      std::sort(ms.begin(), ms.end());
      nlohmann::json line = {{"strategy", name},
                             {"asks", ms.size()},
                             {"space_size", space.size()},
                             {"ms_per_ask_median", ms.empty() ? 0.0 : ms[ms.size() / 2]},
                             {"ms_per_ask_max", ms.empty() ? 0.0 : ms.back()}};
      std::printf("%s\n", line.dump().c_str());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
