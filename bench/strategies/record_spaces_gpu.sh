#!/bin/bash
# Issue 13's recorded spaces, on the lent GPU: every valid configuration of several spaces of
# different character measured once (exhaustive, no racing, every candidate verified), recorded
# in one database that `ktune record export` turns into the compact files under
# bench/strategies/spaces/ (analysed on a CPU: simulation, methodology score).
# Carries .carry/iree_model (bench/iree_model_prepare.sh: the static ktune and IREE's tools).
#   OUT=DIR BUDGET=580 STEPS="histogram transpose ..." [PACK=DIR] bench/strategies/record_spaces_gpu.sh
# PACK: also write DIR/spaces.db.xz and DIR/logs.tgz (the device tool brings back 8 files of at
# most 16 MiB: the database is ~20 MB, the answers and progress lines dozens of files).
# Every step resumes from the database when OUT/spaces.db is carried back in (a re-run measures
# only what is missing), and stops at the shared deadline.
set -u
OUT=${OUT:-bench-out}
BUDGET=${BUDGET:-580}
STEPS=${STEPS:-"histogram transpose row_sum scale_shift reduction gemm_seed gemm_shortk iree_seed sgemm"}
deadline=$(( $(date +%s) + BUDGET ))
C=.carry/iree_model
T=/tmp/ktune_iree_tools
mkdir -p "$OUT" "$T"
unxz_to() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$1" "$2"; }
if [ ! -x "$T/ktune" ]; then
  cp "$C"/tools/* "$T"/ && chmod +x "$T"/*
  unxz_to "$C/libIREECompiler.so.xz" "$T/libIREECompiler.so"
  unxz_to "$C/ktune.xz" "$T/ktune" && chmod +x "$T/ktune"
fi
K=$T/ktune
DB=${DB:-$OUT/spaces.db}
# A cold compile cache: a recording charges each configuration what compiling it costs, and a
# warm machine (an earlier call's compiles) would record cache hits instead.
export KTUNE_CACHE_DIR=${KTUNE_CACHE_DIR:-$(mktemp -d /tmp/ktune_record_cache.XXXXXX)}
[ -f .carry/spaces.db ] && [ ! -f "$DB" ] && cp .carry/spaces.db "$DB"
"$K" --json devices > "$OUT/devices.json" 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,driver_version --format=csv > "$OUT/gpu.csv" 2>&1
date -u +%FT%TZ > "$OUT/started_at.txt"

# step NAME CMD...: runs CMD (ktune arguments) until the deadline; its --json answer and progress
# lines land in OUT/NAME.json and OUT/NAME.progress.
step() {
  local name=$1; shift
  local left=$(( deadline - $(date +%s) ))
  if [ "$left" -lt 30 ]; then echo "$name skipped: ${left}s left"; return; fi
  local start; start=$(date +%s.%N)
  timeout -s INT $(( left - 15 )) "$K" --db "$DB" --json "$@" --progress json > "$OUT/$name.json" 2> "$OUT/$name.progress"
  local rc=$?
  echo "$name rc=$rc wall=$(python3 -c "import time; print(round(time.time() - $start, 1))")s"
}
tune_spec() { step "$1" tune "$2" --strategy exhaustive --no-racing --max-evals 100000000; }
# The generated family's whole space for one shape: every valid kernel, model order, each
# verified and measured briefly (2-10 ms of samples), no cuBLASLt, no refinement round.
tune_gemm() {
  local name=$1; shift
  step "$name" tune gemm "$@" --families generated --generated-candidates 100000 --refine 0 --confirm 0 \
    --no-racing --min-time 0.002 --max-time 0.01 --max-samples 100
}
for s in $STEPS; do
  case $s in
    histogram) tune_spec histogram examples/cuda/histogram/histogram.yaml ;;
    transpose) tune_spec transpose examples/cuda/transpose/transpose.yaml ;;
    reduction) tune_spec reduction examples/cuda/reduction/reduction.yaml ;;
    sgemm) tune_spec sgemm examples/cuda/sgemm/sgemm.yaml ;;
    row_sum) tune_spec row_sum bench/kernel_tuner/row_sum.yaml ;;
    scale_shift) tune_spec scale_shift bench/kernel_tuner/scale_shift.yaml ;;
    gemm_seed) tune_gemm gemm_seed --m 2048 --n 10240 --k 1280 --dtype f16 --layout nt ;;
    gemm_shortk) tune_gemm gemm_shortk --m 8192 --n 8192 --k 256 --dtype bf16 --layout nn ;;
    gemm_decode) tune_gemm gemm_decode --m 16 --n 8192 --k 4096 --dtype f16 --layout nt ;;
    iree_seed) step iree_seed model tune examples/iree/matmul_2048x10240x1280_f16.mlir --target cuda:sm_80 \
                 --iree-tools "$T" --out /tmp/ktune_work/iree_seed --top 1 --max-candidates 48 --max-objects 16 \
                 --strategy exhaustive ;;
    *) echo "unknown step $s" ;;
  esac
done
# WAL content into the main file, so the one file that comes back is complete.
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()" "$DB"
ls -la "$OUT"
if [ -n "${PACK:-}" ]; then
  mkdir -p "$PACK"
  xz -6 -T0 -c "$DB" > "$PACK/spaces.db.xz"
  (cd "$OUT" && tar czf "$PACK/logs.tgz" --exclude=spaces.db ./*)
  ls -la "$PACK"
fi
