// End-to-end tests: drive the built `ktune` binary like a user would.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"

namespace {

namespace fs = std::filesystem;
using ktune::testing::CommandResult;
using ktune::testing::run_command;
using ktune::testing::shell_quote;
using ktune::testing::slurp;
const fs::path kSource = ktune::testing::source_dir();
const fs::path kKtune = ktune::testing::ktune_binary();

class E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ktune_e2e_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "t.db";
    ::setenv("KTUNE_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  CommandResult ktune(const std::string& args) {
    return run_command(shell_quote(kKtune.string()) + " --db " + shell_quote(db_.string()) + " " + args, dir_);
  }

  fs::path dir_, db_;
};

std::string example(const std::string& rel) { return (kSource / "examples" / "cpu" / rel).string(); }

TEST_F(E2E, DevicesListsTheCpuBackend) {
  CommandResult r = ktune("--json devices");
  ASSERT_EQ(r.code, 0) << r.err;
  bool cpu = false;
  for (const auto& b : r.json()) {
    if (b["backend"] == "cpu") {
      cpu = b["available"].get<bool>() && !b["devices"].empty();
    } else if (!b["available"].get<bool>()) {
      EXPECT_FALSE(b["reason"].get<std::string>().empty()) << b.dump();
    }
  }
  EXPECT_TRUE(cpu) << r.out;
}

TEST_F(E2E, TunesMatmulAndRecordsVerifiedResults) {
  CommandResult r = ktune("--json tune " + example("matmul/matmul.yaml") + " --max-evals 12 --seed 3");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  nlohmann::json s = r.json();
  EXPECT_EQ(s["evaluated"], 12);
  EXPECT_EQ(s["space_size"], 1296);
  ASSERT_FALSE(s["best"].is_null());
  EXPECT_EQ(s["best"]["status"], "ok");
  EXPECT_GT(s["best"]["gflops"].get<double>(), 0.1);
  EXPECT_LT(s["best"]["verification"]["C"]["rel_l2"].get<double>(), 1e-5);

  CommandResult results = ktune("--json results");
  ASSERT_EQ(results.code, 0) << results.err;
  EXPECT_EQ(results.json().size(), 12u);
  double best = s["best"]["median_s"].get<double>();
  for (const auto& row : results.json()) {
    if (row["status"] == "ok") {
      EXPECT_GE(row["median_s"].get<double>(), best);
    }
  }

  CommandResult b = ktune("--json best " + example("matmul/matmul.yaml"));
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.json()[0]["config"], s["best"]["config"]);
}

// --l2-flush clean: the CPU backend reads its flush buffer back and the session records the
// policy; the HIP backend, whose flush only writes, refuses before it looks for a device.
TEST_F(E2E, CleanFlushIsRecordedOnTheCpuAndRefusedForHip) {
  CommandResult r = ktune("--json tune " + example("matmul/matmul.yaml") + " --max-evals 3 --seed 3 --l2-flush clean");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(r.json()["best"]["status"], "ok") << r.out;
  CommandResult sessions = ktune("--json sessions");
  ASSERT_EQ(sessions.code, 0) << sessions.err;
  ASSERT_EQ(sessions.json().size(), 1u) << sessions.out;
  EXPECT_EQ(sessions.json()[0]["options"]["policy"]["l2_flush"], "clean") << sessions.out;

  const std::string hip = (kSource / "examples" / "hip" / "matmul" / "matmul.yaml").string();
  CommandResult h = ktune("tune " + hip + " --max-evals 1 --l2-flush clean");
  EXPECT_NE(h.code, 0);
  EXPECT_NE(h.err.find(hip), std::string::npos) << h.err;
  EXPECT_NE(h.err.find("not supported by the hip backend"), std::string::npos) << h.err;
}

