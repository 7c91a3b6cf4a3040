#!/bin/bash
# Session 20 probe: where l70b_down_prefill_m8192's tuning time goes (full report + database),
# and per-kernel GPU durations of every peer on the shapes that miss.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
T=$(mktemp -d)
/usr/bin/time -v env KTUNE_CACHE_DIR=$T/cache /tmp/ktune17 --db $OUT/l70b.db --json tune gemm --m 8192 --n 8192 --k 28672 \
  --dtype bf16 --layout nt --batch 1 --families generated,cublaslt --progress none > $OUT/l70b.json 2> $OUT/l70b.err
echo "l70b rc=$?"; tail -5 $OUT/l70b.err
TRITON_CACHE_DIR=$(mktemp -d) timeout 400 python3 bench/generated/kernel_breakdown.py --ktune /tmp/ktune17 \
  --shapes bmm_b64_128x128x128 bmm_pv_b32_512x64x512 longk_256x128x16384 odd_1000x1000x1000 tf32_4096x4096x4096 \
  --out $OUT/breakdown.json > $OUT/breakdown.log 2>&1
echo "breakdown rc=$?"; tail -3 $OUT/breakdown.log | cut -c1-400
