#!/bin/bash
# Call 1: tune gemm's GPU test (interleaved confirmation rounds by default, one round on request) and
# gemm_gpu_test, then rounds (A, this build's default) against one round (B, --confirm-rounds 1, the
# confirmation before session 36) on the ten shapes whose confirmations moved most in session 35.
OUT=$1
export TAG=call1 COMPARE=rounds1 SUITE_TIMEOUT=430 TEST_TIMEOUT=100
export TESTS="gemm_command_test:TuneGemmCli.TunesASmallShapeOnTheGpu gemm_gpu_test"
export SUITES="--shapes l7b_qkv_prefill_m4096 l7b_down_prefill_m2048 l7b_up_prefill_m16384 l70b_qkv_prefill_m1024 l70b_down_prefill_m8192 rand42_01_prefill_2672x28672x2048 l13b_down_m512 tf32_4096x4096x4096 odd_3000x3000x3000 bmm_b8_1024x1024x1024"
bash .carry/s36/run.sh $OUT
