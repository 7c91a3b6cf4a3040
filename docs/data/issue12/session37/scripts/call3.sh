#!/bin/bash
# Call 3: 14 shapes no session has drawn (bench/gemm_suite40.py --random 14 --seed 44), Triton cold,
# on this session's final build (the default space: session 36's, co-resident kernels opt-in).
OUT=$1
export TAG=call3 SUITE_TIMEOUT=540
export SUITES="--random 14 --seed 44 --triton-cold"
bash .carry/s37/run.sh $OUT
