// Every CUDA example (examples/cuda/*/*.yaml) and the CUDA fault spec compile with NVRTC for
// sm_80 and sm_90a at sampled configurations of their spaces, without a GPU: the compiler
// reports registers, the baseline configurations do not spill, and the launch screen (with an
// H100's and an A100's limits) accepts what should run and rejects what should not.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "ktune/device/cuda/cuda_backend.h"
#include "ktune/device/cuda/cuda_compiler.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/launch_screen.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/instantiate.h"

namespace {

namespace fs = std::filesystem;
namespace dc = ktune::device::cuda;
using ktune::Config;
using ktune::Value;

const fs::path kSource = KTUNE_SOURCE_DIR;
const std::vector<std::string> kTargets = {"sm_80", "sm_90a"};
constexpr std::size_t kSamplesPerExample = 8;

Value I(std::int64_t v) { return Value::integer(v); }

// A configuration of each example that must compile without spills and launch on both GPUs:
// the kernel sources' own defaults, so that compiling a source by hand gives the same kernel.
const std::map<std::string, Config>& baselines() {
  static const std::map<std::string, Config> b = {
      {"cuda_sgemm",
       {{"BM", I(64)}, {"BN", I(64)}, {"BK", I(16)}, {"TM", I(4)},
        {"TN", I(4)}, {"VEC", I(4)}, {"UNROLL", I(4)}, {"DB", I(0)},
        {"PAD_A", I(0)}}},
      {"cuda_reduction",
       {{"BLOCK", I(256)}, {"ITEMS", I(4)}, {"VEC", I(4)},
        {"GRID", I(1024)}, {"BLOCK_REDUCE", Value::string("shuffle_reduce")}}},
      {"cuda_transpose",
       {{"TILE_R", I(32)}, {"TILE_C", I(32)}, {"THREADS", I(256)},
        {"VEC", I(1)}, {"PAD", I(1)}}},
  };
  return b;
}

// Device limits as CudaBackend::devices() reports them, for the launch screen.
nlohmann::json device_properties(int major, int minor) {
  ktune::cuda::CudaDeviceProperties d;
  d.name = major == 9 ? "NVIDIA H100 80GB HBM3" : "NVIDIA A100-SXM4-80GB";
  d.compute_major = major;
  d.compute_minor = minor;
  d.multiprocessors = major == 9 ? 132 : 108;
  d.max_threads_per_block = 1024;
  d.max_threads_per_multiprocessor = 2048;
  d.max_blocks_per_multiprocessor = 32;
  d.registers_per_multiprocessor = 65536;
  d.registers_per_block = 65536;
  d.shared_memory_per_block = 49152;
  d.shared_memory_per_block_optin = major == 9 ? 232448 : 166912;
  d.shared_memory_per_multiprocessor = major == 9 ? 233472 : 167936;
  d.reserved_shared_memory_per_block = 1024;
  return dc::describe_device(d, {}).properties;
}

nlohmann::json properties_for(const std::string& target) {
  return target == "sm_80" ? device_properties(8, 0) : device_properties(9, 0);
}

std::vector<fs::path> example_specs() {
  std::vector<fs::path> specs;
  for (const auto& dir : fs::directory_iterator(kSource / "examples" / "cuda")) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".yaml") specs.push_back(f.path());
  }
  std::sort(specs.begin(), specs.end());
  return specs;
}

class CudaExamplesCompile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cache_ = new fs::path(fs::temp_directory_path() / ("ktune_cuda_examples_" + std::to_string(::getpid())));
    fs::remove_all(*cache_);
    compiler_ = new dc::CudaCompiler(dc::CudaCompilerOptions{*cache_ / "cuda", "", 64 << 10});
  }
  static void TearDownTestSuite() {
    delete compiler_;
    compiler_ = nullptr;
    fs::remove_all(*cache_);
    delete cache_;
    cache_ = nullptr;
  }
  void SetUp() override {
    const auto& nvrtc = compiler_->nvrtc();
    if (!nvrtc.ok()) GTEST_SKIP() << "NVRTC cannot be loaded, so CUDA kernels cannot be compiled here: " << nvrtc.error;
  }

  struct Job {
    std::string what;
    ktune::device::CompileRequest request;
    std::future<ktune::device::CompileResult> result;
  };

  // Compiles every request on a few threads (NVRTC is thread-safe; compiles take seconds).
  static void compile_all(std::vector<Job>& jobs) {
    const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
    std::size_t next = 0;
    std::vector<std::future<void>> workers;
    std::mutex mutex;
    std::vector<std::promise<ktune::device::CompileResult>> promises(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].result = promises[i].get_future();
    for (unsigned t = 0; t < threads; ++t)
      workers.push_back(std::async(std::launch::async, [&] {
        for (;;) {
          std::size_t i;
          {
            std::lock_guard lock(mutex);
            if (next >= jobs.size()) return;
            i = next++;
          }
          promises[i].set_value(compiler_->compile(jobs[i].request));
        }
      }));
    for (auto& w : workers) w.get();
  }

  static fs::path* cache_;
  static dc::CudaCompiler* compiler_;
};

fs::path* CudaExamplesCompile::cache_ = nullptr;
dc::CudaCompiler* CudaExamplesCompile::compiler_ = nullptr;

TEST_F(CudaExamplesCompile, ThereAreExamples) {
  std::vector<fs::path> specs = example_specs();
  ASSERT_GE(specs.size(), 3u);
  for (const auto& spec : specs) {
    ktune::spec::TuningProblem problem = ktune::spec::load_spec(spec);
    EXPECT_EQ(problem.language, ktune::spec::Language::Cuda) << spec;
    EXPECT_GE(problem.make_space().size(), 100u) << spec << ": tuning needs a real space";
    EXPECT_EQ(problem.reference.kind, ktune::spec::ReferenceSpec::Kind::Kernel) << spec;
    EXPECT_TRUE(baselines().count(problem.name)) << spec << ": add a baseline configuration for " << problem.name;
  }
}

