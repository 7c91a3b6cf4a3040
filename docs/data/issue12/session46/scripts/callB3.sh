#!/bin/bash
# Call B3 (session 46; .carry/s45c: A = e346c54, B = 0b9ca08): tuning time on l70b_down_prefill_m8192
# again, and shortk_2048x2048x96 a third time.
CARRY=.carry/s45c TAG=callB3 SUITE_TIMEOUT=170 COMPARE_BUILD=1 \
  SUITES="--shapes l70b_down_prefill_m8192 shortk_2048x2048x96 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
