// ktune::Runtime against the built ktune binary: short CPU tunings of a tiny spec (y = 2 * x)
// into a fresh database per test.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <ktune/ktune.h>

#include "support/cli_run.h"

namespace {

namespace fs = std::filesystem;
using ktune::Runtime;
using ktune::RuntimeOptions;
using ktune::TuningState;
using Clock = std::chrono::steady_clock;

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("ktune_runtime_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(ktune::testing::source_dir() / "tests/package_consumer/scale.cpp", dir_ / "scale.cpp");
    spec_ = write_spec("scale.yaml", "[1, 4]");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The package consumer's spec with a short measurement (a tuning takes a second or two).
  std::string write_spec(const std::string& file, const std::string& unroll_values) {
    std::ofstream out(dir_ / file);
    out << "name: runtime_test_scale  # the problem name the runtime looks up\n"
           "kernel: {language: cpp, source: scale.cpp, entry: scale}\n"
           "sizes: {N: 4096}\n"
           "parameters: {UNROLL: " << unroll_values << "}\n"
           "arguments:\n"
           "  - {name: x, type: float32, length: N, init: {random: {seed: 3, lo: -1, hi: 1}}}\n"
           "  - {name: y, type: float32, length: N, output: true}\n"
           "  - {name: n, type: int64, value: N}\n"
           "reference: {kernel: {source: scale.cpp, entry: scale_reference}, atol: 0, rtol: 0}\n"
           "measure: {warmup_seconds: 0.001, min_seconds: 0.005, min_samples: 3, timeout_seconds: 0.5}\n"
           "tune: {strategy: exhaustive}\n";
    return (dir_ / file).string();
  }

  RuntimeOptions options(bool online = true) const {
    RuntimeOptions o;
    o.database_path = (dir_ / "ktune.db").string();
    o.ktune_path = ktune::testing::ktune_binary().string();
    // Room for a loaded machine: the two configurations finish in a second or two, but under a
    // parallel ctest with compiles beside it, a 3 s --max-time once ended a tuning before it had
    // measured either (exit 5; session 30). The budget caps, it does not pad.
    o.budget_seconds = 30;
    o.online = online;
    o.recheck_seconds = 0;  // tests look again right away
    o.tune_args = {"--confirm", "0", "--jobs", "1"};
    return o;
  }

  fs::path dir_;
  std::string spec_;
};

TEST_F(RuntimeTest, FirstLookupServesTheBaselineAndTunesInTheBackground) {
  Runtime rt(options());
  EXPECT_FALSE(rt.lookup(spec_, {{"N", "1024"}}).has_value());
  const auto state = rt.status(spec_, {{"N", "1024"}}).state;
  EXPECT_TRUE(state == TuningState::Queued || state == TuningState::Tuning);
  ASSERT_TRUE(rt.wait_idle(120));
  const auto done = rt.status(spec_, {{"N", "1024"}});
  ASSERT_EQ(done.state, TuningState::Done) << done.error;
  EXPECT_EQ(done.exit_code, 0);

  const auto best = rt.lookup(spec_, {{"N", "1024"}});
  ASSERT_TRUE(best.has_value()) << rt.database_error();
  EXPECT_EQ(best->problem, "runtime_test_scale");
  EXPECT_EQ(best->sizes.at("N"), "1024");
  EXPECT_TRUE(best->parameters.at("UNROLL") == "1" || best->parameters.at("UNROLL") == "4");
  EXPECT_GT(best->median_seconds, 0);
  // Another size is another key: its own tuning, while the first answer stays.
  EXPECT_FALSE(rt.lookup(spec_, {{"N", "2048"}}).has_value());
  EXPECT_EQ(rt.lookup(spec_, {{"N", "1024"}})->result_id, best->result_id);
  EXPECT_EQ(rt.status(spec_, {{"N", "1024"}}).state, TuningState::Done);
  EXPECT_TRUE(rt.database_error().empty()) << rt.database_error();
}

TEST_F(RuntimeTest, ManyThreadsLookUpWhileTuningRuns) {
  Runtime rt(options());
  const std::vector<std::string> sizes = {"512", "1024"};
  std::atomic<int> inconsistent{0}, found{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::map<std::string, std::int64_t> seen;  // size -> the result first returned
      // Until this thread has been answered for both keys: during both tunings and after.
      const auto end = Clock::now() + std::chrono::seconds(90);
      for (int i = 0; Clock::now() < end && seen.size() < sizes.size(); ++i) {
        const std::string& n = sizes[static_cast<std::size_t>(i + t) % sizes.size()];
        auto best = rt.lookup(spec_, {{"N", n}});
        if (!best) continue;
        ++found;
        auto [it, first] = seen.emplace(n, best->result_id);
        if (!first && it->second != best->result_id) ++inconsistent;  // an answer never changes
        if (best->sizes.at("N") != n) ++inconsistent;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_TRUE(rt.wait_idle(120));
  EXPECT_EQ(inconsistent.load(), 0);
  EXPECT_GE(found.load(), 16);  // every thread got both answers
  std::set<std::int64_t> ids;
  for (const auto& n : sizes) {
    const auto status = rt.status(spec_, {{"N", n}});
    EXPECT_EQ(status.state, TuningState::Done) << status.error;
    auto best = rt.lookup(spec_, {{"N", n}});
    ASSERT_TRUE(best.has_value()) << "N=" << n;
    ids.insert(best->result_id);
  }
  EXPECT_EQ(ids.size(), 2u);  // two keys, each tuned once
}

TEST_F(RuntimeTest, OnlineTuningOffNeverStartsATuning) {
  Runtime rt(options(false));
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(rt.lookup(spec_, {{"N", "1024"}}).has_value());
  EXPECT_EQ(rt.status(spec_, {{"N", "1024"}}).state, TuningState::NotStarted);
  EXPECT_TRUE(rt.wait_idle(0));
  EXPECT_FALSE(fs::exists(dir_ / "ktune.db"));  // a missing database is no records, not an error
  EXPECT_TRUE(rt.database_error().empty());
}

TEST_F(RuntimeTest, OnlineTuningFollowsTheEnvironmentByDefault) {
  ::setenv("KTUNE_ONLINE", "1", 1);
  EXPECT_TRUE(*Runtime(RuntimeOptions{}).options().online);
  ::setenv("KTUNE_ONLINE", "0", 1);
  EXPECT_FALSE(*Runtime(RuntimeOptions{}).options().online);
  ::unsetenv("KTUNE_ONLINE");
  EXPECT_FALSE(*Runtime(RuntimeOptions{}).options().online);
  ::setenv("KTUNE_BIN", "/opt/somewhere/ktune", 1);
  EXPECT_EQ(Runtime(RuntimeOptions{}).options().ktune_path, "/opt/somewhere/ktune");
  ::unsetenv("KTUNE_BIN");
}

TEST_F(RuntimeTest, AFailedTuningReportsTheErrorAndIsNotRetried) {
  std::ofstream(dir_ / "bad.yaml") << "name: broken\nkernel: 5\n";
  const std::string bad = (dir_ / "bad.yaml").string();
  Runtime rt(options());
  EXPECT_FALSE(rt.lookup(bad).has_value());
  EXPECT_FALSE(rt.lookup((dir_ / "missing.yaml").string()).has_value());
  ASSERT_TRUE(rt.wait_idle(60));
  const auto status = rt.status(bad);
  ASSERT_EQ(status.state, TuningState::Failed);
  EXPECT_EQ(status.exit_code, 3);  // ktune: invalid input file
  EXPECT_NE(status.error.find("exited with code 3"), std::string::npos) << status.error;
  EXPECT_NE(status.error.find("bad.yaml"), std::string::npos) << status.error;  // ktune's own message
  const auto missing = rt.status((dir_ / "missing.yaml").string());
  EXPECT_EQ(missing.state, TuningState::Failed);
  EXPECT_NE(missing.error.find("missing.yaml"), std::string::npos) << missing.error;

  for (int i = 0; i < 5; ++i) EXPECT_FALSE(rt.lookup(bad).has_value());
  EXPECT_EQ(rt.status(bad).state, TuningState::Failed);  // the negative cache: never queued again
  EXPECT_TRUE(rt.wait_idle(0));
}

TEST_F(RuntimeTest, AMissingKtuneExecutableFailsTheKey) {
  auto o = options();
  o.ktune_path = (dir_ / "no-ktune-here").string();
  Runtime rt(o);
  EXPECT_FALSE(rt.lookup(spec_).has_value());
  ASSERT_TRUE(rt.wait_idle(30));
  const auto status = rt.status(spec_);
  EXPECT_EQ(status.state, TuningState::Failed);
  EXPECT_NE(status.error.find("could not start"), std::string::npos) << status.error;
}

TEST_F(RuntimeTest, ASecondRuntimeOnTheSameDatabaseFindsTheResults) {
  std::int64_t id = 0;
  {
    Runtime first(options());
    first.lookup(spec_, {{"N", "1024"}});
    ASSERT_TRUE(first.wait_idle(120));
    ASSERT_TRUE(first.lookup(spec_, {{"N", "1024"}}).has_value());
    id = first.lookup(spec_, {{"N", "1024"}})->result_id;
  }
  Runtime second(options(false));
  auto best = second.lookup(spec_, {{"N", "1024"}});
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->result_id, id);
  EXPECT_EQ(second.status(spec_, {{"N", "1024"}}).state, TuningState::NotStarted);  // no tuning needed
  // The explicit problem name works where the spec file cannot tell it.
  EXPECT_TRUE(second.lookup(spec_, {{"N", "1024"}}, "runtime_test_scale").has_value());
}

// Another process (`ktune tune` in a shell) writes the database while this one tunes a
// different key and reads it: SQLite's locking keeps both working.
TEST_F(RuntimeTest, AnotherProcessTunesTheSameDatabaseConcurrently) {
  Runtime rt(options());
  std::thread other([&] {
    const std::string command = ktune::testing::shell_quote(options().ktune_path) + " --db " +
                                ktune::testing::shell_quote(options().database_path) + " --json tune " +
                                ktune::testing::shell_quote(spec_) +
                                " --size N=4096 --max-time 3 --progress none --confirm 0 --jobs 1";
    const auto result = ktune::testing::run_command(command, dir_);
    EXPECT_EQ(result.code, 0) << result.err;
  });
  Runtime reader(options(false));
  bool found_other = false;
  const auto end = Clock::now() + std::chrono::seconds(60);
  rt.lookup(spec_, {{"N", "512"}});
  while (Clock::now() < end && !found_other) {
    found_other = reader.lookup(spec_, {{"N", "4096"}}).has_value();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  other.join();
  ASSERT_TRUE(rt.wait_idle(120));
  EXPECT_TRUE(found_other) << reader.database_error();
  EXPECT_EQ(rt.status(spec_, {{"N", "512"}}).state, TuningState::Done) << rt.status(spec_, {{"N", "512"}}).error;
  EXPECT_TRUE(rt.lookup(spec_, {{"N", "512"}}).has_value());
  EXPECT_TRUE(rt.lookup(spec_, {{"N", "4096"}}).has_value());  // found, not tuned again
  EXPECT_EQ(rt.status(spec_, {{"N", "4096"}}).state, TuningState::NotStarted);
  EXPECT_TRUE(reader.database_error().empty()) << reader.database_error();
}

TEST_F(RuntimeTest, DestructorStopsRunningTuningsWhenAsked) {
  // Many configurations and a long budget: the child runs well past the destructor.
  const std::string slow = write_spec("slow.yaml", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]");
  auto o = options();
  o.budget_seconds = 60;
  o.terminate_on_destroy = true;
  const auto start = Clock::now();
  {
    Runtime rt(o);
    rt.lookup(slow, {{"N", "1024"}});
    rt.lookup(slow, {{"N", "2048"}});  // queued behind the first: never starts
    std::this_thread::sleep_for(std::chrono::seconds(1));
    EXPECT_EQ(rt.status(slow, {{"N", "1024"}}).state, TuningState::Tuning);
    EXPECT_EQ(rt.status(slow, {{"N", "2048"}}).state, TuningState::Queued);
  }
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 15);
}

}  // namespace
