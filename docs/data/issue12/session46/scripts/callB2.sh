#!/bin/bash
# Call B2 (session 46; .carry/s45c: A = e346c54, the hedge window of bc789a6 and KT_ALPHA_ONE; B =
# ktune_old.xz, 0b9ca08, before both): six of session 44's ten hedge-window shapes, A/B, Triton cold.
CARRY=.carry/s45c TAG=callB2 SUITE_TIMEOUT=330 COMPARE_BUILD=1 \
  SUITES="--shapes l70b_down_prefill_m8192 l7b_qkv_prefill_m4096 tf32_4096x4096x4096 l70b_down_decode_m128 l13b_down_m512 f32_2048x2048x2048 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
