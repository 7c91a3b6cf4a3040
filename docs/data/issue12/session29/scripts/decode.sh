#!/bin/bash
# Session 29: bench/generated/decode_floor.py on the suite's skinny shapes with the carried ktune.
OUT=$1; shift
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" .carry/s29/ktune.xz /tmp/ktune29; chmod +x /tmp/ktune29
mkdir -p /tmp/lib && cp .carry/s29/libB.so /tmp/lib/libktune_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so timeout 500 python3 bench/generated/decode_floor.py \
  --ktune /tmp/ktune29 --out $OUT/decode_floor.json "$@" 2>&1 | grep -v "^ "
