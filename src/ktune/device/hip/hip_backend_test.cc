// The HIP backend without ROCm: what the loaders say, the dlopen wrapper on a wrong library,
// offline compiles for gfx942 through the backend's compiler, screening and the static model.
// Nothing here pretends to run a kernel: there is no AMD GPU and no mock of the runtime.

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "ktune/amdgpu/code_object.h"
#include "ktune/device/hip/hip_backend.h"
#include "ktune/device/hip/hip_runtime.h"
#include "ktune/device/hip/hiprtc.h"
#include "ktune/device/hip/static_rank.h"
#include "ktune/device/registry.h"
#include "ktune/spec/problem.h"

namespace ktune::device::hip {
namespace {
namespace fs = std::filesystem;
namespace kh = ktune::hip;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

fs::path fresh_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("ktune-hip-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// ---- loaders ---------------------------------------------------------------------------------

TEST(HipRuntimeLoader, MissingLibraryIsNamedWithEveryLocationTried) {
  auto rt = kh::HipRuntime::load_from({"/nonexistent/rocm/lib/libamdhip64.so", "libamdhip64-nope.so.6"});
  ASSERT_FALSE(rt.ok());
  EXPECT_TRUE(contains(rt.error, "HIP runtime not available")) << rt.error;
  EXPECT_TRUE(contains(rt.error, "libamdhip64.so not found")) << rt.error;
  EXPECT_TRUE(contains(rt.error, "/nonexistent/rocm/lib/libamdhip64.so")) << rt.error;
  EXPECT_TRUE(contains(rt.error, "libamdhip64-nope.so.6")) << rt.error;
}

TEST(HipRuntimeLoader, WrongLibraryNamesTheMissingEntryPoints) {
  // libm opens fine but is not the HIP runtime: the error must say which symbols are missing.
  auto rt = kh::HipRuntime::load_from({"libm.so.6"});
  ASSERT_FALSE(rt.ok());
  EXPECT_TRUE(contains(rt.error, "does not export hipInit")) << rt.error;
  EXPECT_TRUE(contains(rt.error, "hipModuleLaunchKernel")) << rt.error;
  auto rtc = kh::Hiprtc::load_from({"libm.so.6"});
  ASSERT_FALSE(rtc.ok());
  EXPECT_TRUE(contains(rtc.error, "does not export hiprtcVersion")) << rtc.error;
  EXPECT_TRUE(contains(rtc.error, "hiprtcCompileProgram")) << rtc.error;
}

TEST(HipRuntimeLoader, SearchOrderHonoursKtuneHipPathAndRocmPath) {
  const fs::path dir = fresh_dir("search");
  ScopedEnv hip_path("KTUNE_HIP_PATH", dir.string());
  ScopedEnv rocm("ROCM_PATH", "/my/rocm");
  const auto candidates = kh::hip_runtime_candidates();
  ASSERT_GE(candidates.size(), 9u);
  EXPECT_EQ(candidates[0], (dir / "libamdhip64.so").string());
  EXPECT_EQ(candidates[3], "libamdhip64.so");
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), "/my/rocm/lib/libamdhip64.so.6"), candidates.end());
  EXPECT_EQ(candidates.back(), "/opt/rocm/lib/libamdhip64.so.5");
  // A file in KTUNE_HIP_PATH is tried as is, first.
  ScopedEnv file_path("KTUNE_HIP_PATH", "/some/where/libamdhip64.so.6.2");
  EXPECT_EQ(kh::hip_runtime_candidates().front(), "/some/where/libamdhip64.so.6.2");
  fs::remove_all(dir);
}

TEST(HipRuntimeLoader, ArchNameIsReadFromThePropertiesByContent) {
  std::vector<unsigned char> props(2048, 0);
  std::memcpy(props.data(), "AMD Instinct MI300X gfx0", 24);  // the name field is skipped
  std::memcpy(props.data() + 300, "gfx9", 4);                 // not NUL-terminated within a field
  props[304] = '!';
  const char* arch = "gfx942:sramecc+:xnack-";
  std::memcpy(props.data() + 1000, arch, std::strlen(arch));
  EXPECT_EQ(kh::gcn_arch_name(props.data(), props.size()), arch);
  std::vector<unsigned char> none(1024, 0);
  EXPECT_EQ(kh::gcn_arch_name(none.data(), none.size()), "");
}

