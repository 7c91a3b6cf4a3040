#include "ktune/device/cuda/cuda_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <thread>
#include <unistd.h>

#include "ktune/device/cuda/cuda_kernel.h"
#include "ktune/device/cuda/launch_screen.h"
#include "ktune/device/cuda/nvml.h"
#include "ktune/device/registry.h"

namespace ktune::device::cuda {
namespace {
namespace fs = std::filesystem;
namespace kc = ktune::cuda;

// A fresh directory per test: kernel sources and a private compile cache.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ktune-cuda-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& name, const std::string& text) const {
    fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
  }

 private:
  fs::path path_;
};

const char* kSaxpy = R"(
#include "saxpy_scale.h"
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = SCALE * a * x[i] + y[i];
}
namespace ktune_test {
template <typename T, int UNROLL>
__global__ void scale(T* data, T factor, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
    if (base + u < n) data[base + u] *= factor;
}
}  // namespace ktune_test
)";

CompileRequest saxpy_request(const TempDir& dir, const std::string& target, const std::string& scale = "1") {
  dir.write("saxpy_scale.h", "#define SCALE (" + scale + ")\n");
  CompileRequest r;
  r.entry = "saxpy";
  r.sources = {dir.write("saxpy.cu", kSaxpy)};
  r.target = target;
  r.defines["BLOCK"] = Value::integer(256);
  r.signature = {{"a", ElementType::F32, false, false},
                 {"x", ElementType::F32, true, false},
                 {"y", ElementType::F32, true, true},
                 {"n", ElementType::I32, false, false}};
  return r;
}

CudaBackendOptions options_for(const TempDir& dir) {
  CudaBackendOptions o;
  o.compiler.cache_directory = dir.path() / "cache";
  return o;
}

bool nvrtc_missing(CudaBackend& backend, std::string* why) {
  const auto& nvrtc = backend.cuda_compiler().nvrtc();
  if (!nvrtc) *why = nvrtc.error;
  return !nvrtc;
}

// ---------------------------------------------------------------------------------------
// Without a GPU (this runs everywhere).

TEST(CudaRegistry, ListedWithAReasonWhenUnavailable) {
  auto names = backend_names();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "cpu");
  EXPECT_NE(std::find(names.begin(), names.end(), "cuda"), names.end());
  bool found = false;
  for (const auto& b : all_backends()) found |= b->name() == "cuda";
  EXPECT_TRUE(found);

  auto backend = make_backend("cuda");
  ASSERT_EQ(backend->name(), "cuda");
  Availability a = backend->availability();
  if (a.available) {
    EXPECT_TRUE(a.reason.empty());
    EXPECT_FALSE(backend->devices().empty());
    GTEST_SKIP() << "a CUDA driver and GPU are present; the unavailable path is not exercised here";
  }
  std::printf("cuda unavailable: %s\n", a.reason.c_str());
  EXPECT_FALSE(a.reason.empty());
  if (!kc::CudaDriver::load()) {
    EXPECT_NE(a.reason.find("CUDA driver not available"), std::string::npos) << a.reason;
  }
  EXPECT_TRUE(backend->devices().empty());
  CompileResult fake;
  fake.ok = true;
  try {
    backend->load(0, fake, "saxpy", {});
    FAIL() << "load must fail without a driver";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("not available"), std::string::npos) << e.what();
  }
}

TEST(CudaRegistry, StrictDriverOverrideNamesThePath) {
  const char* old = std::getenv("KTUNE_CUDA_DRIVER_PATH");
  const std::string saved = old ? old : "";
  setenv("KTUNE_CUDA_DRIVER_PATH", "/nonexistent/libcuda.so.1", 1);
  CudaBackend backend;
  Availability a = backend.availability();
  if (old) {
    setenv("KTUNE_CUDA_DRIVER_PATH", saved.c_str(), 1);
  } else {
    unsetenv("KTUNE_CUDA_DRIVER_PATH");
  }
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("/nonexistent/libcuda.so.1"), std::string::npos) << a.reason;
}

TEST(CudaErrors, StickyErrorsAndContextPoisoned) {
  for (int code : {700, 702, 710, 714, 715, 716, 717, 718, 719}) EXPECT_TRUE(kc::is_sticky_error(code)) << code;
  for (int code : {0, 1, 2, 200, 209, 500, 701, 720}) EXPECT_FALSE(kc::is_sticky_error(code)) << code;
  try {
    throw ContextPoisoned("poisoned");
  } catch (const DeviceError& e) {  // the worker's existing handlers still see a DeviceError
    EXPECT_STREQ(e.what(), "poisoned");
  }
}

