#!/bin/bash
# Session 20 runs: optional GPU tests (GGT=1, GET=1), then a part of bench/gemm_suite40.py; outputs tarred.
OUT=$1; shift
C=.carry/s24
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x $C/ktune.xz /tmp/ktune17
for t in generated_gpu_test:ggt gemm_executor_gpu_test:get gemm_command_test:gct; do [ -f $C/${t%%:*}.xz ] && x $C/${t%%:*}.xz /tmp/${t##*:}; done
mkdir -p /tmp/lib && cp $C/libB.so /tmp/lib/libktune_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
if [ -n "$GGT" ]; then
  KTUNE_SOURCE_DIR=$PWD timeout ${GGT_TIMEOUT:-300} /tmp/ggt --gtest_filter=${GGT_FILTER:-*} > $OUT/generated_gpu_test.log 2>&1; echo "generated_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|OK \]|Failure|Expected" $OUT/generated_gpu_test.log | head -60
fi
if [ -n "$GET" ]; then
  LD_LIBRARY_PATH=/tmp/lib KTUNE_SOURCE_DIR=$PWD timeout 200 /tmp/get > $OUT/gemm_executor_gpu_test.log 2>&1; echo "gemm_executor_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|Failure" $OUT/gemm_executor_gpu_test.log | head -20
fi
if [ -n "$GCT" ]; then
  KTUNE_TEST_KTUNE=/tmp/ktune17 KTUNE_SOURCE_DIR=$PWD timeout 300 /tmp/gct > $OUT/gemm_command_test.log 2>&1; echo "gemm_command_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|Failure|compile grace" $OUT/gemm_command_test.log | head -20
fi
for P in $PROBE; do timeout ${PROBE_TIMEOUT:-200} bash $C/$P $OUT; done
if [ -z "$NO_SUITE" ]; then
PYTHONPATH=python KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
  timeout ${SUITE_TIMEOUT:-300} python3 bench/gemm_suite40.py --ktune /tmp/ktune17 "$@" --out $OUT/${SUITE_OUT:-suite.json} 2>&1 | grep -v "^ \|^{\|^}"
fi
cd $OUT && tar czf /tmp/out.tgz * && rm -f * && mv /tmp/out.tgz ./${SUITE_OUT:-suite}.tgz && ls
