#!/bin/bash
# Call 1: swapped-kernel GPU tests, the executor's GPU tests, then the mid-M A/B (new swapped
# stores against the build before them) on session 31's 11 holdout shapes and two more.
OUT=$1
export TAG=call1 COMPARE=1 SUITE_TIMEOUT=400
export TESTS="generated_gpu_test:GeneratedGpu.SwappedKernelsStoreDTransposed:GeneratedGpu.TilesInStepsOf16AndSwappedMidM:GeneratedGpu.Tf32AFromRegisters:GeneratedGpu.EvictFirstLoadsKeepTheResults gemm_executor_gpu_test"
export SUITES="--shapes rand4_01_prefill_322x5120x8192 rand2_15_prefill_660x3072x11008 rand8_01_prefill_411x14336x8192 rand12_01_prefill_266x4096x6144 rand15_01_prefill_310x14336x11008 rand16_16_prefill_435x11008x13824 rand22_16_prefill_273x8192x4096 rand23_01_prefill_402x3072x3584 rand25_15_prefill_771x1536x13824 rand26_01_prefill_296x11008x8960 rand9_07_fp8_304x5120x18944 rand21_07_fp8_432x11008x1536 rand13_05_batched_220x144x772_b12"
bash .carry/s34/run.sh $OUT