TEST(CudaDescribe, TargetAndFingerprint) {
  EXPECT_EQ(nvrtc_target(9, 0), "sm_90a");
  EXPECT_EQ(nvrtc_target(10, 0), "sm_100a");
  EXPECT_EQ(nvrtc_target(8, 0), "sm_80");
  EXPECT_EQ(nvrtc_target(8, 6), "sm_86");
  EXPECT_EQ(nvrtc_target(8, 9), "sm_89");
  EXPECT_EQ(nvrtc_target(12, 0), "sm_120");
  EXPECT_EQ(nvrtc_target(10, 3), "sm_103");

  kc::CudaDeviceProperties h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.uuid = "GPU-00000000-1111-2222-3333-444444444444";
  h100.compute_major = 9;
  h100.multiprocessors = 132;
  h100.l2_cache_bytes = 50 << 20;
  h100.total_memory_bytes = 85520809984;
  h100.shared_memory_per_block = 49152;
  h100.shared_memory_per_block_optin = 232448;
  h100.shared_memory_per_multiprocessor = 233472;
  DeviceFacts facts;
  facts.driver_api_version = 13000;
  facts.driver_version = "580.159.04";
  facts.nvrtc_version = "13.0";
  facts.max_sm_clock_mhz = 1980;
  DeviceInfo info = describe_device(h100, facts);
  EXPECT_EQ(info.backend, "cuda");
  EXPECT_EQ(info.name, h100.name);
  EXPECT_EQ(info.properties["target"], "sm_90a");
  EXPECT_EQ(info.properties["uuid"], h100.uuid);
  EXPECT_EQ(info.properties["compute_capability"], "9.0");
  EXPECT_EQ(info.properties["nvrtc_version"], "13.0");
  EXPECT_EQ(info.properties["clocks"]["sm_max_mhz"], 1980);
  EXPECT_TRUE(info.properties["clocks"]["sm_default_mhz"].is_null());
  EXPECT_EQ(info.fingerprint.rfind("cuda-", 0), 0u);
  EXPECT_EQ(info.fingerprint.size(), 5u + 32u);
  EXPECT_EQ(describe_device(h100, facts).fingerprint, info.fingerprint);  // stable

  // Each identifying part changes it; clocks (which drift) do not.
  auto differs = [&](auto mutate) {
    kc::CudaDeviceProperties d = h100;
    DeviceFacts f = facts;
    mutate(d, f);
    return describe_device(d, f).fingerprint != info.fingerprint;
  };
  EXPECT_TRUE(differs([](auto& d, auto&) { d.uuid = "GPU-ffffffff-1111-2222-3333-444444444444"; }));
  EXPECT_TRUE(differs([](auto& d, auto&) { d.multiprocessors = 114; }));
  EXPECT_TRUE(differs([](auto& d, auto&) { d.l2_cache_bytes = 60 << 20; }));
  EXPECT_TRUE(differs([](auto& d, auto&) { d.shared_memory_per_block_optin = 101376; }));
  EXPECT_TRUE(differs([](auto& d, auto&) { d.total_memory_bytes = 150000000000; }));
  EXPECT_TRUE(differs([](auto&, auto& f) { f.driver_version = "580.95.05"; }));
  EXPECT_TRUE(differs([](auto&, auto& f) { f.nvrtc_version = "12.9"; }));
  EXPECT_TRUE(differs([](auto& d, auto&) { d.compute_minor = 1; }));
  EXPECT_FALSE(differs([](auto&, auto& f) { f.max_sm_clock_mhz = 1755; }));

  // The recorded properties read back into the same device (what screen_launch relies on).
  kc::CudaDeviceProperties back = kc::device_properties_from_json(info.properties);
  EXPECT_EQ(back.name, h100.name);
  EXPECT_EQ(back.compute_major, 9);
  EXPECT_EQ(back.shared_memory_per_block_optin, 232448);
  EXPECT_EQ(back.max_block_dims, h100.max_block_dims);
  EXPECT_THROW(kc::device_properties_from_json(nlohmann::json{{"model", "EPYC"}}), std::invalid_argument);
}

TEST(CudaNvml, LoadsOrSaysWhy) {
  Loaded<kc::Nvml> nvml = kc::Nvml::load();
  if (nvml) {
    std::printf("NVML %s, driver %s\n", nvml->library_path().c_str(), nvml->driver_version().c_str());
  } else {
    std::printf("as expected without a driver: %s\n", nvml.error.c_str());
    EXPECT_EQ(nvml.error.rfind("NVML not available: ", 0), 0u) << nvml.error;
    EXPECT_NE(nvml.error.find("libnvidia-ml.so"), std::string::npos) << nvml.error;
  }
  EXPECT_FALSE(kc::Nvml::load_from("libm.so.6"));
  EXPECT_EQ(kc::describe_clock_event_reasons(0), "none");
  EXPECT_EQ(kc::describe_clock_event_reasons(0x4 | 0x40), "software power cap, hardware thermal slowdown");
  EXPECT_EQ(kc::describe_clock_event_reasons(0x1000), "other (0x1000)");
}

TEST(CudaIncludes, ScanFollowsQuotedAndIncludePathHeaders) {
  TempDir dir;
  fs::path main = dir.write("src/main.cu",
                            "#include \"local.h\"\n  #  include <tile/config.h>\n#include <cuda_fp16.h>\n"
                            "#include \"missing.h\"\n");
  dir.write("src/local.h", "#pragma once\n#include \"sub/deep.h\"\n#include \"local.h\"\n");
  dir.write("src/sub/deep.h", "// deepest\n");
  dir.write("inc/tile/config.h", "#define TILE 64\n");
  auto found = scan_includes(main, {dir.path() / "inc"});
  std::vector<std::string> names;
  for (const auto& p : found) names.push_back(p.filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"config.h", "deep.h", "local.h"}));

  auto dirs = include_dirs_from_flags({"-I/a", "-I", "/b", "--include-path=/c", "--include-path", "/d", "-DX=1"});
  ASSERT_EQ(dirs.size(), 4u);
  EXPECT_EQ(dirs[0], fs::path("/a"));
  EXPECT_EQ(dirs[3], fs::path("/d"));
}

class CudaCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<CudaBackend>(options_for(dir_));
    std::string why;
    if (nvrtc_missing(*backend_, &why)) GTEST_SKIP() << why;
  }
  TempDir dir_;
  std::unique_ptr<CudaBackend> backend_;
};

TEST_F(CudaCompile, ThroughTheBackendForTwoArchsWithResourcesAndCache) {
  Compiler& compiler = backend_->compiler();
  for (const std::string target : {"sm_80", "sm_90a"}) {
    SCOPED_TRACE(target);
    CompileRequest request = saxpy_request(dir_, target);
    CompileResult first = compiler.compile(request);
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cache_hit);
    EXPECT_TRUE(fs::exists(first.artifact));
    EXPECT_EQ(first.artifact.extension(), ".cubin");
    const nlohmann::json& r = first.resources;
    std::printf("%s: %s\n", target.c_str(), r.dump().c_str());
    EXPECT_EQ(r["entry"], "saxpy");
    EXPECT_EQ(r["lowered_name"], "saxpy");  // extern "C"
    EXPECT_EQ(r["arch"], target);
    EXPECT_EQ(r["ptxas_found_entry"], true);
    EXPECT_GT(r["registers"].get<int>(), 0);
    EXPECT_LE(r["registers"].get<int>(), 32);
    EXPECT_EQ(r["spill_store_bytes"], 0);
    EXPECT_EQ(r["spill_load_bytes"], 0);
    EXPECT_EQ(r["stack_frame_bytes"], 0);
    EXPECT_EQ(r["shared_bytes"], 0);
    EXPECT_TRUE(r.contains("barriers"));
    EXPECT_EQ(r["signature"], (nlohmann::json{"float32", "float32*", "float32*", "int32"}));
    EXPECT_EQ(r["headers"].size(), 1u);
    const auto options = r["options"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(options.begin(), options.end(), "-DBLOCK=256"), options.end());
    EXPECT_NE(std::find(options.begin(), options.end(), "-arch=" + target), options.end());
    EXPECT_NE(std::find(options.begin(), options.end(), "-I" + dir_.path().string()), options.end());

    CompileResult second = compiler.compile(request);
    ASSERT_TRUE(second.ok) << second.log;
    EXPECT_TRUE(second.cache_hit);
    EXPECT_EQ(second.artifact, first.artifact);
    EXPECT_EQ(second.cache_key, first.cache_key);
    EXPECT_EQ(second.resources, first.resources);
    EXPECT_LT(second.seconds, first.seconds);
  }
  // The two targets never share an artifact.
  EXPECT_NE(compiler.compile(saxpy_request(dir_, "sm_80")).cache_key,
            compiler.compile(saxpy_request(dir_, "sm_90a")).cache_key);
}