TEST_F(CudaExamplesCompile, SampledConfigsCompileForAmpereAndHopper) {
  std::vector<Job> jobs;
  std::map<std::string, ktune::spec::TuningProblem> problems;
  for (const auto& spec : example_specs()) {
    ktune::spec::TuningProblem problem = ktune::spec::load_spec(spec);
    ktune::space::SearchSpace space = problem.make_space();
    std::mt19937_64 rng(20240611);
    std::vector<Config> configs;
    auto baseline = baselines().find(problem.name);
    ASSERT_NE(baseline, baselines().end()) << problem.name;
    ASSERT_TRUE(space.contains(baseline->second))
        << problem.name << ": the baseline " << ktune::config_key(baseline->second) << " is not in the space";
    configs.push_back(baseline->second);
    for (std::uint64_t index : space.sample_indices(kSamplesPerExample, rng, true)) configs.push_back(space.at(index));
    for (const auto& target : kTargets) {
      jobs.push_back({problem.name + " reference for " + target, ktune::tuner::reference_compile_request(problem, target), {}});
      for (std::size_t i = 0; i < configs.size(); ++i)
        jobs.push_back({problem.name + (i == 0 ? " baseline " : " ") + ktune::config_key(configs[i]) + " for " + target,
                        ktune::tuner::compile_request(problem, configs[i], target),
                        {}});
    }
    problems.emplace(problem.name, std::move(problem));
  }
  compile_all(jobs);

  std::size_t spilling = 0;
  for (auto& job : jobs) {
    const ktune::device::CompileResult r = job.result.get();
    SCOPED_TRACE(job.what);
    ASSERT_TRUE(r.ok) << r.log;
    const nlohmann::json& res = r.resources;
    EXPECT_TRUE(res.value("ptxas_found_entry", false)) << res.dump();
    EXPECT_GT(res.value("registers", 0), 0) << res.dump();
    EXPECT_EQ(res.value("arch", ""), job.request.target);
    const bool spills = res.value("spill_store_bytes", 0) > 0 || res.value("spill_load_bytes", 0) > 0;
    std::printf("  %-100s %3d registers, %5d B static smem, %4d B spilled, %.2f s\n", job.what.c_str(),
                res.value("registers", 0), res.value("shared_bytes", 0), res.value("spill_store_bytes", 0), r.seconds);
    EXPECT_EQ(r.log.find("warning"), std::string::npos) << r.log;
    if (job.what.find(" baseline ") != std::string::npos) {
      EXPECT_FALSE(spills) << res.dump();
      // The baseline launches on the GPU it was compiled for.
      const std::string name = job.what.substr(0, job.what.find(' '));
      const Config& config = baselines().at(name);
      const auto geometry = ktune::tuner::launch_geometry(problems.at(name), config);
      dc::ScreenResult screen = dc::screen_launch(properties_for(job.request.target), res, geometry);
      EXPECT_TRUE(screen.launchable) << screen.reason;
    }
    if (spills) {
      ++spilling;
      std::printf("  note: %s spills (%d bytes stored)\n", job.what.c_str(), res.value("spill_store_bytes", 0));
    }
  }
  std::printf("compiled %zu kernels, %zu with spills\n", jobs.size(), spilling);
}

// The fault spec's modes, compiled and screened as the tuner would: MODE 2 does not compile,
// MODE 8 (2048 threads) and MODE 10 (300 KB of shared memory) are screened out, the rest
// compile and pass the screen (their failures happen on the GPU).
TEST_F(CudaExamplesCompile, FaultSpecModesCompileOrFailAsDesigned) {
  const fs::path spec = kSource / "tests" / "gpu" / "faults_cuda" / "faults_cuda.yaml";
  ktune::spec::TuningProblem problem = ktune::spec::load_spec(spec);
  ktune::space::SearchSpace space = problem.make_space();
  std::vector<Job> jobs;
  std::vector<Config> configs;
  for (std::uint64_t i = 0; i < space.size(); ++i) {
    Config c = space.at(i);
    if (c.at("BLOCK").as_int() != 256) continue;  // one per mode is enough here
    configs.push_back(c);
    jobs.push_back({ktune::config_key(c), ktune::tuner::compile_request(problem, c, "sm_90a"), {}});
  }
  jobs.push_back({"reference", ktune::tuner::reference_compile_request(problem, "sm_90a"), {}});
  compile_all(jobs);
  std::set<std::int64_t> modes;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const ktune::device::CompileResult r = jobs[i].result.get();
    SCOPED_TRACE(jobs[i].what);
    if (i == configs.size()) {
      EXPECT_TRUE(r.ok) << r.log;
      continue;
    }
    const std::int64_t mode = configs[i].at("MODE").as_int();
    modes.insert(mode);
    if (mode == 2) {
      EXPECT_FALSE(r.ok);
      EXPECT_NE(r.log.find("deliberate compile error"), std::string::npos) << r.log;
      continue;
    }
    ASSERT_TRUE(r.ok) << r.log;
    const auto geometry = ktune::tuner::launch_geometry(problem, configs[i]);
    dc::ScreenResult screen = dc::screen_launch(device_properties(9, 0), r.resources, geometry);
    if (mode == 8 || mode == 10) {
      EXPECT_FALSE(screen.launchable) << screen.occupancy.dump();
      EXPECT_FALSE(screen.reason.empty());
    } else {
      EXPECT_TRUE(screen.launchable) << screen.reason;
    }
  }
  EXPECT_EQ(modes.size(), 11u);
}

}  // namespace
