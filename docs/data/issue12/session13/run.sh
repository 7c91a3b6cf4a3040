#!/bin/bash
# Session 13: B panels (sm_90). GPU tests, then the shapes the change aims at and controls.
OUT=$1; shift
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s13/ktune.xz /tmp/ktune13; x .carry/s13/generated_gpu_test.xz /tmp/ggt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
if [ -n "$GGT" ]; then
  KTUNE_SOURCE_DIR=$PWD timeout 240 /tmp/ggt --gtest_filter=${GGT_FILTER:-*} > $OUT/generated_gpu_test.log 2>&1; echo "generated_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|OK \]|Failure|Expected|verified" $OUT/generated_gpu_test.log | head -40
fi
PYTHONPATH=python KTUNE_GEMM_LIB=.carry/s13/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
  timeout ${SUITE_TIMEOUT:-300} python3 bench/gemm_suite40.py --ktune /tmp/ktune13 "$@" --out $OUT/suite.json 2>&1 | grep -v "^ \|^{\|^}"
