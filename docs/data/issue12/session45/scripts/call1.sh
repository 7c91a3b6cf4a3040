#!/bin/bash
# Call 1 (.carry/s45: A = 92111dc (bc789a6 + refactors), hedges within 1.3x on large problems; B = ktune_old.xz, 0b9ca08):
# session 43's GeneratedGpu.AFreshWorkerQueuesItsCompilesBeforeItsContext (never run before) on
# A's binaries; then the ten suite shapes whose generated candidates the change alters (the
# --dry-run listings of both builds), A/B, Triton cold. (Short: most of the session's device time
# went on starts that failed.)
CARRY=.carry/s45 TAG=call1 TESTS="generated_gpu_test:GeneratedGpu.AFreshWorker*" TEST_TIMEOUT=120 SUITE_TIMEOUT=400 \
  COMPARE_BUILD=1 \
  SUITES="--shapes l70b_down_prefill_m8192 l7b_up_prefill_m16384 l7b_qkv_prefill_m4096 tf32_4096x4096x4096 f32_2048x2048x2048 l70b_qkv_prefill_m1024 l7b_down_prefill_m2048 l70b_down_decode_m128 l70b_up_decode_m32 l13b_down_m512 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