TEST_F(CudaCompile, HeaderDefinesAndFlagsAreInTheKey) {
  Compiler& compiler = backend_->compiler();
  CompileResult base = compiler.compile(saxpy_request(dir_, "sm_90a"));
  ASSERT_TRUE(base.ok) << base.log;
  CompileResult edited = compiler.compile(saxpy_request(dir_, "sm_90a", "2"));  // rewrites the header
  ASSERT_TRUE(edited.ok) << edited.log;
  EXPECT_FALSE(edited.cache_hit);
  EXPECT_NE(edited.cache_key, base.cache_key);

  CompileRequest defined = saxpy_request(dir_, "sm_90a");
  defined.defines["BLOCK"] = Value::integer(128);
  EXPECT_NE(compiler.compile(defined).cache_key, base.cache_key);
  CompileRequest flagged = saxpy_request(dir_, "sm_90a");
  flagged.user_flags = {"-lineinfo"};
  CompileResult with_flag = compiler.compile(flagged);
  ASSERT_TRUE(with_flag.ok) << with_flag.log;
  EXPECT_NE(with_flag.cache_key, base.cache_key);
}

TEST_F(CudaCompile, TemplateKernelInANamespaceIsInstantiatedAndMangled) {
  CompileRequest request = saxpy_request(dir_, "sm_90a");
  request.entry = "ktune_test::scale<float, 4>";
  request.signature.clear();
  CompileResult result = backend_->compiler().compile(request);
  ASSERT_TRUE(result.ok) << result.log;
  const std::string lowered = result.resources["lowered_name"];
  EXPECT_EQ(lowered.rfind("_ZN10ktune_test5scaleIfLi4EEEv", 0), 0u) << lowered;
  EXPECT_EQ(result.resources["ptxas_found_entry"], true);
  EXPECT_GT(result.resources["registers"].get<int>(), 0);
  EXPECT_FALSE(result.resources.contains("signature"));
}

TEST_F(CudaCompile, SecondSourceDirectoryIsAnIncludePath) {
  dir_.write("lib/helpers.cuh", "__device__ inline float twice(float v) { return 2 * v; }\n");
  CompileRequest request;
  request.entry = "doubler";
  request.sources = {dir_.write("main/doubler.cu", "#include \"helpers.cuh\"\n"
                                                   "extern \"C\" __global__ void doubler(float* v) {"
                                                   " v[threadIdx.x] = twice(v[threadIdx.x]); }\n"),
                     dir_.path() / "lib/helpers.cuh"};
  request.target = "sm_90a";
  CompileResult result = backend_->compiler().compile(request);
  ASSERT_TRUE(result.ok) << result.log;
  // Editing the second source recompiles.
  dir_.write("lib/helpers.cuh", "__device__ inline float twice(float v) { return v + v; }\n");
  CompileResult edited = backend_->compiler().compile(request);
  ASSERT_TRUE(edited.ok) << edited.log;
  EXPECT_FALSE(edited.cache_hit);
}

TEST_F(CudaCompile, FailuresAreResults) {
  Compiler& compiler = backend_->compiler();
  CompileRequest broken = saxpy_request(dir_, "sm_90a");
  broken.sources = {dir_.write("broken.cu", "extern \"C\" __global__ void saxpy(float* y) { y[0] = undeclared; }\n")};
  CompileResult r = compiler.compile(broken);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("undeclared"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("broken.cu"), std::string::npos) << r.log;

  CompileRequest no_target = saxpy_request(dir_, "");
  r = compiler.compile(no_target);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("properties[\"target\"]"), std::string::npos) << r.log;

  r = compiler.compile(saxpy_request(dir_, "compute_90"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("CUBIN"), std::string::npos) << r.log;

  r = compiler.compile(saxpy_request(dir_, "sm_20"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("cannot target sm_20"), std::string::npos) << r.log;

  CompileRequest wrong_entry = saxpy_request(dir_, "sm_90a");
  wrong_entry.entry = "nosuchkernel";
  r = compiler.compile(wrong_entry);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("nosuchkernel"), std::string::npos) << r.log;

  CompileRequest injected = saxpy_request(dir_, "sm_90a");
  injected.entry = "saxpy); system(\"rm\"";
  r = compiler.compile(injected);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("not a kernel name"), std::string::npos) << r.log;

  CompileRequest missing = saxpy_request(dir_, "sm_90a");
  missing.sources = {dir_.path() / "nope.cu"};
  r = compiler.compile(missing);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("nope.cu"), std::string::npos) << r.log;

  CompileRequest bad_define = saxpy_request(dir_, "sm_90a");
  bad_define.defines["not an identifier"] = Value::integer(1);
  r = compiler.compile(bad_define);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("not a C identifier"), std::string::npos) << r.log;
}

TEST_F(CudaCompile, SpillsAreReported) {
  CompileRequest request;
  request.entry = "hungry";
  request.target = "sm_90a";
  request.user_flags = {"-maxrregcount=32"};
  request.sources = {dir_.write("hungry.cu", R"(
extern "C" __global__ void hungry(const float* in, float* out) {
  float v[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) v[i] = in[threadIdx.x + i * 1024];
  float acc = 0;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < 64; ++i) { acc = acc * v[(i * 7 + r) % 64] + v[i]; v[i] = acc * 0.5f + v[(i + 1) % 64]; }
#pragma unroll
  for (int i = 0; i < 64; ++i) out[threadIdx.x + i * 1024] = v[i];
}
)")};
  CompileResult r = backend_->compiler().compile(request);
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_LE(r.resources["registers"].get<int>(), 32);
  EXPECT_GT(r.resources["spill_store_bytes"].get<int>(), 0) << r.resources.dump();
  EXPECT_GT(r.resources["stack_frame_bytes"].get<int>(), 0);
}

