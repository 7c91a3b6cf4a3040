// GPU tests of GemmExecutor (the in-process runner of recorded GEMM picks) and of its C ABI:
// picks made the way `ktune tune gemm` makes them (cuBLASLt's first candidate; the cost model's
// best generated kernel of each path), run on buffers this program allocates in the primary
// context, on random data, each output poisoned first and checked against the fp64 reference
// with the worker's tolerance model. Skipped, with the reason printed, without a CUDA driver or
// a GPU; the cuBLASLt picks also without libcublasLt, the generated ones below sm_80.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ktune/families/gpu_test_support.h"
#include "ktune/core/config.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/cublaslt/cublaslt_matmul.h"
#include "ktune/families/gemm/gemm_executor.h"
#include "ktune/families/gemm/gemm_reference.h"
#include "ktune/families/generated/generated_runner.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/ktune_gemm.h"

namespace ktune::gemm {
namespace {

namespace kc = ktune::cuda;

struct Gpu {
  std::string skip_reason;
  std::shared_ptr<const kc::CudaDriver> driver;
  kc::CUcontext context = nullptr;  // device 0's primary context, retained for the whole program
  generated::DeviceTraits traits;
  std::string generated_skip;  // why generated kernels cannot run here, or empty
  Loaded<cublaslt::CublasLt> lt;
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
    r.driver = driver;
    // The application's side: buffers live in the primary context, as the CUDA runtime's do.
    kc::CUdevice device = 0;
    driver->check(driver->api().cuDeviceGet(&device, 0), "cuDeviceGet");
    driver->check(driver->api().cuDevicePrimaryCtxRetain(&r.context, device), "cuDevicePrimaryCtxRetain");
    driver->check(driver->api().cuCtxSetCurrent(r.context), "cuCtxSetCurrent");
    r.traits = generated::device_traits(kc::query_device_properties(*driver, 0));
    if (r.traits.compute_capability < 80) r.generated_skip = "generated kernels need sm_80+";
    r.lt = cublaslt::CublasLt::load();
    std::printf("GPU 0: %s (sm_%d), cuBLASLt: %s\n", r.traits.name.c_str(), r.traits.compute_capability,
                r.lt ? r.lt->version_string().c_str() : r.lt.error.c_str());
    return r;
  }();
  return g;
}

#define REQUIRE_GPU() KTUNE_SKIP_IF(gpu().skip_reason)

const kc::DriverApi& api() { return gpu().driver->api(); }
void check(kc::CUresult rc, const char* call) { gpu().driver->check(rc, call); }

// One device allocation.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0) check(api().cuMemAlloc(&pointer_, bytes_), "cuMemAlloc");
  }
  ~DeviceBuffer() {
    if (pointer_) api().cuMemFree(pointer_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return pointer_ ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(pointer_)) : nullptr; }
  void upload(std::span<const std::byte> host) {
    ASSERT_EQ(host.size(), bytes_);
    if (bytes_ > 0) check(api().cuMemcpyHtoD(pointer_, host.data(), bytes_), "cuMemcpyHtoD");
  }
  std::vector<std::byte> download() const {
    std::vector<std::byte> host(bytes_);
    if (bytes_ > 0) check(api().cuMemcpyDtoH(host.data(), pointer_, bytes_), "cuMemcpyDtoH");
    return host;
  }

 private:
  kc::CUdeviceptr pointer_ = 0;
  std::size_t bytes_ = 0;
};

