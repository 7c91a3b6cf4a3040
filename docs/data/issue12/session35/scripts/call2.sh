#!/bin/bash
# Call 2: the second half of the suite, Triton cold on every shape.
OUT=$1
export TAG=call2 SUITE_TIMEOUT=540
export SUITES="--part 2/2 --triton-cold"
bash .carry/s35/run.sh $OUT
