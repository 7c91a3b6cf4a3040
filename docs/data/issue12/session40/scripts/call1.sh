#!/bin/bash
# Call 1 (fa7d9e4 + the placement GPU test): clusters in GPC-aware order (cluster_probe.h).
# The cluster GPU tests (placement probe, ordered grids, multicast pairs); then L2 sectors read per
# delivered (Nsight Compute, a few metrics) and do_bench times of the same cluster kernels with the
# order (on) and with KTUNE_CLUSTER_ORDER=0 (off); then three shapes A/B against 9f2a584.
S=docs/data/issue12/session40/scripts
M=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,sm__cycles_elapsed.avg.per_second,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
P="$S/qkv_dryrun.json|l7b_qkv_prefill_m4096|$S/qkv_configs.json $S/rand4_01_dryrun.json|rand4_01_prefill_322x5120x8192|$S/rand4_01_configs.json"
mkdir -p "$1/on" "$1/off" "$1/ab"
CARRY=.carry/s40 TAG=call1_on TESTS="generated_gpu_test:*ClusterPlacement*:*ClustersInGpcOrder*:*ClustersShareATileByMulticast*" \
  TEST_TIMEOUT=150 NCU_PLAN=$S/order_plan.json NCU_METRICS=$M NCU_TIMEOUT=150 PROBES="$P" PROBE_TIMEOUT=60 \
  bash bench/generated/device_run.sh "$1/on"
KTUNE_CLUSTER_ORDER=0 CARRY=.carry/s40 TAG=call1_off NCU_PLAN=$S/order_plan.json NCU_METRICS=$M NCU_TIMEOUT=100 \
  PROBES="$P" PROBE_TIMEOUT=60 bash bench/generated/device_run.sh "$1/off"
CARRY=.carry/s40 TAG=call1_ab COMPARE_BUILD=1 SUITE_TIMEOUT=150 \
  SUITES="--shapes rand4_01_prefill_322x5120x8192 l13b_down_m512 l7b_qkv_prefill_m4096" \
  bash bench/generated/device_run.sh "$1/ab"
