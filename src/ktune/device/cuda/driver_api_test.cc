#include "ktune/device/cuda/driver_api.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "ktune/analysis/occupancy_nvidia.h"
#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/nvrtc.h"

namespace ktune::cuda {
namespace {

// --- Without a GPU: loading fails with a sentence that says why. ---

TEST(CudaDriverLoad, FailsGracefullyOrWorks) {
  Loaded<CudaDriver> driver = CudaDriver::load();
  if (driver) {
    EXPECT_GT(driver->version(), 10000);
    std::printf("driver %s at %s\n", driver->version_string().c_str(), driver->library_path().c_str());
    return;
  }
  std::printf("as expected without a GPU driver: %s\n", driver.error.c_str());
  EXPECT_EQ(driver.error.rfind("CUDA driver not available: ", 0), 0u) << driver.error;
  EXPECT_NE(driver.error.find("libcuda.so"), std::string::npos) << driver.error;
}

TEST(CudaDriverLoad, ToolkitStubSaysNoDriverInstalled) {
  const std::string stub = std::string(KTUNE_CUDA_HOME) + "/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub)) GTEST_SKIP() << "no stub library at " << stub;
  Loaded<CudaDriver> driver = CudaDriver::load_from(stub);
  ASSERT_FALSE(driver);
  EXPECT_NE(driver.error.find("CUDA_ERROR_STUB_LIBRARY"), std::string::npos) << driver.error;
  EXPECT_NE(driver.error.find("no GPU driver installed"), std::string::npos) << driver.error;
}

TEST(CudaDriverLoad, WrongLibraryNamesMissingEntryPoints) {
  Loaded<CudaDriver> driver = CudaDriver::load_from("libm.so.6");
  ASSERT_FALSE(driver);
  EXPECT_NE(driver.error.find("lacks cuInit"), std::string::npos) << driver.error;
  EXPECT_NE(driver.error.find("cuLaunchKernel"), std::string::npos) << driver.error;
}

TEST(CudaDriverLoad, EnvironmentOverrideIsStrict) {
  const char* old = std::getenv("KTUNE_CUDA_DRIVER_PATH");
  const std::string saved = old ? old : "";
  setenv("KTUNE_CUDA_DRIVER_PATH", "/nonexistent/libcuda.so.1", 1);
  Loaded<CudaDriver> driver = CudaDriver::load();
  if (old) {
    setenv("KTUNE_CUDA_DRIVER_PATH", saved.c_str(), 1);
  } else {
    unsetenv("KTUNE_CUDA_DRIVER_PATH");
  }
  ASSERT_FALSE(driver);
  EXPECT_NE(driver.error.find("/nonexistent/libcuda.so.1"), std::string::npos) << driver.error;
  EXPECT_NE(driver.error.find("is the NVIDIA driver installed?"), std::string::npos) << driver.error;
}

TEST(CudaErrorName, KnownAndUnknownCodes) {
  EXPECT_EQ(cuda_error_name(0), "CUDA_SUCCESS");
  EXPECT_EQ(cuda_error_name(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(cuda_error_name(701), "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  EXPECT_EQ(cuda_error_name(12345), "CUDA error 12345");
}

TEST(OccupancyArch, DeviceLimitsOverrideTheTable) {
  CudaDeviceProperties h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_major = 9;
  h100.compute_minor = 0;
  h100.max_threads_per_block = 1024;
  h100.max_threads_per_multiprocessor = 2048;
  h100.max_blocks_per_multiprocessor = 32;
  h100.registers_per_multiprocessor = 65536;
  h100.registers_per_block = 65536;
  h100.shared_memory_per_block = 49152;
  h100.shared_memory_per_block_optin = 232448;
  h100.shared_memory_per_multiprocessor = 233472;
  h100.reserved_shared_memory_per_block = 1024;
  analysis::NvidiaArch arch = occupancy_arch(h100);
  const analysis::NvidiaArch& table = analysis::nvidia_arch("sm_90");
  EXPECT_EQ(arch.name, "sm_90");
  EXPECT_EQ(arch.max_threads_per_sm, table.max_threads_per_sm);
  EXPECT_EQ(arch.shared_memory_per_sm, table.shared_memory_per_sm);
  EXPECT_EQ(arch.shared_memory_per_block_optin, table.shared_memory_per_block_optin);
  EXPECT_EQ(arch.carveout_steps_kib, table.carveout_steps_kib);

  // A capability without its own table borrows the nearest one of its major version.
  CudaDeviceProperties future = h100;
  future.name = "future part";
  future.compute_minor = 3;
  future.max_threads_per_multiprocessor = 1536;
  analysis::NvidiaArch borrowed = occupancy_arch(future);
  EXPECT_EQ(borrowed.name, "sm_93");
  EXPECT_EQ(borrowed.max_warps_per_sm(), 48);
  EXPECT_NE(borrowed.notes.find("borrowed from sm_90"), std::string::npos) << borrowed.notes;
  analysis::OccupancyInput in{256, 32, 0, 0, 1, std::nullopt};
  EXPECT_EQ(analysis::nvidia_occupancy(borrowed, in).active_blocks_per_sm, 6);

  CudaDeviceProperties unknown = h100;
  unknown.compute_major = 42;
  EXPECT_THROW(occupancy_arch(unknown), std::invalid_argument);

  h100.memory_clock_khz = 2619000;
  h100.memory_bus_width_bits = 5120;
  EXPECT_NEAR(h100.peak_memory_bandwidth_bytes_per_second(), 3.352e12, 1e9);
  EXPECT_EQ(to_json(h100)["compute_capability"], "9.0");
}

// --- With a GPU (the device machines): real driver calls, checked against ktune's own models. ---

class CudaGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Loaded<CudaDriver> loaded = CudaDriver::load();
    if (!loaded) {
      std::printf("skipping: %s\n", loaded.error.c_str());
      GTEST_SKIP() << loaded.error;
    }
    driver_ = loaded.value;
    if (driver_->device_count() == 0) GTEST_SKIP() << "driver loaded but no CUDA device";
    const DriverApi& api = driver_->api();
    driver_->check(api.cuDeviceGet(&device_, 0), "cuDeviceGet");
    driver_->check(api.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
    driver_->check(api.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    properties_ = query_device_properties(*driver_, 0);
  }
  void TearDown() override {
    if (driver_ && context_) driver_->api().cuDevicePrimaryCtxRelease(device_);
  }

  CUmodule load_module(const std::string& source, const std::vector<std::string>& options,
                       const std::vector<std::string>& names, NvrtcResult* out) {
    Loaded<NvrtcCompiler> nvrtc = NvrtcCompiler::load();
    if (!nvrtc) {
      ADD_FAILURE() << nvrtc.error;
      return nullptr;
    }
    NvrtcRequest request;
    request.source = source;
    request.arch = properties_.arch();
    request.options = options;
    request.name_expressions = names;
    *out = nvrtc->compile(request);
    if (!out->ok) {
      ADD_FAILURE() << out->error << "\n" << out->log;
      return nullptr;
    }
    CUmodule module = nullptr;
    driver_->check(driver_->api().cuModuleLoadData(&module, out->cubin.data()), "cuModuleLoadData");
    return module;
  }

  std::shared_ptr<CudaDriver> driver_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CudaDeviceProperties properties_;
};

TEST_F(CudaGpuTest, PropertiesMatchTheOccupancyTable) {
  std::printf("%s\n", to_json(properties_).dump(2).c_str());
  EXPECT_FALSE(properties_.name.empty());
  EXPECT_EQ(properties_.uuid.rfind("GPU-", 0), 0u);
  EXPECT_GT(properties_.multiprocessors, 0);
  EXPECT_GT(properties_.total_memory_bytes, 0);
  const analysis::NvidiaArch* table = analysis::find_nvidia_arch(properties_.compute_major, properties_.compute_minor);
  if (!table) GTEST_SKIP() << "no table entry for " << properties_.arch();
  EXPECT_EQ(table->max_threads_per_sm, properties_.max_threads_per_multiprocessor);
  EXPECT_EQ(table->max_blocks_per_sm, properties_.max_blocks_per_multiprocessor);
  EXPECT_EQ(table->registers_per_sm, properties_.registers_per_multiprocessor);
  EXPECT_EQ(table->registers_per_block, properties_.registers_per_block);
  EXPECT_EQ(table->shared_memory_per_sm, properties_.shared_memory_per_multiprocessor);
  EXPECT_EQ(table->shared_memory_per_block, properties_.shared_memory_per_block);
  EXPECT_EQ(table->shared_memory_per_block_optin, properties_.shared_memory_per_block_optin);
  EXPECT_EQ(table->reserved_shared_memory_per_block, properties_.reserved_shared_memory_per_block);
}

// The strongest check of analysis/occupancy_nvidia: the driver's own answer for real kernels.
TEST_F(CudaGpuTest, OccupancyMatchesTheDriver) {
  const char* source = R"(
template <int TILE>
__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
template __global__ void sgemm<16>(const float*, const float*, float*, int, int, int);
extern "C" __global__ void dynamic_smem(float* out) {
  extern __shared__ float buffer[];
  buffer[threadIdx.x] = threadIdx.x;
  asm volatile("bar.sync 1, 64;");
  asm volatile("bar.sync 2, 64;");
  asm volatile("bar.sync 3, 64;");
  __syncthreads();
  out[threadIdx.x] = buffer[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void register_hungry(const float* in, float* out) {
  float v[96];
#pragma unroll
  for (int i = 0; i < 96; ++i) v[i] = in[threadIdx.x + i * 1024];
  float acc = 0;
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int i = 0; i < 96; ++i) { acc = acc * v[(i * 7 + r) % 96] + v[i]; v[i] = acc * 0.5f + v[(i + 1) % 96]; }
#pragma unroll
  for (int i = 0; i < 96; ++i) out[threadIdx.x + i * 1024] = v[i];
}
)";
  NvrtcResult compiled;
  CUmodule module = load_module(source, {}, {"sgemm<16>", "dynamic_smem", "register_hungry"}, &compiled);
  ASSERT_NE(module, nullptr);
  const DriverApi& api = driver_->api();
  const analysis::NvidiaArch arch = occupancy_arch(properties_);

  long compared = 0;
  long mismatches = 0;
  for (const auto& [expression, mangled] : compiled.lowered_names) {
    CUfunction function = nullptr;
    driver_->check(api.cuModuleGetFunction(&function, module, mangled.c_str()), "cuModuleGetFunction");
    const analysis::KernelResourceUsage* usage = compiled.resources.find(mangled);
    ASSERT_NE(usage, nullptr) << mangled;
    int regs = 0, static_smem = 0, max_threads = 0;
    driver_->check(api.cuFuncGetAttribute(&regs, cu::kFuncNumRegs, function), "cuFuncGetAttribute");
    driver_->check(api.cuFuncGetAttribute(&static_smem, cu::kFuncSharedSizeBytes, function), "cuFuncGetAttribute");
    driver_->check(api.cuFuncGetAttribute(&max_threads, cu::kFuncMaxThreadsPerBlock, function), "cuFuncGetAttribute");
    EXPECT_EQ(regs, usage->registers) << expression << ": the driver and ptxas -v disagree";
    EXPECT_EQ(static_smem, usage->shared_bytes) << expression;
    std::printf("%s: %d registers, %d static smem, %d barriers\n", expression.c_str(), regs, static_smem,
                usage->barriers);

    for (int carveout : {-1, 0, 25, 50, 100}) {
      driver_->check(api.cuFuncSetAttribute(function, cu::kFuncPreferredSharedMemoryCarveout, carveout),
                     "cuFuncSetAttribute(carveout)");
      for (int threads : {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024}) {
        if (threads > max_threads) continue;
        for (std::int64_t dynamic : {0, 1000, 16384, 40000, 65536, 100000, 150000, 200000, 232448}) {
          if (dynamic + static_smem > properties_.shared_memory_per_block_optin) continue;
          driver_->check(api.cuFuncSetAttribute(function, cu::kFuncMaxDynamicSharedSizeBytes, static_cast<int>(dynamic)),
                         "cuFuncSetAttribute(max dynamic smem)");
          int expected = -1;
          driver_->check(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&expected, function, threads,
                                                                         static_cast<std::size_t>(dynamic)),
                         "cuOccupancyMaxActiveBlocksPerMultiprocessor");
          analysis::OccupancyInput in;
          in.threads_per_block = threads;
          in.registers_per_thread = regs;
          in.static_shared_bytes = static_smem;
          in.dynamic_shared_bytes = dynamic;
          in.barriers = usage->barriers;
          if (carveout >= 0) in.carveout_percent = carveout;
          analysis::OccupancyResult got = analysis::nvidia_occupancy(arch, in);
          ++compared;
          if (got.active_blocks_per_sm != expected && ++mismatches <= 20) {
            ADD_FAILURE() << expression << " threads=" << threads << " dynamic=" << dynamic << " carveout=" << carveout
                          << ": driver " << expected << " blocks/SM, ktune " << got.summary();
          }
        }
      }
    }
  }
  std::printf("occupancy: %ld launches compared with the driver, %ld mismatches\n", compared, mismatches);
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(compared, 100);
  api.cuModuleUnload(module);
}

TEST_F(CudaGpuTest, LaunchCopyTimeAndHostFlagWait) {
  const char* source = R"(
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";
  NvrtcResult compiled;
  CUmodule module = load_module(source, {}, {"axpy"}, &compiled);
  ASSERT_NE(module, nullptr);
  const DriverApi& api = driver_->api();
  CUfunction axpy = nullptr;
  driver_->check(api.cuModuleGetFunction(&axpy, module, "axpy"), "cuModuleGetFunction");

  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = 1.0f;
  }
  CUdeviceptr dx = 0, dy = 0;
  driver_->check(api.cuMemAlloc(&dx, n * sizeof(float)), "cuMemAlloc");
  driver_->check(api.cuMemAlloc(&dy, n * sizeof(float)), "cuMemAlloc");
  driver_->check(api.cuMemcpyHtoD(dx, x.data(), n * sizeof(float)), "cuMemcpyHtoD");
  driver_->check(api.cuMemcpyHtoD(dy, y.data(), n * sizeof(float)), "cuMemcpyHtoD");

  CUstream stream = nullptr;
  driver_->check(api.cuStreamCreate(&stream, cu::kStreamNonBlocking), "cuStreamCreate");
  CUevent start = nullptr, stop = nullptr;
  driver_->check(api.cuEventCreate(&start, cu::kEventDefault), "cuEventCreate");
  driver_->check(api.cuEventCreate(&stop, cu::kEventDefault), "cuEventCreate");

  // A host-mapped flag the stream waits on: launches queue behind it, so timing excludes
  // launch overhead (what nvbench's blocking kernel does).
  void* host_flag = nullptr;
  driver_->check(api.cuMemHostAlloc(&host_flag, sizeof(std::uint32_t), cu::kMemHostAllocPortable | cu::kMemHostAllocDeviceMap),
                 "cuMemHostAlloc");
  auto* flag = static_cast<volatile std::uint32_t*>(host_flag);
  *flag = 0;
  CUdeviceptr device_flag = 0;
  driver_->check(api.cuMemHostGetDevicePointer(&device_flag, host_flag, 0), "cuMemHostGetDevicePointer");
  bool waited = false;
  if (api.cuStreamWaitValue32) {
    CUresult rc = api.cuStreamWaitValue32(stream, device_flag, 1, cu::kStreamWaitValueGeq);
    if (rc == cu::kSuccess) {
      waited = true;
    } else {
      std::printf("cuStreamWaitValue32 not usable here: %s\n", driver_->error_text(rc).c_str());
    }
  }
  float a = 2.0f;
  int count = n;
  void* params[] = {&a, &dx, &dy, &count};
  driver_->check(api.cuEventRecord(start, stream), "cuEventRecord");
  driver_->check(api.cuLaunchKernel(axpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, params, nullptr),
                 "cuLaunchKernel");
  driver_->check(api.cuEventRecord(stop, stream), "cuEventRecord");
  if (waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(api.cuStreamQuery(stream), cu::kErrorNotReady) << "the stream should be held by the flag";
    *flag = 1;
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  driver_->check(api.cuEventSynchronize(stop), "cuEventSynchronize");
  float ms = 0;
  driver_->check(api.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
  EXPECT_GT(ms, 0.0f);
  std::printf("axpy of %d floats: %.3f ms (%s)\n", n, ms, waited ? "queued behind a host flag" : "plain launch");

  driver_->check(api.cuMemcpyDtoH(y.data(), dy, n * sizeof(float)), "cuMemcpyDtoH");
  for (int i = 0; i < n; i += 4099) ASSERT_FLOAT_EQ(y[i], 2.0f * static_cast<float>(i % 1000) + 1.0f) << i;

  driver_->check(api.cuMemsetD8(dy, 0, n * sizeof(float)), "cuMemsetD8");
  driver_->check(api.cuMemcpyDtoH(y.data(), dy, n * sizeof(float)), "cuMemcpyDtoH");
  EXPECT_EQ(y[n / 2], 0.0f);

  // A launch the hardware refuses comes back as a clear error, not a crash.
  CUresult too_big = api.cuLaunchKernel(axpy, 1, 1, 1, 2048, 1, 1, 0, stream, params, nullptr);
  EXPECT_NE(too_big, cu::kSuccess);
  std::printf("2048-thread launch: %s\n", driver_->error_text(too_big).c_str());

  api.cuEventDestroy(start);
  api.cuEventDestroy(stop);
  api.cuStreamDestroy(stream);
  api.cuMemFreeHost(host_flag);
  api.cuMemFree(dx);
  api.cuMemFree(dy);
  api.cuModuleUnload(module);
}

}  // namespace
}  // namespace ktune::cuda
