#include "ktune/analysis/occupancy_nvidia.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ktune::analysis {
namespace {

using L = OccupancyLimiter;

OccupancyResult occupancy(const char* arch, int threads, int regs, std::int64_t static_smem = 0,
                          std::int64_t dynamic_smem = 0, int barriers = 1, std::optional<int> carveout = {}) {
  OccupancyInput in;
  in.threads_per_block = threads;
  in.registers_per_thread = regs;
  in.static_shared_bytes = static_smem;
  in.dynamic_shared_bytes = dynamic_smem;
  in.barriers = barriers;
  in.carveout_percent = carveout;
  return nvidia_occupancy(nvidia_arch(arch), in);
}

TEST(NvidiaArch, NamesParse) {
  EXPECT_EQ(nvidia_arch("sm_90a").name, "sm_90");
  EXPECT_EQ(nvidia_arch("sm_90").major, 9);
  EXPECT_EQ(nvidia_arch("compute_86").minor, 6);
  EXPECT_EQ(nvidia_arch("8.9").name, "sm_89");
  EXPECT_EQ(nvidia_arch("100").name, "sm_100");
  EXPECT_EQ(nvidia_arch("sm_100f").name, "sm_100");
  EXPECT_EQ(nvidia_arch("sm_120").max_warps_per_sm(), 48);
  EXPECT_EQ(nvidia_arch("sm_87").shared_memory_per_sm, 164 * 1024);
  EXPECT_EQ(nvidia_arch("sm_90").shared_memory_per_block_optin, 227 * 1024);
  EXPECT_EQ(nvidia_arch("sm_86").shared_memory_per_block_optin, 99 * 1024);
  EXPECT_EQ(nvidia_arch("sm_80").shared_memory_per_block_optin, 163 * 1024);
  EXPECT_EQ(nvidia_arch("sm_89").max_blocks_per_sm, 24);
  EXPECT_EQ(find_nvidia_arch(7, 5), nullptr);
  try {
    nvidia_arch("sm_75");
    FAIL() << "sm_75 has no constants";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("7.5"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos) << "lists the known ones";
  }
  EXPECT_THROW(nvidia_arch("banana"), std::invalid_argument);
  EXPECT_THROW(nvidia_arch(""), std::invalid_argument);
  EXPECT_THROW(nvidia_arch("sm_9x"), std::invalid_argument);
}

// Hand-computed: 8 warps/block; 32 regs -> 1024 regs/warp -> 16 warps per sub-partition -> 64
// warps -> 8 blocks; warps 64/8 = 8; smem (0 + 1 KiB reserved) 228 KiB / 1 KiB = 228.
TEST(NvidiaOccupancy, FullOccupancyLimitedByWarpsAndRegisters) {
  OccupancyResult r = occupancy("sm_90", 256, 32);
  ASSERT_TRUE(r.launchable) << r.not_launchable_reason;
  EXPECT_EQ(r.active_blocks_per_sm, 8);
  EXPECT_EQ(r.active_warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.blocks_limit_warps, 8);
  EXPECT_EQ(r.blocks_limit_registers, 8);
  EXPECT_EQ(r.blocks_limit_shared_memory, 228);
  EXPECT_EQ(r.blocks_limit_blocks, 32);
  EXPECT_EQ(r.blocks_limit_barriers, 64);
  EXPECT_EQ(r.limiters, (std::vector<L>{L::Warps, L::Registers}));
  EXPECT_EQ(r.registers_per_block, 8192);
  EXPECT_EQ(r.shared_bytes_per_block, 1024);
  EXPECT_TRUE(r.hints.empty());
}

// 64 regs -> 2048/warp -> 8 warps per sub-partition -> 32 warps -> 4 blocks (50%). Five blocks
// need 40 warps -> 10 per sub-partition -> <= 1638 regs/warp -> 1536 -> 48 regs.
TEST(NvidiaOccupancy, RegisterLimitedWithHint) {
  OccupancyResult r = occupancy("sm_90a", 256, 64);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limiters, std::vector<L>{L::Registers});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].resource, L::Registers);
  EXPECT_EQ(r.hints[0].needed, 48);
  EXPECT_EQ(r.hints[0].target_blocks, 5);
  EXPECT_EQ(r.hints[0].resulting_blocks, 5);
  EXPECT_NE(r.hints[0].message.find("16 fewer registers"), std::string::npos) << r.hints[0].message;
  EXPECT_EQ(r.summary(), "4 blocks/SM, 32/64 warps (50%), limited by registers");
}