TEST(HipRuntimeLoader, ErrorNamesWithoutARuntime) {
  EXPECT_EQ(kh::hip_error_name(2), "hipErrorOutOfMemory");
  EXPECT_EQ(kh::hip_error_name(12345), "HIP error 12345");
  EXPECT_TRUE(kh::is_sticky_error(700));
  EXPECT_FALSE(kh::is_sticky_error(2));
}

// ---- the backend on this machine --------------------------------------------------------------

TEST(HipBackend, RegisteredAndSaysWhyItIsUnavailable) {
  auto names = backend_names();
  ASSERT_NE(std::find(names.begin(), names.end(), "hip"), names.end());
  auto backend = make_backend("hip");
  EXPECT_EQ(backend->name(), "hip");
  if (kh::HipRuntime::load().ok()) GTEST_SKIP() << "a HIP runtime is installed here; this checks machines without one";
  const Availability a = backend->availability();
  EXPECT_FALSE(a.available);
  EXPECT_TRUE(contains(a.reason, "libamdhip64.so not found")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "/opt/rocm/lib/libamdhip64.so")) << a.reason;
  EXPECT_TRUE(backend->devices().empty());
  CompileResult fake;
  fake.ok = true;
  try {
    backend->load(0, fake, "matmul", {});
    FAIL() << "loaded a kernel without a HIP runtime";
  } catch (const DeviceError& e) {
    EXPECT_TRUE(contains(e.what(), "HIP backend is not available")) << e.what();
  }
}

// ---- offline compilation -------------------------------------------------------------------------

class HipOfflineCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fresh_dir("cache");
    backend_ = std::make_unique<HipBackend>(HipCompilerOptions{cache_, std::nullopt, false, 300});
    std::string why;
    if (!backend_->hip_compiler().toolchain_for("gfx942", &why)) GTEST_SKIP() << "no LLVM for gfx942 here: " << why;
  }
  void TearDown() override { fs::remove_all(cache_); }

  CompileRequest matmul_request(Config defines) {
    CompileRequest r;
    r.entry = "matmul";
    r.sources = {fs::path(KTUNE_SOURCE_DIR) / "examples/hip/matmul/matmul.hip"};
    r.defines = std::move(defines);
    r.target = "gfx942";
    r.signature = {{"A", ElementType::F32, true, false}, {"B", ElementType::F32, true, false},
                   {"C", ElementType::F32, true, true},  {"M", ElementType::I32, false, false},
                   {"N", ElementType::I32, false, false}, {"K", ElementType::I32, false, false}};
    return r;
  }

  fs::path cache_;
  std::unique_ptr<HipBackend> backend_;
};

TEST_F(HipOfflineCompile, ExampleMatmulForGfx942ThroughTheBackend) {
  const Config config = {{"BM", Value::integer(64)}, {"BN", Value::integer(64)}, {"BK", Value::integer(16)},
                         {"TM", Value::integer(4)},  {"TN", Value::integer(4)},  {"VEC", Value::integer(4)}};
  const CompileResult r = backend_->compiler().compile(matmul_request(config));
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_FALSE(r.cache_hit);
  ASSERT_TRUE(fs::exists(r.artifact));
  const amdgpu::CodeObject object = amdgpu::read_code_object(r.artifact.string());
  EXPECT_EQ(object.elf.processor, "gfx942");
  ASSERT_NE(object.find_kernel("matmul"), nullptr);
  const nlohmann::json& res = r.resources;
  EXPECT_EQ(res["lowered_name"], "matmul");
  EXPECT_EQ(res["arch"], "gfx942");
  EXPECT_EQ(res["target"], "gfx942");
  EXPECT_EQ(res["lds_bytes"], 16 * (64 + 64) * 4);  // As + Bs
  EXPECT_GT(res["vgpr_count"].get<int>(), 16);
  EXPECT_EQ(res["vgpr_count"], object.find_kernel("matmul")->vgpr_count);
  EXPECT_EQ(res["max_flat_workgroup_size"], 256);
  EXPECT_EQ(res["vgpr_spill_count"], 0);
  EXPECT_EQ(res["signature"], nlohmann::json({"float32*", "float32*", "float32*", "int32", "int32", "int32"}));
  EXPECT_TRUE(res.contains("compiler_occupancy"));
  ASSERT_TRUE(res.contains("isa")) << res.dump();
  EXPECT_GT(res["isa"]["counts"].value("global_load_128", 0), 0) << res["isa"].dump();
  EXPECT_TRUE(fs::exists(res["asm_path"].get<std::string>()));

  // Same request: from the cache, same artifact and resources.
  const CompileResult again = backend_->compiler().compile(matmul_request(config));
  ASSERT_TRUE(again.ok) << again.log;
  EXPECT_TRUE(again.cache_hit);
  EXPECT_EQ(again.artifact, r.artifact);
  EXPECT_EQ(again.resources, r.resources);

  // Screening with the example's launch: 256 threads, no dynamic LDS.
  LaunchGeometry g;
  g.block = {256, 1, 1};
  const ScreenResult s = backend_->screen(0, r, g);
  EXPECT_TRUE(s.launchable) << s.reason;
  EXPECT_GT(s.details.value("waves_per_simd", 0.0), 0.0);
  EXPECT_EQ(s.details["workgroup_size"], 256);
  // More threads than the kernel's __launch_bounds__ cannot launch.
  g.block = {512, 1, 1};
  EXPECT_FALSE(backend_->screen(0, r, g).launchable);
}

