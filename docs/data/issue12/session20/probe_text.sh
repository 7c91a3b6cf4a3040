#!/bin/bash
# Session 20 run 6: the text report of tune gemm after the session moved to tuner/ (cold, then resumed).
OUT=$1
T=$(mktemp -d)
KTUNE_CACHE_DIR=$T/cache /tmp/ktune17 --db $T/k.db tune gemm --m 1024 --n 1024 --k 1024 --dtype bf16 --progress none > $OUT/text_cold.txt 2>&1; echo "cold rc=$?"
KTUNE_CACHE_DIR=$T/cache /tmp/ktune17 --db $T/k.db tune gemm --m 1024 --n 1024 --k 1024 --dtype bf16 --progress none > $OUT/text_resumed.txt 2>&1; echo "resumed rc=$?"
tail -8 $OUT/text_cold.txt; tail -4 $OUT/text_resumed.txt
