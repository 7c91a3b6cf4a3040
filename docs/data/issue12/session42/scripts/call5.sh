#!/bin/bash
# Call 5 (same build as calls 2-4): second samples of the shapes whose targets the whole-suite run
# left closest (tuning time, Triton), Triton cold, twice each in one process.
CARRY=.carry/s42b TAG=call5 SUITE_TIMEOUT=250 \
  SUITES="--shapes l70b_down_prefill_m8192 shortk_2048x2048x96 tall_32768x64x4096 bmm_pv_b32_512x64x512 --triton-cold;--shapes l70b_down_prefill_m8192 shortk_2048x2048x96 tall_32768x64x4096 bmm_pv_b32_512x64x512 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