// 48 KiB dynamic + 1 KiB reserved = 50176 bytes; 164 KiB / 50176 = 3 blocks of 4 warps.
// Four blocks need <= 41984 allocated -> 40960 requested -> 8192 fewer bytes.
TEST(NvidiaOccupancy, SharedMemoryLimitedWithHint) {
  OccupancyResult r = occupancy("sm_80", 128, 32, 0, 48 * 1024);
  EXPECT_EQ(r.active_blocks_per_sm, 3);
  EXPECT_EQ(r.active_warps_per_sm, 12);
  EXPECT_EQ(r.shared_bytes_per_block, 50176);
  EXPECT_EQ(r.shared_memory_per_sm, 164 * 1024);
  EXPECT_EQ(r.limiters, std::vector<L>{L::SharedMemory});
  EXPECT_FALSE(r.needs_shared_memory_optin);
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].needed, 40960);
  EXPECT_EQ(r.hints[0].resulting_blocks, 4);
  EXPECT_NE(r.hints[0].message.find("8192 fewer shared bytes"), std::string::npos) << r.hints[0].message;

  EXPECT_TRUE(occupancy("sm_80", 128, 32, 0, 48 * 1024 + 1).needs_shared_memory_optin);
}

// 1024 threads x 64 regs on a 48-warp SM: one block of 32 warps, 2/3 occupancy. Fewer
// registers alone cannot help (the warp limit is 1 too), and 768 threads would still be held to
// one block by 64 registers, so the only hint is the register one, saying what else limits.
TEST(NvidiaOccupancy, HintsSayWhatElseStillLimits) {
  OccupancyResult r = occupancy("sm_86", 1024, 64);
  EXPECT_EQ(r.active_blocks_per_sm, 1);
  EXPECT_NEAR(r.occupancy, 32.0 / 48.0, 1e-12);
  EXPECT_EQ(r.limiters, (std::vector<L>{L::Warps, L::Registers}));
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].resource, L::Registers);
  EXPECT_EQ(r.hints[0].needed, 32);
  EXPECT_EQ(r.hints[0].resulting_blocks, 1);
  EXPECT_NE(r.hints[0].message.find("still limited by warps"), std::string::npos) << r.hints[0].message;
}

// With 32 registers two 768-thread blocks fit: 48/48 warps.
TEST(NvidiaOccupancy, WarpSlotsLeftIdleSuggestsDividingBlockSize) {
  OccupancyResult r = occupancy("sm_86", 1024, 32);
  EXPECT_EQ(r.limiters, std::vector<L>{L::Warps});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].resource, L::Warps);
  EXPECT_EQ(r.hints[0].needed, 768);
  EXPECT_EQ(r.hints[0].resulting_blocks, 2);
  EXPECT_NE(r.hints[0].message.find("-> 100%"), std::string::npos) << r.hints[0].message;
  // 640 threads (20 warps) on a 64-warp SM: 3 blocks, 60 warps; 512 (16) or 1024 (32) fill it.
  // Registers limit at 3 blocks too; cutting them alone leaves the warp limit in place.
  OccupancyResult h = occupancy("sm_90", 640, 32);
  EXPECT_EQ(h.active_warps_per_sm, 60);
  ASSERT_EQ(h.hints.size(), 3u);
  EXPECT_EQ(h.hints[0].resource, L::Registers);
  EXPECT_EQ(h.hints[0].resulting_blocks, 3);
  EXPECT_EQ(h.hints[1].needed, 512);
  EXPECT_EQ(h.hints[2].needed, 1024);
}

// 16 blocks x 2 warps = 32 of 48 warps on sm_86; 96 threads per block would fill it.
TEST(NvidiaOccupancy, SmallBlocksHitTheBlockLimit) {
  OccupancyResult r = occupancy("sm_86", 64, 16);
  EXPECT_EQ(r.active_blocks_per_sm, 16);
  EXPECT_EQ(r.limiters, std::vector<L>{L::Blocks});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].needed, 96);
  // sm_89 allows 24 blocks: the same launch fills all 48 warps.
  EXPECT_DOUBLE_EQ(occupancy("sm_89", 64, 16).occupancy, 1.0);
}

