// GPU tests of the gemm worker with the cuBLASLt family, in process (the CLI test runs the same
// through a worker process). Skipped, with the reason printed, without a CUDA driver, a GPU
// or libcublasLt.

#include <gtest/gtest.h>

#include <cstdio>

#include "ktune/families/gpu_test_support.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/cublaslt/cublaslt_api.h"
#include "ktune/families/gemm/gemm_pick.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/measure/measurement.h"

namespace ktune::gemm {
namespace {

struct Gpu {
  std::string skip_reason;
  int major = 0, minor = 0;
  std::string name;
};

const Gpu& gpu() {
  static const Gpu g = [] {
    Gpu r;
    const testing::TestDriver loaded = testing::load_test_driver();
    if (!loaded.driver) {
      r.skip_reason = loaded.skip_reason;
      return r;
    }
    const auto& driver = loaded.driver;
    const Loaded<cublaslt::CublasLt> lt = cublaslt::CublasLt::load();
    if (!lt) {
      r.skip_reason = lt.error;
      return r;
    }
    const cuda::CudaDeviceProperties p = cuda::query_device_properties(*driver, 0);
    r.major = p.compute_major;
    r.minor = p.compute_minor;
    r.name = p.name;
    std::printf("GPU 0: %s (sm_%d%d), cuBLASLt %s at %s\n", r.name.c_str(), r.major, r.minor,
                lt->version_string().c_str(), lt->library_path().c_str());
    return r;
  }();
  return g;
}

#define REQUIRE_GPU() KTUNE_SKIP_IF(gpu().skip_reason)

// One worker for the whole test program, like one worker process per device.
GemmWorker& worker() {
  static GemmWorker w;
  return w;
}

GemmProblem make(std::int64_t m, std::int64_t n, std::int64_t k, Precision precision, const char* layout) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.precision = precision;
  p.out = default_output(precision);
  set_layout(p, layout);
  return p;
}

nlohmann::json list(const GemmSetup& setup) {
  const nlohmann::json reply = worker().handle(candidates_request(setup));
  EXPECT_TRUE(reply.contains("candidates")) << reply.dump();
  return reply;
}

nlohmann::json evaluate(const GemmSetup& setup, const nlohmann::json& candidate, bool measure,
                        std::optional<measure::Stats> incumbent = std::nullopt) {
  EvaluateOptions options;
  options.measure = measure;
  options.policy.warmup_seconds = 0.01;
  options.policy.min_seconds = 0.02;
  options.policy.max_samples = 500;
  options.policy.timeout_seconds = 3;
  options.incumbent = incumbent;
  return worker().handle(evaluate_request(setup, candidate, options));
}

std::string describe(const nlohmann::json& candidate) { return candidate.at("candidate").at("config").dump(); }

TEST(GemmGpu, ListsCandidatesWithTheHeuristicFirst) {
  REQUIRE_GPU();
  GemmSetup setup;
  setup.problem = make(1024, 1024, 1024, Precision::BF16, "nn");
  setup.cublaslt.max_candidates = 16;
  const nlohmann::json reply = list(setup);
  const nlohmann::json& candidates = reply.at("candidates");
  ASSERT_GE(candidates.size(), 2u) << reply.dump(2);
  EXPECT_EQ(candidates[0].at("candidate").at("heuristic_rank"), 0);
  EXPECT_EQ(candidates[0].at("candidate").at("source"), "heuristic");
  EXPECT_LE(candidates.size(), 16u);
  const nlohmann::json& e = reply.at("families").at("cublaslt").at("enumeration");
  std::printf("enumeration: %s\n", e.dump().c_str());
  EXPECT_GT(e.at("algo_ids").get<int>(), 0);
  EXPECT_GT(e.at("valid").get<int>(), 0);
  int enumerated = 0;
  for (const auto& c : candidates) {
    enumerated += c.at("candidate").at("source") == "enumerated";
    EXPECT_EQ(c.at("family"), "cublaslt");
  }
  EXPECT_GT(enumerated, 0) << "only heuristic answers: the algorithm ids were not expanded";
  for (std::size_t i = 0; i < std::min<std::size_t>(candidates.size(), 6); ++i)
    std::printf("  #%zu %s\n", i, describe(candidates[i]).c_str());
}

struct Case {
  Case(std::int64_t m_, std::int64_t n_, std::int64_t k_, Precision precision_, const char* layout_,
       std::int64_t batch_ = 1, bool bias_ = false, Activation activation_ = Activation::None, double alpha_ = 1,
       double beta_ = 0, std::optional<Storage> out_ = std::nullopt)
      : m(m_), n(n_), k(k_), precision(precision_), layout(layout_), batch(batch_), bias(bias_),
        activation(activation_), alpha(alpha_), beta(beta_), out(out_) {}
  std::int64_t m, n, k;
  Precision precision;
  const char* layout;
  std::int64_t batch;
  bool bias;
  Activation activation;
  double alpha, beta;
  std::optional<Storage> out;
};

// Runs the first `count` candidates of `c` with verification only.
void verify_case(const Case& c, int count, int* split_k_seen = nullptr) {
  GemmSetup setup;
  setup.problem = make(c.m, c.n, c.k, c.precision, c.layout);
  setup.problem.batch = c.batch;
  setup.problem.bias = c.bias;
  setup.problem.activation = c.activation;
  setup.problem.alpha = c.alpha;
  setup.problem.beta = c.beta;
  if (c.out) setup.problem.out = *c.out;
  setup.cublaslt.max_candidates = count;
  setup.cublaslt.heuristic_count = std::min(count, 4);
  const nlohmann::json reply = list(setup);
  const nlohmann::json& candidates = reply.at("candidates");
  ASSERT_FALSE(candidates.empty()) << setup.problem.name() << ": " << reply.at("families").dump();
  double worst = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const nlohmann::json r = evaluate(setup, candidates[i], false);
    EXPECT_EQ(r.at("status"), "ok") << setup.problem.name() << " candidate #" << i << " " << describe(candidates[i])
                                    << ": " << r.value("error", "");
    EXPECT_TRUE(r.at("verified").get<bool>());
    if (r.at("verification").contains("D")) {
      const nlohmann::json& d = r.at("verification").at("D");
      if (d.at("max_error_ratio").is_number()) worst = std::max(worst, d.at("max_error_ratio").get<double>());
    }
    if (split_k_seen && candidates[i].at("candidate").at("config").at("splitk").get<int>() > 1) ++*split_k_seen;
  }
  std::printf("  %-55s %2zu candidate(s) verified (%s), worst error %.3f of the bound\n", setup.problem.name().c_str(),
              candidates.size(), reply.at("reference").at("mode").get<std::string>().c_str(), worst);
}

