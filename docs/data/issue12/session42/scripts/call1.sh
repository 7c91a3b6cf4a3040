#!/bin/bash
# Call 1 (the working tree with KT_K_HALF_TAIL: a last K tile at most half full issues half its
# wgmmas): the generated kernels' GPU tests that meet half tails (the new case, odd sizes,
# swapped, split tails, fp8/tf32, strict f32); then A = this build against B = 7010223 (the
# build before it, ktune_old.xz) on the six suite shapes whose K ends in the first half of a
# K tile and five unseen short-K draws with K = 32, 80 or 160 (seeds 300-327, no session drew
# them).
T="generated_gpu_test:*HalfFullLastKTiles*:*OddSizes*:*SwappedKernelsStoreDTransposed*:*SplitTailSplitsTheLastRound*:*Fp8AndTf32WgmmaKernels*:*StrictF32ThroughThreeTf32Products*"
CARRY=.carry/s42 TAG=call1 TESTS="$T" TEST_TIMEOUT=150 SUITE_TIMEOUT=330 COMPARE_BUILD=1 \
  SUITES="--shapes shortk_2048x2048x96 odd_511x1000x4097 odd_1023x2047x513 odd_777x3001x1999 tf32_1000x3000x2000 f32_777x1001x513 rand300_02_shortk_5900x11304x32 rand302_02_shortk_6387x4664x80 rand310_02_shortk_5291x10372x160 rand326_02_shortk_4172x1636x160 rand327_02_shortk_1638x1446x80" \
  bash bench/generated/device_run.sh "$1"
