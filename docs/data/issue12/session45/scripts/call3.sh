#!/bin/bash
# Call 3 (.carry/s45, 92111dc's build): bench/gemm_suite40.py --part 2/3 with Triton cold.
CARRY=.carry/s45 TAG=call3 SUITE_TIMEOUT=560 SUITES="--part 2/3 --triton-cold" bash bench/generated/device_run.sh "$1"
