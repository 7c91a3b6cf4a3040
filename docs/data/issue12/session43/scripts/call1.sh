#!/bin/bash
# Call 1 (HEAD's build, .carry/s43): every generated_gpu_test case, the new
# AFreshWorkerQueuesItsCompilesBeforeItsContext among them (a fresh worker's listing queues the
# generated compiles from the driver's properties before the context; the kernels load, run and
# verify on that context), and gemm_gpu_test.
CARRY=.carry/s43 TAG=call1 TESTS="generated_gpu_test gemm_gpu_test" TEST_TIMEOUT=420 \
  bash bench/generated/device_run.sh "$1"