TEST_F(E2E, TunesReductionExhaustivelyWithinBudget) {
  CommandResult r = ktune("--json tune " + example("reduction/reduction.yaml") + " --strategy annealing --max-evals 10");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  nlohmann::json s = r.json();
  EXPECT_EQ(s["evaluated"], 10);
  EXPECT_EQ(s["strategy"], "annealing");
  EXPECT_EQ(s["best"]["status"], "ok");
  EXPECT_GT(s["best"]["gbps"].get<double>(), 0.1);
}

TEST_F(E2E, EveryFaultIsRecordedAndTheSessionFinishes) {
  CommandResult r = ktune("--json tune " + (kSource / "tests" / "e2e" / "faults" / "faults.yaml").string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  nlohmann::json s = r.json();
  EXPECT_EQ(s["evaluated"], 12);
  CommandResult results = ktune("--json results");
  std::map<int, std::string> status;
  std::map<int, std::string> error;
  for (const auto& row : results.json()) {
    status[row["config"]["MODE"].get<int>()] = row["status"];
    error[row["config"]["MODE"].get<int>()] = row.value("error", "");
  }
  EXPECT_EQ(status[0], "ok");
  EXPECT_EQ(status[1], "ok");
  EXPECT_EQ(status[2], "compile_error");
  EXPECT_NE(error[2].find("deliberate compile error"), std::string::npos) << error[2];
  EXPECT_EQ(status[3], "crashed");
  // "killed by SIGSEGV"; under AddressSanitizer its report ("SEGV on unknown address") instead.
  EXPECT_NE(error[3].find("SEGV"), std::string::npos) << error[3];
  EXPECT_EQ(status[4], "crashed");
  EXPECT_NE(error[4].find("SIGABRT"), std::string::npos) << error[4];
  EXPECT_EQ(status[5], "timeout");
  EXPECT_EQ(status[6], "wrong_result");
  EXPECT_EQ(status[7], "runtime_error");
  EXPECT_NE(error[7].find("MODE 7 throws"), std::string::npos) << error[7];
  EXPECT_EQ(status[8], "wrong_result");
  EXPECT_NE(error[8].find("unwritten"), std::string::npos) << error[8];
  // Correct outputs, but memory outside them written: caught and named.
  EXPECT_EQ(status[9], "memory_error");
  EXPECT_NE(error[9].find("'y': 16 bytes written past the end"), std::string::npos) << error[9];
  EXPECT_EQ(status[10], "memory_error");
  EXPECT_NE(error[10].find("'y': 4 bytes written before the start"), std::string::npos) << error[10];
  EXPECT_EQ(status[11], "memory_error");
  EXPECT_NE(error[11].find("'x': the kernel changed this input"), std::string::npos) << error[11];
  // Each damaged buffer was repaired: the candidates after them still verify (MODE 0 and 1 ran
  // first, so run the correct one again after the faults).
  CommandResult again = ktune("--json bench " + (kSource / "tests" / "e2e" / "faults" / "faults.yaml").string() +
                              " --set MODE=1");
  ASSERT_EQ(again.code, 0) << again.err << again.out;
  EXPECT_EQ(again.json()["results"][0]["status"], "ok");
}

// Kernels that accumulate into an output declared `init: zeros` verify: the output is reset to
// zeros before every verified run (it used to be poisoned like an output without an init).
TEST_F(E2E, AccumulatingKernelsIntoZeroedOutputsVerify) {
  CommandResult r = ktune("--json tune " + (kSource / "tests" / "e2e" / "histogram" / "histogram.yaml").string() +
                          " --no-racing");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  nlohmann::json s = r.json();
  EXPECT_EQ(s["evaluated"], 3);
  EXPECT_EQ(s["by_status"]["ok"], 3) << s.dump(2);
  // Every result says where its time went.
  for (const auto& row : ktune("--json results").json())
    for (const char* phase : {"arguments", "reference", "load", "reset", "run", "check", "measure", "worker_call"})
      EXPECT_TRUE(row["phases"].contains(phase)) << phase << " " << row.dump();
}

// --sanitize runs the winner in a worker under compute-sanitizer (here a stand-in that reports
// two errors for every run): each caught candidate becomes memory_error with the report, and
// the next best is tried, until none is left.
TEST_F(E2E, SanitizeRecordsFindingsAndDemotesCaughtWinners) {
  const fs::path fake = kSource / "tests" / "e2e" / "fake_compute_sanitizer.sh";
  CommandResult r = ktune("--json tune " + (kSource / "tests" / "e2e" / "histogram" / "histogram.yaml").string() +
                          " --no-racing --sanitize winner --sanitizer " + shell_quote(fake.string()));
  nlohmann::json s = r.json();
  EXPECT_TRUE(s["best"].is_null()) << s.dump(2);
  ASSERT_EQ(s["sanitized"].size(), 3u) << s.dump(2);
  for (const auto& z : s["sanitized"]) EXPECT_EQ(z["errors"], 2) << z.dump();
  EXPECT_EQ(s["by_status"]["memory_error"], 3) << s.dump(2);
  for (const auto& row : ktune("--json results").json()) {
    EXPECT_EQ(row["status"], "memory_error");
    EXPECT_NE(row.value("error", "").find("compute-sanitizer found 2 error(s)"), std::string::npos) << row.dump();
    EXPECT_EQ(row["sanitizer"]["tools"]["memcheck"]["status"], "ok") << row.dump();
  }
}

TEST_F(E2E, KillNineLosesNothingAndRerunResumes) {
  const std::string spec = example("reduction/reduction.yaml");
  // Start a tune with JSON progress on stderr, kill -9 it after a few results are committed.
  const fs::path progress = dir_ / "progress";
  std::string cmd = "exec " + shell_quote(kKtune.string()) + " --db " + shell_quote(db_.string()) + " tune " + spec +
                    " --max-evals 40 --seed 9 --progress json 2>" + shell_quote(progress.string()) + " >/dev/null";
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int committed_before_kill = 0;
  for (int i = 0; i < 600 && committed_before_kill < 6; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::istringstream lines(slurp(progress));
    committed_before_kill = 0;
    for (std::string line; std::getline(lines, line);)
      if (line.find("\"event\":\"progress\"") != std::string::npos) ++committed_before_kill;
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_GE(committed_before_kill, 6) << slurp(progress);

  CommandResult after_kill = ktune("--json results");
  ASSERT_EQ(after_kill.code, 0) << after_kill.err;
  const std::size_t rows_after_kill = after_kill.json().size();
  EXPECT_GE(rows_after_kill, static_cast<std::size_t>(committed_before_kill));

  CommandResult rerun = ktune("--json tune " + spec + " --max-evals 40 --seed 9");
  ASSERT_EQ(rerun.code, 0) << rerun.err;
  nlohmann::json s = rerun.json();
  EXPECT_EQ(s["resumed"].get<std::size_t>(), rows_after_kill);
  EXPECT_EQ(s["evaluated"].get<std::size_t>() + rows_after_kill, 40u);

  CommandResult all = ktune("--json results");
  std::set<std::string> keys;
  for (const auto& row : all.json()) keys.insert(row["config"].dump());
  EXPECT_EQ(keys.size(), all.json().size()) << "a configuration was measured twice";
  EXPECT_EQ(all.json().size(), 40u);

  CommandResult sessions = ktune("--json sessions");
  ASSERT_EQ(sessions.code, 0);
  std::set<std::string> states;
  for (const auto& row : sessions.json()) states.insert(row["state"]);
  EXPECT_TRUE(states.count("interrupted") || states.count("abandoned")) << sessions.out;
}

TEST_F(E2E, BadSpecNamesFileAndLine) {
  fs::path bad = dir_ / "bad.yaml";
  fs::copy_file(kSource / "examples" / "cpu" / "matmul" / "matmul.cpp", dir_ / "matmul.cpp");
  std::ofstream(bad) << "kernel: {source: matmul.cpp, entry: matmul}\nsizes: {M: 4}\nparameters:\n  T: [1, 2]\n"
                        "constraints:\n  - T < Q\narguments:\n  - {name: C, type: float32, length: M, output: true}\n";
  CommandResult r = ktune("tune " + bad.string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("bad.yaml:6:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undefined name 'Q'"), std::string::npos) << r.err;
}

TEST_F(E2E, SpaceCountsPrunesAndSamples) {
  CommandResult r = ktune("--json space " + example("matmul/matmul.yaml") + " --sample 5 --seed 1");
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json s = r.json();
  EXPECT_EQ(s["valid"], 1296);
  EXPECT_EQ(s["samples"].size(), 5u);
  EXPECT_FALSE(s["constraints"].empty());
  CommandResult text = ktune("space " + example("matmul/matmul.yaml"));
  EXPECT_NE(text.out.find("1296 valid"), std::string::npos) << text.out;
}

TEST_F(E2E, BenchMeasuresOneConfigAndRejectsInvalidOnes) {
  const std::string spec = example("matmul/matmul.yaml");
  CommandResult r = ktune("bench " + spec + " --set TILE_M=32 --set TILE_N=64 --set TILE_K=64 --set UNROLL_K=4 --set PACK_B=0");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("Median"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos) << r.out;
  CommandResult bad = ktune("bench " + spec + " --set TILE_M=32 --set TILE_N=256 --set TILE_K=256 --set UNROLL_K=4 --set PACK_B=0");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("TILE_K * TILE_N <= 16384"), std::string::npos) << bad.err;
}

TEST_F(E2E, ExportsJsonAndCsv) {
  ASSERT_EQ(ktune("tune " + example("reduction/reduction.yaml") + " --max-evals 4 --progress none").code, 0);
  CommandResult j = ktune("export --format json");
  ASSERT_EQ(j.code, 0) << j.err;
  nlohmann::json doc = j.json();
  EXPECT_EQ(doc["results"].size(), 4u);
  CommandResult c = ktune("export --format csv -o " + (dir_ / "r.csv").string());
  ASSERT_EQ(c.code, 0) << c.err;
  std::istringstream csv(slurp(dir_ / "r.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find("ACCUMULATORS"), std::string::npos) << header;
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 4);
}

TEST_F(E2E, ExportsTheGemmPicksForTheExecutor) {
  // A database `ktune tune gemm` wrote on an H200 (one pick), copied: export must not change it.
  fs::copy_file(kSource / "src/ktune/report/testdata/gemm_h200_sessions.db", db_);
  const fs::path picks = dir_ / "picks.json";
  CommandResult r = ktune("--json export --gemm-picks " + shell_quote(picks.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["picks"], 1) << r.out;
  const nlohmann::json doc = nlohmann::json::parse(slurp(picks));
  EXPECT_EQ(doc["format"], "ktune-gemm-picks");
  ASSERT_EQ(doc["picks"].size(), 1u);
  EXPECT_EQ(doc["picks"][0]["problem_name"], "gemm 1024x1024x1024 bf16 nn");
  EXPECT_EQ(doc["picks"][0]["config"]["family"], "cublaslt");
  // Standard output carries the picks themselves; other export options do not combine with it.
  CommandResult out = ktune("export --gemm-picks -");
  ASSERT_EQ(out.code, 0) << out.err;
  EXPECT_EQ(nlohmann::json::parse(out.out), doc);
  CommandResult bad = ktune("export --gemm-picks x.json --format csv");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--gemm-picks"), std::string::npos) << bad.err;
}

}  // namespace

namespace {

// ktune model: IREE's tools from the .venv scripts/install-deps.sh makes (CI has it: there a
// missing IREE fails rather than skips).
class E2EModel : public E2E {
 protected:
  void SetUp() override {
    E2E::SetUp();
    CommandResult devices = ktune("--json devices");
    ASSERT_EQ(devices.code, 0) << devices.err;
    for (const auto& b : devices.json())
      if (b["backend"] == "iree" && b["available"].get<bool>()) return;
    const char* ci = std::getenv("CI");
    if (ci && std::string(ci) == "true") FAIL() << "IREE is not installed: " << devices.out;
    GTEST_SKIP() << "IREE is not installed (scripts/install-deps.sh makes .venv)";
  }
};

TEST_F(E2EModel, DispatchesAndCandidatesOfTheMlpBlock) {
  const std::string model = (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string();
  CommandResult r = ktune("--json model dispatches " + model + " --target cuda:sm_80 --out model_out");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json d = r.json();
  ASSERT_EQ(d["dispatches"].size(), 2u) << r.out;
  EXPECT_EQ(d["dispatches"][0]["matmul_mnk"], nlohmann::json({512, 4096, 1024}));
  EXPECT_EQ(d["dispatches"][1]["matmul_mnk"], nlohmann::json({512, 1024, 4096}));
  EXPECT_EQ(d["iree_version"].get<std::string>().rfind("3.13.0", 0), 0u);

  CommandResult c = ktune("--json model candidates " + model + " --dispatch 1 --max 6 --build 2 --out cand_out");
  ASSERT_EQ(c.code, 0) << c.err << c.out;
  const nlohmann::json j = c.json();
  ASSERT_EQ(j["candidates"].size(), 6u);
  EXPECT_TRUE(j["candidates"][0]["default"].get<bool>());
  EXPECT_TRUE(j["candidates"][0]["build"]["ok"].get<bool>()) << c.out;
  EXPECT_TRUE(j["candidates"][1]["build"]["ok"].get<bool>()) << c.out;
  EXPECT_FALSE(j["candidates"][2].contains("build"));
  // The MLP's matmuls fuse bias (and relu): no transform strategy, and the reason says so.
  EXPECT_TRUE(j["strategies"].empty());
  EXPECT_NE(j.value("strategies_unsupported", "").find("fused consumer"), std::string::npos) << c.out;
}

TEST_F(E2EModel, TransformStrategiesOfTheSeedMatmul) {
  const std::string model = (kSource / "examples" / "iree" / "matmul_2048x10240x1280_f16.mlir").string();
  CommandResult c = ktune("--json model candidates " + model + " --target cuda:sm_80 --max 2 --max-transforms 4 --out td_out");
  ASSERT_EQ(c.code, 0) << c.err << c.out;
  const nlohmann::json j = c.json();
  ASSERT_EQ(j["strategies"].size(), 4u) << c.out;
  EXPECT_EQ(j["strategies"][0]["label"], "td/128x128x64/w2x2/d3");
  EXPECT_EQ(j["strategies"][0]["strategy"]["threads"], 128);
  CommandResult t = ktune("model candidates " + model + " --target cuda:sm_80 --max 2 --out td_out");
  ASSERT_EQ(t.code, 0) << t.err << t.out;
  EXPECT_NE(t.out.find("transform strategies (IREE transform-dialect codegen"), std::string::npos) << t.out;
}

TEST_F(E2EModel, InspectEveryDispatchForGfx942) {
  const std::string model = (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string();
  CommandResult r = ktune("--json model inspect " + model + " --target hip:gfx942 --out inspect_out");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["target"], "hip:gfx942");
  ASSERT_EQ(j["dispatches"].size(), 2u) << r.out;
  for (const auto& d : j["dispatches"]) {
    EXPECT_EQ(d["assembly_check"]["agrees"], true) << d.dump(1);
    EXPECT_GT(d["code_object"]["resources"]["vgprs (total, incl. AGPRs)"].get<int>(), 0) << d.dump(1);
    EXPECT_GT(d["code_object"]["occupancy"]["waves_per_simd"].get<double>(), 0) << d.dump(1);
  }
  EXPECT_EQ(j["dispatches"][0]["mnk"], nlohmann::json({512, 4096, 1024}));
  // The table names every dispatch and what limits its occupancy; --html writes the same as a page.
  r = ktune("model inspect " + model + " --target hip:gfx942 --out inspect_out --html " + (dir_ / "inspect.html").string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("mlp_dispatch_0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(LDS)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("equal"), std::string::npos) << r.out;
  const std::string page = slurp(dir_ / "inspect.html");
  EXPECT_NE(page.find("<td>mlp_dispatch_1</td>"), std::string::npos);
  EXPECT_NE(page.find("class=\"equal\">equal"), std::string::npos);
  // CUDA: registers from ptxas, shared memory from IREE's export facts, the occupancy on sm_80.
  if (fs::exists("/usr/local/cuda/bin/ptxas")) {
    r = ktune("--json model inspect " + model + " --target cuda:sm_80 --out inspect_cuda");
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const nlohmann::json cuda = r.json();  // named: a range-for over a temporary's member dangles
    for (const auto& d : cuda["dispatches"])
      EXPECT_GT(d["code_object"]["occupancy"]["active_blocks_per_sm"].get<int>(), 0) << d.dump(1);
  }
  r = ktune("model inspect " + model + " --target cpu:host --out inspect_cpu");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("neither hip:gfx* nor cuda:sm_*"), std::string::npos) << r.err;
}

// Seed-000's loop on a model's dispatch, all with the real IREE and a stock LLVM: dump (one
// binary per dispatch), edit IREE's assembly (an s_nop at the kernel's entry), reassemble,
// substitute, and the recompiled module carries the edit (and no longer IREE's own object).
TEST_F(E2EModel, DumpEditReassembleSubstitute) {
  const std::string model = (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string();
  CommandResult r = ktune("--json model dump " + model + " --target hip:gfx942 --out dumped");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json dump = r.json();
  ASSERT_EQ(dump["dispatches"].size(), 2u) << r.out;
  const nlohmann::json& d1 = dump["dispatches"][1];
  EXPECT_EQ(d1["name"], "mlp_dispatch_1");
  ASSERT_TRUE(fs::is_regular_file(d1["object"].get<std::string>())) << d1.dump(1);
  ASSERT_TRUE(fs::is_regular_file(d1["assembly"].get<std::string>())) << d1.dump(1);

  // The edit: s_nop 3 after the kernel's label.
  std::string text = slurp(d1["assembly"].get<std::string>());
  const std::string label = "\n" + d1["kernel"].get<std::string>() + ":\n";
  const std::size_t at = text.find(label);
  ASSERT_NE(at, std::string::npos) << "no label " << label;
  text.insert(at + label.size(), "\ts_nop 3\n");
  const fs::path edited = dir_ / "edited.rocmasm";
  std::ofstream(edited) << text;
  r = ktune("asm reassemble " + edited.string() + " -o " + (dir_ / "edited.hsaco").string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  r = ktune("asm diff " + d1["object"].get<std::string>() + " " + (dir_ / "edited.hsaco").string());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("+  s_nop 3"), std::string::npos) << r.out;

  r = ktune("--json model substitute " + model + " --target hip:gfx942 mlp_dispatch_1=" + (dir_ / "edited.hsaco").string() +
            " --out substituted");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json sub = r.json();
  EXPECT_TRUE(sub["verified"].get<bool>()) << r.out;
  ASSERT_EQ(sub["objects"].size(), 1u);
  EXPECT_TRUE(sub["objects"][0]["carried"].get<bool>());
  EXPECT_TRUE(sub["objects"][0]["original_gone"].get<bool>());

  // Unknown dispatches, malformed substitutions and malformed assembly say what is wrong.
  r = ktune("model substitute " + model + " --target hip:gfx942 mlp_dispatch_9=" + (dir_ / "edited.hsaco").string() +
            " --out bad1");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("has no dispatch 'mlp_dispatch_9' (it has mlp_dispatch_0, mlp_dispatch_1)"), std::string::npos)
      << r.err;
  r = ktune("model substitute " + model + " --target hip:gfx942 mlp_dispatch_1 --out bad2");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("expected DISPATCH=FILE"), std::string::npos) << r.err;
  text.insert(at + label.size(), "\tnot_an_instruction v0\n");
  std::ofstream(dir_ / "broken.rocmasm") << text;
  r = ktune("asm reassemble " + (dir_ / "broken.rocmasm").string() + " -o " + (dir_ / "broken.hsaco").string());
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("broken.rocmasm:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("invalid instruction"), std::string::npos) << r.err;
}

// AMD without an AMD GPU: a dispatch's candidates compiled for gfx942, ranked by the static rule,
// recorded as offline ranks (status skipped, no times), the top one written as a tuning spec
// that iree-compile applies (IREE's dump shows it).
TEST_F(E2EModel, RankOfflineAndWriteTheSpec) {
  const std::string model = (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string();
  CommandResult r = ktune("--json model rank " + model + " --target hip:gfx942 --top 1 --max-candidates 4 -o " +
                          (dir_ / "spec.mlir").string() + " --out ranked");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = r.json();
  EXPECT_FALSE(j["measured"].get<bool>());
  ASSERT_EQ(j["dispatches"].size(), 1u) << r.out;
  const nlohmann::json& d = j["dispatches"][0];
  EXPECT_EQ(d["dispatch"], "mlp_dispatch_0");  // the larger of the two by M x N x K (equal: the first)
  ASSERT_EQ(d["candidates"].size(), 4u);
  int ranked = 0;
  for (const auto& c : d["candidates"]) {
    if (c["status"] != "ok") continue;
    EXPECT_EQ(c["static_rank"], ++ranked) << c.dump(1);
    EXPECT_FALSE(c["static_model"]["mfma"].empty()) << c.dump(1);
  }
  EXPECT_GE(ranked, 1);
  EXPECT_NE(j["notes"].dump().find("mlp_dispatch_1: left out (--top 1)"), std::string::npos) << j["notes"].dump();
  EXPECT_TRUE(j["spec"]["verified"].get<bool>()) << j["spec"].dump(1);
  EXPECT_EQ(j["spec"]["checks"][0]["candidate"], d["candidates"][0]["key"]);
  EXPECT_TRUE(fs::is_regular_file(dir_ / "spec.mlir"));

  // In the database: every candidate, none of them a time.
  r = ktune("--json results --session " + std::to_string(d["session"].get<std::int64_t>()));
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json rows = r.json();
  ASSERT_EQ(rows.size(), 4u) << r.out;
  for (const auto& row : rows) {
    EXPECT_NE(row["status"], "ok") << row.dump(1);
    EXPECT_TRUE(row["resources"]["offline"].get<bool>()) << row.dump(1);
    EXPECT_FALSE(row.contains("median_s") && row.at("median_s").is_number()) << row.dump(1);
  }
}

TEST_F(E2EModel, BadInputIsAClearError) {
  CommandResult r = ktune("model dispatches " + (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string() +
                          " --target cuda:gfx942");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("a CUDA chip is sm_NN"), std::string::npos) << r.err;
  r = ktune("model dispatches " + (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string() +
            " --iree-tools /nonexistent/bin");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("scripts/install-deps.sh"), std::string::npos) << r.err;
  r = ktune("model candidates " + (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string() + " --dispatch 7");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("has 2 dispatch(es); --dispatch 7 is not one"), std::string::npos) << r.err;
  // A misspelled --object-arch is refused before the model is compiled (no work directory).
  r = ktune("model tune " + (kSource / "examples" / "iree" / "mlp_block_f16.mlir").string() + " --object-arch hopper --out " +
            shell_quote((dir_ / "badarch").string()));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--object-arch 'hopper': expected auto, target or an arch"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "badarch"));
}

// The whole model loop on IREE's CPU target (llvm-cpu on local-task), which CI can run without a
// GPU: profile (the model timed whole and each dispatch alone, verified, recorded), then tune
// (no CPU dispatch is a TileAndFuse matmul, so nothing is substituted: the answer is the default
// build, timed again) with -o, whose compile.sh must compile the model with the real IREE.
TEST_F(E2EModel, ProfileAndTuneOnTheCpuTarget) {
  const std::string model = (kSource / "examples" / "iree" / "matmul_32x2048x1024_f16.mlir").string();
  CommandResult p = ktune("--json model profile " + model + " --target cpu:host --repetitions 3 --out " + shell_quote((dir_ / "work").string()) +
                          " --html " + shell_quote((dir_ / "profile.html").string()));
  ASSERT_EQ(p.code, 0) << p.err << p.out;
  const nlohmann::json profile = p.json();
  EXPECT_GT(profile["model_median_s"].get<double>(), 0);
  ASSERT_EQ(profile["dispatches"].size(), 1u);
  EXPECT_GT(profile["dispatches"][0]["median_s"].get<double>(), 0);
  EXPECT_EQ(profile["dispatches"][0]["status"], "ok");
  EXPECT_FALSE(profile["dispatches"][0]["tunable"].get<bool>());
  // IREE's HAL profile of the default build (host-execution events on the CPU driver): the
  // dispatch timed inside the model too, once per run, and the shares taken from it.
  EXPECT_EQ(profile["timing"], "in-model") << profile.dump(1);
  EXPECT_EQ(profile["hal_profile_mode"], "host-execution");
  EXPECT_GT(profile["dispatches"][0]["in_model_s"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(profile["dispatches"][0]["in_model_calls_per_run"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(profile["dispatches"][0]["share"].get<double>(), 1.0);
  // --html: the same dispatches as a page.
  EXPECT_NE(slurp(dir_ / "profile.html").find("<code>" + profile["dispatches"][0]["name"].get<std::string>() + "</code>"), std::string::npos);

  CommandResult t = ktune("--json model tune " + model + " --target cpu:host --repetitions 3 --out " + shell_quote((dir_ / "work").string()) +
                          " -o " + shell_quote((dir_ / "tuned").string()) + " --html " + shell_quote((dir_ / "tune.html").string()));
  ASSERT_EQ(t.code, 0) << t.err << t.out;
  const nlohmann::json tuning = t.json();
  EXPECT_GT(tuning["default_model_s"].get<double>(), 0);
  EXPECT_FALSE(tuning["tuned_kept"].get<bool>());
  EXPECT_TRUE(tuning["substitutions"].empty());
  EXPECT_NE(slurp(dir_ / "tuned" / "flags.txt").find("--iree-hal-local-target-device-backends=llvm-cpu"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(slurp(dir_ / "tuned" / "result.json")).contains("profile"));
  EXPECT_NE(slurp(dir_ / "tune.html").find("<code>" + profile["dispatches"][0]["name"].get<std::string>() + "</code>"), std::string::npos);

  // Every measurement is a result in the database: whole-model and dispatch timings, twice each.
  CommandResult results = ktune("--json results");
  ASSERT_EQ(results.code, 0) << results.err;
  EXPECT_GE(results.json().size(), 4u) << results.out;

  const fs::path compile = kSource / ".venv" / "bin" / "iree-compile";
  if (fs::exists(compile)) {
    CommandResult c = run_command("IREE_COMPILE=" + shell_quote(compile.string()) + " sh " + shell_quote((dir_ / "tuned" / "compile.sh").string()) + " " + shell_quote(model) +
                                      " " + shell_quote((dir_ / "out.vmfb").string()),
                                  dir_);
    EXPECT_EQ(c.code, 0) << c.err << c.out;
    EXPECT_TRUE(fs::is_regular_file(dir_ / "out.vmfb"));
  }
}

TEST_F(E2EModel, ProfileWithoutTheRuntimeOrWithAWrongFunctionSaysWhy) {
  const std::string model = (kSource / "examples" / "iree" / "matmul_32x2048x1024_f16.mlir").string();
  CommandResult r = ktune("model profile " + model + " --target cpu:host --function nope --out " + shell_quote((dir_ / "work").string()));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("no function @nope"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exported: matmul"), std::string::npos) << r.err;
}

}  // namespace
