#!/bin/bash
# Call A2 (callA cut to the device time left: .carry/s45b, A = e346c54 with KT_ALPHA_ONE, B =
# ktune_old.xz, 92111dc): five GPU test groups of the epilogue and store paths, then A/B on
# eight suite shapes of 7-35 us (Triton cold).
T="generated_gpu_test:*Epilogues*:*TilesTmaCannotStoreLeaveRowByRow*:*OddSizes*:*Fp8AndTf32WgmmaKernels*:*AFreshWorker*"
CARRY=.carry/s45b TAG=callA2 TESTS="$T" TEST_TIMEOUT=120 SUITE_TIMEOUT=230 COMPARE_BUILD=1 \
  SUITES="--shapes shortk_2048x2048x96 bmm_qk_b32_512x512x64 odd_1000x1000x1000 bmm_b8_1024x1024x1024 bmm_pv_b32_512x64x512 tt_2048x2048x2048 odd_1023x2047x513 bmm_b64_128x128x128 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
