#!/usr/bin/env bash
# tune gemm's cold tuning time against Triton autotune's (issue 9), on a lent GPU, in one call:
# the GPU tests of what a cold session runs (the CUDA backend with its blocking kernel, the gemm
# worker, the tune gemm CLI), then bench/gemm_suite.py: per shape COLD_REPEATS cold runs (each
# with an empty compile cache and a fresh database; the median is compared), a warm run and the
# suite-order run, with the peers (cuBLAS, TunableOp, Triton autotune) timed in the same run.
#
#   KTUNE=.carry/ktune TESTS=.carry/tests PEERS=.carry/peers_gemm.py OUT=$OUT bench/gemm_cold_gpu.sh
#
# Writes to OUT: nvidia-smi.csv, devices.json, gpu_tests.txt, gemm_suite.log, gemm_suite.json and
# peers_gemm.json (six files: the device tool brings back at most eight).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
KTUNE=$(realpath "${KTUNE:-build/ktune}")
TESTS=${TESTS:-$(dirname "$KTUNE")/tests}
PEERS=${PEERS:-../shared/bench/peers_gemm.py}
OUT=$(mkdir -p "${OUT:-gemm-cold-out}" && realpath "${OUT:-gemm-cold-out}")
export PYTHONUNBUFFERED=1

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  >"$OUT/nvidia-smi.csv" 2>&1 && cat "$OUT/nvidia-smi.csv"
"$KTUNE" --json devices >"$OUT/devices.json" 2>&1 || { cat "$OUT/devices.json"; exit 4; }

: >"$OUT/gpu_tests.txt"
for t in cuda_backend_test gemm_gpu_test gemm_command_test; do
  [[ -x $TESTS/$t ]] || { echo "$t: not carried" | tee -a "$OUT/gpu_tests.txt"; continue; }
  KTUNE_TEST_KTUNE=$KTUNE KTUNE_TEST_SOURCE_DIR=$PWD timeout 300 "$TESTS/$t" >>"$OUT/gpu_tests.txt" 2>&1
  echo "$t rc=$?" | tee -a "$OUT/gpu_tests.txt"
done
grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/gpu_tests.txt"

python3 bench/gemm_suite.py --ktune "$KTUNE" --peers "$PEERS" --out "$OUT" --cold-repeats "${COLD_REPEATS:-3}" \
  2>&1 | tee "$OUT/gemm_suite.log" | grep -vE '^\{"name"'