TEST_F(CudaCompile, ParallelCompilesFromManyThreads) {
  Compiler& compiler = backend_->compiler();
  saxpy_request(dir_, "sm_90a");  // writes the sources once, before the threads read them
  std::vector<CompileResult> results(12);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < results.size(); i += 4) {
        CompileRequest request;
        request.entry = "saxpy";
        request.sources = {dir_.path() / "saxpy.cu"};
        request.target = "sm_90a";
        request.defines["VARIANT"] = Value::integer(static_cast<std::int64_t>(i % 6));  // each key compiled twice
        results[i] = compiler.compile(request);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> keys;
  for (const auto& r : results) {
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(fs::exists(r.artifact));
    keys.insert(r.cache_key);
  }
  EXPECT_EQ(keys.size(), 6u);
}

// screen_launch with an H100's limits (as CudaBackend::devices() reports them).
nlohmann::json h100_properties() {
  kc::CudaDeviceProperties d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.compute_major = 9;
  d.compute_minor = 0;
  d.multiprocessors = 132;
  d.max_threads_per_block = 1024;
  d.max_threads_per_multiprocessor = 2048;
  d.max_blocks_per_multiprocessor = 32;
  d.registers_per_multiprocessor = 65536;
  d.registers_per_block = 65536;
  d.shared_memory_per_block = 49152;
  d.shared_memory_per_block_optin = 232448;
  d.shared_memory_per_multiprocessor = 233472;
  d.reserved_shared_memory_per_block = 1024;
  return describe_device(d, {}).properties;
}

nlohmann::json resources(int registers, std::int64_t shared, int barriers = 1, const std::string& arch = "sm_90a") {
  return {{"registers", registers}, {"shared_bytes", shared}, {"barriers", barriers}, {"arch", arch}};
}

LaunchGeometry geometry(std::int64_t block_x, std::int64_t dynamic = 0, std::int64_t block_y = 1,
                        std::int64_t block_z = 1) {
  LaunchGeometry g;
  g.grid = {1024, 1, 1};
  g.block = {block_x, block_y, block_z};
  g.shared_bytes = dynamic;
  return g;
}

TEST(LaunchScreen, Verdicts) {
  const nlohmann::json h100 = h100_properties();

  ScreenResult ok = screen_launch(h100, resources(32, 8448), geometry(256));
  EXPECT_TRUE(ok.launchable) << ok.reason;
  EXPECT_EQ(ok.occupancy["active_blocks_per_sm"], 8);
  EXPECT_EQ(ok.occupancy["occupancy"], 1.0);
  EXPECT_EQ(ok.occupancy["threads_per_block"], 256);
  EXPECT_NE(ok.occupancy["summary"].get<std::string>().find("8 blocks/SM"), std::string::npos)
      << ok.occupancy.dump();

  ScreenResult register_limited = screen_launch(h100, resources(128, 0), geometry(256));
  EXPECT_TRUE(register_limited.launchable);
  EXPECT_EQ(register_limited.occupancy["active_blocks_per_sm"], 2);
  EXPECT_EQ(register_limited.occupancy["limiters"], nlohmann::json{"registers"});
  EXPECT_FALSE(register_limited.occupancy["hints"].empty());

  ScreenResult too_many_threads = screen_launch(h100, resources(16, 0), geometry(2048));
  EXPECT_FALSE(too_many_threads.launchable);
  EXPECT_NE(too_many_threads.reason.find("2048 threads"), std::string::npos) << too_many_threads.reason;

  ScreenResult threads_by_product = screen_launch(h100, resources(16, 0), geometry(64, 0, 32));
  EXPECT_FALSE(threads_by_product.launchable);
  EXPECT_NE(threads_by_product.reason.find("2048 threads"), std::string::npos) << threads_by_product.reason;

  ScreenResult registers_over_block = screen_launch(h100, resources(128, 0), geometry(1024));
  EXPECT_FALSE(registers_over_block.launchable);
  EXPECT_NE(registers_over_block.reason.find("register"), std::string::npos) << registers_over_block.reason;

  ScreenResult optin = screen_launch(h100, resources(32, 0), geometry(256, 200 * 1024));
  EXPECT_TRUE(optin.launchable) << optin.reason;
  EXPECT_EQ(optin.occupancy["needs_shared_memory_optin"], true);
  EXPECT_EQ(optin.occupancy["active_blocks_per_sm"], 1);

  ScreenResult too_much_smem = screen_launch(h100, resources(32, 40000), geometry(256, 200 * 1024));
  EXPECT_FALSE(too_much_smem.launchable);
  EXPECT_NE(too_much_smem.reason.find("shared"), std::string::npos) << too_much_smem.reason;

  ScreenResult z_too_deep = screen_launch(h100, resources(32, 0), geometry(1, 0, 1, 128));
  EXPECT_FALSE(z_too_deep.launchable);
  EXPECT_NE(z_too_deep.reason.find("block.z = 128"), std::string::npos) << z_too_deep.reason;

  LaunchGeometry huge_grid = geometry(256);
  huge_grid.grid = {1, 70000, 1};
  ScreenResult grid_y = screen_launch(h100, resources(32, 0), huge_grid);
  EXPECT_FALSE(grid_y.launchable);
  EXPECT_NE(grid_y.reason.find("grid.y = 70000"), std::string::npos) << grid_y.reason;

  ScreenResult ampere_cubin = screen_launch(h100, resources(32, 0, 1, "sm_80"), geometry(256));
  EXPECT_FALSE(ampere_cubin.launchable);
  EXPECT_NE(ampere_cubin.reason.find("sm_80"), std::string::npos) << ampere_cubin.reason;
  EXPECT_TRUE(screen_launch(h100, resources(32, 0, 1, "sm_90"), geometry(256)).launchable);

  nlohmann::json a100 = h100;
  a100["compute_capability"] = "8.6";
  a100["max_threads_per_multiprocessor"] = 1536;
  a100["max_blocks_per_multiprocessor"] = 16;
  a100["shared_memory_per_block_optin"] = 101376;
  a100["shared_memory_per_multiprocessor"] = 102400;
  EXPECT_TRUE(screen_launch(a100, resources(32, 0, 1, "sm_80"), geometry(256)).launchable);  // 8.0 SASS runs on 8.6
  EXPECT_FALSE(screen_launch(a100, resources(32, 0, 1, "sm_89"), geometry(256)).launchable);
  EXPECT_FALSE(screen_launch(a100, resources(32, 0, 1, "sm_90a"), geometry(256)).launchable);

  // Unknown resources are noted, not guessed.
  ScreenResult unknown = screen_launch(h100, nlohmann::json::object(), geometry(256));
  EXPECT_TRUE(unknown.launchable);
  EXPECT_EQ(unknown.occupancy["registers_known"], false);
  EXPECT_FALSE(unknown.occupancy["notes"].empty());

  EXPECT_THROW(screen_launch(nlohmann::json{{"model", "EPYC"}}, resources(32, 0), geometry(256)), DeviceError);
}

