#!/bin/bash
# Call 5: the split-K take loop rolled (this build, A) against the build of calls 1-4 (B, --compare-ktune):
# the new GPU test of the rolled path, then the two shapes with the longest tuning, Triton cold.
OUT=$1
export TAG=call5 COMPARE=1 SUITE_TIMEOUT=200 TEST_TIMEOUT=90
export TESTS="generated_gpu_test:GeneratedGpu.LargeSplitTilesTakeTheirTotalsInALoop:GeneratedGpu.SplitKOnLongReductions"
export SUITES="--triton-cold --shapes l70b_down_decode_m128 l70b_down_prefill_m8192"
bash .carry/s35/run.sh $OUT
