#!/bin/bash
# Call 2: tune gemm twice on one shape alone (NVRTC seconds, first against second), then the first half
# of the suite, Triton cold on every shape (the tuning-time target's measurement).
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s36/ktune.xz /tmp/ktune36; mkdir -p /tmp/lib && x .carry/s36/libktune_gemm.so.xz /tmp/lib/libktune_gemm.so
bash .carry/s36/nvrtc_twice.sh $OUT
export TAG=call2 SUITE_TIMEOUT=520
export SUITES="--part 1/2 --triton-cold"
bash .carry/s36/run.sh $OUT
