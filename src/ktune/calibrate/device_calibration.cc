#include "ktune/calibrate/device_calibration.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "ktune/device/compile_cache.h"
#include "ktune/device/registry.h"
#include "ktune/families/gemm/gemm_problem.h"
#include "ktune/families/gemm/gemm_reference.h"
#include "ktune/families/gemm/gemm_worker.h"
#include "ktune/measure/measurement.h"

namespace ktune::calibrate {

namespace {

// Host kernels. The copy is STREAM's "copy" (read + write counted, write-allocate traffic not).
// The FMA kernel keeps kChains independent vector accumulators per thread: enough to cover the
// FMA latency times the FMA pipes of current x86 and Arm cores, few enough to stay in registers
// (AVX2: 12 + 2 constants of 16 ymm). Explicit vector types because the auto-vectoriser's
// choices vary by compiler; -ffp-contract=fast (passed by calibrate) fuses a * m + c.
constexpr const char* kCpuSource = R"cc(// ktune calibrate: host copy bandwidth and FP32 FMA peak.
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace ktune_calibrate {
template <typename Body>
void parallel(int threads, Body body) {
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (auto& thread : pool) thread.join();
}
#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif
typedef float vfloat __attribute__((vector_size(kVectorBytes)));
constexpr int kLanes = kVectorBytes / 4;
constexpr int kChains = 12;
}  // namespace ktune_calibrate

void ktune_calibrate_copy(const float* in, float* out, std::int64_t n, std::int32_t threads) {
  ktune_calibrate::parallel(threads, [=](int t) {
    const std::int64_t chunk = (n + threads - 1) / threads;
    const std::int64_t begin = std::min<std::int64_t>(n, t * chunk);
    const std::int64_t end = std::min<std::int64_t>(n, begin + chunk);
    for (std::int64_t i = begin; i < end; ++i) out[i] = in[i];
  });
}

void ktune_calibrate_fma(float* out, std::int64_t iterations, std::int32_t threads) {
  using namespace ktune_calibrate;
  parallel(threads, [=](int t) {
    vfloat acc[kChains];
    vfloat m, c;
    for (int l = 0; l < kLanes; ++l) {
      m[l] = 0.9999999f;
      c[l] = 1e-7f;
      for (int k = 0; k < kChains; ++k) acc[k][l] = 1.0f + 1e-3f * static_cast<float>(k * kLanes + l + t);
    }
    for (std::int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
      for (int k = 0; k < kChains; ++k) acc[k] = acc[k] * m + c;
    }
    float sum = 0;
    for (int k = 0; k < kChains; ++k)
      for (int l = 0; l < kLanes; ++l) sum += acc[k][l];
    out[t] = sum;
  });
  // FMAs per iteration and thread, for the caller's FLOP count (the vector width is chosen here).
  out[threads] = static_cast<float>(kLanes * kChains);
}
)cc";

// Device kernels. Copy: grid-stride float4, four loads in flight per thread before the stores.
// FFMA: 16 independent chains per thread, the loop unrolled so that FFMAs fill the issue slots.
constexpr const char* kCudaSource = R"cu(// ktune calibrate: device copy bandwidth and FP32 FFMA peak.
extern "C" __global__ void ktune_calibrate_copy(const float* __restrict__ in, float* __restrict__ out, long long n) {
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float4* out4 = reinterpret_cast<float4*>(out);
  const long long n4 = n / 4;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 a = in4[i], b = in4[i + stride], c = in4[i + 2 * stride], d = in4[i + 3 * stride];
    out4[i] = a;
    out4[i + stride] = b;
    out4[i + 2 * stride] = c;
    out4[i + 3 * stride] = d;
  }
  for (; i < n4; i += stride) out4[i] = in4[i];
}

#define KTUNE_CHAINS 16
extern "C" __global__ void ktune_calibrate_ffma(float* out, int iterations) {
  float acc[KTUNE_CHAINS];
#pragma unroll
  for (int k = 0; k < KTUNE_CHAINS; ++k) acc[k] = 1.0f + 1e-3f * (threadIdx.x + k);
  const float m = 0.9999999f, c = 1e-7f;
#pragma unroll 4
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < KTUNE_CHAINS; ++k) acc[k] = fmaf(acc[k], m, c);
  }
  float sum = 0;