TEST_F(CudaCompile, ScreenRealCompileResources) {
  CompileRequest request;
  request.entry = "tiled";
  request.target = "sm_90a";
  request.sources = {dir_.write("tiled.cu", R"(
extern "C" __global__ void tiled(const float* in, float* out) {
  __shared__ float tile[40 * 1024 / 4];
  extern __shared__ float dynamic[];
  tile[threadIdx.x] = in[threadIdx.x];
  dynamic[threadIdx.x] = in[threadIdx.x + 1];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x] + dynamic[threadIdx.x];
}
)")};
  CompileResult r = backend_->compiler().compile(request);
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.resources["shared_bytes"], 40 * 1024);
  EXPECT_GE(r.resources["barriers"].get<int>(), 1);
  const nlohmann::json h100 = h100_properties();
  ScreenResult fits = screen_launch(h100, r.resources, geometry(256, 100 * 1024));
  EXPECT_TRUE(fits.launchable) << fits.reason;
  EXPECT_EQ(fits.occupancy["active_blocks_per_sm"], 1);  // 141 KiB of 228 KiB per SM
  ScreenResult too_big = screen_launch(h100, r.resources, geometry(256, 200 * 1024));
  EXPECT_FALSE(too_big.launchable);
}

// ---------------------------------------------------------------------------------------
// With a GPU (skipped without a driver).

class CudaGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = std::make_unique<CudaBackend>(options_for(dir_));
    Availability a = backend_->availability();
    if (!a.available) GTEST_SKIP() << "no CUDA driver: " << a.reason;
    devices_ = backend_->devices();
    ASSERT_FALSE(devices_.empty());
    target_ = devices_[0].properties["target"].get<std::string>();
  }

  CompileResult compile(const std::string& entry, const std::string& file, const std::string& source,
                        std::vector<ArgumentSignature> signature = {}) {
    CompileRequest request;
    request.entry = entry;
    request.sources = {dir_.write(file, source)};
    request.target = target_;
    request.signature = std::move(signature);
    CompileResult r = backend_->compiler().compile(request);
    EXPECT_TRUE(r.ok) << r.log;
    return r;
  }

  TempDir dir_;
  std::unique_ptr<CudaBackend> backend_;
  std::vector<DeviceInfo> devices_;
  std::string target_;
};

std::vector<std::byte> floats(const std::vector<float>& v) {
  std::vector<std::byte> bytes(v.size() * sizeof(float));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}
float float_at(const HostArgument& a, std::size_t i) {
  float f;
  std::memcpy(&f, a.data.data() + i * sizeof(float), sizeof f);
  return f;
}

TEST_F(CudaGpu, DevicesDescribeThemselves) {
  for (const DeviceInfo& d : devices_) {
    std::printf("%s\n", nlohmann::json(d).dump(2).c_str());
    EXPECT_EQ(d.backend, "cuda");
    EXPECT_EQ(d.fingerprint.rfind("cuda-", 0), 0u);
    for (const char* key : {"target", "uuid", "compute_capability", "multiprocessors", "l2_cache_bytes",
                            "shared_memory_per_block_optin", "total_memory_bytes", "driver_api_version",
                            "nvrtc_version", "clocks", "timing"})
      EXPECT_TRUE(d.properties.contains(key)) << key;
  }
  EXPECT_EQ(backend_->devices()[0].fingerprint, devices_[0].fingerprint);
  const std::string cc = devices_[0].properties["compute_capability"];
  if (cc == "9.0") {
    EXPECT_EQ(target_, "sm_90a");
  }
}

