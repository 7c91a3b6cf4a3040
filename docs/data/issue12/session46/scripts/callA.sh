#!/bin/bash
# Call A (.carry/s45b: A = the working tree with KT_ALPHA_ONE, alpha = 1 compiled in, so that a
# plain epilogue's kernel holds one copy of its tile's epilogue (128x256: 2944 -> 1288 SASS
# instructions); B = ktune_old.xz, 92111dc): the generated kernels' GPU tests of every epilogue
# and store path on A's binaries, then A/B on twelve suite shapes of 7-100 us, where the
# epilogue's code is a visible share (Triton cold).
T="generated_gpu_test:*Epilogues*:*TilesTmaCannotStoreLeaveRowByRow*:*LargeSplitTiles*:*OddSizes*:*Fp8AndTf32WgmmaKernels*:*SwappedKernelsStoreDTransposed*:*ChunkedStaging*:*Pingpong*:*SplitKSlicesSummedByASecondKernel*:*EveryLayoutBothPaths*:*AFreshWorker*"
CARRY=.carry/s45b TAG=callA TESTS="$T" TEST_TIMEOUT=150 SUITE_TIMEOUT=300 COMPARE_BUILD=1 \
  SUITES="--shapes shortk_2048x2048x96 bmm_qk_b32_512x512x64 bmm_pv_b32_512x64x512 odd_1000x1000x1000 bmm_b8_1024x1024x1024 tt_2048x2048x2048 bmm_b64_128x128x128 odd_1023x2047x513 shortk_8192x8192x64 l7b_o_decode_m16 tall_65536x128x512 public_seed000_2048x10240x1280 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
