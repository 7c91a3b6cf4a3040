// ktune's generated kernels as IREE executable objects, wgmma path: the seed dispatch
// (2048x10240x1280 f16 -> f32, IREE 3.13's own dump in testdata/) gets wgmma candidates for a
// Hopper GPU, whose entry builds its tensor maps on the device; NVRTC compiles them for sm_90a
// (no GPU needed). On a Hopper GPU the objects are also launched exactly as IREE's CUDA HAL
// launches them (PTX loaded by the driver, one device pointer per binding, the export's grid,
// workgroup size and dynamic shared memory) on random data, and checked against an fp64
// reference; the other tests skip, printing why, without NVRTC or such a GPU.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "ktune/core/element_type.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/device/cuda/nvrtc.h"
#include "ktune/families/gpu_test_support.h"
#include "ktune/iree/generated_object.h"
#include "ktune/iree/testdata.h"

namespace ktune::iree {
namespace {

namespace kc = ktune::cuda;

struct Seed {
  ConfiguredDispatch dispatch;
  DispatchGemm gemm;
};

Seed seed() {
  Seed s;
  const std::string text = testing::read_testdata("configured_matmul_sm80.mlir");
  s.dispatch = parse_configured_dispatch(text, "configured_matmul_sm80.mlir");
  const DispatchGemmResult r = recognize_dispatch_gemm(s.dispatch, text);
  if (r.gemm) s.gemm = *r.gemm;
  return s;
}

generated::DeviceTraits h100() {
  const ObjectDeviceChoice c = resolve_object_device("sm_90a", 0);
  return *c.device;
}

std::vector<ObjectCandidate> wgmma_only(const std::vector<ObjectCandidate>& all) {
  std::vector<ObjectCandidate> out;
  for (const auto& c : all)
    if (c.knobs.path == generated::KernelPath::Wgmma) out.push_back(c);
  return out;
}

TEST(GeneratedObject, AHopperDeviceGetsWgmmaCandidatesBesideMmaSync) {
  const Seed s = seed();
  ASSERT_EQ(s.gemm.problem.m, 2048);
  std::string why;
  const std::vector<ObjectCandidate> all = object_candidates(s.gemm, h100(), 8, &why);
  ASSERT_EQ(all.size(), 8u) << why;
  const std::vector<ObjectCandidate> wgmma = wgmma_only(all);
  EXPECT_GE(wgmma.size(), 1u);
  EXPECT_LE(wgmma.size(), 6u);  // a quarter kept for the other path
  for (const auto& c : wgmma) {
    EXPECT_EQ(c.label.rfind("ktune/wgmma/", 0), 0u) << c.label;
    EXPECT_EQ(c.knobs.split_k, 1);
    EXPECT_EQ(c.device.compute_capability, 90);
  }
  // The dispatch's own target (sm_80) keeps mma.sync alone, as before.
  for (const auto& c : object_candidates(s.gemm, s.dispatch, 8, &why)) EXPECT_EQ(c.knobs.path, generated::KernelPath::MmaSync);
}

TEST(GeneratedObject, ObjectArchSpellings) {
  EXPECT_FALSE(resolve_object_device("target", 0).device);
  const ObjectDeviceChoice a = resolve_object_device("sm_90a", 0);
  ASSERT_TRUE(a.device);
  EXPECT_EQ(a.device->sm_count, 132);
  EXPECT_THROW(resolve_object_device("gfx942", 0), std::invalid_argument);
  EXPECT_THROW(resolve_object_device("hopper", 0), std::invalid_argument);
  // Without a driver (CI), auto says so and falls back to the target; with one it names the GPU.
  const ObjectDeviceChoice automatic = resolve_object_device("auto", 0);
  EXPECT_FALSE(automatic.note.empty());
}

TEST(GeneratedObject, TheWgmmaEntryBuildsItsTensorMapsAndCompilesForSm90a) {
  const Seed s = seed();
  std::string why;
  const std::vector<ObjectCandidate> wgmma = wgmma_only(object_candidates(s.gemm, h100(), 8, &why));
  ASSERT_FALSE(wgmma.empty()) << why;
  const ObjectCandidate& c = wgmma.front();
  const std::string source = emit_object_source(s.gemm, c, s.dispatch);
  EXPECT_NE(source.find("#define KT90_NO_DEFAULT_ENTRY 1"), std::string::npos);
  EXPECT_NE(source.find("kt90_build_tensor_maps(p, kt_map_staging, maps);"), std::string::npos);
  EXPECT_NE(source.find(s.dispatch.export_name + "(char* binding0, char* binding1, char* binding2)"), std::string::npos) << source;

  const Loaded<kc::NvrtcCompiler> nvrtc = kc::NvrtcCompiler::load();
  KTUNE_SKIP_IF(nvrtc ? std::string() : "no NVRTC: " + nvrtc.error);
  kc::NvrtcRequest request;
  request.source = source;
  request.arch = "sm_90a";
  request.options = {"-std=c++17"};
  const kc::NvrtcResult r = nvrtc->compile(request);
  ASSERT_TRUE(r.ok) << r.error << "\n" << r.log;
  EXPECT_NE(r.ptx.find("tensormap.replace.tile.global_address.shared::cta"), std::string::npos);
  EXPECT_NE(r.ptx.find("tensormap.cp_fenceproxy"), std::string::npos);
  EXPECT_NE(r.ptx.find("wgmma.mma_async"), std::string::npos);
  EXPECT_EQ(r.ptx.find(".entry ktune_gemm_sm90"), std::string::npos);  // the dispatch's entry alone
  EXPECT_NE(r.ptx.find(".entry " + s.dispatch.export_name), std::string::npos);
  const analysis::KernelResourceUsage* usage = r.resources.find(s.dispatch.export_name);
  ASSERT_NE(usage, nullptr) << r.log;
  EXPECT_FALSE(usage->has_spills()) << r.log;
}

// ---- on a Hopper GPU -----------------------------------------------------------------------

struct Gpu {
  std::string skip_reason;
  std::shared_ptr<const kc::CudaDriver> driver;
  kc::CUcontext context = nullptr;
  generated::DeviceTraits traits;
};

const Gpu& gpu() {
  static const Gpu g = [] {
    Gpu r;
    const ktune::testing::TestDriver loaded = ktune::testing::load_test_driver();
    if (!loaded.driver) {
      r.skip_reason = loaded.skip_reason;
      return r;
    }
    r.driver = loaded.driver;
    kc::CUdevice device = 0;
    r.driver->check(r.driver->api().cuDeviceGet(&device, 0), "cuDeviceGet");
    r.driver->check(r.driver->api().cuDevicePrimaryCtxRetain(&r.context, device), "cuDevicePrimaryCtxRetain");
    r.driver->check(r.driver->api().cuCtxSetCurrent(r.context), "cuCtxSetCurrent");
    r.traits = *resolve_object_device("auto", 0).device;
    if (r.traits.compute_capability != 90) r.skip_reason = "wgmma objects need an sm_90 GPU; GPU 0 is " + r.traits.name;
    std::printf("GPU 0: %s (sm_%d, %d SMs)\n", r.traits.name.c_str(), r.traits.compute_capability, r.traits.sm_count);
    return r;
  }();
  return g;
}

// Bytes each binding must hold: the furthest operand end in it.
std::vector<std::size_t> binding_bytes(const DispatchGemm& g) {
  std::vector<std::size_t> bytes(static_cast<std::size_t>(g.binding_count), 0);
  const gemm::GemmProblem& p = g.problem;
  for (const GemmOperand& o : g.operands) {
    std::size_t elements = 0, size = 2;
    switch (o.role) {
      case GemmRole::A: elements = static_cast<std::size_t>(p.m * p.k); break;
      case GemmRole::B: elements = static_cast<std::size_t>(p.k * p.n); break;
      case GemmRole::Bias: elements = static_cast<std::size_t>(p.n); break;
      default: elements = static_cast<std::size_t>(p.m * p.n); size = p.out == gemm::Storage::F32 ? 4 : 2;
    }
    auto& b = bytes[static_cast<std::size_t>(o.binding)];
    b = std::max(b, static_cast<std::size_t>(o.offset_bytes) + elements * size);
  }
  return bytes;
}

struct RunResult {
  double max_rel_error = 0;
  std::size_t nan_count = 0;
  double seconds_per_launch = 0;
};

// Launches `c` as IREE's CUDA HAL would and checks D (f32, row-major M x N) against fp64 at
// 4096 random points, and that every element was written (D was NaN-poisoned).
RunResult run_object(const Seed& s, const ObjectCandidate& c) {
  const auto& api = gpu().driver->api();
  auto check = [&](kc::CUresult rc, const char* call) { gpu().driver->check(rc, call); };
  const Loaded<kc::NvrtcCompiler> nvrtc = kc::NvrtcCompiler::load();
  if (!nvrtc) throw std::runtime_error(nvrtc.error);
  kc::NvrtcRequest request;
  request.source = emit_object_source(s.gemm, c, s.dispatch);
  request.arch = "sm_90a";
  request.options = {"-std=c++17"};
  const kc::NvrtcResult compiled = nvrtc->compile(request);
  if (!compiled.ok) throw std::runtime_error(compiled.error + "\n" + compiled.log);

  kc::CUmodule module = nullptr;
  check(api.cuModuleLoadData(&module, compiled.ptx.c_str()), "cuModuleLoadData");
  kc::CUfunction fn = nullptr;
  check(api.cuModuleGetFunction(&fn, module, s.dispatch.export_name.c_str()), "cuModuleGetFunction");
  const generated::Launch launch = generated::plan_launch(c.knobs, generated::problem_traits(s.gemm.problem), c.device);
  check(api.cuFuncSetAttribute(fn, kc::cu::kFuncMaxDynamicSharedSizeBytes, launch.shape.dynamic_shared_bytes), "cuFuncSetAttribute");

  const gemm::GemmProblem& p = s.gemm.problem;
  const std::vector<std::size_t> sizes = binding_bytes(s.gemm);
  std::vector<std::vector<unsigned char>> host(sizes.size());
  std::vector<kc::CUdeviceptr> device(sizes.size(), 0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    host[i].assign(sizes[i], 0xFF);  // NaN in f16 and f32
    check(api.cuMemAlloc(&device[i], sizes[i]), "cuMemAlloc");
  }
  const GemmOperand *a = nullptr, *b = nullptr, *d = nullptr;
  for (const GemmOperand& o : s.gemm.operands) (o.role == GemmRole::A ? a : o.role == GemmRole::B ? b : d) = &o;
  auto fill = [&](const GemmOperand* o, std::size_t n) {
    for (std::size_t e = 0; e < n; ++e)
      store_element(host[o->binding].data() + o->offset_bytes, e, ElementType::F16, uniform(rng));
  };
  fill(a, static_cast<std::size_t>(p.m * p.k));
  fill(b, static_cast<std::size_t>(p.k * p.n));
  for (std::size_t i = 0; i < sizes.size(); ++i) check(api.cuMemcpyHtoD(device[i], host[i].data(), sizes[i]), "cuMemcpyHtoD");

  std::vector<void*> args;
  for (auto& ptr : device) args.push_back(&ptr);
  auto launch_once = [&] {
    check(api.cuLaunchKernel(fn, launch.grid[0], launch.grid[1], launch.grid[2], static_cast<unsigned>(launch.shape.threads), 1, 1,
                             static_cast<unsigned>(launch.shape.dynamic_shared_bytes), nullptr, args.data(), nullptr),
          "cuLaunchKernel");
  };
  launch_once();
  check(api.cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<unsigned char> out(sizes[d->binding]);
  check(api.cuMemcpyDtoH(out.data(), device[d->binding], out.size()), "cuMemcpyDtoH");

  RunResult r;
  const unsigned char* dbase = out.data() + d->offset_bytes;
  for (std::int64_t e = 0; e < p.m * p.n; ++e)
    if (std::isnan(load_element(dbase, static_cast<std::size_t>(e), ElementType::F32))) ++r.nan_count;
  const unsigned char* abase = host[a->binding].data() + a->offset_bytes;
  const unsigned char* bbase = host[b->binding].data() + b->offset_bytes;
  std::uniform_int_distribution<std::int64_t> row(0, p.m - 1), col(0, p.n - 1);
  for (int t = 0; t < 4096; ++t) {
    const std::int64_t i = row(rng), j = col(rng);
    double ref = 0, magnitude = 0;
    for (std::int64_t k = 0; k < p.k; ++k) {
      const double x = load_element(abase, static_cast<std::size_t>(i * p.k + k), ElementType::F16) *
                       load_element(bbase, static_cast<std::size_t>(k * p.n + j), ElementType::F16);
      ref += x;
      magnitude += std::fabs(x);
    }
    const double got = load_element(dbase, static_cast<std::size_t>(i * p.n + j), ElementType::F32);
    r.max_rel_error = std::max(r.max_rel_error, std::fabs(got - ref) / std::max(1.0, magnitude));
  }

  kc::CUevent start = nullptr, stop = nullptr;
  check(api.cuEventCreate(&start, kc::cu::kEventDefault), "cuEventCreate");
  check(api.cuEventCreate(&stop, kc::cu::kEventDefault), "cuEventCreate");
  for (int w = 0; w < 5; ++w) launch_once();
  check(api.cuEventRecord(start, nullptr), "cuEventRecord");
  const int launches = 50;
  for (int w = 0; w < launches; ++w) launch_once();
  check(api.cuEventRecord(stop, nullptr), "cuEventRecord");
  check(api.cuEventSynchronize(stop), "cuEventSynchronize");
  float ms = 0;
  check(api.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  r.seconds_per_launch = ms * 1e-3 / launches;
  api.cuEventDestroy(start);
  api.cuEventDestroy(stop);
  for (auto ptr : device) api.cuMemFree(ptr);
  api.cuModuleUnload(module);
  return r;
}

TEST(GeneratedObjectGpu, WgmmaObjectsComputeTheSeedDispatchAsIreeLaunchesThem) {
  KTUNE_SKIP_IF(gpu().skip_reason);
  const Seed s = seed();
  std::string why;
  const std::vector<ObjectCandidate> wgmma = wgmma_only(object_candidates(s.gemm, gpu().traits, 8, &why));
  ASSERT_FALSE(wgmma.empty()) << why;
  const double flops = 2.0 * s.gemm.problem.m * s.gemm.problem.n * s.gemm.problem.k;
  for (const ObjectCandidate& c : wgmma) {
    const RunResult r = run_object(s, c);
    std::printf("%s: max relative error %.2e, %zu unwritten, %.1f us (%.0f TFLOP/s, 50 back-to-back launches, L2 warm)\n",
                c.label.c_str(), r.max_rel_error, r.nan_count, r.seconds_per_launch * 1e6, flops / r.seconds_per_launch * 1e-12);
    EXPECT_EQ(r.nan_count, 0u) << c.label;
    EXPECT_LT(r.max_rel_error, 1e-3) << c.label;
  }
}

}  // namespace
}  // namespace ktune::iree
