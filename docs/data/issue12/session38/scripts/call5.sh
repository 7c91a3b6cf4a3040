#!/bin/bash
# Call 5: A = b21d716 (register-A kernels stacked along M, ties to the wider warpgroup), B = 242391a,
# on tf32 shapes whose kernels read A into registers (4096^3 nn and two earlier random draws) and
# tf32_1000x3000x2000 nt (K-contiguous A: unaffected, a control).
CARRY=.carry/s38e TAG=call5 SUITE_TIMEOUT=300 COMPARE_BUILD=1 \
  SUITES="--shapes tf32_4096x4096x4096 rand41_08_tf32_3001x2676x590 rand42_13_tf32_2649x2201x483 tf32_1000x3000x2000" \
  bash bench/generated/device_run.sh "$1"
