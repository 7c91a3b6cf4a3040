#!/bin/bash
# Session 15 suite runs: optional GPU tests, then a part of bench/gemm_suite40.py; outputs tarred.
OUT=$1; shift
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/ktune15; x .carry/s15/generated_gpu_test.xz /tmp/ggt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
if [ -n "$GGT" ]; then
  KTUNE_SOURCE_DIR=$PWD timeout ${GGT_TIMEOUT:-240} /tmp/ggt --gtest_filter=${GGT_FILTER:-*} > $OUT/generated_gpu_test.log 2>&1; echo "generated_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|OK \]|Failure|Expected|verified\"|error\"" $OUT/generated_gpu_test.log | head -40
fi
PYTHONPATH=python KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
  timeout ${SUITE_TIMEOUT:-300} python3 bench/gemm_suite40.py --ktune /tmp/ktune15 "$@" --out $OUT/${SUITE_OUT:-suite.json} 2>&1 | grep -v "^ \|^{\|^}"
cd $OUT && tar czf ${SUITE_OUT:-suite}.tgz * --exclude='*.tgz' && ls