#pragma unroll
  for (int k = 0; k < KTUNE_CHAINS; ++k) sum += acc[k];
  out[static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
}
)cu";

constexpr int kCpuFmaChains = 12;  // kChains in kCpuSource
constexpr int kCudaFfmaChains = 16;

void say(const CalibrationOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

// Writes the kernel source where the compile cache can key it by path and content; the same
// text keeps the same file, so a second calibration compiles nothing.
std::filesystem::path write_source(const std::string& file_name, const std::string& text) {
  const std::filesystem::path dir = device::default_cache_root() / "calibrate";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / file_name;
  {
    std::ifstream in(path, std::ios::binary);
    std::stringstream existing;
    existing << in.rdbuf();
    if (in && existing.str() == text) return path;
  }
  // Another ktune may be reading it: write aside and rename into place.
  const std::filesystem::path tmp = dir / (file_name + ".tmp" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
  return path;
}

measure::Policy calibration_policy(const CalibrationOptions& options) {
  measure::Policy policy;
  policy.warmup_seconds = 0.05;
  policy.min_samples = 10;
  policy.max_noise = 0.01;
  policy.min_seconds = 0.2;
  policy.timeout_seconds = options.max_seconds_per_ceiling;
  policy.racing = false;
  policy.cache = measure::CacheMode::Warm;  // big buffers need no flush; FMA touches no memory
  measure::validate(policy);
  return policy;
}

class KernelSamples : public measure::SampleSource {
 public:
  explicit KernelSamples(device::LoadedKernel& kernel) : kernel_(kernel) {}
  measure::Sample sample() override {
    const device::TimedRun run = kernel_.run_timed_sample(false);
    return {run.seconds, run.valid};
  }
  void warmup_run() override { kernel_.run(); }

 private:
  device::LoadedKernel& kernel_;
};

nlohmann::json measurement_summary(const measure::Measurement& m) {
  return {{"median_s", m.stats.median}, {"min_s", m.stats.min},           {"q1_s", m.stats.q1},
          {"q3_s", m.stats.q3},         {"samples", m.stats.count},       {"stop", std::string(to_string(m.stop))},
          {"discarded", m.discarded_samples}};
}

measure::Measurement measure_kernel(device::LoadedKernel& kernel, const measure::Policy& policy, const std::string& what) {
  KernelSamples samples(kernel);
  measure::Measurement m = measure::run_measurement(samples, policy, std::nullopt);
  if (m.stats.count == 0 || !(m.stats.median > 0))
    throw std::runtime_error("calibrate: no valid timing samples for the " + what + " kernel (stopped: " +
                             std::string(to_string(m.stop)) + ")");
  return m;
}

device::CompileResult compile(device::Backend& backend, const std::filesystem::path& source, const std::string& entry,
                              std::vector<device::ArgumentSignature> signature, const std::string& target,
                              std::vector<std::string> flags) {
  device::CompileRequest request;
  request.entry = entry;
  request.sources = {source};
  request.signature = std::move(signature);
  request.target = target;
  request.user_flags = std::move(flags);
  device::CompileResult result = backend.compiler().compile(request);
  if (!result.ok)
    throw std::runtime_error("calibrate: the " + entry + " kernel does not compile for " + backend.name() + ":\n" +
                             result.log.substr(0, 4000));
  return result;
}

// The scalar that makes the FMA kernel run about `target_seconds`, from one timed run.
std::int64_t scaled_iterations(double seconds, std::int64_t iterations, double target_seconds, std::int64_t most) {
  if (!(seconds > 0)) return std::min(most, iterations * 16);
  const double scaled = static_cast<double>(iterations) * target_seconds / seconds;
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(scaled), iterations, most);
}

struct Ceiling {
  double value = 0;
  nlohmann::json method;
};

// --- CPU ---------------------------------------------------------------------------------

Ceiling cpu_copy(device::Backend& backend, const CalibrationOptions& options, const device::DeviceInfo& info,
                 const std::filesystem::path& source) {
  const int threads = std::max(1, info.properties.value("logical_cores", 1));
  // Far beyond any last-level cache (32 MiB here; a few hundred MiB on the largest server parts).
  const std::int64_t elements = std::int64_t{1} << 27;  // 512 MiB per buffer
  using ktune::ElementType;
  device::CompileResult compiled =
      compile(backend, source, "ktune_calibrate_copy",
              {{"in", ElementType::F32, true, false}, {"out", ElementType::F32, true, true},
               {"n", ElementType::I64, false, false}, {"threads", ElementType::I32, false, false}},
              "", {"-ffp-contract=fast"});
  auto kernel = backend.load(options.device, compiled, "ktune_calibrate_copy", {});
  std::vector<device::HostArgument> args;
  args.push_back(device::array_argument("in", ElementType::F32, static_cast<std::size_t>(elements)));
  args.push_back(device::array_argument("out", ElementType::F32, static_cast<std::size_t>(elements), true));
  args.push_back(device::scalar_argument("n", ElementType::I64, Value::integer(elements)));
  args.push_back(device::scalar_argument("threads", ElementType::I32, Value::integer(threads)));
  kernel->bind(args);
  const measure::Measurement m = measure_kernel(*kernel, calibration_policy(options), "copy");
  const double bytes = 2.0 * static_cast<double>(elements) * 4;
  Ceiling c;
  c.value = bytes / m.stats.median / 1e9;
  c.method = {{"kernel", "ktune_calibrate_copy (host C++, one contiguous chunk per thread)"},
              {"buffer_bytes", elements * 4},
              {"counted_bytes", bytes},
              {"counted", "read + write (write-allocate traffic not counted)"},
              {"threads", threads},
              {"compile", {{"cache_hit", compiled.cache_hit}, {"seconds", compiled.seconds}}},
              {"measurement", measurement_summary(m)},
              {"best_sample_rate", bytes / m.stats.min / 1e9}};
  return c;
}

Ceiling cpu_fma(device::Backend& backend, const CalibrationOptions& options, const device::DeviceInfo& info,
                const std::filesystem::path& source) {
  const int threads = std::max(1, info.properties.value("logical_cores", 1));
  using ktune::ElementType;
  device::CompileResult compiled =
      compile(backend, source, "ktune_calibrate_fma",
              {{"out", ElementType::F32, true, true}, {"iterations", ElementType::I64, false, false},
               {"threads", ElementType::I32, false, false}},
              "", {"-ffp-contract=fast"});
  auto kernel = backend.load(options.device, compiled, "ktune_calibrate_fma", {});
  std::vector<device::HostArgument> args;
  std::int64_t iterations = 1 << 16;
  auto bind = [&] {
    args.clear();
    args.push_back(device::array_argument("out", ElementType::F32, static_cast<std::size_t>(threads) + 1, true));
    args.push_back(device::scalar_argument("iterations", ElementType::I64, Value::integer(iterations)));
    args.push_back(device::scalar_argument("threads", ElementType::I32, Value::integer(threads)));
    kernel->bind(args);
  };
  bind();
  kernel->run();
  iterations = scaled_iterations(kernel->run_timed(false), iterations, 0.05, std::int64_t{1} << 34);
  bind();
  const measure::Measurement m = measure_kernel(*kernel, calibration_policy(options), "FMA");
  // The kernel reports the FMAs per iteration it was compiled with (the vector width is the
  // host compiler's -march=native choice).
  device::HostArgument report = device::array_argument("out", ElementType::F32, static_cast<std::size_t>(threads) + 1, true);
  kernel->download(report);
  const int lanes = static_cast<int>(load_element(report.data.data(), static_cast<std::size_t>(threads), ElementType::F32));
  if (lanes <= 0) throw std::runtime_error("calibrate: the FMA kernel reported no work per iteration");
  const double flops = 2.0 * static_cast<double>(lanes) * static_cast<double>(iterations) * threads;
  Ceiling c;
  c.value = flops / m.stats.median / 1e9;
  c.method = {{"kernel", "ktune_calibrate_fma (host C++, independent vector FMA chains per thread)"},
              {"chains", kCpuFmaChains},
              {"fma_per_iteration", lanes},
              {"iterations", iterations},
              {"threads", threads},
              {"compile", {{"cache_hit", compiled.cache_hit}, {"seconds", compiled.seconds}}},
              {"measurement", measurement_summary(m)}};
  return c;
}

// --- CUDA --------------------------------------------------------------------------------

std::int64_t property_int(const device::DeviceInfo& info, const char* key, std::int64_t fallback) {
  auto it = info.properties.find(key);
  if (it != info.properties.end() && it->is_number_integer()) return it->get<std::int64_t>();
  return fallback;
}

Ceiling cuda_copy(device::Backend& backend, const CalibrationOptions& options, const device::DeviceInfo& info,
                  const std::filesystem::path& source) {
  const std::int64_t sms = property_int(info, "multiprocessors", 1);
  const std::int64_t memory = property_int(info, "total_memory_bytes", 0);
  // 512 MiB per buffer (ten times the largest L2), less on small GPUs.
  std::int64_t elements = std::int64_t{1} << 27;
  while (memory > 0 && elements * 4 * 2 > memory / 4 && elements > (std::int64_t{1} << 20)) elements /= 2;
  const std::string target = info.properties.value("target", "");
  using ktune::ElementType;
  device::CompileResult compiled =
      compile(backend, source, "ktune_calibrate_copy",
              {{"in", ElementType::F32, true, false}, {"out", ElementType::F32, true, true},
               {"n", ElementType::I64, false, false}},
              target, {});
  device::LaunchGeometry geometry;
  geometry.block = {256, 1, 1};
  geometry.grid = {sms * 8, 1, 1};
  auto kernel = backend.load(options.device, compiled, "ktune_calibrate_copy", geometry);
  std::vector<device::HostArgument> args;
  args.push_back(device::array_argument("in", ElementType::F32, static_cast<std::size_t>(elements)));
  args.push_back(device::array_argument("out", ElementType::F32, static_cast<std::size_t>(elements), true));
  args.push_back(device::scalar_argument("n", ElementType::I64, Value::integer(elements)));
  kernel->bind(args);
  args.clear();  // the device holds its copies; free the host's
  args.shrink_to_fit();
  const measure::Measurement m = measure_kernel(*kernel, calibration_policy(options), "copy");
  const double bytes = 2.0 * static_cast<double>(elements) * 4;
  Ceiling c;
  c.value = bytes / m.stats.median / 1e9;
  c.method = {{"kernel", "ktune_calibrate_copy (grid-stride float4, 4 loads in flight per thread)"},
              {"grid", geometry.grid[0]},
              {"block", geometry.block[0]},
              {"buffer_bytes", elements * 4},
              {"counted_bytes", bytes},
              {"counted", "read + write"},
              {"compile", {{"cache_hit", compiled.cache_hit}, {"seconds", compiled.seconds}, {"target", target}}},
              {"measurement", measurement_summary(m)},
              {"best_sample_rate", bytes / m.stats.min / 1e9}};
  return c;
}

Ceiling cuda_ffma(device::Backend& backend, const CalibrationOptions& options, const device::DeviceInfo& info,
                  const std::filesystem::path& source) {
  const std::int64_t sms = property_int(info, "multiprocessors", 1);
  const std::string target = info.properties.value("target", "");
  using ktune::ElementType;
  device::CompileResult compiled = compile(
      backend, source, "ktune_calibrate_ffma",
      {{"out", ElementType::F32, true, true}, {"iterations", ElementType::I32, false, false}}, target, {});
  device::LaunchGeometry geometry;
  geometry.block = {256, 1, 1};
  geometry.grid = {sms * 4, 1, 1};  // every block resident at once: no tail wave
  const std::int64_t threads = geometry.grid[0] * geometry.block[0];
  auto kernel = backend.load(options.device, compiled, "ktune_calibrate_ffma", geometry);
  std::vector<device::HostArgument> args;
  std::int64_t iterations = 1024;
  auto bind = [&] {
    args.clear();
    args.push_back(device::array_argument("out", ElementType::F32, static_cast<std::size_t>(threads), true));
    args.push_back(device::scalar_argument("iterations", ElementType::I32, Value::integer(iterations)));
    kernel->bind(args);
  };
  bind();
  kernel->run();
  iterations = scaled_iterations(kernel->run_timed(false), iterations, 0.002, std::int64_t{1} << 30);
  bind();
  const measure::Measurement m = measure_kernel(*kernel, calibration_policy(options), "FFMA");
  const double flops = 2.0 * kCudaFfmaChains * static_cast<double>(iterations) * static_cast<double>(threads);
  Ceiling c;
  c.value = flops / m.stats.median / 1e9;
  c.method = {{"kernel", "ktune_calibrate_ffma (16 independent FFMA chains per thread)"},
              {"grid", geometry.grid[0]},
              {"block", geometry.block[0]},
              {"iterations", iterations},
              {"compile",
               {{"cache_hit", compiled.cache_hit},
                {"seconds", compiled.seconds},
                {"target", target},
                {"registers", compiled.resources.value("registers", nlohmann::json())}}},
              {"measurement", measurement_summary(m)}};
  return c;
}

// cuBLASLt's best among its heuristic's top answers on a large square GEMM: what a good
// kernel reaches on this device, which is the roof users compare against.
std::optional<Ceiling> cuda_tensor(gemm::GemmWorker& worker, const CalibrationOptions& options, const std::string& math,
                                   nlohmann::json& notes) {
  const std::optional<gemm::Precision> precision = gemm::parse_precision(math);
  if (!precision) throw std::runtime_error("calibrate: unknown tensor math '" + math + "' (bf16, f16, tf32, fp8)");
  gemm::GemmSetup setup;
  setup.problem.m = setup.problem.n = setup.problem.k = options.gemm_size;
  setup.problem.precision = *precision;
  setup.problem.out = gemm::default_output(*precision);
  if (*precision == gemm::Precision::F8E4M3) gemm::set_layout(setup.problem, "nt");  // cuBLASLt's fp8 layout
  gemm::validate(setup.problem);
  setup.device = options.device;
  setup.reference = gemm::ReferenceMode::Sampled;
  setup.families = {"cublaslt"};
  setup.cublaslt.heuristic_count = 4;
  setup.cublaslt.max_candidates = 4;
  setup.cublaslt.max_checks = 2000;
  const nlohmann::json listed = worker.handle(gemm::candidates_request(setup));
  const nlohmann::json family = listed.at("families").value("cublaslt", nlohmann::json::object());
  if (!family.value("available", false)) {
    notes.push_back("tensor " + math + ": cuBLASLt cannot run it here: " + family.value("reason", std::string("?")));
    return std::nullopt;
  }
  // Measured the way `ktune tune gemm` measures its candidates (cold L2, short: its defaults),
  // so that GEMM results and this roof are comparable. Long back-to-back GEMMs run into the
  // power limit: on an H200 a 4096^3 bf16 GEMM measured for 0.2 s warm gave 707 TFLOP/s where
  // the tuner's short cold measurement gave 790.
  gemm::EvaluateOptions evaluate;
  evaluate.policy = calibration_policy(options);
  evaluate.policy.warmup_seconds = 0.02;
  evaluate.policy.min_seconds = 0.01;
  evaluate.policy.max_noise = 0.005;
  evaluate.policy.max_samples = 500;
  evaluate.policy.cache = measure::CacheMode::Flush;
  evaluate.cold = true;
  evaluate.verify = false;
  std::optional<double> best;
  nlohmann::json tried = nlohmann::json::array();
  for (const nlohmann::json& candidate : listed.at("candidates")) {
    if (candidate.value("family", "") != "cublaslt") continue;
    const nlohmann::json reply = worker.handle(gemm::evaluate_request(setup, candidate, evaluate));
    nlohmann::json entry = {{"config", candidate.at("candidate").value("config", nlohmann::json())},
                            {"status", reply.value("status", "")}};
    if (reply.value("status", "") == "ok" && reply.contains("measurement")) {
      const nlohmann::json& m = reply.at("measurement");
      const double median = m.at("stats").at("median").get<double>();
      const std::size_t count = m.at("stats").value("count", std::size_t{0});
      entry["samples"] = count;
      entry["discarded"] = m.value("discarded_samples", 0);
      entry["stop"] = m.value("stop", std::string());
      // Samples taken while the SM clock was throttled (power cap under a long GEMM) are
      // discarded, as in tuning; a candidate left with none is skipped, not counted as fast.
      if (count > 0 && median > 0) {
        entry["median_s"] = median;
        if (!best || median < *best) best = median;
      } else {
        entry["error"] = "no valid samples";
      }
    } else {
      entry["error"] = reply.value("error", std::string());
    }
    tried.push_back(entry);
  }
  if (!best) {
    notes.push_back("tensor " + math + ": no cuBLASLt candidate ran");
    return std::nullopt;
  }
  Ceiling c;
  c.value = setup.problem.flops() / *best / 1e12;
  c.method = {{"kernel", "cuBLASLt, best of its heuristic's top " + std::to_string(setup.cublaslt.heuristic_count)},
              {"problem", setup.problem.name()},
              {"median_s", *best},
              {"policy", measure::policy_to_json(evaluate.policy)},
              {"candidates", tried},
              {"library", family.value("library", nlohmann::json())}};
  return c;
}

}  // namespace