TEST_F(CudaGpu, SaxpyRunsUploadsDownloadsAndTimes) {
  CompileRequest request = saxpy_request(dir_, target_);
  CompileResult compiled = backend_->compiler().compile(request);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  const int n = 1 << 22;
  LaunchGeometry g;
  g.grid = {(n + 255) / 256, 1, 1};
  g.block = {256, 1, 1};
  ScreenResult screen = screen_launch(devices_[0].properties, compiled.resources, g);
  EXPECT_TRUE(screen.launchable) << screen.reason;

  // As a worker receives it: through JSON.
  const CompileResult shipped = nlohmann::json(compiled).get<CompileResult>();
  auto kernel = backend_->load(0, shipped, "saxpy", g);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = 1.0f;
  }
  std::vector<HostArgument> args = {scalar_argument("a", ElementType::F32, Value::real(2.0)),
                                    array_argument("x", ElementType::F32, n),
                                    array_argument("y", ElementType::F32, n, true),
                                    scalar_argument("n", ElementType::I32, Value::integer(n))};
  args[1].data = floats(x);
  args[2].data = floats(y);
  kernel->bind(args);
  kernel->run();
  HostArgument out = array_argument("y", ElementType::F32, 0);
  kernel->download(out);
  ASSERT_EQ(out.element_count(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; i += 997) ASSERT_FLOAT_EQ(float_at(out, i), 2.0f * (i % 1000) + 1.0f) << i;

  // A new scalar and a re-uploaded output.
  kernel->upload(scalar_argument("a", ElementType::F32, Value::real(-1.0)));
  args[2].data = floats(y);
  kernel->upload(args[2]);
  kernel->run();
  kernel->download(out);
  for (int i = 0; i < n; i += 997) ASSERT_FLOAT_EQ(float_at(out, i), -1.0f * (i % 1000) + 1.0f) << i;

  EXPECT_THROW(kernel->upload(array_argument("y", ElementType::F32, 3)), DeviceError);
  EXPECT_THROW(kernel->upload(array_argument("nope", ElementType::F32, n)), DeviceError);

  auto* cuda_kernel = dynamic_cast<CudaKernel*>(kernel.get());
  ASSERT_NE(cuda_kernel, nullptr);
  std::printf("attributes: %s\n", cuda_kernel->attributes().dump().c_str());
  EXPECT_EQ(cuda_kernel->attributes()["num_regs"], compiled.resources["registers"]);

  // Warm and cold samples: 16 MiB in and out, so cold (L2 flushed) is not faster than warm.
  std::vector<double> warm, cold;
  int invalid = 0;
  for (int i = 0; i < 5; ++i) kernel->run_timed(false);
  for (int i = 0; i < 50; ++i) {
    TimedRun w = kernel->run_timed_sample(false);
    TimedRun c = kernel->run_timed_sample(true);
    invalid += !w.valid + !c.valid;
    warm.push_back(w.seconds);
    cold.push_back(c.seconds);
    EXPECT_GT(w.seconds, 0);
    EXPECT_LT(w.seconds, 0.1);
  }
  std::sort(warm.begin(), warm.end());
  std::sort(cold.begin(), cold.end());
  std::printf("saxpy n=%d: warm median %.2f us, cold median %.2f us, %d/100 samples invalid; timing %s\n", n,
              warm[25] * 1e6, cold[25] * 1e6, invalid, cuda_kernel->timing().dump().c_str());
  EXPECT_EQ(cuda_kernel->timing()["method"], "blocking_kernel") << cuda_kernel->timing().dump();
  EXPECT_EQ(cuda_kernel->timing()["invalid_first_launch"], 0);  // run() came first
  EXPECT_EQ(cuda_kernel->timing()["invalid_blocking_timeout"], 0);
  EXPECT_GT(cold[25], warm[25] * 0.9);
  EXPECT_LT(invalid, 100);

  // The devices() timing report now reflects this process's context.
  EXPECT_EQ(backend_->devices()[0].properties["timing"]["samples"].get<int>(), 105);
}

// The clean flush (measure::L2Flush::Clean) leaves no dirty lines for the timed kernel to write
// back: a kernel that only reads 64 MiB runs faster after it than after the dirty flush (on an
// H200, a 34 MB decode GEMM by 15-20%), and the context's report says which flush it used.
TEST_F(CudaGpu, CleanFlushSparesAReadingKernelTheWriteBack) {
  CompileResult reader = compile("read_sum", "read_sum.cu", R"(
extern "C" __global__ void read_sum(const float4* x, float* out, int n4) {
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    const float4 v = x[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 12345.678f) *out = s;  // never, for these inputs: keeps the loads, writes nothing
}
)");
  ASSERT_TRUE(reader.ok);
  const int n4 = 1 << 22;  // 64 MiB of float4
  LaunchGeometry g;
  g.grid = {static_cast<unsigned>(devices_[0].properties["multiprocessors"].get<int>() * 4), 1, 1};
  g.block = {256, 1, 1};
  auto kernel = backend_->load(0, reader, "read_sum", g);
  std::vector<HostArgument> args = {array_argument("x", ElementType::F32, 4 * static_cast<std::size_t>(n4)),
                                    array_argument("out", ElementType::F32, 1, true),
                                    scalar_argument("n4", ElementType::I32, Value::integer(n4))};
  kernel->bind(args);
  kernel->run();
  auto& cuda_kernel = dynamic_cast<CudaKernel&>(*kernel);
  auto median_us = [&](bool clean) {
    kernel->set_clean_flush(clean);
    std::vector<double> t;
    for (int i = 0; i < 41; ++i) t.push_back(kernel->run_timed_sample(true).seconds);
    std::sort(t.begin(), t.end());
    return t[20] * 1e6;
  };
  const double dirty = median_us(false);
  EXPECT_EQ(cuda_kernel.timing()["l2_flush"], "dirty");
  const double clean = median_us(true);
  EXPECT_EQ(cuda_kernel.timing()["l2_flush"], "clean");
  const double dirty_again = median_us(false);
  std::printf("read_sum 64 MiB: dirty flush %.1f us, clean flush %.1f us, dirty again %.1f us\n", dirty, clean,
              dirty_again);
  EXPECT_LT(clean, 0.97 * std::min(dirty, dirty_again));
}

// A kernel that runs for a known time (the GPU's global timer) checks what the events measure:
// with the blocking kernel, the kernel itself and nothing of the host's launch path.
TEST_F(CudaGpu, BlockingKernelMeasuresTheKernelNotTheLaunch) {
  CompileResult sleeper = compile("sleeper", "sleeper.cu", R"(
extern "C" __global__ void sleeper(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); } while (now - start < ns);
}
extern "C" __global__ void empty_kernel() {}
)");
  ASSERT_TRUE(sleeper.ok);
  LaunchGeometry one;
  auto kernel = backend_->load(0, sleeper, "sleeper", one);
  std::vector<HostArgument> args = {scalar_argument("ns", ElementType::U64, Value::integer(50000))};
  kernel->bind(args);
  // Its first launch is a warm-up: plain events, marked invalid.
  TimedRun first = kernel->run_timed_sample(false);
  EXPECT_FALSE(first.valid);
  EXPECT_GT(first.seconds, 49e-6);
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*kernel).timing()["invalid_first_launch"], 1);
  std::vector<double> samples;
  for (int i = 0; i < 30; ++i) samples.push_back(kernel->run_timed(false));
  std::sort(samples.begin(), samples.end());
  std::printf("50 us sleeper: min %.2f us, median %.2f us\n", samples[0] * 1e6, samples[15] * 1e6);
  EXPECT_GT(samples[15], 49e-6);
  EXPECT_LT(samples[15], 70e-6);

  // An empty kernel: a few microseconds at most with the blocking kernel; compare with plain events.
  CompileRequest empty_request;
  empty_request.entry = "empty_kernel";
  empty_request.sources = {dir_.path() / "sleeper.cu"};
  empty_request.target = target_;
  CompileResult empty = backend_->compiler().compile(empty_request);
  ASSERT_TRUE(empty.ok) << empty.log;
  auto blocked = backend_->load(0, empty, "empty_kernel", one);
  std::vector<HostArgument> none;
  blocked->bind(none);
  CudaBackendOptions plain_options = options_for(dir_);
  plain_options.timing.blocking_kernel = false;
  CudaBackend plain_backend(plain_options);
  // Another backend object, the same process: it shares the primary context but keeps its own
  // stream and timing state.
  auto plain = plain_backend.load(0, empty, "empty_kernel", one);
  plain->bind(none);
  std::vector<double> with_blocking, with_events;
  for (int i = 0; i < 200; ++i) {
    with_blocking.push_back(blocked->run_timed(false));
    with_events.push_back(plain->run_timed(false));
  }
  std::sort(with_blocking.begin(), with_blocking.end());
  std::sort(with_events.begin(), with_events.end());
  std::printf("empty kernel: blocking-kernel median %.2f us, plain-events median %.2f us\n",
              with_blocking[100] * 1e6, with_events[100] * 1e6);
  EXPECT_LT(with_blocking[100], 10e-6);
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*plain).timing()["method"], "cuda_events");
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*plain).timing()["fallback_reason"], "disabled by the backend options");
}

