#!/bin/bash
# Call 1c (what device time was left, .carry/s45 as call 1): session 43's
# GeneratedGpu.AFreshWorkerQueuesItsCompilesBeforeItsContext, then l70b_down_prefill_m8192 A/B.
CARRY=.carry/s45 TAG=call1c TESTS="generated_gpu_test:GeneratedGpu.AFreshWorker*" TEST_TIMEOUT=60 SUITE_TIMEOUT=110 \
  COMPARE_BUILD=1 SUITES="--shapes l70b_down_prefill_m8192 --triton-cold" bash bench/generated/device_run.sh "$1"
