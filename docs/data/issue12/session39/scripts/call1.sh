#!/bin/bash
# Call 1 (059839e): does TMA multicast cut L2 reads in the generated kernels? Nsight Compute (full
# set) over cuBLAS and generated kernels with and without clusters on 322x5120x8192 bf16 nt (mid-M
# prefill, where cuBLASLt's clusters of 4 read 7.5 M L2 sectors to our 12.3 M, session 31) and
# 4096x12288x4096 f16 nt; then the same configurations timed by do_bench (pair_probe.py).
S=docs/data/issue12/session39/scripts
CARRY=.carry/s39 TAG=call1 NCU_PLAN=$S/multicast_plan.json PROBE_TIMEOUT=150 \
  PROBES="$S/rand4_01_dryrun.json|rand4_01_prefill_322x5120x8192|$S/rand4_01_configs.json $S/qkv_dryrun.json|l7b_qkv_prefill_m4096|$S/qkv_configs.json" \
  bash bench/generated/device_run.sh "$1"
