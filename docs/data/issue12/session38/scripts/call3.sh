#!/bin/bash
# Call 3: A = 242391a (warpgroup TMA stores again, edge tiles through TMA), B = aa9ad30, eleven
# shapes; first the same eight GPU test cases on A.
CARRY=.carry/s38c TAG=call3 TEST_TIMEOUT=200 SUITE_TIMEOUT=230 COMPARE_BUILD=1 \
  TESTS="generated_gpu_test:GeneratedGpu.EveryLayoutBothPaths:GeneratedGpu.TilesOf192Rows:GeneratedGpu.PingpongWarpgroupsTakeTurns:GeneratedGpu.ChunkedStagingStoresChunkByChunk:GeneratedGpu.TileWidthsInStepsOf32:GeneratedGpu.OddSizes:GeneratedGpu.Epilogues:GeneratedGpu.TilesTmaCannotStoreLeaveRowByRow" \
  SUITES="--shapes odd_1000x1000x1000 bmm_qk_b32_512x512x64 odd_3000x3000x3000 tall_65536x128x512 odd_511x1000x4097 bmm_b64_128x128x128 tt_2048x2048x2048 l13b_up_m256 shortk_2048x2048x96 bmm_pv_b32_512x64x512 public_seed000_2048x10240x1280" \
  bash bench/generated/device_run.sh "$1"