// A stream of the application's. Tests declare theirs before the executor so that they outlive
// it (see OutlivesTheApplicationsStreams for the other order).
class Stream {
 public:
  Stream() { check(api().cuStreamCreate(&stream_, kc::cu::kStreamNonBlocking), "cuStreamCreate"); }
  ~Stream() { api().cuStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  kc::CUstream get() const { return stream_; }

 private:
  kc::CUstream stream_ = nullptr;
};

std::size_t bytes_of(std::int64_t elements, Storage storage) {
  return static_cast<std::size_t>(elements) * storage_size(storage);
}

// Random operands of a problem on the device, their fp64 reference and a D to write.
struct Inputs {
  Inputs(const GemmProblem& p, std::uint64_t seed)
      : problem(p), host(make_operands(p, seed)), reference(compute_reference(p, host)),
        a(host.a.size()), b(host.b.size()), c(host.c.size()), bias(host.bias.size()),
        d(bytes_of(p.d_elements(), p.out)) {
    a.upload(host.a);
    b.upload(host.b);
    c.upload(host.c);
    bias.upload(host.bias);
  }
  GemmBuffers buffers() const { return {a.get(), b.get(), c.get(), d.get(), bias.get()}; }
  std::vector<std::byte> poison() const {
    std::vector<std::byte> poisoned(bytes_of(problem.d_elements(), problem.out));
    poison_output(problem, poisoned);
    return poisoned;
  }
  void poison_d() { d.upload(poison()); }
  GemmCheck check_d(int split_partials) const {
    return check_output(problem, reference, d.download(), CheckOptions{split_partials});
  }

  GemmProblem problem;
  GemmOperands host;
  GemmReference reference;
  DeviceBuffer a, b, c, bias, d;
};

GemmProblem make(std::int64_t m, std::int64_t n, std::int64_t k, Precision precision, const char* layout) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.precision = precision;
  p.out = default_output(precision);
  set_layout(p, layout);
  return p;
}

GemmProblem with_bias_relu(GemmProblem p) {
  p.bias = true;
  p.activation = Activation::Relu;
  return p;
}

GemmProblem batched(GemmProblem p) {
  p.batch = 3;
  p.beta = 0.5;  // C is read too
  return p;
}

std::vector<GemmProblem> problems() {
  return {make(256, 384, 512, Precision::BF16, "nn"), make(1000, 1000, 1000, Precision::F16, "nt"),
          with_bias_relu(make(256, 384, 512, Precision::BF16, "nt")),
          batched(make(128, 96, 200, Precision::BF16, "tn")), make(16, 4096, 4096, Precision::F16, "nt")};
}

// One pick as `ktune export --gemm-picks` writes it, and what the check needs to know of it.
struct Pick {
  std::string label;
  nlohmann::json json;
  int split_partials = 0;  // cuBLASLt split-K reduced in the output type
};

nlohmann::json pick_json(const GemmProblem& problem, const Config& config) {
  return {{"problem_name", problem.name()},
          {"problem", problem.to_json()},
          {"config", config_to_json(config)},
          {"family", config.at("family").as_string()},
          {"device", {{"name", gpu().traits.name}, {"fingerprint", ""}}}};
}

// cuBLASLt's pick as the worker lists it: the heuristic's first answer, the baseline. Empty
// when cuBLASLt is missing or has nothing for the problem.
std::vector<Pick> cublaslt_picks(const Inputs& inputs) {
  if (!gpu().lt) return {};
  const cublaslt::CublasLt& lt = *gpu().lt;
  cublaslt::Handle handle = nullptr;
  lt.check(lt.api().Create(&handle), "cublasLtCreate");
  const cublaslt::MatmulDescriptors descriptors(gpu().lt.value, inputs.problem, inputs.bias.get());
  cublaslt::EnumerationOptions options;
  options.heuristic_count = 1;
  options.max_candidates = 1;
  const cublaslt::Enumeration e = cublaslt::enumerate_candidates(lt, handle, descriptors, inputs.problem, options);
  lt.api().Destroy(handle);
  if (e.candidates.empty()) return {};
  const cublaslt::Candidate& c = e.candidates[0];
  return {{"cublaslt " + config_key(c.config), pick_json(inputs.problem, c.config), c.split_partials()}};
}

