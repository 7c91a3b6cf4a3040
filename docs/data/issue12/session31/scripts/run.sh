#!/bin/bash
# Session 25 runs: optional GPU tests (GGT=1), then bench/gemm_suite40.py once per ';'-separated
# argument list in $SUITES (each written to suite<i>.json), the old build as --compare-ktune
# where COMPARE=1; outputs tarred.
OUT=$1; shift
C=.carry/s31
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x $C/ktune.xz /tmp/ktune30
[ -n "$COMPARE" ] && x $C/ktune_old.xz /tmp/ktune_old
[ -n "$GGT" ] && x $C/generated_gpu_test.xz /tmp/ggt
mkdir -p /tmp/lib && cp $C/libB.so /tmp/lib/libktune_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
if [ -n "$GGT" ]; then
  KTUNE_SOURCE_DIR=$PWD timeout ${GGT_TIMEOUT:-300} /tmp/ggt --gtest_filter=${GGT_FILTER:-*} > $OUT/generated_gpu_test.log 2>&1; echo "generated_gpu_test rc=$?"
  grep -E "^\[  (FAILED|PASSED)|OK \]|Failure|Expected" $OUT/generated_gpu_test.log | head -40
fi
i=0
IFS=';' read -ra LISTS <<< "$SUITES"
for args in "${LISTS[@]}"; do
  i=$((i+1))
  PYTHONPATH=python KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
    timeout ${SUITE_TIMEOUT:-300} python3 bench/gemm_suite40.py --ktune /tmp/ktune30 ${COMPARE:+--compare-ktune /tmp/ktune_old} \
    $args --out $OUT/suite$i.json 2>&1 | grep -v "^ \|^{\|^}"
done
cd $OUT && tar czf /tmp/out.tgz *.json *.log *.csv 2>/dev/null; rm -f *; mv /tmp/out.tgz ./${TAG:-run}.tgz && ls
