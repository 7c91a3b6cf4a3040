#!/bin/bash
# Call 3: every generated-kernel and gemm GPU test case on this build.
OUT=$1
export TAG=call3 TEST_TIMEOUT=420
export TESTS="generated_gpu_test gemm_gpu_test"
export SUITES=""
bash .carry/s35/run.sh $OUT
