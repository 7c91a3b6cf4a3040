#!/bin/bash
# Call B (.carry/s45c: A = e346c54, the hedge window of bc789a6 and KT_ALPHA_ONE; B =
# ktune_old.xz, 0b9ca08, before both): the ten suite shapes whose candidate lists the hedge window
# changes (--dry-run listings of both builds), A/B in one run, Triton cold: tuning time against
# cold Triton on l70b_down_prefill_m8192 is the target the window is for.
CARRY=.carry/s45c TAG=callB SUITE_TIMEOUT=560 COMPARE_BUILD=1 \
  SUITES="--shapes l70b_down_prefill_m8192 l7b_up_prefill_m16384 l7b_qkv_prefill_m4096 tf32_4096x4096x4096 f32_2048x2048x2048 l70b_qkv_prefill_m1024 l7b_down_prefill_m2048 l70b_down_decode_m128 l70b_up_decode_m32 l13b_down_m512 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
