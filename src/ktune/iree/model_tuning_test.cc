#include "ktune/iree/model_tuning.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ktune::iree
