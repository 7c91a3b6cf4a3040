#!/bin/bash
# Session 21: per-kernel durations inside the do_bench loop (torch.profiler) for tf32 4096^3 nn.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
TRITON_CACHE_DIR=$(mktemp -d) timeout 300 python3 bench/generated/kernel_breakdown.py --ktune /tmp/ktune17 \
  --shapes ${BD_SHAPES:-tf32_4096x4096x4096} --out $OUT/breakdown.json > $OUT/breakdown.log 2>&1
echo "breakdown rc=$?"; grep -v "^ \|^{\|^}" $OUT/breakdown.log | tail -30 | cut -c1-300
