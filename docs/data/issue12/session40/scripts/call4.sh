#!/bin/bash
# Call 4 (the working tree after 4bbb524: grids of several waves stay in launch order, clusters
# along N keep groups of 8): the cluster GPU tests, then A = this build against B = 9f2a584 on ten
# mid-M prefill / fp8 draws of seeds 61-70 (never measured before) and four suite shapes whose
# session-36 winner was a pair.
CARRY=.carry/s40 TAG=call4 TESTS="generated_gpu_test:*ClusterPlacement*:*ClustersInGpcOrder*:*ClustersShareATileByMulticast*" \
  TEST_TIMEOUT=120 COMPARE_BUILD=1 SUITE_TIMEOUT=440 \
  SUITES="--shapes rand61_01_prefill_779x13824x1536 rand61_10_prefill_381x4096x8960 rand62_07_fp8_496x8960x13824 rand62_14_prefill_389x5120x4096 rand63_15_prefill_553x14336x8960 rand64_19_fp8_336x3584x3584 rand65_16_fp8_800x8192x18944 rand67_12_fp8_752x6144x14336 rand69_13_prefill_397x13824x4096 rand70_01_prefill_438x11008x11008 l13b_down_m512 odd_3000x3000x3000 l70b_qkv_prefill_m1024 odd_1000x1000x1000" \
  bash bench/generated/device_run.sh "$1"
