#!/bin/bash
# Call C (prepared in session 46, for the next device time; .carry/s45b or any build of HEAD):
# where do_bench's extra microsecond goes on the two shapes where "faster than Triton" is a coin
# (shortk_2048x2048x96, bmm_pv_b32_512x64x512). pair_probe.py times the generated kernel the suite
# chose and cuBLASLt's pick through libktune_gemm, each twice in turn, and torch.matmul before and
# after: do_bench, then CUDA events after a dirty flush (as do_bench) and after a clean one.
S=docs/data/issue12/session46/scripts/probe
CARRY=${CARRY:-.carry/s45b} TAG=callC PROBE_ARGS="--flushes --samples 200" \
  PROBES="$S/shortk_2048x2048x96.dry.json|shortk_2048x2048x96|$S/shortk_2048x2048x96.configs.json $S/bmm_pv_b32_512x64x512.dry.json|bmm_pv_b32_512x64x512|$S/bmm_pv_b32_512x64x512.configs.json" \
  bash bench/generated/device_run.sh "$1"
