#!/bin/bash
# Call 3: the driver's JIT cache around tune gemm (jit_cache.sh), then the second half of the suite,
# Triton cold on every shape.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s36/ktune.xz /tmp/ktune36; mkdir -p /tmp/lib && x .carry/s36/libktune_gemm.so.xz /tmp/lib/libktune_gemm.so
bash .carry/s36/jit_cache.sh $OUT
export TAG=call3 SUITE_TIMEOUT=520
export SUITES="--part 2/2 --triton-cold"
bash .carry/s36/run.sh $OUT