TEST(NvidiaOccupancy, NotLaunchable) {
  OccupancyResult too_many_threads = occupancy("sm_90", 1025, 32);
  EXPECT_FALSE(too_many_threads.launchable);
  EXPECT_NE(too_many_threads.not_launchable_reason.find("1025 threads"), std::string::npos);
  EXPECT_EQ(too_many_threads.active_blocks_per_sm, 0);

  // 65 regs -> 2304 regs/warp x 32 warps = 73728 > 65536.
  OccupancyResult too_many_regs = occupancy("sm_90", 1024, 65);
  EXPECT_FALSE(too_many_regs.launchable);
  EXPECT_NE(too_many_regs.not_launchable_reason.find("73728"), std::string::npos)
      << too_many_regs.not_launchable_reason;
  EXPECT_TRUE(occupancy("sm_90", 1024, 64).launchable);

  EXPECT_FALSE(occupancy("sm_90", 32, 256).launchable);
  EXPECT_TRUE(occupancy("sm_90", 32, 255).launchable);

  // Hardware check: 9 warps are checked as 12 (multiple of 4 sub-partitions): 12 x 6400 > 64 K
  // although 9 x 6400 = 57600 fits.
  OccupancyResult subpartitions = occupancy("sm_80", 288, 200);
  EXPECT_FALSE(subpartitions.launchable);
  EXPECT_NE(subpartitions.not_launchable_reason.find("76800"), std::string::npos);

  EXPECT_TRUE(occupancy("sm_90", 128, 32, 0, 227 * 1024).launchable);
  OccupancyResult too_much_smem = occupancy("sm_90", 128, 32, 0, 227 * 1024 + 1);
  EXPECT_FALSE(too_much_smem.launchable);
  EXPECT_NE(too_much_smem.not_launchable_reason.find("232448"), std::string::npos);
  EXPECT_FALSE(occupancy("sm_80", 128, 32, 16, 163 * 1024).launchable);
  EXPECT_FALSE(occupancy("sm_86", 128, 32, 0, 99 * 1024 + 1).launchable);

  EXPECT_FALSE(occupancy("sm_90", 0, 32).launchable);
  OccupancyResult two = occupancy("sm_90", 2048, 200);
  EXPECT_NE(two.not_launchable_reason.find("2048 threads"), std::string::npos);
}

TEST(NvidiaOccupancy, BadInputThrows) {
  EXPECT_THROW(occupancy("sm_90", 128, -1), std::invalid_argument);
  EXPECT_THROW(occupancy("sm_90", 128, 32, -5), std::invalid_argument);
  EXPECT_THROW(occupancy("sm_90", 128, 32, 0, 0, 1, 101), std::invalid_argument);
  EXPECT_THROW(occupancy("sm_90", 128, 32, 0, 0, -1), std::invalid_argument);
  EXPECT_THROW(nvidia_occupancy(NvidiaArch{}, OccupancyInput{}), std::invalid_argument);
}

// 20000 + 1024 -> 21120 allocated. Default: 228 KiB / 21120 = 11. 25%: 58368 -> 64 KiB step
// -> 3 blocks. 0%: preference below one block -> smallest step holding it (32 KiB) -> 1.
TEST(NvidiaOccupancy, CarveoutPreference) {
  EXPECT_EQ(occupancy("sm_90", 128, 32, 20000).active_blocks_per_sm, 11);
  OccupancyResult quarter = occupancy("sm_90", 128, 32, 20000, 0, 1, 25);
  EXPECT_EQ(quarter.active_blocks_per_sm, 3);
  EXPECT_EQ(quarter.shared_memory_per_sm, 64 * 1024);
  OccupancyResult none = occupancy("sm_90", 128, 32, 20000, 0, 1, 0);
  EXPECT_EQ(none.active_blocks_per_sm, 1);
  EXPECT_EQ(none.shared_memory_per_sm, 32 * 1024);
  EXPECT_EQ(occupancy("sm_90", 128, 32, 20000, 0, 1, 100).active_blocks_per_sm, 11);
  // The hint honours the preference: 4 blocks in 64 KiB need <= 16384 allocated -> 15360.
  ASSERT_FALSE(quarter.hints.empty());
  EXPECT_EQ(quarter.hints[0].needed, 15360);
}

// sm_90 has 32 blocks x 2 barrier slots; 16 named barriers per block -> 4 blocks.
TEST(NvidiaOccupancy, NamedBarriersLimitHopper) {
  OccupancyResult r = occupancy("sm_90", 128, 32, 0, 0, 16);
  EXPECT_EQ(r.blocks_limit_barriers, 4);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.limiters, std::vector<L>{L::Barriers});
  ASSERT_EQ(r.hints.size(), 1u);
  EXPECT_EQ(r.hints[0].needed, 12);
  EXPECT_EQ(r.hints[0].resulting_blocks, 5);
  // Before sm_90 cuda_occupancy.h does not count barriers.
  EXPECT_EQ(occupancy("sm_80", 128, 32, 0, 0, 16).blocks_limit_barriers, kUnlimitedBlocks);
  // sm_120 has one slot per block: 24 / 2 = 12.
  EXPECT_EQ(occupancy("sm_120", 128, 32, 0, 0, 2).blocks_limit_barriers, 12);
  EXPECT_EQ(occupancy("sm_90", 128, 32, 0, 0, 0).blocks_limit_barriers, kUnlimitedBlocks);
}

