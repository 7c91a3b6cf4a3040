#include "ktune/iree/model_tuning.h"

#include <gtest/gtest.h>

#include <fstream>

#include <unistd.h>

#include "ktune/core/read_file.h"

namespace ktune::iree {
namespace {

TEST(PickDispatchWinner, TheFastestVerifiedCandidateWhenItBeatsTheDefaultByMoreThanOnePercent) {
  const DispatchPick p = pick_dispatch_winner({{"default", 356e-6, true},
                                               {"NV_MMA_SYNC_F32_16x8x16_F16/sg4x8/wg2x2/r4/p3", 243e-6, true},
                                               {"ktune/128x128x64/w2x2/s3/g8/b1", 139e-6, true},
                                               {"ktune/64x64x32/w2x2/s3/g8/b1", 100e-6, false}});  // wrong answer
  EXPECT_EQ(p.label, "ktune/128x128x64/w2x2/s3/g8/b1");
  EXPECT_DOUBLE_EQ(*p.best_s, 139e-6);
  EXPECT_DOUBLE_EQ(*p.default_s, 356e-6);
}

TEST(PickDispatchWinner, TheDefaultStaysWithinNoiseOrWhenItWasNeverMeasured) {
  const DispatchPick close = pick_dispatch_winner({{"default", 100e-6, true}, {"x", 99.5e-6, true}});
  EXPECT_EQ(close.label, "default");
  EXPECT_DOUBLE_EQ(*close.best_s, 100e-6);

  const DispatchPick no_default = pick_dispatch_winner({{"default", std::nullopt, false}, {"x", 50e-6, true}});
  EXPECT_EQ(no_default.label, "default");
  EXPECT_FALSE(no_default.default_s);

  const DispatchPick slower = pick_dispatch_winner({{"x", 150e-6, true}, {"default", 100e-6, true}});
  EXPECT_EQ(slower.label, "default");
}

// A module exporting mm and add: profiling add must leave mm's dispatch out (it took 98% of the
// shares), unless IREE's in-model profile of add saw it (a dispatch deduplicated across
// functions keeps its first function's name).
TEST(RunsInFunction, AnotherExportedFunctionsDispatchIsLeftOut) {
  ModelSession session;
  session.function.name = "add";
  session.other_functions = {"mm"};
  DumpedDispatch add, mm, async;
  add.name = "add_dispatch_0";
  mm.name = "mm_dispatch_0";
  async.name = "add$async_dispatch_1";
  EXPECT_TRUE(runs_in_function(add, session, std::nullopt));
  EXPECT_TRUE(runs_in_function(async, session, std::nullopt));
  EXPECT_FALSE(runs_in_function(mm, session, std::nullopt));
  session.other_functions.clear();  // one exported function: every dispatch is its
  EXPECT_TRUE(runs_in_function(mm, session, std::nullopt));
}

// A second `model tune` measures the profile and the default-vs-tuned comparison again (a ratio
// taken side by side in one session; the "tuned" build is this run's winners), but answers every
// dispatch candidate already in the database from it: none is compiled or measured again.
TEST(ModelTuneSessions, ReRunsMeasureTheComparisonAgainButResumeTheCandidates) {
  ModelRunOptions o;
  o.tune.max_evaluations = 7;
  o.tune.max_seconds = 30;
  const tuner::TuneOptions fixed = fixed_tune_options(o, {{{"build", Value::string("default")}}}, "model tune: default vs tuned");
  EXPECT_FALSE(tuner::resumes_recorded_results(fixed));
  ASSERT_TRUE(fixed.fixed_configs);
  EXPECT_EQ(fixed.fixed_configs->size(), 1u);
  EXPECT_FALSE(fixed.max_evaluations);  // a fixed list runs whole
  EXPECT_EQ(fixed.session_label, "model tune: default vs tuned");

  const tuner::TuneOptions candidates = dispatch_tune_options(o);
  EXPECT_TRUE(tuner::resumes_recorded_results(candidates));
  EXPECT_FALSE(candidates.fixed_configs);
  EXPECT_EQ(candidates.max_evaluations, 7u);
  EXPECT_EQ(candidates.confirm, 0u);

  o.tune.resume = false;  // --no-resume
  EXPECT_FALSE(tuner::resumes_recorded_results(dispatch_tune_options(o)));
}

// The work directory sits beside the database a re-run resumes from, never in the current
// directory; two models of one name get two directories, one model always the same one.
TEST(DefaultWorkDir, BesideTheDatabaseOnePerModelPathAndChip) {
  const Target sm80 = parse_target("cuda:sm_80");
  const std::filesystem::path a = default_work_dir("/data/ktune/ktune.db", "/m/a/model.mlir", sm80);
  EXPECT_EQ(a.parent_path(), "/data/ktune/ktune-work");
  EXPECT_EQ(a.filename().string().rfind("model-sm_80-", 0), 0u) << a;
  EXPECT_EQ(a, default_work_dir("/data/ktune/ktune.db", "/m/a/../a/model.mlir", sm80));
  EXPECT_NE(a, default_work_dir("/data/ktune/ktune.db", "/m/b/model.mlir", sm80));
  EXPECT_NE(a, default_work_dir("/data/ktune/ktune.db", "/m/a/model.mlir", parse_target("hip:gfx942")));
  // A relative database path is taken from the working directory, as the database itself is.
  const std::filesystem::path relative = default_work_dir("k.db", "/m/a/model.mlir", sm80);
  EXPECT_TRUE(relative.is_absolute()) << relative;
  EXPECT_EQ(relative.parent_path(), std::filesystem::current_path() / "ktune-work");
}

// A configuration that names a transform strategy: -o carries the library it needs, and both
// flags.txt and compile.sh pass it, relative to the output directory.
TEST(WriteTuningOutput, ATransformStrategyTravelsWithItsLibrary) {
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("ktune_tuning_output_" + std::to_string(::getpid()));
  fs::create_directories(tmp / "candidate");
  const fs::path configured = tmp / "candidate" / "configured_matmul_dispatch_0.mlir";
  std::ofstream(configured) << "func.func @f() attributes {translation_info = #iree_codegen.translation_info<pipeline = "
                               "#iree_codegen.transform_dialect_codegen codegen_spec = @ktune_td_128x128x64_w2x2_d3 "
                               "workgroup_size = [128, 1, 1] subgroup_size = 32>} { return }\n";
  ModelSession session;
  session.model.target = parse_target("cuda:sm_80");
  session.work_dir = tmp / "work";
  ModelTuning t;
  t.substitutions = {{"matmul_dispatch_0", configured}};
  write_tuning_output(session, t, tmp / "out");
  const std::string library = read_file(tmp / "out" / "strategies.mlir").value_or("");
  EXPECT_NE(library.find("transform.named_sequence @ktune_td_128x128x64_w2x2_d3("), std::string::npos);
  EXPECT_NE(library.find("transform.named_sequence @__kernel_config("), std::string::npos);
  const std::string flags = read_file(tmp / "out" / "flags.txt").value_or("");
  EXPECT_NE(flags.find("--iree-codegen-transform-dialect-library=strategies.mlir\n"), std::string::npos) << flags;
  const std::string sh = read_file(tmp / "out" / "compile.sh").value_or("");
  EXPECT_NE(sh.find("\"--iree-codegen-transform-dialect-library=$here/strategies.mlir\""), std::string::npos) << sh;
  std::error_code ec;
  fs::remove_all(tmp, ec);
}

}  // namespace
}  // namespace ktune::iree
