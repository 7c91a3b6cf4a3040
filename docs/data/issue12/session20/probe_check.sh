#!/bin/bash
# Session 20 check: l70b tuning time with the compile grace; per-kernel durations on shapes the
# reduction, the dependent launches and the repacks touch.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
T=$(mktemp -d)
true \
  

TRITON_CACHE_DIR=$(mktemp -d) timeout 400 python3 bench/generated/kernel_breakdown.py --ktune /tmp/ktune17 \
  --shapes tf32_4096x4096x4096 f32_777x1001x513 odd_4097x511x1000 odd_511x1000x4097 fp8_4096x4096x4096 longk_256x128x16384 \
  --out $OUT/breakdown.json > $OUT/breakdown.log 2>&1
echo "breakdown rc=$?"; tail -2 $OUT/breakdown.log | cut -c1-300