// Cache mode "rotate": every timed run reads the next copy set of the inputs (where[] records
// the pointers the kernel saw), results stay right, run() and download() use set 0.
TEST_F(CudaGpu, RotationPassesEachCopySetAndKeepsResultsCorrect) {
  CompileResult compiled = compile("probe", "probe.cu", R"(
__global__ void probe(const float* a, const float* b, float* out, long long* where, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * a[i] + b[i];
  if (i == 0) {
    where[0] = reinterpret_cast<long long>(a);
    where[1] = reinterpret_cast<long long>(b);
  }
}
)");
  ASSERT_TRUE(compiled.ok);
  const int n = 1 << 18;  // 1 MiB per input
  LaunchGeometry g;
  g.grid = {(n + 255) / 256, 1, 1};
  g.block = {256, 1, 1};
  auto kernel = backend_->load(0, compiled, "probe", g);
  std::vector<float> a(n), b(n, 0.5f);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 1000);
  std::vector<HostArgument> args = {array_argument("a", ElementType::F32, n),
                                    array_argument("b", ElementType::F32, n),
                                    array_argument("out", ElementType::F32, n, true),
                                    array_argument("where", ElementType::I64, 2, true),
                                    scalar_argument("n", ElementType::I32, Value::integer(n))};
  args[0].data = floats(a);
  args[1].data = floats(b);
  kernel->bind(args);
  kernel->run();
  HostArgument where = array_argument("where", ElementType::I64, 2, true);
  auto pointer_of = [&](std::size_t k) {
    kernel->download(where);
    long long p = 0;
    std::memcpy(&p, where.data.data() + k * sizeof p, sizeof p);
    return p;
  };
  const long long a0 = pointer_of(0), b0 = pointer_of(1);

  const std::size_t l2 = devices_[0].properties["l2_cache_bytes"].get<std::size_t>();
  const std::size_t sets = kernel->enable_rotation(2 * l2);
  std::printf("L2 %zu bytes: %zu rotation sets of 2 MiB\n", l2, sets);
  ASSERT_GE(sets, 2u);
  EXPECT_GE(sets * 2 * (std::size_t{1} << 20), 2 * l2);
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*kernel).rotation_copies(), sets);

  HostArgument out = array_argument("out", ElementType::F32, 0);
  std::set<long long> a_seen, b_seen;
  std::vector<double> rotated;
  for (std::size_t s = 0; s < 2 * sets; ++s) {
    kernel->upload(array_argument("out", ElementType::F32, n, true));  // zeros: a skipped write shows
    TimedRun t = kernel->run_timed_sample(false);
    rotated.push_back(t.seconds);
    a_seen.insert(pointer_of(0));
    b_seen.insert(pointer_of(1));
    kernel->download(out);
    for (int i = 0; i < n; i += 997) ASSERT_FLOAT_EQ(float_at(out, i), 2.0f * (i % 1000) + 0.5f) << "run " << s;
  }
  EXPECT_EQ(a_seen.size(), sets);
  EXPECT_EQ(b_seen.size(), sets);
  EXPECT_TRUE(a_seen.count(a0));
  EXPECT_TRUE(b_seen.count(b0));
  for (long long p : a_seen) EXPECT_EQ(p % 256, 0) << "copies keep cuMemAlloc's alignment";

  // run() launches set 0 again; an uploaded input reaches every copy.
  kernel->run();
  EXPECT_EQ(pointer_of(0), a0);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 1000 + 3);
  args[0].data = floats(a);
  kernel->upload(args[0]);
  for (std::size_t s = 0; s < sets; ++s) {
    kernel->run_timed_sample(s % 2 == 0);
    kernel->download(out);
    for (int i = 0; i < n; i += 997) ASSERT_FLOAT_EQ(float_at(out, i), 2.0f * (i % 1000 + 3) + 0.5f) << "run " << s;
  }

  // Warm samples on set 0 for comparison (printed: the gap depends on the GPU).
  std::vector<double> warm;
  kernel->bind(args);
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*kernel).rotation_copies(), 1u);  // bind() drops the copies
  for (int i = 0; i < 20; ++i) warm.push_back(kernel->run_timed_sample(false).seconds);
  std::sort(rotated.begin(), rotated.end());
  std::sort(warm.begin(), warm.end());
  std::printf("probe n=%d: rotated median %.2f us, warm median %.2f us\n", n, rotated[rotated.size() / 2] * 1e6,
              warm[warm.size() / 2] * 1e6);

  // More than a quarter of the free memory: refused, rotation stays off (every run uses set 0).
  kernel->run();
  const long long rebound = pointer_of(0);
  EXPECT_EQ(kernel->enable_rotation(std::numeric_limits<std::size_t>::max() / 2), 1u);
  kernel->run_timed_sample(false);
  EXPECT_EQ(pointer_of(0), rebound);
  kernel->run_timed_sample(false);
  EXPECT_EQ(pointer_of(0), rebound);
}

