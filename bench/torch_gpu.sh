#!/usr/bin/env bash
# Issue 14 on a lent GPU, in one call: the in-process GEMM executor's GPU test (C++), ktune.torch's
# GPU tests (python/tests/test_torch_gpu.py) and bench/torch_matmul_bench.py (ktune.torch against
# torch.matmul on the GEMM suite after online tuning, and the per-call overhead), all from this
# source checkout with the carried static CLI and libktune_gemm.so (no pip install: the device's
# Python need not match the one that built the extension module).
#
#   KTUNE=.carry/ktune GEMM_LIB=.carry/libktune_gemm.so TESTS=.carry/tests WHEELS=.carry/wheels \
#     OUT=$OUT bench/torch_gpu.sh
#
# Writes to OUT: nvidia-smi.csv, executor_test.txt, torch_gpu_tests.txt, torch_bench.log,
# torch_bench.json.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export KTUNE_BIN=$(realpath "${KTUNE:-build/ktune}")
export KTUNE_GEMM_LIB=$(realpath "${GEMM_LIB:-build/src/ktune/families/libktune_gemm.so}")
TESTS=${TESTS:-$(dirname "$KTUNE_BIN")/tests}
PY=${PYTHON:-$(command -v python3)}
[[ -x /opt/torch/.venv/bin/python && -z ${PYTHON:-} ]] && PY=/opt/torch/.venv/bin/python
OUT=$(mkdir -p "${OUT:-torch-gpu-out}" && realpath "${OUT:-torch-gpu-out}")
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
# A compile cache of its own: the tuning is cold, as on a machine that never tuned.
export XDG_CACHE_HOME=$(mktemp -d)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  >"$OUT/nvidia-smi.csv" 2>&1 && cat "$OUT/nvidia-smi.csv"

if [[ -x $TESTS/gemm_executor_gpu_test ]]; then
  LD_LIBRARY_PATH=$(dirname "$KTUNE_GEMM_LIB") timeout 300 "$TESTS/gemm_executor_gpu_test" >"$OUT/executor_test.txt" 2>&1
  echo "gemm_executor_gpu_test rc=$?" | tee -a "$OUT/executor_test.txt"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/executor_test.txt"
else
  echo "gemm_executor_gpu_test: not carried" | tee "$OUT/executor_test.txt"
fi

# pytest is pure Python: where the device's Python has none, carried wheels (WHEELS=dir) are
# imported straight from the .whl files.
pytest_path=$PYTHONPATH
if ! "$PY" -c "import pytest" 2>/dev/null && [[ -d ${WHEELS:-} ]]; then
  for w in "$WHEELS"/*.whl; do pytest_path=$pytest_path:$(realpath "$w"); done
fi
PYTHONPATH=$pytest_path timeout 900 "$PY" -m pytest -p no:cacheprovider -v python/tests/test_torch_gpu.py \
  >"$OUT/torch_gpu_tests.txt" 2>&1
echo "torch gpu tests rc=$?" | tee -a "$OUT/torch_gpu_tests.txt"
tail -15 "$OUT/torch_gpu_tests.txt"

timeout 1200 "$PY" bench/torch_matmul_bench.py --out "$OUT/torch_bench.json" "$@" 2>&1 | tee "$OUT/torch_bench.log"
