// Compares ktune's occupancy calculator with NVIDIA's header-only calculator
// (cuda_occupancy.h from the CUDA toolkit) over a grid of launches. The header runs on the host
// without a GPU; it is built only when the toolkit is installed (see CMakeLists.txt).

#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ktune/analysis/occupancy_nvidia.h"

namespace ktune::analysis {
namespace {

// What cudaGetDeviceProperties reports on a device of each capability (facts about shipped
// parts, written down independently of ktune's table).
struct DeviceFacts {
  int major;
  int minor;
  int max_threads_per_sm;
  std::size_t shared_per_sm;
  std::size_t shared_per_block_optin;
};

const DeviceFacts kDevices[] = {
    {8, 0, 2048, 167936, 166912},  // A100
    {8, 6, 1536, 102400, 101376},  // RTX 3090
    {8, 7, 1536, 167936, 166912},  // Jetson AGX Orin
    {8, 9, 1536, 102400, 101376},  // RTX 4090 / L40S
    {9, 0, 2048, 233472, 232448},  // H100 / H200
    {10, 0, 2048, 233472, 232448}, // B200
    {12, 0, 1536, 102400, 101376}, // RTX 5090
};

cudaOccDeviceProp device_prop(const DeviceFacts& d) {
  cudaOccDeviceProp p;
  p.computeMajor = d.major;
  p.computeMinor = d.minor;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.sharedMemPerBlock = 49152;
  p.sharedMemPerMultiprocessor = d.shared_per_sm;
  p.numSms = 100;
  p.sharedMemPerBlockOptin = d.shared_per_block_optin;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

unsigned limiter_bits(const OccupancyResult& r) {
  unsigned bits = 0;
  for (OccupancyLimiter l : r.limiters) {
    switch (l) {
      case OccupancyLimiter::Warps: bits |= OCC_LIMIT_WARPS; break;
      case OccupancyLimiter::Registers: bits |= OCC_LIMIT_REGISTERS; break;
      case OccupancyLimiter::SharedMemory: bits |= OCC_LIMIT_SHARED_MEMORY; break;
      case OccupancyLimiter::Blocks: bits |= OCC_LIMIT_BLOCKS; break;
      case OccupancyLimiter::Barriers: bits |= OCC_LIMIT_BARRIERS; break;
    }
  }
  return bits;
}

TEST(NvidiaOccupancyCrosscheck, MatchesCudaOccupancyHeaderOnAGrid) {
  const std::vector<int> threads = {1, 32, 33, 64, 96, 128, 160, 192, 256, 288, 320, 384, 512, 640, 768, 1024, 1025};
  const std::vector<int> registers = {0, 1, 16, 24, 32, 33, 40, 48, 56, 64, 65, 72, 80, 96, 128, 168, 200, 232, 255};
  const std::vector<std::int64_t> shared = {0,     1,     1024,  4096,   8192,   12288,  16384,  24576,
                                            32768, 40000, 49152, 49153,  65536,  98304,  101376, 101377,
                                            131072, 166912, 166913, 200000, 232448, 232449};
  const std::vector<int> barriers = {0, 1, 2, 16};
  const std::vector<int> carveouts = {-1, 0, 25, 50, 100};  // -1: driver default

  long compared = 0;
  long mismatches = 0;
  for (const DeviceFacts& device : kDevices) {
    const cudaOccDeviceProp prop = device_prop(device);
    const NvidiaArch* arch = find_nvidia_arch(device.major, device.minor);
    ASSERT_NE(arch, nullptr) << device.major << "." << device.minor;
    EXPECT_EQ(arch->max_threads_per_sm, device.max_threads_per_sm) << arch->name;
    EXPECT_EQ(arch->shared_memory_per_sm, static_cast<std::int64_t>(device.shared_per_sm)) << arch->name;
    EXPECT_EQ(arch->shared_memory_per_block_optin, static_cast<std::int64_t>(device.shared_per_block_optin));
    for (int t : threads) {
      for (int regs : registers) {
        for (std::int64_t smem : shared) {
          for (int bars : barriers) {
            for (int carveout : carveouts) {
              // Static shared memory cannot exceed 48 KiB; the rest of a request is dynamic.
              const std::int64_t static_smem = std::min<std::int64_t>(smem, 48 * 1024);
              const std::int64_t dynamic_smem = smem - static_smem;

              cudaOccFuncAttributes attr;
              attr.maxThreadsPerBlock = 1024;
              attr.numRegs = regs;
              attr.sharedSizeBytes = static_cast<std::size_t>(static_smem);
              attr.partitionedGCConfig = PARTITIONED_GC_OFF;
              // ktune's backend opts every kernel in to the dynamic shared memory it launches with.
              attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
              attr.maxDynamicSharedSizeBytes = static_cast<std::size_t>(dynamic_smem);
              attr.numBlockBarriers = bars;
              attr.virtualResourceCount = 0;
              cudaOccDeviceState state;
              state.carveoutConfig = carveout;
              cudaOccResult expected{};
              ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&expected, &prop, &attr, &state, t,
                                                                static_cast<std::size_t>(dynamic_smem)),
                        CUDA_OCC_SUCCESS);

              OccupancyInput in;
              in.threads_per_block = t;
              in.registers_per_thread = regs;
              in.static_shared_bytes = static_smem;
              in.dynamic_shared_bytes = dynamic_smem;
              in.barriers = bars;
              if (carveout >= 0) in.carveout_percent = carveout;
              OccupancyResult got = nvidia_occupancy(*arch, in);

              ++compared;
              bool same = got.active_blocks_per_sm == expected.activeBlocksPerMultiprocessor &&
                          got.launchable == (expected.activeBlocksPerMultiprocessor > 0) &&
                          got.blocks_limit_warps == expected.blockLimitWarps &&
                          got.blocks_limit_registers == expected.blockLimitRegs &&
                          got.blocks_limit_shared_memory == expected.blockLimitSharedMem &&
                          got.blocks_limit_blocks == expected.blockLimitBlocks &&
                          got.blocks_limit_barriers == expected.blockLimitBarriers &&
                          got.registers_per_block == expected.allocatedRegistersPerBlock &&
                          got.shared_bytes_per_block == static_cast<std::int64_t>(expected.allocatedSharedMemPerBlock);
              if (same && got.launchable) {
                unsigned bits = expected.limitingFactors & ~unsigned{OCC_LIMIT_VIRTUAL_RESOURCES};
                // The header flags factors before applying the barrier limit, so when barriers
                // alone set the result it still flags the runner-up. ktune names only barriers.
                const int others = std::min({expected.blockLimitWarps, expected.blockLimitRegs,
                                             expected.blockLimitSharedMem, expected.blockLimitBlocks});
                if ((bits & OCC_LIMIT_BARRIERS) && expected.blockLimitBarriers < others) bits = OCC_LIMIT_BARRIERS;
                same = limiter_bits(got) == bits;
              }
              if (!same && ++mismatches <= 20) {
                ADD_FAILURE() << arch->name << " threads=" << t << " regs=" << regs << " smem=" << static_smem << "+"
                              << dynamic_smem << " barriers=" << bars << " carveout=" << carveout << ": ktune "
                              << got.active_blocks_per_sm << " blocks (warps " << got.blocks_limit_warps << ", regs "
                              << got.blocks_limit_registers << ", smem " << got.blocks_limit_shared_memory
                              << ", blocks " << got.blocks_limit_blocks << ", barriers " << got.blocks_limit_barriers
                              << ", limiters " << limiter_bits(got) << "), cuda_occupancy.h "
                              << expected.activeBlocksPerMultiprocessor << " (warps " << expected.blockLimitWarps
                              << ", regs " << expected.blockLimitRegs << ", smem " << expected.blockLimitSharedMem
                              << ", blocks " << expected.blockLimitBlocks << ", barriers "
                              << expected.blockLimitBarriers << ", limiters " << expected.limitingFactors << ")";
              }
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << compared << " launches compared";
  EXPECT_GT(compared, 100000);
}

}  // namespace
}  // namespace ktune::analysis
