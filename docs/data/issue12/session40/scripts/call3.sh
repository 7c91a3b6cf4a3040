#!/bin/bash
# Call 3 (same build as call 2): the session-36 winners that were clusters (and their twins
# without one, a multi-wave grid of pairs, a 2x2 cluster) with the GPC-aware order (on) and with
# KTUNE_CLUSTER_ORDER=0 (off): L2 sectors read per delivered by Nsight Compute, then do_bench.
S=docs/data/issue12/session40/scripts
M=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,sm__cycles_elapsed.avg.per_second,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum

P="$S/rand4_01_dryrun.json|rand4_01_prefill_322x5120x8192|$S/rand4_01_configs.json"
for s in l7b_qkv_prefill_m4096 l13b_down_m512 odd_3000x3000x3000 l7b_up_prefill_m16384; do
  P="$P $S/${s}_dryrun.json|$s|$S/${s}_configs3.json"
done
mkdir -p "$1/on" "$1/off"
PROBE_ARGS=--flushes CARRY=.carry/s40 TAG=call3_on NCU_PLAN=$S/order_plan3.json NCU_METRICS=$M NCU_TIMEOUT=200 PROBES="$P" PROBE_TIMEOUT=80 \
  bash bench/generated/device_run.sh "$1/on"
KTUNE_CLUSTER_ORDER=0 CARRY=.carry/s40 TAG=call3_off NCU_PLAN=$S/order_plan3.json NCU_METRICS=$M NCU_TIMEOUT=200 \
  PROBES="$P" PROBE_TIMEOUT=80 bash bench/generated/device_run.sh "$1/off"
