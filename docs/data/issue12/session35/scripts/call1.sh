#!/bin/bash
# Call 1: the executor's GPU tests, then the first half of the suite with Triton cold on every
# shape (fresh cache, nothing compiled in the process): the tuning-time target's measurement.
OUT=$1
export TAG=call1 SUITE_TIMEOUT=520 TEST_TIMEOUT=120
export TESTS="gemm_executor_gpu_test"
export SUITES="--part 1/2 --triton-cold"
bash .carry/s35/run.sh $OUT
