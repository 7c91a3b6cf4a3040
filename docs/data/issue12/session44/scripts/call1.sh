#!/bin/bash
# Call 1 (.carry/s44: A = bc789a6, hedges within 1.3x on large problems; B = ktune_old.xz, 0b9ca08):
# every generated_gpu_test case (session 43's AFreshWorkerQueuesItsCompilesBeforeItsContext among
# them, never run before) and gemm_gpu_test on A's binaries; then the ten suite shapes whose
# generated candidates the change alters (bench/generated dry-run diff), A/B, Triton cold.
CARRY=.carry/s44 TAG=call1 TESTS="generated_gpu_test gemm_gpu_test" TEST_TIMEOUT=300 SUITE_TIMEOUT=420 COMPARE_BUILD=1 \
  SUITES="--shapes l7b_down_prefill_m2048 l7b_qkv_prefill_m4096 l7b_up_prefill_m16384 l13b_down_m512 l70b_up_decode_m32 l70b_down_decode_m128 l70b_qkv_prefill_m1024 l70b_down_prefill_m8192 tf32_4096x4096x4096 f32_2048x2048x2048 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
