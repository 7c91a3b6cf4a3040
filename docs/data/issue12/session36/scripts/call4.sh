#!/bin/bash
# Call 4: the first half of the suite again on the build of call 3 (the clock rule after rounds), Triton
# cold on every shape, so that both halves come from one build.
OUT=$1
export TAG=call4 SUITE_TIMEOUT=290
export SUITES="--part 1/2 --triton-cold"
bash .carry/s36/run.sh $OUT
