#!/bin/bash
# Call C (prepared in session 46, for the next device time; .carry/s47 (05f5fd3) or any build of HEAD), two
# questions, each by pair_probe.py (do_bench, then CUDA events after a dirty and after a clean
# flush, every configuration twice in turn, torch.matmul before and after):
# 1. shortk_2048x2048x96 and bmm_pv_b32_512x64x512, where "faster than Triton" is a coin: the
#    generated kernel the suite chose against cuBLASLt's pick, both through libktune_gemm.
# 2. Refinement kernels whose confirmation ran about 2x their screening (18 of 770 refinement
#    confirmations in sessions 24-46, none of 2559 model-listed ones): which of the two is the
#    kernel's time? l70b_down_prefill_m8192's 256x128 cluster_n 2 with four consumer warpgroups
#    (screened 4686 us, confirmed 9189; session 46 callB2) and tf32_4096x4096x4096's 256x128 swapped
#    cluster_n 2 reorder 1 (screened 361, confirmed 908; session 37), each beside the neighbour it
#    was refined from and the suite's chosen kernel.
S=docs/data/issue12/session46/scripts/probe
p() { echo "$S/$1.dry.json|$1|$S/$1.configs.json"; }
CARRY=${CARRY:-.carry/s47} TAG=callC PROBE_ARGS="--flushes --samples 100" PROBE_TIMEOUT=150 \
  PROBES="$(p shortk_2048x2048x96) $(p bmm_pv_b32_512x64x512) $(p l70b_down_prefill_m8192) $(p tf32_4096x4096x4096)" \
  bash bench/generated/device_run.sh "$1"