TEST(GemmGpu, CorrectAcrossDtypesLayoutsAndOddSizes) {
  REQUIRE_GPU();
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (Precision p : {Precision::F16, Precision::BF16, Precision::F32, Precision::TF32})
      verify_case({511, 257, 129, p, layout}, 3);
  for (std::int64_t size : {1, 7, 511, 1000, 4097})
    verify_case({size, size == 4097 ? 96 : size, size == 4097 ? 64 : size, Precision::BF16, "nn"}, 3);
  verify_case({1, 4097, 7, Precision::F16, "nt"}, 3);
  verify_case({1000, 3000, 2000, Precision::F16, "nn"}, 4);
  verify_case({4096, 4096, 4096, Precision::BF16, "nn"}, 2);  // sampled reference
}

TEST(GemmGpu, CorrectWithEpiloguesBatchesAndScaling) {
  REQUIRE_GPU();
  verify_case({256, 384, 512, Precision::BF16, "nt", 1, true, Activation::None}, 4);
  verify_case({256, 384, 512, Precision::BF16, "nt", 1, true, Activation::Relu}, 4);
  verify_case({256, 384, 512, Precision::F16, "nn", 1, true, Activation::Gelu}, 4);
  verify_case({255, 383, 511, Precision::BF16, "tn", 1, false, Activation::Gelu}, 4);
  verify_case({128, 96, 200, Precision::BF16, "nn", 3, true, Activation::Relu, 0.5, 0.75}, 4);
  verify_case({64, 80, 48, Precision::F32, "tt", 5, false, Activation::None, -1.5, 2.0}, 4);
  verify_case({300, 200, 100, Precision::F16, "nn", 1, true, Activation::None, 1, 0, Storage::F32}, 4);
}

