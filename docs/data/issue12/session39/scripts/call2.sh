#!/bin/bash
# Call 2 (059839e): call 1 found that the generated kernels' clusters read more from L2, not less
# (lrc__lts2lrc_sectors_op_read: 4096x12288x4096 128x256 78.5 M sectors alone, 120 M in pairs along
# N), as if the L2 request coalescer merged what unclustered CTAs share and clusters lost it.
# Here: where the hardware places CTAs (bench/generated/sm_placement.cu: blockIdx -> SM plain and
# in clusters of 2-16, SM -> GPC), and L2 sectors against the tile order (reorder_workgroups
# 1-40) with and without pairs, a few metrics each; then the rand4_01 variants timed by do_bench.
S=docs/data/issue12/session39/scripts
CARRY=.carry/s39 TAG=call2 NCU_PLAN=$S/swizzle_plan.json PROBE_TIMEOUT=150 \
  RUN_FIRST="cp .carry/s39/sm_placement /tmp/ && chmod +x /tmp/sm_placement && /tmp/sm_placement > $1/placement.json" \
  NCU_METRICS=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__bytes_read.sum \
  PROBES="$S/rand4_01_dryrun.json|rand4_01_prefill_322x5120x8192|$S/rand4_01_swizzle_configs.json" \
  bash bench/generated/device_run.sh "$1"