TEST(NvidiaOccupancy, ZeroRegistersDoNotLimit) {
  OccupancyResult r = occupancy("sm_80", 32, 0);
  EXPECT_EQ(r.blocks_limit_registers, kUnlimitedBlocks);
  EXPECT_EQ(r.active_blocks_per_sm, 32);
  EXPECT_TRUE(to_json(r)["blocks_limit"]["registers"].is_null());
}

TEST(NvidiaOccupancy, BudgetHelpers) {
  const NvidiaArch& h100 = nvidia_arch("sm_90");
  EXPECT_EQ(max_registers_for_blocks(h100, 256, 4), 64);
  EXPECT_EQ(max_registers_for_blocks(h100, 256, 8), 32);
  EXPECT_EQ(max_registers_for_blocks(h100, 1024, 1), 64);
  EXPECT_EQ(max_registers_for_blocks(h100, 1024, 2), 32);
  EXPECT_EQ(max_registers_for_blocks(h100, 32, 1), 255);
  EXPECT_EQ(max_registers_for_blocks(h100, 2000, 1), std::nullopt);
  EXPECT_EQ(max_shared_bytes_for_blocks(h100, 1), 227 * 1024);
  EXPECT_EQ(max_shared_bytes_for_blocks(h100, 2), 115712);  // 228 KiB/2 = 116736 - 1 KiB
  EXPECT_EQ(max_shared_bytes_for_blocks(h100, 228), 0);
  EXPECT_EQ(max_shared_bytes_for_blocks(h100, 229), std::nullopt);
  EXPECT_EQ(max_shared_bytes_for_blocks(h100, 0), std::nullopt);
}

// The closed form behind max_registers_for_blocks agrees with trying every register count.
TEST(NvidiaOccupancy, RegisterBudgetMatchesBruteForce) {
  for (const NvidiaArch& arch : known_nvidia_archs()) {
    for (int threads = 1; threads <= 1024; threads += 31) {
      for (int blocks = 1; blocks <= 40; ++blocks) {
        std::optional<int> expected;
        for (int regs = arch.max_registers_per_thread; regs >= 0 && !expected; --regs) {
          OccupancyInput in{threads, regs, 0, 0, 0, std::nullopt};
          if (nvidia_occupancy(arch, in).blocks_limit_registers >= blocks) expected = regs;
        }
        EXPECT_EQ(max_registers_for_blocks(arch, threads, blocks), expected)
            << arch.name << " threads=" << threads << " blocks=" << blocks;
      }
    }
  }
}

TEST(NvidiaOccupancy, JsonAndSummary) {
  OccupancyResult r = occupancy("sm_80", 128, 32, 0, 48 * 1024);
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["active_blocks_per_sm"], 3);
  EXPECT_EQ(j["limiters"][0], "shared_memory");
  EXPECT_EQ(j["blocks_limit"]["shared_memory"], 3);
  EXPECT_EQ(j["hints"][0]["needed"], 40960);
  EXPECT_FALSE(j.contains("not_launchable_reason"));
  OccupancyResult bad = occupancy("sm_80", 2048, 32);
  EXPECT_EQ(to_json(bad)["launchable"], false);
  EXPECT_EQ(bad.summary().rfind("not launchable: ", 0), 0u);
}

// Every known arch gives a sane answer over a sweep, and occupancy never rises when a block
// asks for more of anything.
TEST(NvidiaOccupancy, MonotoneInEveryResource) {
  for (const NvidiaArch& arch : known_nvidia_archs()) {
    SCOPED_TRACE(arch.name);
    for (int threads : {32, 96, 128, 256, 512, 1024}) {
      int previous = INT_MAX;
      for (int regs = 0; regs <= 255; regs += 1) {
        OccupancyInput in{threads, regs, 0, 0, 1, std::nullopt};
        int blocks = nvidia_occupancy(arch, in).active_blocks_per_sm;
        EXPECT_LE(blocks, previous) << threads << " threads, " << regs << " regs";
        previous = blocks;
      }
      previous = INT_MAX;
      for (std::int64_t smem = 0; smem <= arch.shared_memory_per_block_optin + 4096; smem += 1000) {
        OccupancyInput in{threads, 32, 0, smem, 1, std::nullopt};
        int blocks = nvidia_occupancy(arch, in).active_blocks_per_sm;
        EXPECT_LE(blocks, previous) << threads << " threads, " << smem << " bytes";
        previous = blocks;
      }
    }
  }
}

}  // namespace
}  // namespace ktune::analysis
