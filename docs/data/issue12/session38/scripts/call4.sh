#!/bin/bash
# Call 4 (242391a): every other case of generated_gpu_test and tune gemm's GPU case; then six tf32
# nn 4096^3 kernels timed one by one (pair_probe.py, torch before and after), in one order and
# reversed: A from registers over 64x256 wgmma atoms against the 64x128 ones of the usual pick.
S=docs/data/issue12/session38/scripts
CARRY=.carry/s38d TAG=call4 TEST_TIMEOUT=330 PROBE_TIMEOUT=150 \
  TESTS="generated_gpu_test:-GeneratedGpu.EveryLayoutBothPaths:GeneratedGpu.TilesOf192Rows:GeneratedGpu.PingpongWarpgroupsTakeTurns:GeneratedGpu.ChunkedStagingStoresChunkByChunk:GeneratedGpu.TileWidthsInStepsOf32:GeneratedGpu.OddSizes:GeneratedGpu.Epilogues:GeneratedGpu.TilesTmaCannotStoreLeaveRowByRow gemm_command_test:TuneGemmCli.TunesASmallShapeOnTheGpu" \
  PROBES="$S/tf32_4096_dryrun.json|tf32_4096x4096x4096|$S/tf32_configs.json $S/tf32_4096_dryrun.json|tf32_4096x4096x4096|$S/tf32_configs_reversed.json" \
  bash bench/generated/device_run.sh "$1"
