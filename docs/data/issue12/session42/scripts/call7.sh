#!/bin/bash
# Call 7 (A = the worker queueing generated compiles before the device's context, B = 7010223's
# build, .carry/s42c): tuning wall time and results A/B on seven suite shapes, small to huge.
CARRY=.carry/s42c TAG=call7 SUITE_TIMEOUT=215 COMPARE_BUILD=1 \
  SUITES="--shapes l70b_down_prefill_m8192 l7b_up_prefill_m16384 fp8_4096x4096x4096 tf32_1000x3000x2000 l13b_up_m256 odd_1000x1000x1000 shortk_2048x2048x96" \
  bash bench/generated/device_run.sh "$1"
