// Recorded spaces (JSON, the space they cover) and simulated searches over them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ktune/simulate/recorded_space.h"
#include "ktune/simulate/simulator.h"

namespace ktune::simulate {
namespace {

// BX in {1,2,4,8}, BY in {1,2,4}, BX * BY <= 16: 11 configs. Time = |BX - 4| + |BY - 2| + 1 us;
// BX=8, BY=4 (out of the constraint anyway) and BX=1, BY=1 fail to compile.
RecordedSpace small_recording(RecordedSpace::Membership membership) {
  RecordedSpace s;
  s.name = "small";
  s.parameters = {{"BX", {Value::integer(1), Value::integer(2), Value::integer(4), Value::integer(8)}},
                  {"BY", {Value::integer(1), Value::integer(2), Value::integer(4)}}};
  s.constraints = {"BX * BY <= 16"};
  s.membership = membership;
  for (int bx : {1, 2, 4, 8}) {
    for (int by : {1, 2, 4}) {
      if (bx * by > 16) continue;
      RecordedResult r;
      r.config = {{"BX", Value::integer(bx)}, {"BY", Value::integer(by)}};
      if (bx == 1 && by == 1) {
        r.status = "compile_error";
      } else {
        r.time_s = 1e-6 * (std::abs(bx - 4) + std::abs(by - 2) + 1);
      }
      r.compile_s = 0.5;
      r.measure_s = 0.25;
      s.results.push_back(r);
    }
  }
  return s;
}

TEST(RecordedSpace, JsonRoundTripAndFile) {
  const RecordedSpace s = small_recording(RecordedSpace::Membership::Constraints);
  const RecordedSpace back = recorded_space_from_json(to_json(s));
  EXPECT_EQ(to_json(back), to_json(s));
  const auto path = std::filesystem::temp_directory_path() / "ktune_simulate_test_small.json";
  save_recorded_space(s, path);
  EXPECT_EQ(to_json(load_recorded_space(path)), to_json(s));
  std::filesystem::remove(path);
}

TEST(RecordedSpace, ErrorsNameTheOriginAndThePlace) {
  nlohmann::json doc = to_json(small_recording(RecordedSpace::Membership::Constraints));
  doc["results"][3]["config"].erase("BY");
  try {
    recorded_space_from_json(doc, "small.json");
    FAIL() << "accepted a config without BY";
  } catch (const RecordingError& e) {
    EXPECT_STREQ(e.what(), "small.json: results[3].config: lacks parameter BY");
  }
  doc = to_json(small_recording(RecordedSpace::Membership::Constraints));
  doc["results"][0]["status"] = "fine";
  EXPECT_THROW(recorded_space_from_json(doc, "x"), RecordingError);
  doc = to_json(small_recording(RecordedSpace::Membership::Constraints));
  doc["results"][1].erase("time_s");
  EXPECT_THROW(recorded_space_from_json(doc, "x"), RecordingError);
  doc["format"] = "other";
  EXPECT_THROW(recorded_space_from_json(doc, "x"), RecordingError);
  EXPECT_THROW(load_recorded_space("/nonexistent/space.json"), RecordingError);
}

TEST(RecordedSpace, BothMembershipsCoverTheRecordedConfigs) {
  for (auto m : {RecordedSpace::Membership::Constraints, RecordedSpace::Membership::Recorded}) {
    const RecordedSpace s = small_recording(m);
    const space::SearchSpace space = build_space(s);
    EXPECT_EQ(space.size(), 11u);
    for (const auto& r : s.results) EXPECT_TRUE(space.contains(r.config)) << config_key(r.config);
  }
  // Recorded: a config the recording lacks is outside the space even if no constraint says so.
  RecordedSpace s = small_recording(RecordedSpace::Membership::Recorded);
  s.results.pop_back();  // BX=8, BY=2
  const space::SearchSpace space = build_space(s);
  EXPECT_EQ(space.size(), 10u);
  EXPECT_FALSE(space.contains({{"BX", Value::integer(8)}, {"BY", Value::integer(2)}}));
}

TEST(RecordedSpace, StatisticsAndDuplicates) {
  RecordedSpace s = small_recording(RecordedSpace::Membership::Constraints);
  const SpaceStatistics stats = statistics(s);
  EXPECT_EQ(stats.configurations, 11u);
  EXPECT_EQ(stats.objectives.size(), 10u);
  EXPECT_DOUBLE_EQ(stats.mean_evaluation_seconds, 0.75);
  s.results.push_back(s.results.front());
  EXPECT_THROW(index_results(s), RecordingError);
}

TEST(Simulator, ExhaustiveChargesTheRecordedCostsInOrder) {
  const RecordedSpace s = small_recording(RecordedSpace::Membership::Constraints);
  const space::SearchSpace space = build_space(s);
  const auto answers = index_results(s);
  SimulationOptions o;
  o.strategy = "exhaustive";
  const SimulationResult r = simulate(space, answers, o, "small");
  ASSERT_EQ(r.configs.size(), 11u);
  EXPECT_EQ(r.stop_reason, "space exhausted");
  EXPECT_DOUBLE_EQ(r.simulated_seconds, 11 * 0.75);
  EXPECT_DOUBLE_EQ(r.trace.points[2].seconds, 3 * 0.75);
  EXPECT_EQ(r.by_status.at("compile_error"), 1u);
  ASSERT_TRUE(r.best_time_s);
  EXPECT_DOUBLE_EQ(*r.best_time_s, 1e-6);
  EXPECT_EQ(config_key(*r.best_config), "BX=4,BY=2");
  for (std::size_t i = 0; i < r.configs.size(); ++i) EXPECT_EQ(r.configs[i], space.at(i));
}

TEST(Simulator, BudgetsStopTheSearch) {
  const RecordedSpace s = small_recording(RecordedSpace::Membership::Constraints);
  const space::SearchSpace space = build_space(s);
  const auto answers = index_results(s);
  SimulationOptions o;
  o.strategy = "random";
  o.max_seconds = 2.0;  // 0.75 s each: the third ends at 2.25 s, after which the clock is spent
  SimulationResult r = simulate(space, answers, o);
  EXPECT_EQ(r.configs.size(), 3u);
  EXPECT_EQ(r.stop_reason, "time budget");
  o.max_seconds.reset();
  o.max_evaluations = 5;
  r = simulate(space, answers, o);
  EXPECT_EQ(r.configs.size(), 5u);
  EXPECT_EQ(r.stop_reason, "max evaluations");
}

TEST(Simulator, EveryStrategyIsDeterministicAndCoversTheSpace) {
  const RecordedSpace s = small_recording(RecordedSpace::Membership::Recorded);
  const space::SearchSpace space = build_space(s);
  const auto answers = index_results(s);
  for (const auto& name : search::strategy_names()) {
    for (std::size_t outstanding : {1u, 3u}) {
      SimulationOptions o;
      o.strategy = name;
      o.seed = 7;
      o.outstanding = outstanding;
      const SimulationResult a = simulate(space, answers, o);
      const SimulationResult b = simulate(space, answers, o);
      EXPECT_EQ(a.configs, b.configs) << name;
      EXPECT_EQ(a.configs.size(), 11u) << name;
      EXPECT_EQ(a.unrecorded, 0u) << name;
      EXPECT_DOUBLE_EQ(*a.best_time_s, 1e-6) << name;
    }
  }
}

TEST(Simulator, ConfigsTheRecordingLacksFailAtTheMeanCost) {
  RecordedSpace s = small_recording(RecordedSpace::Membership::Constraints);
  const space::SearchSpace space = build_space(s);  // 11 configs
  s.results.erase(s.results.begin() + 4);           // the recording lost one
  const auto answers = index_results(s);
  SimulationOptions o;
  o.strategy = "exhaustive";
  const SimulationResult r = simulate(space, answers, o);
  EXPECT_EQ(r.configs.size(), 11u);
  EXPECT_EQ(r.unrecorded, 1u);
  EXPECT_EQ(r.by_status.at("unrecorded"), 1u);
  EXPECT_DOUBLE_EQ(r.simulated_seconds, 11 * 0.75);
  o.strategy = "no_such";
  EXPECT_THROW(simulate(space, answers, o), std::invalid_argument);
}

}  // namespace
}  // namespace ktune::simulate
