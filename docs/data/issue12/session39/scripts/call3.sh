#!/bin/bash
# Call 3: A = the working tree (raster_group: kernels without a cluster whose kernel has 3-7 tile
# columns and more than 8 rows walk the columns first), B = 059839e (groups of 8 everywhere), on
# shapes whose selection the rule changes: mid-M prefill of earlier random draws (swapped), tall
# suite shapes, tf32/f32/odd random ones.
CARRY=.carry/s39b TAG=call3 SUITE_TIMEOUT=560 COMPARE_BUILD=1 \
  SUITES="--shapes tn_4096x1024x4096 odd_4097x511x1000 rand4_01_prefill_322x5120x8192 rand2_15_prefill_660x3072x11008 rand8_01_prefill_411x14336x8192 rand9_07_fp8_304x5120x18944 rand21_07_fp8_432x11008x1536 rand23_01_prefill_402x3072x3584 rand41_07_fp8_544x1536x8960 rand6_04_odd_2849x862x3066 rand3_15_tf32_4079x604x317 rand15_09_f32_1113x390x2744" \
  bash bench/generated/device_run.sh "$1"
