#!/bin/bash
# Call 3 (.carry/s44, bc789a6's build): bench/gemm_suite40.py --part 2/3 with Triton cold.
CARRY=.carry/s44 TAG=call3 SUITE_TIMEOUT=560 SUITES="--part 2/3 --triton-cold" bash bench/generated/device_run.sh "$1"