// The cost model's best knob setting of each kernel path that runs here (the worker's first
// generated candidates).
std::vector<generated::GeneratedKnobs> best_knobs(const GemmProblem& problem) {
  if (!gpu().generated_skip.empty() || generated::unsupported_reason(problem)) return {};
  const generated::ProblemTraits traits = generated::problem_traits(problem);
  std::vector<generated::GeneratedKnobs> out;
  for (generated::KernelPath path : {generated::KernelPath::MmaSync, generated::KernelPath::Wgmma}) {
    generated::SpaceOptions options;
    options.max_candidates = 1;
    options.mma_sync = path == generated::KernelPath::MmaSync;
    options.wgmma = path == generated::KernelPath::Wgmma;
    const auto ranked = generated::select_candidates(traits, gpu().traits, options);
    if (!ranked.empty() && !generated::rejects(ranked.front().knobs, traits, gpu().traits))
      out.push_back(ranked.front().knobs);
  }
  return out;
}

Pick generated_pick(const GemmProblem& problem, const generated::GeneratedKnobs& knobs) {
  const Config config = generated::to_config(knobs, generated::problem_traits(problem));
  return {"generated " + config_key(config), pick_json(problem, config), 0};
}

std::vector<Pick> generated_picks(const GemmProblem& problem) {
  std::vector<Pick> out;
  for (const generated::GeneratedKnobs& k : best_knobs(problem)) out.push_back(generated_pick(problem, k));
  return out;
}

std::vector<Pick> all_picks(const Inputs& inputs) {
  std::vector<Pick> out = cublaslt_picks(inputs);
  for (Pick& p : generated_picks(inputs.problem)) out.push_back(std::move(p));
  return out;
}

// Checks the D of `inputs` (after the work that wrote it has finished).
void expect_correct(const Inputs& inputs, const Pick& pick, const std::string& what = "") {
  const GemmCheck result = inputs.check_d(pick.split_partials);
  EXPECT_TRUE(result.pass) << inputs.problem.name() << " " << pick.label << what << ": " << result.summary();
}

// Poisons D, runs `plan` on `inputs` on the legacy default stream, waits and checks D.
void run_and_check(GemmExecutor& executor, int plan, Inputs& inputs, const Pick& pick) {
  inputs.poison_d();
  ASSERT_EQ(executor.run(plan, inputs.buffers(), nullptr), RunResult::Enqueued);
  check(api().cuCtxSynchronize(), "cuCtxSynchronize");
  expect_correct(inputs, pick);
}

TEST(GemmExecutorGpu, PicksOfBothFamiliesAreCorrect) {
  REQUIRE_GPU();
  GemmExecutor executor(0);
  EXPECT_EQ(executor.device_name(), gpu().traits.name);
  int ran = 0;
  for (const GemmProblem& problem : problems()) {
    Inputs inputs(problem, 1);
    for (const Pick& pick : all_picks(inputs)) {
      const int plan = executor.add_plan(pick.json);
      const nlohmann::json described = executor.describe(plan);
      EXPECT_EQ(described.at("family"), pick.json.at("family"));
      EXPECT_EQ(described.at("problem_name"), problem.name());
      if (described.at("family") == "generated") {
        EXPECT_GT(described.at("threads").get<int>(), 0);
      }
      run_and_check(executor, plan, inputs, pick);
      std::printf("  %-45s %s\n", problem.name().c_str(), pick.label.c_str());
      ++ran;
    }
  }
  EXPECT_EQ(executor.plan_count(), static_cast<std::size_t>(ran));
  EXPECT_GE(ran, static_cast<int>(problems().size())) << "no family could run the problems";
}

