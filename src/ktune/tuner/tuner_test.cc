// run_tuning on the CPU backend, through a kind that forwards to a spec kernel and keeps every
// request the loop built: what each stage measured with, which configs ran, what was resumed.

#include "ktune/tuner/tuner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>

#include "ktune/tuner/spec_kernel_kind.h"
#include "support/cli_run.h"

namespace ktune::tuner {
namespace {

namespace fs = std::filesystem;

class RecordingKind : public CandidateKind {
 public:
  explicit RecordingKind(const fs::path& spec) : inner_(spec, Config{}) {}

  const space::SearchSpace& space() const override { return inner_.space(); }
  db::KernelRecord kernel_record() const override { return inner_.kernel_record(); }
  db::ProblemRecord problem_record() const override { return inner_.problem_record(); }
  spec::TuneSettings settings() const override { return inner_.settings(); }
  measure::Policy policy() const override { return inner_.policy(); }
  std::string source_label() const override { return inner_.source_label(); }
  std::string backend_name() const override { return inner_.backend_name(); }
  std::optional<device::CompileResult> compile_reference(const std::string& target) override {
    return inner_.compile_reference(target);
  }
  device::CompileResult compile(const Config& config, const std::string& target) override {
    return inner_.compile(config, target);
  }
  device::ScreenResult screen(device::Backend& backend, int ordinal, const Config& config,
                              const device::CompileResult& compiled) override {
    return inner_.screen(backend, ordinal, config, compiled);
  }
  nlohmann::json evaluation_request(const Request& request) const override {
    std::lock_guard lock(mutex_);
    requests_.push_back({config_key(*request.config), request.policy, request.incumbent.has_value()});
    return inner_.evaluation_request(request);
  }
  double call_timeout(const measure::Policy& policy, bool computes_reference) const override {
    return inner_.call_timeout(policy, computes_reference);
  }
  std::optional<double> flop_count(const Config& config) const override { return inner_.flop_count(config); }
  std::optional<double> byte_count(const Config& config) const override { return inner_.byte_count(config); }
  const spec::TuningProblem* spec_problem() const override { return inner_.spec_problem(); }

  struct Sent {
    std::string config_key;
    measure::Policy policy;
    bool incumbent = false;
  };
  std::vector<Sent> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  SpecKernelKind inner_;
  mutable std::mutex mutex_;
  mutable std::vector<Sent> requests_;
};

class RunTuning : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ktune_tuner_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // The CPU matmul example at 64^3, its measure block left at the default precision (so that
  // the session screens, then confirms its finalists) unless `keep_precision`.
  fs::path spec(bool keep_precision = false) const {
    const fs::path example = testing::source_dir() / "examples" / "cpu" / "matmul";
    for (const char* f : {"matmul.cpp", "matmul_reference.cpp"})
      fs::copy_file(example / f, dir_ / f, fs::copy_options::overwrite_existing);
    std::string text = testing::slurp(example / "matmul.yaml");
    text = std::regex_replace(text, std::regex(R"((M|N|K): 256)"), "$1: 64");
    if (!keep_precision) text = std::regex_replace(text, std::regex(R"(\n  (min_seconds|max_noise): [^\n]*)"), "");
    const fs::path path = dir_ / "matmul.yaml";
    std::ofstream(path) << text;
    return path;
  }

  TuneOptions options() const {
    TuneOptions o;
    o.db_path = dir_ / "ktune.db";
    o.worker = {testing::ktune_binary(), {"worker"}, {}};
    o.progress = report::ProgressStyle::None;
    o.compile_jobs = 2;
    o.seed = 3;
    o.max_evaluations = 4;
    return o;
  }

