#!/bin/bash
# Call 1b (the last of the session's device time, .carry/s45 as call 1): session 43's
# GeneratedGpu.AFreshWorkerQueuesItsCompilesBeforeItsContext, then the two largest suite GEMMs
# whose listing the hedge window changes, A (bc789a6) against B (0b9ca08), Triton cold.
CARRY=.carry/s45 TAG=call1b TESTS="generated_gpu_test:GeneratedGpu.AFreshWorker*" TEST_TIMEOUT=90 SUITE_TIMEOUT=200 \
  COMPARE_BUILD=1 SUITES="--shapes l70b_down_prefill_m8192 l7b_up_prefill_m16384 tf32_4096x4096x4096 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