TEST(GemmGpu, SplitKConfigurationsAreVerified) {
  REQUIRE_GPU();
  int split_k = 0;
  verify_case({64, 64, 65536, Precision::BF16, "nn"}, 32, &split_k);
  verify_case({32, 2048, 1024, Precision::F16, "nn"}, 32, &split_k);
  std::printf("  split-K candidates verified: %d\n", split_k);
  EXPECT_GT(split_k, 0) << "no split-K configuration was offered for tall-K shapes";
}

TEST(GemmGpu, Fp8OnHopper) {
  REQUIRE_GPU();
  if (gpu().major * 10 + gpu().minor < 89) GTEST_SKIP() << "fp8 needs sm_89 or newer; this is sm_" << gpu().major << gpu().minor;
  verify_case({256, 512, 1024, Precision::F8E4M3, "nt"}, 6);
  verify_case({256, 512, 1024, Precision::F8E4M3, "nt", 1, true, Activation::None, 1, 0, Storage::F32}, 4);
  verify_case({512, 256, 4096, Precision::F8E4M3, "nt", 1, false, Activation::None, 1, 0, Storage::F16}, 4);
}

TEST(GemmGpu, TuningKeepsTheBaselineRule) {
  REQUIRE_GPU();
  GemmSetup setup;
  setup.problem = make(2048, 2048, 2048, Precision::BF16, "nn");
  setup.cublaslt.max_candidates = 12;
  const nlohmann::json candidates = list(setup).at("candidates");
  ASSERT_GE(candidates.size(), 2u);
  std::vector<MeasuredCandidate> measured;
  std::optional<measure::Stats> incumbent;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const nlohmann::json r = evaluate(setup, candidates[i], true, i == 0 ? std::nullopt : incumbent);
    MeasuredCandidate m{"#" + std::to_string(i), std::nullopt};
    if (r.at("status") == "ok" && !r.at("measurement").is_null()) {
      const measure::Measurement mm = measure::measurement_from_json(r.at("measurement"));
      m.stats = mm.stats;
      if (!incumbent || mm.stats.median < incumbent->median) incumbent = mm.stats;
      const nlohmann::json& timing = r.at("timing");
      std::printf("  #%-2zu %8.2f us  IQR %.2f%%  %4zu samples  %-10s %s%s\n", i, mm.stats.median * 1e6,
                  100 * (mm.stats.q3 - mm.stats.q1) / mm.stats.median, mm.stats.count,
                  std::string(measure::to_string(mm.stop)).c_str(), describe(candidates[i]).c_str(),
                  timing.contains("note") ? " (events fallback)" : "");
    } else {
      std::printf("  #%-2zu %s: %s\n", i, r.at("status").get<std::string>().c_str(), r.value("error", "").c_str());
    }
    if (i == 0) {
      ASSERT_EQ(r.at("status"), "ok") << "the baseline must run: " << r.dump(2);
      ASSERT_TRUE(m.stats);
      EXPECT_GT(m.stats->median, 0);
      // The blocking kernel must not time out behind cublasLtMatmul (that would add a fallback note).
      std::printf("  timing: %s\n", r.at("timing").dump().c_str());
      EXPECT_FALSE(r.at("timing").contains("note")) << r.at("timing").dump();
    }
    measured.push_back(m);
  }
  const GemmPick pick = choose_pick(measured, 0);
  std::printf("  pick: %s\n", pick.reason.c_str());
  ASSERT_TRUE(pick.pick);
  if (*pick.pick != 0) {
    ASSERT_TRUE(pick.pick_vs_baseline);
    EXPECT_EQ(pick.pick_vs_baseline->verdict, measure::Verdict::Faster);
    EXPECT_GT(pick.speedup, 1.0);
  } else {
    EXPECT_TRUE(pick.baseline_kept);
  }
  // The baseline's time is plausible: below the time of 1 TFLOP/s and above that of 2 PFLOP/s.
  const double seconds = measured[0].stats->median;
  EXPECT_LT(seconds, setup.problem.flops() / 1e12);
  EXPECT_GT(seconds, setup.problem.flops() / 2e15);
}

}  // namespace
}  // namespace ktune::gemm
