#!/bin/bash
# Call 2: A = e574d9d (per-warp TMA stores, edge tiles through TMA), B = aa9ad30 (ktune_old.xz), ten
# shapes; first the eight GPU test cases of the store paths on A.
CARRY=.carry/s38b TAG=call2 TEST_TIMEOUT=260 SUITE_TIMEOUT=210 COMPARE_BUILD=1 \
  TESTS="generated_gpu_test:GeneratedGpu.EveryLayoutBothPaths:GeneratedGpu.TilesOf192Rows:GeneratedGpu.PingpongWarpgroupsTakeTurns:GeneratedGpu.ChunkedStagingStoresChunkByChunk:GeneratedGpu.TileWidthsInStepsOf32:GeneratedGpu.OddSizes:GeneratedGpu.Epilogues:GeneratedGpu.TilesTmaCannotStoreLeaveRowByRow" \
  SUITES="--shapes shortk_2048x2048x96 odd_1000x1000x1000 odd_3000x3000x3000 bmm_qk_b32_512x512x64 bmm_b64_128x128x128 tt_2048x2048x2048 tall_65536x128x512 shortk_8192x8192x64 bmm_b8_1024x1024x1024 l13b_up_m256" \
  bash bench/generated/device_run.sh "$1"
