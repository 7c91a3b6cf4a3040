#!/usr/bin/env bash
# The gemm / cuBLASLt checks on a GPU machine, in one call (about 4 minutes, at most 9; each step has a
# time limit). Run from the repository root:
#
#   BIN=.carry/gemm OUT=$OUT src/ktune/families/gemm/gpu_checks.sh
#
#   BIN   directory holding ktune, gemm_gpu_test and gemm_command_test (static Release build,
#         see families/README.md); default build
#   OUT   logs (default gemm-gpu-out)
#   KTUNE_CUBLASLT_PATH  if libcublasLt.so.13/.12 is not on the loader path or in /usr/local/cuda
#
# Steps: the device; gemm_gpu_test (verification across dtypes/layouts/sizes/epilogues,
# split-K, fp8, the baseline rule); gemm_command_test (the CLI end to end); then `ktune tune
# gemm` on four shapes of the issue's suite with the result tables. Exit 1 if a step failed.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
cd "$REPO"
BIN=$(realpath "${BIN:-build}")
OUT=$(mkdir -p "${OUT:-gemm-gpu-out}" && realpath "${OUT:-gemm-gpu-out}")
KTUNE="$BIN/ktune"
export KTUNE_TEST_KTUNE=$KTUNE
export KTUNE_CACHE_DIR=${KTUNE_CACHE_DIR:-$(mktemp -d /tmp/ktune_gemm_cache.XXXXXX)}
DB="$OUT/gemm.db"
failed=0

if [ -z "${KTUNE_CUBLASLT_PATH:-}" ]; then
  for candidate in /usr/local/cuda/lib64 $(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib"))' 2>/dev/null); do
    if ls "$candidate"/libcublasLt.so.1[23] >/dev/null 2>&1; then
      export KTUNE_CUBLASLT_PATH=$candidate
      break
    fi
  done
fi
echo "KTUNE_CUBLASLT_PATH=${KTUNE_CUBLASLT_PATH:-<loader path>}"

step() {
  local name=$1 limit=$2
  shift 2
  echo
  echo "=== $name (limit ${limit}s): $*"
  local t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$OUT/$name.log"
  local rc=${PIPESTATUS[0]}
  echo "=== $name: exit $rc after $(( $(date +%s) - t0 )) s"
  [ "$rc" -eq 0 ] || failed=1
}

step devices 30 "$KTUNE" devices
step gemm_gpu_test 200 "$BIN/gemm_gpu_test"
step gemm_command_test 100 "$BIN/gemm_command_test"
step tune_4096_bf16 60 "$KTUNE" --db "$DB" tune gemm --m 4096 --n 4096 --k 4096 --dtype bf16 --no-resume
step tune_32x2048x1024_f16 45 "$KTUNE" --db "$DB" tune gemm --m 32 --n 2048 --k 1024 --dtype f16 --no-resume
step tune_64x64x65536_bf16 45 "$KTUNE" --db "$DB" tune gemm --m 64 --n 64 --k 65536 --dtype bf16 --no-resume
step tune_2048x10240x1280_f16 45 "$KTUNE" --db "$DB" --json tune gemm --m 2048 --n 10240 --k 1280 --dtype f16 --no-resume
exit $failed
