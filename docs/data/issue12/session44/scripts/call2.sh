#!/bin/bash
# Call 2 (.carry/s44, bc789a6's build): bench/gemm_suite40.py --part 1/3 with Triton cold.
CARRY=.carry/s44 TAG=call2 SUITE_TIMEOUT=560 SUITES="--part 1/3 --triton-cold" bash bench/generated/device_run.sh "$1"
