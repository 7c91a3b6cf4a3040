#!/bin/bash
# Session 14: the suite with fp8/tf32 wgmma kernels and 20 generated candidates (run.sh of .carry/s14b).
OUT=$1; shift
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s14b/ktune.xz /tmp/ktune14b; x .carry/s14b/generated_gpu_test.xz /tmp/ggt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
if [ -n "$GGT" ]; then
  KTUNE_SOURCE_DIR=$PWD timeout 240 /tmp/ggt --gtest_filter=${GGT_FILTER:-*} > $OUT/generated_gpu_test.log 2>&1; echo "generated_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|OK \]|Failure|Expected|verified" $OUT/generated_gpu_test.log | head -40
fi
PYTHONPATH=python KTUNE_GEMM_LIB=.carry/s14b/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
  timeout ${SUITE_TIMEOUT:-300} python3 bench/gemm_suite40.py --ktune /tmp/ktune14b "$@" --out $OUT/${SUITE_OUT:-suite.json} 2>&1 | grep -v "^ \|^{\|^}"