  fs::path dir_;
};

// --l2-flush clean reaches every measurement of the session, the finalists' confirmation too
// (it once took the spec's policy as written, so confirmed rows were measured after a dirty
// flush and recorded under the session's clean one).
TEST_F(RunTuning, EveryStageMeasuresWithTheFlushTheOptionsAskFor) {
  RecordingKind kind(spec());
  TuneOptions o = options();
  o.l2_flush = measure::L2Flush::Clean;
  o.confirm = 2;
  const TuneSummary s = run_tuning(kind, o);
  EXPECT_EQ(s.evaluated, 4u);
  ASSERT_FALSE(s.confirmed.empty()) << s.by_status.size();
  const auto sent = kind.requests();
  ASSERT_EQ(sent.size(), 4u + s.confirmed.size());
  for (const auto& r : sent) EXPECT_EQ(r.policy.l2_flush, measure::L2Flush::Clean) << r.config_key;
  // The screening's policy, then the confirmation's (no racing, its own precision).
  const measure::Policy screening = measure::screening_policy(kind.policy());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(sent[i].policy.min_seconds, screening.min_seconds);
  for (std::size_t i = 4; i < sent.size(); ++i) {
    EXPECT_FALSE(sent[i].policy.racing);
    EXPECT_FALSE(sent[i].incumbent);
  }
}

// A spec that sets its own precision is measured as it says, in one stage.
TEST_F(RunTuning, ASpecWithItsOwnPrecisionIsMeasuredInOneStage) {
  RecordingKind kind(spec(/*keep_precision=*/true));
  const TuneSummary s = run_tuning(kind, options());
  EXPECT_TRUE(s.confirmed.empty());
  const auto sent = kind.requests();
  ASSERT_EQ(sent.size(), 4u);
  for (const auto& r : sent) EXPECT_EQ(r.policy.min_seconds, kind.policy().min_seconds);
  EXPECT_EQ(s.stop_reason, "max evaluations");
  ASSERT_TRUE(s.best.has_value());
  EXPECT_EQ(s.best->status, db::Status::Ok);
}

// A second session over the same database answers the configs the first measured from it and
// measures only the new ones; racing candidates carry the best so far.
TEST_F(RunTuning, ARerunResumesWhatIsRecordedAndMeasuresOnlyTheRest) {
  const fs::path path = spec();
  RecordingKind first(path);
  TuneOptions o = options();
  o.confirm = 0;
  const TuneSummary a = run_tuning(first, o);
  ASSERT_EQ(a.evaluated, 4u);

  RecordingKind second(path);
  o.max_evaluations = 6;
  const TuneSummary b = run_tuning(second, o);
  EXPECT_EQ(b.resumed, 4u);
  EXPECT_EQ(b.evaluated, 2u);
  const auto sent = second.requests();
  ASSERT_EQ(sent.size(), 2u);
  for (const auto& r : first.requests())
    for (const auto& n : sent) EXPECT_NE(r.config_key, n.config_key);
  if (second.policy().racing) {
    for (const auto& n : sent) EXPECT_TRUE(n.incumbent) << "the resumed best is the incumbent";
  }
}

// A fixed list (ktune bench) runs its configs in order, measures them again even when recorded,
// and stops as "done".
TEST_F(RunTuning, AFixedListRunsInOrderAndIsNeverAnsweredFromTheDatabase) {
  const fs::path path = spec();
  RecordingKind kind(path);
  std::vector<Config> configs;
  for (std::uint64_t index : {5u, 0u, 2u}) configs.push_back(kind.space().at(index));
  TuneOptions o = options();
  o.fixed_configs = configs;
  o.max_evaluations.reset();
  o.compile_jobs = 1;  // one compile at a time: the requests then go out in the list's order
  for (int round = 0; round < 2; ++round) {
    const TuneSummary s = run_tuning(kind, o);
    EXPECT_EQ(s.evaluated, 3u);
    EXPECT_EQ(s.resumed, 0u);
    EXPECT_EQ(s.stop_reason, "done");
    EXPECT_TRUE(s.confirmed.empty());
  }
  const auto sent = kind.requests();
  ASSERT_EQ(sent.size(), 6u);
  for (std::size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(sent[i].config_key, config_key(configs[i % 3]));
}

// Options the session cannot honour fail before anything is recorded.
TEST_F(RunTuning, DevicesThatDoNotExistOrRepeatAreRefused) {
  RecordingKind kind(spec());
  TuneOptions o = options();
  o.devices = {0, 0};
  EXPECT_THROW(run_tuning(kind, o), TuneError);
  o.devices = {7};
  try {
    run_tuning(kind, o);
    FAIL() << "device 7 of the CPU backend was accepted";
  } catch (const TuneError& e) {
    EXPECT_NE(std::string(e.what()).find("no cpu device 7"), std::string::npos) << e.what();
  }
  o.devices.clear();
  EXPECT_THROW(run_tuning(kind, o), TuneError);
  EXPECT_FALSE(fs::exists(dir_ / "ktune.db"));
}

}  // namespace
}  // namespace ktune::tuner