TEST(GemmExecutorGpu, AMisalignedOperandIsRefusedAndNothingRuns) {
  REQUIRE_GPU();
  GemmExecutor executor(0);
  Inputs inputs(make(256, 384, 512, Precision::BF16, "nn"), 2);
  for (const Pick& pick : all_picks(inputs)) {
    const int plan = executor.add_plan(pick.json);
    inputs.poison_d();
    GemmBuffers shifted = inputs.buffers();
    shifted.a = static_cast<const std::byte*>(shifted.a) + 2;
    EXPECT_EQ(executor.run(plan, shifted, nullptr), RunResult::Misaligned) << pick.label;
    shifted = inputs.buffers();
    shifted.d = static_cast<std::byte*>(shifted.d) + 2;
    EXPECT_EQ(executor.run(plan, shifted, nullptr), RunResult::Misaligned) << pick.label;
    check(api().cuCtxSynchronize(), "cuCtxSynchronize");
    EXPECT_TRUE(inputs.d.download() == inputs.poison()) << pick.label << ": D was written";
  }
}

// A missing operand the problem needs would be read at address 0 (an illegal address, sticky in
// the application's context): refused before anything is enqueued.
TEST(GemmExecutorGpu, AMissingOperandIsRefused) {
  REQUIRE_GPU();
  GemmExecutor executor(0);
  Inputs inputs(with_bias_relu(make(256, 384, 512, Precision::BF16, "nt")), 5);
  for (const Pick& pick : all_picks(inputs)) {
    const int plan = executor.add_plan(pick.json);
    GemmBuffers missing = inputs.buffers();
    missing.bias = nullptr;
    EXPECT_THROW(executor.run(plan, missing, nullptr), std::invalid_argument) << pick.label;
    missing = inputs.buffers();
    missing.a = nullptr;
    EXPECT_THROW(executor.run(plan, missing, nullptr), std::invalid_argument) << pick.label;
    // The context is still usable: the plan runs correctly afterwards.
    run_and_check(executor, plan, inputs, pick);
  }
}

// The plan caches what it built for the last buffers (cuBLASLt's bias pointer, a generated
// kernel's parameter block): runs on other buffers, back to back, must each use their own.
TEST(GemmExecutorGpu, BackToBackRunsOnOtherBuffers) {
  REQUIRE_GPU();
  const Stream stream;
  GemmExecutor executor(0);
  const GemmProblem problem = with_bias_relu(make(256, 384, 512, Precision::BF16, "nt"));
  Inputs first(problem, 3), second(problem, 4);
  for (const Pick& pick : all_picks(first)) {
    const int plan = executor.add_plan(pick.json);
    first.poison_d();
    second.poison_d();
    ASSERT_EQ(executor.run(plan, first.buffers(), nullptr), RunResult::Enqueued);
    ASSERT_EQ(executor.run(plan, second.buffers(), nullptr), RunResult::Enqueued);
    check(api().cuCtxSynchronize(), "cuCtxSynchronize");
    expect_correct(first, pick, " (first buffers)");
    expect_correct(second, pick, " (second buffers)");
    // Back to the first buffers, on an application stream (scratch memory of its own).
    first.poison_d();
    ASSERT_EQ(executor.run(plan, first.buffers(), stream.get()), RunResult::Enqueued);
    check(api().cuStreamSynchronize(stream.get()), "cuStreamSynchronize");
    expect_correct(first, pick, " (on a stream)");
  }
}

// Thread-safe, with scratch memory per stream: two threads enqueue the same plans on streams of
// their own, many times over, into outputs of their own (split-K included, where each stream's
// partial sums and tile counters must stay apart).
TEST(GemmExecutorGpu, TwoThreadsOnTwoStreams) {
  REQUIRE_GPU();
  const Stream stream_a, stream_b;
  GemmExecutor executor(0);
  const GemmProblem problem = make(16, 4096, 4096, Precision::F16, "nt");
  Inputs first(problem, 7), second(problem, 8);
  for (const Pick& pick : all_picks(first)) {
    const int plan = executor.add_plan(pick.json);
    first.poison_d();
    second.poison_d();
    auto loop = [&](Inputs* inputs, const Stream* stream) {
      check(api().cuCtxSetCurrent(gpu().context), "cuCtxSetCurrent");  // what the CUDA runtime does per thread
      for (int i = 0; i < 20; ++i) EXPECT_EQ(executor.run(plan, inputs->buffers(), stream->get()), RunResult::Enqueued);
      check(api().cuStreamSynchronize(stream->get()), "cuStreamSynchronize");
    };
    std::thread a(loop, &first, &stream_a), b(loop, &second, &stream_b);
    a.join();
    b.join();
    expect_correct(first, pick, " (thread 1)");
    expect_correct(second, pick, " (thread 2)");
  }
}

