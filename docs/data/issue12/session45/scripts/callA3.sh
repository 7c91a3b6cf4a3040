#!/bin/bash
# Call A3 (callA cut to the last device time: .carry/s45b, A = e346c54 with KT_ALPHA_ONE, B =
# ktune_old.xz, 92111dc): the epilogue GPU tests (alpha, C, bias, activations; edge tiles), then
# A/B on five suite shapes of 9-35 us (Triton cold).
T="generated_gpu_test:*Epilogues*:*TilesTmaCannotStoreLeaveRowByRow*"
CARRY=.carry/s45b TAG=callA3 TESTS="$T" TEST_TIMEOUT=75 SUITE_TIMEOUT=170 COMPARE_BUILD=1 \
  SUITES="--shapes shortk_2048x2048x96 bmm_qk_b32_512x512x64 odd_1000x1000x1000 bmm_b8_1024x1024x1024 tt_2048x2048x2048 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
