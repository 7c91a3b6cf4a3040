#!/bin/bash
# Session 37 device runs: optional GPU tests (TESTS="name[:filter] ..."), then bench/gemm_suite40.py once per
# ';'-separated argument list in $SUITES (suite<i>.json); everything tarred into $TAG.tgz.
# COMPARE="ARGS": the same binary with ARGS added (e.g. --generated-co-resident) as --compare-ktune, so both
# settings tune each shape in the same run.
OUT=$1; shift
C=.carry/s37
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x $C/ktune.xz /tmp/ktune37
CMP=
if [ -n "$COMPARE" ]; then
  printf '#!/bin/sh\nexec /tmp/ktune37 "$@" %s\n' "$COMPARE" > /tmp/ktune_b; chmod +x /tmp/ktune_b; CMP="--compare-ktune /tmp/ktune_b"
fi
mkdir -p /tmp/lib && x $C/libktune_gemm.so.xz /tmp/lib/libktune_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $OUT/gpu.csv
if [ -n "$TESTS" ]; then
  for spec in $TESTS; do  # name or name:gtest-filter
    t=${spec%%:*}; f=${spec#*:}; [ "$f" = "$spec" ] && f='*'
    x $C/$t.xz /tmp/$t
    GTEST_FILTER=$f KTUNE_TEST_KTUNE=/tmp/ktune37 LD_LIBRARY_PATH=/tmp/lib KTUNE_SOURCE_DIR=$PWD timeout ${TEST_TIMEOUT:-240} /tmp/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"
    grep -E "^\[  (FAILED|PASSED)|^\[  SKIPPED|Failure" $OUT/$t.log | head -20
  done
fi
i=0
IFS=';' read -ra LISTS <<< "$SUITES"
for args in "${LISTS[@]}"; do
  i=$((i+1))
  PYTHONPATH=python KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
    timeout ${SUITE_TIMEOUT:-560} python3 bench/gemm_suite40.py --ktune /tmp/ktune37 $CMP \
    $args --out $OUT/suite$i.json > $OUT/suite$i.log 2>&1
  echo "suite $i rc=$?"; grep -v "^ \|^{\|^}" $OUT/suite$i.log | tail -60
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >> $OUT/gpu.csv
cd $OUT && tar czf /tmp/out.tgz *.json *.log *.csv 2>/dev/null; rm -f *; mv /tmp/out.tgz ./${TAG:-run}.tgz && ls -la