// Runs plans with scratch memory (split-K) on two streams, destroys the streams, then the
// executor, and exits 0 if that survived.
void destroy_streams_before_the_executor() {
  {
    GemmExecutor executor(0);
    Inputs inputs(make(16, 4096, 4096, Precision::F16, "nt"), 9);
    for (const Pick& pick : all_picks(inputs)) {
      const int plan = executor.add_plan(pick.json);
      for (int i = 0; i < 2; ++i) {
        const Stream stream;
        executor.run(plan, inputs.buffers(), stream.get());
        check(api().cuStreamSynchronize(stream.get()), "cuStreamSynchronize");
      }
    }
  }
  std::exit(0);
}

// Applications destroy their streams when they like (CuPy streams, torch.cuda.ExternalStream,
// a library's own): destroying the executor afterwards must not touch them. In a child process,
// so a crash in the driver fails this test only. (~GemmExecutor calling cuStreamSynchronize on
// each stream it kept scratch for crashed here with SIGSEGV inside libcuda, every time.)
TEST(GemmExecutorGpu, OutlivesTheApplicationsStreams) {
  REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child re-executes the program: CUDA does not survive fork()
  EXPECT_EXIT(destroy_streams_before_the_executor(), ::testing::ExitedWithCode(0), "");
}

TEST(GemmExecutorGpu, APickFromAnotherGpuIsRefused) {
  REQUIRE_GPU();
  GemmExecutor executor(0);
  const GemmProblem problem = make(256, 384, 512, Precision::BF16, "nn");
  nlohmann::json pick = pick_json(problem, {{"family", Value::string("cublaslt")}});
  pick["device"]["name"] = "NVIDIA Imaginary GPU";
  try {
    executor.add_plan(pick);
    ADD_FAILURE() << "a pick measured on another GPU was accepted";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("NVIDIA Imaginary GPU"), std::string::npos) << message;
    EXPECT_NE(message.find(executor.device_name()), std::string::npos) << message;
    EXPECT_NE(message.find(problem.name()), std::string::npos) << message;
  }
  EXPECT_EQ(executor.plan_count(), 0u);
}

// A split-K kernel reduces through scratch memory and tile counters it must leave clean: a
// second run on the same scratch is as correct as the first.
TEST(GemmExecutorGpu, SplitKGeneratedKernelRunsTwice) {
  REQUIRE_GPU();
  if (!gpu().generated_skip.empty()) GTEST_SKIP() << gpu().generated_skip;
  const GemmProblem problem = make(16, 4096, 4096, Precision::F16, "nt");
  const generated::ProblemTraits traits = generated::problem_traits(problem);
  std::optional<generated::GeneratedKnobs> split;
  for (const generated::RankedKnobs& r : generated::rank_space(traits, gpu().traits, {}))
    if (r.knobs.split_k > 1 && !generated::rejects(r.knobs, traits, gpu().traits)) {
      split = r.knobs;
      break;
    }
  if (!split) {
    std::printf("skipped: the space offers no split-K setting for %s\n", problem.name().c_str());
    GTEST_SKIP() << "no split-K setting";
  }
  GemmExecutor executor(0);
  Inputs inputs(problem, 5);
  const Pick pick = generated_pick(problem, *split);
  const int plan = executor.add_plan(pick.json);
  EXPECT_GT(executor.describe(plan).at("workspace_bytes").get<std::size_t>(), 0u);
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run + 1));
    run_and_check(executor, plan, inputs, pick);
  }
  std::printf("  %s\n", pick.label.c_str());
}