TEST_F(HipOfflineCompile, ExampleSpecConfigsThroughTheRegisteredBackend) {
  // What the tuner does with `kernel.language: hip`: the registry's "hip" backend compiles the
  // spec's kernel with the configuration as defines (first, middle and last of the space).
  const spec::TuningProblem problem =
      spec::load_spec(fs::path(KTUNE_SOURCE_DIR) / "examples/hip/matmul/matmul.yaml");
  ASSERT_EQ(problem.language, spec::Language::Hip);
  const space::SearchSpace space = problem.make_space();
  ASSERT_GT(space.size(), 100u);
  ScopedEnv cache_env("KTUNE_CACHE_DIR", cache_.string());
  auto backend = make_backend("hip");
  for (std::uint64_t index : {std::uint64_t{0}, space.size() / 2, space.size() - 1}) {
    const Config config = space.at(index);
    CompileRequest request;
    request.entry = problem.entry;
    request.sources = problem.sources;
    request.defines = config;
    request.user_flags = problem.flags;
    request.target = "gfx942";
    const CompileResult r = backend->compiler().compile(request);
    ASSERT_TRUE(r.ok) << config_key(config) << ": " << r.log;
    EXPECT_EQ(r.resources["lds_bytes"].get<std::int64_t>(),
              config.at("BK").as_int() * (config.at("BM").as_int() + config.at("BN").as_int()) * 4)
        << config_key(config);
    EXPECT_EQ(r.resources["max_flat_workgroup_size"].get<std::int64_t>(),
              config.at("BM").as_int() / config.at("TM").as_int() * (config.at("BN").as_int() / config.at("TN").as_int()));
    EXPECT_EQ(amdgpu::read_code_object(r.artifact.string()).elf.processor, "gfx942");
  }
}

TEST_F(HipOfflineCompile, NarrowLoadsAreSeenAndRankedBelow) {
  const Config wide = {{"BM", Value::integer(64)}, {"BN", Value::integer(64)}, {"BK", Value::integer(16)},
                       {"TM", Value::integer(4)},  {"TN", Value::integer(4)},  {"VEC", Value::integer(4)}};
  Config narrow = wide;
  narrow["VEC"] = Value::integer(1);
  const CompileResult w = backend_->compiler().compile(matmul_request(wide));
  const CompileResult n = backend_->compiler().compile(matmul_request(narrow));
  ASSERT_TRUE(w.ok && n.ok) << w.log << n.log;
  LaunchGeometry g;
  g.block = {256, 1, 1};
  const StaticAssessment aw = assess_static("gfx942", w.resources, g, false);
  const StaticAssessment an = assess_static("gfx942", n.resources, g, false);
  EXPECT_NE(std::find(aw.isa_strengths.begin(), aw.isa_strengths.end(), "dwordx4 loads"), aw.isa_strengths.end())
      << aw.why();
  ASSERT_FALSE(an.isa_problems.empty()) << an.why();
  EXPECT_TRUE(contains(an.isa_problems[0], "narrow global loads in loops")) << an.why();
  if (aw.waves_per_simd == an.waves_per_simd && aw.spills == an.spills) {
    EXPECT_TRUE(ranks_above(aw, an));
  }
  // Matrix kernel expected: an fp32 FMA loop has no MFMA, and says so.
  const StaticAssessment matrix = assess_static("gfx942", w.resources, g, true);
  EXPECT_NE(std::find(matrix.isa_problems.begin(), matrix.isa_problems.end(), "no MFMA in a matrix kernel"),
            matrix.isa_problems.end());
}

