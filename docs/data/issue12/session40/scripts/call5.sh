#!/bin/bash
# Call 5 (the build of call 4): why the persistent 256x160 pair on l70b_qkv_prefill_m1024 screened
# at 222 us with the GPC-aware order (call 4, A) and 212 without (B): Nsight Compute on and off.
S=docs/data/issue12/session40/scripts
M=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,sm__cycles_elapsed.avg.per_second,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum
P="$S/l70b_qkv_prefill_m1024_dryrun.json|l70b_qkv_prefill_m1024|$S/l70b_qkv_prefill_m1024_configs5.json"
mkdir -p "$1/on" "$1/off"
CARRY=.carry/s40 TAG=call5_on NCU_PLAN=$S/order_plan5.json NCU_METRICS=$M NCU_TIMEOUT=100 PROBES="$P" PROBE_TIMEOUT=60 \
  bash bench/generated/device_run.sh "$1/on"
KTUNE_CLUSTER_ORDER=0 CARRY=.carry/s40 TAG=call5_off NCU_PLAN=$S/order_plan5.json NCU_METRICS=$M NCU_TIMEOUT=100 \
  PROBES="$P" PROBE_TIMEOUT=60 bash bench/generated/device_run.sh "$1/off"