// Split-K's two schemes on one stream's scratch: slices summed by a second kernel leave their
// partials behind in a buffer of their own, so an atomic split-K kernel run after them (whose
// buffer must be zero) is still correct, and so is the reducing one again.
TEST(GemmExecutorGpu, BothSplitKSchemesShareAStream) {
  REQUIRE_GPU();
  if (!gpu().generated_skip.empty()) GTEST_SKIP() << gpu().generated_skip;
  if (gpu().traits.compute_capability != 90) GTEST_SKIP() << "split_reduce is a wgmma (sm_90) knob";
  const GemmProblem problem = make(256, 128, 8192, Precision::BF16, "nt");
  const generated::ProblemTraits traits = generated::problem_traits(problem);
  generated::GeneratedKnobs atomic;
  atomic.path = generated::KernelPath::Wgmma;
  atomic.tile_m = 64;
  atomic.tile_n = 64;
  atomic.tile_k = 64;
  atomic.subgroup_m = atomic.subgroup_n = 1;
  atomic.stages = 8;
  atomic.split_k = 8;
  generated::GeneratedKnobs reduced = atomic;
  reduced.split_reduce = true;
  ASSERT_FALSE(generated::rejects(atomic, traits, gpu().traits));
  ASSERT_FALSE(generated::rejects(reduced, traits, gpu().traits));
  GemmExecutor executor(0);
  Inputs inputs(problem, 9);
  const Pick pick_reduced = generated_pick(problem, reduced), pick_atomic = generated_pick(problem, atomic);
  const int plan_reduced = executor.add_plan(pick_reduced.json), plan_atomic = executor.add_plan(pick_atomic.json);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round + 1));
    run_and_check(executor, plan_reduced, inputs, pick_reduced);
    run_and_check(executor, plan_atomic, inputs, pick_atomic);
  }
}

// The C ABI end to end: JSON text in, an enqueued GEMM out.
TEST(GemmCapiGpu, RunsAPickFromJsonText) {
  REQUIRE_GPU();
  Inputs inputs(make(256, 384, 512, Precision::BF16, "nn"), 6);
  const std::vector<Pick> picks = all_picks(inputs);
  if (picks.empty()) GTEST_SKIP() << "neither cuBLASLt nor generated kernels run here";
  char error[512] = "";
  ktune_gemm_executor* executor = ktune_gemm_create(0, error, sizeof error);
  ASSERT_NE(executor, nullptr) << error;
  const int plan = ktune_gemm_add_plan(executor, picks[0].json.dump().c_str(), error, sizeof error);
  ASSERT_EQ(plan, 0) << error;
  inputs.poison_d();
  const GemmBuffers b = inputs.buffers();
  EXPECT_EQ(ktune_gemm_run(executor, plan, b.a, b.b, b.c, b.d, b.bias, nullptr), 0) << ktune_gemm_last_error();
  check(api().cuCtxSynchronize(), "cuCtxSynchronize");
  expect_correct(inputs, picks[0], " (C ABI)");
  EXPECT_EQ(ktune_gemm_run(executor, plan, static_cast<const std::byte*>(b.a) + 2, b.b, b.c, b.d, b.bias, nullptr), 1);

  // describe: the full length like snprintf, the text truncated to the buffer.
  const int length = ktune_gemm_describe(executor, plan, nullptr, 0);
  ASSERT_GT(length, 0) << ktune_gemm_last_error();
  std::vector<char> text(static_cast<std::size_t>(length) + 1);
  EXPECT_EQ(ktune_gemm_describe(executor, plan, text.data(), text.size()), length);
  EXPECT_EQ(nlohmann::json::parse(text.data()).at("family"), picks[0].json.at("family"));
  char small[8];
  EXPECT_EQ(ktune_gemm_describe(executor, plan, small, sizeof small), length);
  EXPECT_EQ(std::strlen(small), 7u);
  ktune_gemm_destroy(executor);
}

}  // namespace
}  // namespace ktune::gemm
