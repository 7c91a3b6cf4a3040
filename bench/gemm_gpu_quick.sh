#!/usr/bin/env bash
# A first look on a GPU machine: the generated family's GPU tests, then cold and warm tuning of
# a few suite shapes through the CLI (text reports in $OUT). Run from the repository root:
#   BIN=.carry OUT=$OUT bench/gemm_gpu_quick.sh
set -uo pipefail
BIN=${BIN:-.carry}
OUT=${OUT:-/tmp/gemm-quick}
mkdir -p "$OUT/logs"
export KTUNE_TEST_KTUNE=$PWD/$BIN/ktune KTUNE_TEST_SOURCE_DIR=$PWD
nvidia-smi -L | tee "$OUT/logs/device.txt"
( time timeout 300 "$BIN/gemm/generated_gpu_test" ) >"$OUT/logs/generated_gpu_test.log" 2>&1
echo "generated_gpu_test rc=$?" | tee -a "$OUT/logs/summary.txt"
grep -E "^\[  (PASSED|FAILED)|OK \]|FAILED \]" "$OUT/logs/generated_gpu_test.log" | tee -a "$OUT/logs/summary.txt"
cache=$(mktemp -d)
for shape in "4096 4096 4096 bf16" "64 64 65536 bf16" "1000 3000 2000 f16" "16 4096 4096 bf16"; do
  set -- $shape
  for run in cold warm; do
    db=$(mktemp -u /tmp/ktune.XXXX.db)
    start=$(date +%s.%N)
    KTUNE_CACHE_DIR=$cache timeout 150 "$BIN/ktune" --db "$db" tune gemm --m $1 --n $2 --k $3 --dtype $4 \
      --progress none >"$OUT/logs/tune_${1}x${2}x${3}_$run.txt" 2>&1
    rc=$?
    echo "tune $shape $run rc=$rc wall=$(echo "$(date +%s.%N) - $start" | bc) s" | tee -a "$OUT/logs/summary.txt"
  done
done
cp "$OUT/logs/summary.txt" "$OUT/summary.txt"; tar -C "$OUT" -czf "$OUT/logs.tgz" logs && rm -rf "$OUT/logs"