TEST_F(HipOfflineCompile, ErrorsAreResults) {
  Config bad = {{"BM", Value::integer(64)}, {"BN", Value::integer(64)}, {"BK", Value::integer(16)},
                {"TM", Value::integer(3)},  {"TN", Value::integer(4)},  {"VEC", Value::integer(4)}};  // TM does not divide BM
  const CompileResult r = backend_->compiler().compile(matmul_request(bad));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.log, "the thread tile must divide")) << r.log;
  EXPECT_TRUE(contains(r.log, (fs::path(KTUNE_SOURCE_DIR) / "examples/hip/matmul/matmul.hip").string() + ":"))
      << "diagnostics name the user's file: " << r.log;

  CompileRequest no_target = matmul_request({});
  no_target.target = "";
  EXPECT_TRUE(contains(backend_->compiler().compile(no_target).log, "no AMD GPU target"));
  CompileRequest nvidia = matmul_request({});
  nvidia.target = "sm_90a";
  EXPECT_TRUE(contains(backend_->compiler().compile(nvidia).log, "not an AMD GPU target"));
  CompileRequest wrong_entry = matmul_request({});
  wrong_entry.entry = "gemm";
  const CompileResult e = backend_->compiler().compile(wrong_entry);
  EXPECT_FALSE(e.ok);
  EXPECT_TRUE(contains(e.log, "no kernel 'gemm'") && contains(e.log, "matmul")) << e.log;
}

// ---- the static model on recorded figures --------------------------------------------------------

nlohmann::json resources(int vgprs, std::int64_t lds, int spills = 0, nlohmann::json counts = nlohmann::json::object()) {
  return {{"vgpr_count", vgprs}, {"sgpr_count", 24}, {"lds_bytes", lds}, {"vgpr_spill_count", spills},
          {"sgpr_spill_count", 0}, {"private_segment_fixed_size", spills * 4}, {"wavefront_size", 64},
          {"max_flat_workgroup_size", 256}, {"isa", {{"counts", counts}}}};
}

TEST(StaticRank, OccupancyFirstThenSpillsThenIsaThenLds) {
  LaunchGeometry g;
  g.block = {256, 1, 1};
  const nlohmann::json wide = {{"global_load_128", 4}, {"global_load_128_in_loop", 2}, {"shared_128_in_loop", 8}};
  const nlohmann::json narrow = {{"global_load_narrow", 8}, {"global_load_narrow_in_loop", 8}};
  const auto eight_waves = assess_static("gfx942", resources(64, 8192, 0, narrow), g, false);
  const auto four_waves = assess_static("gfx942", resources(128, 8192, 0, wide), g, false);
  EXPECT_EQ(eight_waves.waves_per_simd, 8);
  EXPECT_EQ(four_waves.waves_per_simd, 4);
  EXPECT_TRUE(ranks_above(eight_waves, four_waves));
  EXPECT_FALSE(ranks_above(four_waves, eight_waves));

  const auto spilling = assess_static("gfx942", resources(64, 8192, 6, wide), g, false);
  EXPECT_TRUE(ranks_above(eight_waves, spilling));  // same occupancy, no spills wins over better ISA
  const auto wide8 = assess_static("gfx942", resources(64, 4096, 0, wide), g, false);
  EXPECT_TRUE(ranks_above(wide8, eight_waves));
  EXPECT_EQ(wide8.why(), "8 waves/SIMD, no spills, dwordx4 loads, b128 LDS, 4 KiB LDS");
  // 8 KiB for 4-wave workgroups still fits 8 of them in 64 KiB: same occupancy, more reuse.
  const auto more_lds = assess_static("gfx942", resources(64, 8192, 0, wide), g, false);
  EXPECT_EQ(more_lds.waves_per_simd, 8);
  EXPECT_TRUE(ranks_above(more_lds, wide8));

  // LDS over 64 KiB cannot launch and ranks last, saying why.
  const auto too_much = assess_static("gfx942", resources(32, 70000, 0, wide), g, false);
  EXPECT_FALSE(too_much.launchable);
  EXPECT_TRUE(ranks_above(spilling, too_much));
  EXPECT_TRUE(contains(too_much.why(), "cannot launch")) << too_much.why();
  // gfx950 has 160 KiB of LDS: the same kernel fits.
  EXPECT_TRUE(assess_static("gfx950", resources(32, 70000, 0, wide), g, false).launchable);
  EXPECT_TRUE(contains(four_waves.why(), "4 waves/SIMD (limited by VGPRs)")) << four_waves.why();
}

}  // namespace
}  // namespace ktune::device::hip