const char* cpu_calibration_source() { return kCpuSource; }
const char* cuda_calibration_source() { return kCudaSource; }

CalibrationOutcome calibrate_device(const CalibrationOptions& options) {
  if (options.backend != "cpu" && options.backend != "cuda")
    throw std::runtime_error("calibrate: backend '" + options.backend + "' is not supported (cpu or cuda)");
  std::unique_ptr<device::Backend> backend = device::make_backend(options.backend);
  const device::Availability availability = backend->availability();
  if (!availability.available)
    throw std::runtime_error("the " + options.backend + " backend is not available on this machine: " +
                             availability.reason);
  const std::vector<device::DeviceInfo> devices = backend->devices();
  if (options.device < 0 || static_cast<std::size_t>(options.device) >= devices.size())
    throw std::runtime_error("no " + options.backend + " device " + std::to_string(options.device) + " (found " +
                             std::to_string(devices.size()) + ")");
  CalibrationOutcome out;
  out.device = devices[static_cast<std::size_t>(options.device)];
  out.method["backend"] = options.backend;
  out.method["device_name"] = out.device.name;
  out.method["statistic"] = "median sample time of measure::run_measurement (warm, no racing)";
  nlohmann::json notes = nlohmann::json::array();

  // The copy bandwidth, then the FP32 FMA peak, each kept with how it was measured.
  const auto copy_and_fma = [&](const char* copy_step, const char* fma_step, auto&& copy, auto&& fma) {
    say(options, copy_step);
    const Ceiling c = copy();
    out.ceilings.copy_gbps = c.value;
    out.method["copy"] = c.method;
    say(options, fma_step);
    const Ceiling f = fma();
    out.ceilings.fp32_gflops = f.value;
    out.method["fp32"] = f.method;
  };
  if (options.backend == "cpu") {
    const std::filesystem::path source = write_source("calibrate_cpu.cc", kCpuSource);
    copy_and_fma(
        "measuring host copy bandwidth ...", "measuring host FP32 FMA peak ...",
        [&] { return cpu_copy(*backend, options, out.device, source); },
        [&] { return cpu_fma(*backend, options, out.device, source); });
    if (!options.tensor_maths.empty()) notes.push_back("tensor-core peaks are measured on CUDA devices only");
  } else {
    const std::filesystem::path source = write_source("calibrate_cuda.cu", kCudaSource);
    copy_and_fma(
        "measuring device copy bandwidth ...", "measuring FP32 FFMA peak ...",
        [&] { return cuda_copy(*backend, options, out.device, source); },
        [&] { return cuda_ffma(*backend, options, out.device, source); });
    if (!options.tensor_maths.empty()) {
      gemm::GemmWorker worker;
      nlohmann::json tensor = nlohmann::json::object();
      for (const std::string& math : options.tensor_maths) {
        say(options, "measuring tensor-core " + math + " peak (cuBLASLt, " + std::to_string(options.gemm_size) +
                         "^3) ...");
        if (auto c = cuda_tensor(worker, options, math, notes)) {
          out.ceilings.tensor_tflops[math] = c->value;
          tensor[math] = c->method;
        }
      }
      out.method["tensor"] = tensor;
    }
  }
  out.method["notes"] = notes;
  return out;
}

}  // namespace ktune::calibrate