TEST_F(CudaGpu, TemplateKernelAndLargeDynamicSharedMemory) {
  CompileResult compiled = compile("ktune_test::reverse<float>", "reverse.cu", R"(
namespace ktune_test {
template <typename T>
__global__ void reverse(const T* in, T* out, int n) {
  extern __shared__ unsigned char raw[];
  T* buffer = reinterpret_cast<T*>(raw);
  for (int i = threadIdx.x; i < n; i += blockDim.x) buffer[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = buffer[n - 1 - i];
}
}
)");
  ASSERT_TRUE(compiled.ok);
  const int n = 150 * 1024 / 4;  // 150 KiB of dynamic shared memory: needs the opt-in
  LaunchGeometry g;
  g.block = {512, 1, 1};
  g.shared_bytes = n * 4;
  if (devices_[0].properties["shared_memory_per_block_optin"].get<std::int64_t>() < g.shared_bytes)
    GTEST_SKIP() << "this GPU's opt-in limit is below 150 KiB";
  EXPECT_TRUE(screen_launch(devices_[0].properties, compiled.resources, g).launchable);
  auto kernel = backend_->load(0, compiled, "ktune_test::reverse<float>", g);
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  std::vector<HostArgument> args = {array_argument("in", ElementType::F32, n),
                                    array_argument("out", ElementType::F32, n, true),
                                    scalar_argument("n", ElementType::I32, Value::integer(n))};
  args[0].data = floats(in);
  kernel->bind(args);
  kernel->run();
  kernel->download(args[1]);
  for (int i = 0; i < n; i += 101) ASSERT_EQ(float_at(args[1], i), static_cast<float>(n - 1 - i)) << i;
  EXPECT_EQ(dynamic_cast<CudaKernel&>(*kernel).attributes()["max_dynamic_shared_size_bytes"], n * 4);

  // Over the device's limit: refused at load with the numbers.
  LaunchGeometry too_big = g;
  too_big.shared_bytes = devices_[0].properties["shared_memory_per_block_optin"].get<std::int64_t>() + 1024;
  try {
    backend_->load(0, compiled, "ktune_test::reverse<float>", too_big);
    FAIL() << "expected a DeviceError";
  } catch (const ContextPoisoned&) {
    FAIL() << "too much shared memory must not poison the context";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("per-block limit"), std::string::npos) << e.what();
  }
}

TEST_F(CudaGpu, BadArgumentsAndLaunchesAreOrdinaryErrors) {
  CompileRequest request = saxpy_request(dir_, target_);
  CompileResult compiled = backend_->compiler().compile(request);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  LaunchGeometry g;
  g.block = {256, 1, 1};
  auto kernel = backend_->load(0, compiled, "saxpy", g);
  std::vector<HostArgument> too_few = {scalar_argument("a", ElementType::F32, Value::real(1.0))};
  EXPECT_THROW(kernel->bind(too_few), DeviceError);
  std::vector<HostArgument> wrong_type = {scalar_argument("a", ElementType::F64, Value::real(1.0)),
                                          array_argument("x", ElementType::F32, 4),
                                          array_argument("y", ElementType::F32, 4, true),
                                          scalar_argument("n", ElementType::I32, Value::integer(4))};
  EXPECT_THROW(kernel->bind(wrong_type), DeviceError);
  EXPECT_THROW(kernel->run(), DeviceError);  // nothing bound

  // The launch the hardware refuses (2048 threads): an error, the context stays usable.
  LaunchGeometry refused = g;
  refused.block = {2048, 1, 1};
  EXPECT_FALSE(screen_launch(devices_[0].properties, compiled.resources, refused).launchable);
  auto bad = backend_->load(0, compiled, "saxpy", refused);
  std::vector<HostArgument> args = {scalar_argument("a", ElementType::F32, Value::real(1.0)),
                                    array_argument("x", ElementType::F32, 4),
                                    array_argument("y", ElementType::F32, 4, true),
                                    scalar_argument("n", ElementType::I32, Value::integer(4))};
  bad->bind(args);
  try {
    bad->run();
    FAIL() << "a 2048-thread block must be refused";
  } catch (const ContextPoisoned& e) {
    FAIL() << "must not poison: " << e.what();
  } catch (const DeviceError& e) {
    std::printf("refused launch: %s\n", e.what());
  }
  EXPECT_THROW(bad->run_timed(false), DeviceError);
  kernel->bind(args);
  EXPECT_NO_THROW(kernel->run());
  EXPECT_NO_THROW(kernel->run_timed(true));

  CompileResult other_entry = compiled;
  EXPECT_THROW(backend_->load(0, other_entry, "not_saxpy", g), DeviceError);
  EXPECT_THROW(backend_->load(7, compiled, "saxpy", g), DeviceError);
}

// The fault poisons the whole process's context, so it runs in a fresh process (gtest's
// "threadsafe" death tests re-execute the binary) and reports through the exit code.
TEST_F(CudaGpu, OutOfBoundsWriteRaisesContextPoisoned) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  CompileResult compiled = compile("scribble", "scribble.cu", R"(
extern "C" __global__ void scribble(float* data) {
  data[(1ull << 40) + threadIdx.x] = 1.0f;  // 4 TiB past the buffer
}
)");
  ASSERT_TRUE(compiled.ok);
  auto fault = [&] {
    LaunchGeometry g;
    g.block = {32, 1, 1};
    auto kernel = backend_->load(0, compiled, "scribble", g);
    std::vector<HostArgument> args = {array_argument("data", ElementType::F32, 32, true)};
    kernel->bind(args);
    try {
      kernel->run();
    } catch (const ContextPoisoned& e) {
      std::fprintf(stderr, "ContextPoisoned: %s\n", e.what());
      // Later calls, and later loads, say so too.
      try {
        kernel->run();
      } catch (const ContextPoisoned&) {
        try {
          backend_->load(0, compiled, "scribble", g);
        } catch (const ContextPoisoned& again) {
          std::fprintf(stderr, "then: %s\n", again.what());
          std::_Exit(42);
        }
      }
      std::_Exit(2);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "wrong exception: %s\n", e.what());
      std::_Exit(3);
    }
    std::_Exit(4);
  };
  EXPECT_EXIT(fault(), ::testing::ExitedWithCode(42), "ContextPoisoned: .*CUDA_ERROR_ILLEGAL_ADDRESS");
}

}  // namespace
}  // namespace ktune::device::cuda
