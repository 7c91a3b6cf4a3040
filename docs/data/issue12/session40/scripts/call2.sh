#!/bin/bash
# Call 2 (the working tree after fa7d9e4: the GPU test's swapped case fixed): the cluster-order
# GPU test, then A = this build against B = 9f2a584 (clusters in launch order, groups of 8 for
# clusters) on suite shapes whose session-36 winner was a cluster, and two mid-M random draws.
CARRY=.carry/s40 TAG=call2 TESTS="generated_gpu_test:*ClustersInGpcOrder*" TEST_TIMEOUT=60 COMPARE_BUILD=1 SUITE_TIMEOUT=500 \
  SUITES="--shapes l7b_down_prefill_m2048 l70b_qkv_prefill_m1024 shortk_8192x8192x64 odd_3000x3000x3000 odd_1000x1000x1000 tn_4096x1024x4096 shortk_4096x16384x256 f32_2048x2048x2048 rand8_01_prefill_411x14336x8192 rand21_07_fp8_432x11008x1536 l7b_up_prefill_m16384" \
  bash bench/generated/device_run.sh "$1"
