#!/bin/bash
# Call 6 (280a843 + the placement probed when the worker opens the device): A against B = 9f2a584 on
# three shapes whose first cluster candidate screened 4-9% slower in A than in B in calls 2 and 4.
CARRY=.carry/s40 TAG=call6 COMPARE_BUILD=1 SUITE_TIMEOUT=100 \
  SUITES="--shapes l70b_qkv_prefill_m1024 odd_1000x1000x1000 rand70_01_prefill_438x11008x11008" \
  bash bench/generated/device_run.sh "$1"
