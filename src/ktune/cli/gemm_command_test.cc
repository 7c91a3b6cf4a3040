// `ktune tune gemm` through the real binary: flag parsing (--dry-run needs no GPU), exit codes,
// the spec file, and on a GPU one small tuning session end to end.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/driver_api.h"
#include "support/cli_run.h"

namespace {

using ktune::testing::CommandResult;

// Standard output and error together in `out`, as a terminal shows them.
CommandResult ktune(const std::string& args) {
  // A scratch directory per call, removed at once: most tests here need no directory of their own.
  const auto scratch = std::filesystem::temp_directory_path() / ("ktune-gemm-cli-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  CommandResult r = ktune::testing::run_command(
      ktune::testing::shell_quote(ktune::testing::ktune_binary().string()) + " " + args + " 2>&1", scratch);
  std::filesystem::remove_all(scratch);
  return r;
}

// The JSON document, after whatever stderr printed before it.
nlohmann::json json_of(const CommandResult& r) {
  const auto start = r.out.find('{');
  if (start == std::string::npos) return nullptr;
  return nlohmann::json::parse(r.out.substr(start), nullptr, false);
}

std::filesystem::path temp_dir() {
  auto dir = std::filesystem::temp_directory_path() / ("ktune-gemm-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(TuneGemmCli, FlagsBecomeTheProblem) {
  const CommandResult r = ktune("tune gemm --m 4096 --n 14336 --k 4096 --dtype bf16 --layout nt --bias --gelu "
                                "--batch 2 --alpha 0.5 --beta 1 --out-dtype f32 --families cublaslt --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = json_of(r);
  ASSERT_TRUE(j.is_object()) << r.out;
  const nlohmann::json& p = j.at("problem");
  EXPECT_EQ(p.at("m"), 4096);
  EXPECT_EQ(p.at("n"), 14336);
  EXPECT_EQ(p.at("k"), 4096);
  EXPECT_EQ(p.at("dtype"), "bf16");
  EXPECT_EQ(p.at("layout"), "nt");
  EXPECT_EQ(p.at("bias"), true);
  EXPECT_EQ(p.at("activation"), "gelu");
  EXPECT_EQ(p.at("batch"), 2);
  EXPECT_EQ(p.at("alpha"), 0.5);
  EXPECT_EQ(p.at("beta"), 1.0);
  EXPECT_EQ(p.at("out_dtype"), "f32");
  EXPECT_EQ(j.at("families"), nlohmann::json::array({"cublaslt"}));
  EXPECT_EQ(j.at("flops"), 2.0 * 4096 * 14336 * 4096 * 2);
  EXPECT_EQ(j.at("request").at("op"), "gemm_candidates");

  // Defaults: bf16, nn, batch 1, no epilogue; options after the flags still reach the app.
  const nlohmann::json d = json_of(ktune("tune gemm --m 8 --n 16 --k 32 --dry-run --json"));
  EXPECT_EQ(d.at("problem").at("dtype"), "bf16");
  EXPECT_EQ(d.at("problem").at("layout"), "nn");
  EXPECT_EQ(d.at("problem").at("out_dtype"), "bf16");
  EXPECT_EQ(d.at("problem").at("activation"), "none");
  const nlohmann::json f8 = json_of(ktune("--json tune gemm --m 16 --n 16 --k 16 --dtype fp8 --layout nt --dry-run"));
  EXPECT_EQ(f8.at("problem").at("out_dtype"), "bf16");
  EXPECT_EQ(json_of(ktune("tune gemm --m 1 --n 1 --k 1 --relu --dry-run --json")).at("problem").at("activation"), "relu");
  // Pingpong kernels join the generated space only when asked for; the request carries it.
  EXPECT_EQ(d.at("request").at("generated").at("pingpong"), false);
  const nlohmann::json pp =
      json_of(ktune("tune gemm --m 8192 --n 8192 --k 64 --generated-pingpong --families generated --dry-run --json"));
  EXPECT_EQ(pp.at("request").at("generated").at("pingpong"), true);
  bool listed = false;
  for (const nlohmann::json& c : pp.at("generated_preview").at("candidates")) listed |= c.at("config").contains("pingpong");
  EXPECT_TRUE(listed) << pp.at("generated_preview").dump(1);
  // Split-K summed inside a cluster likewise: off by default, one such kernel when asked for.
  EXPECT_EQ(d.at("request").at("generated").at("split_cluster"), false);
  const nlohmann::json sc = json_of(ktune(
      "tune gemm --m 256 --n 128 --k 16384 --dtype bf16 --layout nt --generated-split-cluster --families generated "
      "--dry-run --json"));
  EXPECT_EQ(sc.at("request").at("generated").at("split_cluster"), true);
  int in_cluster = 0;
  for (const nlohmann::json& c : sc.at("generated_preview").at("candidates"))
    in_cluster += c.at("config").value("split_cluster", false) ? 1 : 0;
  EXPECT_EQ(in_cluster, 1) << sc.at("generated_preview").dump(1);
  // Racing: on by default with a 5% margin, adjustable, off with --no-racing.
  EXPECT_EQ(d.at("policy").at("racing"), true);
  EXPECT_DOUBLE_EQ(d.at("policy").at("racing_margin").get<double>(), 0.05);
  const nlohmann::json wide = json_of(ktune("tune gemm --m 8 --n 16 --k 32 --racing-margin 0.2 --dry-run --json"));
  EXPECT_DOUBLE_EQ(wide.at("policy").at("racing_margin").get<double>(), 0.2);
  EXPECT_EQ(json_of(ktune("tune gemm --m 8 --n 16 --k 32 --no-racing --dry-run --json")).at("policy").at("racing"), false);
  // The dirty flush is the default and is left out of the policy's JSON; clean is written.
  EXPECT_FALSE(d.at("policy").contains("l2_flush"));
  EXPECT_EQ(json_of(ktune("tune gemm --m 8 --n 16 --k 32 --l2-flush clean --dry-run --json")).at("policy").at("l2_flush"),
            "clean");
}

TEST(TuneGemmCli, BadFlagsAreUsageErrors) {
  CommandResult r = ktune("tune gemm --m 1 --n 2 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("needs --m, --n and --k"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --relu --gelu --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("excludes"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --dtype int4 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown dtype 'int4'"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --layout xy --dry-run");
  EXPECT_EQ(r.code, 2);
  r = ktune("tune gemm --m 0 --n 2 --k 3 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("m must be at least 1"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --dtype bf16 --out-dtype f16 --dry-run");
  EXPECT_EQ(r.code, 2);
  r = ktune("tune gemm --m 1 --n 2 --k 3 --families generated,cutlass --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown gemm family 'cutlass'"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --generated-candidates -1 --dry-run");
  EXPECT_EQ(r.code, 2);
  r = ktune("tune gemm --m 1 --n 2 --k 3 --racing-margin -0.1 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--racing-margin"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --l2-flush warm --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--l2-flush"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --confirm-rounds 0 --dry-run");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--confirm-rounds"), std::string::npos) << r.out;
  r = ktune("tune gemm --m 1 --n 2 --k 3 --max-candidates 0");
  EXPECT_EQ(r.code, 2);
  r = ktune("tune gemm --m 1 --n 2 --k 3 --reference psychic");
  EXPECT_EQ(r.code, 2);
  // `tune` still wants its spec when there is no gemm subcommand.
  r = ktune("tune");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("spec"), std::string::npos) << r.out;
  r = ktune("tune /nonexistent/spec.yaml");
  EXPECT_EQ(r.code, 2);
}

TEST(TuneGemmCli, SpecFileWithOverrides) {
  const auto dir = temp_dir();
  const auto spec = dir / "gemm.yaml";
  std::ofstream(spec) << "gemm:\n  m: 2048\n  n: 10240\n  k: 1280\n  dtype: f16\n  layout: tn\nfamilies: [cublaslt]\n";
  CommandResult r = ktune("tune gemm --spec " + spec.string() + " --k 1024 --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = json_of(r);
  EXPECT_EQ(j.at("problem").at("m"), 2048);
  EXPECT_EQ(j.at("problem").at("k"), 1024);
  EXPECT_EQ(j.at("problem").at("dtype"), "f16");
  EXPECT_EQ(j.at("problem").at("layout"), "tn");

  std::ofstream(spec) << "gemm:\n  m: 2048\n  n: 10240\n  kk: 1280\n";
  r = ktune("tune gemm --spec " + spec.string() + " --dry-run");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.out.find("gemm.yaml:4:3: unknown key 'kk'"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(TuneGemmCli, SaysWhenThereIsNoGpu) {
  if (ktune::cuda::CudaDriver::load()) GTEST_SKIP() << "a CUDA driver is present";
  const auto dir = temp_dir();
  CommandResult r = ktune("tune gemm --m 64 --n 64 --k 64 --db " + (dir / "k.db").string());
  EXPECT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("the cuda backend is not available"), std::string::npos) << r.out;
  // `tune FILE` with a gemm spec runs the gemm operation (which then needs the GPU).
  const auto spec = dir / "gemm.yaml";
  std::ofstream(spec) << "gemm: {m: 64, n: 64, k: 64, dtype: f16}\nfamilies: [generated, cublaslt]\n";
  r = ktune("tune " + spec.string() + " --db " + (dir / "k.db").string());
  EXPECT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("the cuda backend is not available"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(TuneGemmCli, TunesASmallShapeOnTheGpu) {
  const auto driver = ktune::cuda::CudaDriver::load();
  if (!driver) {
    std::printf("skipped: no CUDA driver: %s\n", driver.error.c_str());
    GTEST_SKIP() << driver.error;
  }
  const auto dir = temp_dir();
  const std::string db = (dir / "k.db").string();
  // --refine-window 10: a refinement round whatever the generated kernels' times (by default it
  // runs only when they come within 25% of the fastest candidate); --refine-wait 600: every
  // refinement kernel waited for (by default those still compiling after 0.1 s are left out).
  CommandResult r = ktune(
      "tune gemm --m 1024 --n 1024 --k 1024 --dtype bf16 --max-candidates 8 --refine-window 10 --refine-wait 600 "
      "--json --db " +
      db);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = json_of(r);
  ASSERT_TRUE(j.is_object()) << r.out;
  const nlohmann::json& candidates = j.at("candidates");
  ASSERT_GE(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].at("source"), "heuristic#0");
  EXPECT_EQ(candidates[0].at("status"), "ok") << candidates[0].dump(2);
  EXPECT_EQ(candidates[0].at("verification").at("D").at("pass"), true);
  const nlohmann::json& pick = j.at("pick");
  ASSERT_FALSE(pick.at("pick").is_null()) << j.dump(2);
  if (pick.at("pick") != 0) {
    EXPECT_EQ(pick.at("pick_vs_baseline").at("verdict"), "faster");
  }
  EXPECT_GE(pick.at("speedup").get<double>(), 1.0);
  std::printf("%s\n", pick.at("reason").get<std::string>().c_str());
  // The finalists were confirmed and judged against the baseline measured just before and just
  // after them; its first run (before the others) is reported beside.
  EXPECT_TRUE(j.at("baseline").value("beside_finalists", false)) << j.at("baseline").dump();
  EXPECT_GT(j.at("baseline").at("first").at("median_s").get<double>(), 0.0) << j.at("baseline").dump();
  // Every baseline run in order (first, before the finalists, after the others); where NVML
  // reads the SM clock, each measurement says at which clock it ran.
  ASSERT_EQ(j.at("baseline").at("timeline").size(), 3u) << j.at("baseline").dump();
  if (candidates[0].at("resources").at("timing").value("throttle_detection", "") == "nvml") {
    EXPECT_GT(candidates[0].at("resources").at("sm_clock_mhz").at("median").get<double>(), 0.0) << candidates[0].dump(2);
    for (const auto& run : j.at("baseline").at("timeline")) EXPECT_GT(run.value("sm_clock_mhz", 0.0), 0.0) << run.dump();
  }
  EXPECT_GE(j.at("confirmed").size(), 1u);
  // By default the finalists and the baseline beside them are measured in three interleaved
  // rounds, and each confirmation says what every round measured.
  for (const nlohmann::json& c : j.at("confirmed")) {
    ASSERT_TRUE(c.contains("confirmation_rounds")) << c.dump();
    EXPECT_EQ(c.at("confirmation_rounds").size(), 3u) << c.dump();
    for (const nlohmann::json& round : c.at("confirmation_rounds")) EXPECT_EQ(round.at("status"), "ok") << c.dump();
  }
  // Both families by default: generated kernels listed, compiled and measured, a refinement
  // round, the pick recorded as its own row, and where the time went.
  EXPECT_TRUE(j.at("families").at("generated").value("available", false)) << j.at("families").dump(2);
  EXPECT_TRUE(j.at("family_best").contains("generated")) << j.dump(2).substr(0, 4000);
  // ...and judged against the baseline's run nearest in time as well.
  EXPECT_GT(j.at("family_best").at("generated").value("speedup_vs_baseline_nearest", 0.0), 0.0)
      << j.at("family_best").dump(2);
  EXPECT_GE(j.at("refined").get<int>(), 1);
  EXPECT_TRUE(j.at("refinement_skipped").is_null()) << j.at("refinement_skipped").dump();
  EXPECT_EQ(j.at("refinement_not_ready").get<int>(), 0);
  // cuBLASLt's enumerated tail is measured within --tail-seconds; what was left out is counted.
  EXPECT_GE(j.at("cublaslt_tail").at("measured").get<int>() + j.at("cublaslt_tail").at("skipped").get<int>(), 0);
  EXPECT_EQ(j.at("cublaslt_tail").at("budget_s").get<double>(), 0.3);
  // Every measured candidate says where its time went.
  EXPECT_TRUE(candidates[0].at("phases").contains("measure")) << candidates[0].dump(2);
  EXPECT_TRUE(candidates[0].at("phases").contains("worker_call")) << candidates[0].dump(2);
  EXPECT_TRUE(pick.contains("result_id"));
  for (const char* phase : {"setup_s", "listing_s", "evaluation_s", "reference_s", "generated_compile_wait_s"})
    EXPECT_TRUE(j.at("phases").contains(phase)) << phase;
  // The generated kernels compiled in the background; every one is accounted for.
  const nlohmann::json& compiled = j.at("generated_compile");
  EXPECT_GE(compiled.at("kernels").get<int>(), 1) << compiled.dump();
  EXPECT_EQ(compiled.at("failed"), 0) << compiled.dump();
  EXPECT_EQ(compiled.at("cached").get<int>() + compiled.at("compiled").get<int>(), compiled.at("kernels").get<int>())
      << compiled.dump();

  // No grace for compiles below the model's top 2: kernels still compiling once the ready ones
  // are measured are left out and counted, never lost track of; the top 2 are always measured.
  r = ktune("tune gemm --m 768 --n 1024 --k 512 --dtype f16 --max-candidates 8 --compile-wait-top 2 --compile-grace 0 "
            "--json --db " + db);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json g = json_of(r);
  ASSERT_TRUE(g.is_object()) << r.out;
  std::set<std::string> measured_sources;
  for (const nlohmann::json& c : g.at("candidates"))
    if (c.at("family") == "generated" && c.at("source").get<std::string>().rfind("model#", 0) == 0)
      measured_sources.insert(c.at("source").get<std::string>());
  EXPECT_TRUE(measured_sources.count("model#0") && measured_sources.count("model#1")) << g.at("candidates").dump(1);
  const std::size_t left_out = g.at("compile_left_out").size();
  EXPECT_EQ(g.at("generated_compile").at("left_out").get<std::size_t>(), left_out);
  EXPECT_EQ(measured_sources.size() + left_out,
            g.at("families").at("generated").at("compile").at("kernels").get<std::size_t>())
      << g.at("compile_left_out").dump();
  std::printf("compile grace 0: %zu generated kernel(s) measured, %zu left out\n", measured_sources.size(), left_out);

  // One round: the finalists one after the other at the full policy, as before rounds existed.
  r = ktune("tune gemm --m 512 --n 1024 --k 1024 --dtype f16 --max-candidates 6 --confirm-rounds 1 --json --db " + db);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json one = json_of(r);
  ASSERT_TRUE(one.is_object()) << r.out;
  EXPECT_TRUE(one.at("baseline").value("beside_finalists", false)) << one.at("baseline").dump();
  for (const nlohmann::json& c : one.at("confirmed")) EXPECT_FALSE(c.contains("confirmation_rounds")) << c.dump();

  // The text report on a second run answers from the database except for the baseline.
  r = ktune("tune gemm --m 1024 --n 1024 --k 1024 --dtype bf16 --max-candidates 8 --db " + db);
  ASSERT_EQ(r.code, 0) << r.out;
  std::printf("%s\n", r.out.c_str());
  EXPECT_NE(r.out.find("pick: "), std::string::npos);
  EXPECT_NE(r.out.find("from an earlier session"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
