#!/bin/bash
# One device call of the issue-12 work, run on the lent GPU from the repository root:
#   bash bench/generated/device_run.sh OUT
# Everything it needs comes from $CARRY (default .carry/current), built and xz'd here:
#   ktune.xz, libktune_gemm.so.xz   the build under test (required)
#   ktune_old.xz                    a second build: A/B against it with COMPARE_BUILD=1
#   <test>.xz                       the GPU test binaries TESTS names
# Steps, each optional, in this order (environment variables):
#   TESTS="name[:gtest-filter] ..."  GPU tests, each under TEST_TIMEOUT seconds (default 240)
#   NCU_SHAPES="suite shape ..."     (NCU_TUNE_ARGS: e.g. --no-variants) Nsight Compute over torch.matmul and the generated best of those
#                                    shapes (bench/generated/ncu_compare.py), exported as the raw
#                                    metrics and the per-instruction source page (SASS with the
#                                    instructions executed and the stall samples at every address)
#   NCU_PLAN=configs.json            the same Nsight Compute step on a written plan instead of tuned
#                                    configurations (ncu_compare.py's format: shape, problem, configs)
#   NCU_METRICS="m1,m2,..."          only these metrics (a few passes) instead of the full set and
#                                    its source page
#   RUN_FIRST="command"              a command run before everything else (e.g. a carried probe binary)
#   PROBES="REPORT|SHAPE|CONFIGS ..."  bench/generated/pair_probe.py on each triple (a tune gemm report or
#                                    --dry-run of SHAPE, a JSON list of generated configurations), with
#                                    torch.matmul before and after (probe<i>.json); PROBE_ARGS: more
#                                    pair_probe.py arguments (e.g. --flushes)
#   SUITES="args;args..."            bench/gemm_suite40.py once per ';'-separated argument list
#                                    (suite<i>.json), each under SUITE_TIMEOUT (default 560)
#   COMPARE="ARGS"                   in the suites: the same binary with ARGS as --compare-ktune
#   COMPARE_BUILD=1                  in the suites: ktune_old.xz as --compare-ktune instead
# Output: $OUT/$TAG.tgz (default run.tgz) with every log, CSV and JSON; the Nsight Compute report
# itself as $OUT/rep.ncu-rep.xz.
set -u
OUT=$1
C=${CARRY:-.carry/current}
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$1" "$2"; chmod +x "$2"; }
x "$C/ktune.xz" /tmp/ktune_a
mkdir -p /tmp/lib && x "$C/libktune_gemm.so.xz" /tmp/lib/libktune_gemm.so
CMP=
if [ "${COMPARE_BUILD:-0}" = 1 ]; then
  x "$C/ktune_old.xz" /tmp/ktune_b
  CMP="--compare-ktune /tmp/ktune_b"
elif [ -n "${COMPARE:-}" ]; then
  printf '#!/bin/sh\nexec /tmp/ktune_a "$@" %s\n' "$COMPARE" > /tmp/ktune_b; chmod +x /tmp/ktune_b
  CMP="--compare-ktune /tmp/ktune_b"
fi
gpu_state() { nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader >> "$OUT/gpu.csv"; }
echo "name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw" > "$OUT/gpu.csv"; gpu_state

if [ -n "${RUN_FIRST:-}" ]; then
  bash -c "$RUN_FIRST" > "$OUT/run_first.log" 2>&1
  echo "run_first rc=$?"; tail -5 "$OUT/run_first.log"
fi

for spec in ${TESTS:-}; do  # name or name:gtest-filter
  t=${spec%%:*}; f=${spec#*:}; [ "$f" = "$spec" ] && f='*'
  x "$C/$t.xz" "/tmp/$t"
  GTEST_FILTER=$f KTUNE_TEST_KTUNE=/tmp/ktune_a LD_LIBRARY_PATH=/tmp/lib KTUNE_SOURCE_DIR=$PWD \
    timeout "${TEST_TIMEOUT:-240}" "/tmp/$t" > "$OUT/$t.log" 2>&1
  echo "$t rc=$?"
  grep -E "^\[  (FAILED|PASSED)|^\[  SKIPPED|Failure" "$OUT/$t.log" | head -20
done

if [ -n "${NCU_SHAPES:-}" ] || [ -n "${NCU_PLAN:-}" ]; then
  export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
  if [ -n "${NCU_PLAN:-}" ]; then
    cp "$NCU_PLAN" "$OUT/configs.json"
  else
    # shellcheck disable=SC2086
    timeout 200 python3 bench/generated/ncu_compare.py tune --ktune /tmp/ktune_a ${NCU_TUNE_ARGS:-} --shapes $NCU_SHAPES \
      --out "$OUT/configs.json" > "$OUT/ncu_tune.log" 2>&1
    echo "ncu tune rc=$?"
  fi
  SET="--set full"
  [ -n "${NCU_METRICS:-}" ] && SET="--metrics $NCU_METRICS"
  # shellcheck disable=SC2086
  timeout "${NCU_TIMEOUT:-300}" "$NCU" $SET --clock-control none --import-source no --target-processes application-only --nvtx \
    --print-summary none -f -o /tmp/rep python3 bench/generated/ncu_compare.py run "$OUT/configs.json" \
    --ktune /tmp/ktune_a > "$OUT/ncu.log" 2>&1
  echo "ncu rc=$?"; tail -3 "$OUT/ncu.log"
  "$NCU" --import /tmp/rep.ncu-rep --csv --page raw --print-nvtx-rename kernel > "$OUT/ncu_raw.csv" 2> "$OUT/ncu_export.err"
  # One SASS listing per profiled launch: address, source, instructions executed, stall samples.
  [ -z "${NCU_METRICS:-}" ] && "$NCU" --import /tmp/rep.ncu-rep --csv --page source --print-source sass --print-nvtx-rename kernel \
    > "$OUT/ncu_source.csv" 2>> "$OUT/ncu_export.err"
  [ -f "$OUT/ncu_source.csv" ] && echo "source export $(wc -c < "$OUT/ncu_source.csv") bytes" && xz -T4 -6 "$OUT/ncu_source.csv"
  xz -T4 -6 -c /tmp/rep.ncu-rep > "$OUT/rep.ncu-rep.xz"
fi

i=0
for probe in ${PROBES:-}; do
  i=$((i+1))
  IFS='|' read -r report shape configs <<< "$probe"
  # shellcheck disable=SC2086
  PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so timeout "${PROBE_TIMEOUT:-120}" \
    python3 bench/generated/pair_probe.py "$report" --shape "$shape" --select "file:$configs" --torch ${PROBE_ARGS:-} \
    --out "$OUT/probe$i.json" > "$OUT/probe$i.log" 2>&1
  echo "probe $i ($shape) rc=$?"; cut -c1-160 "$OUT/probe$i.log" | tail -12
done

i=0
IFS=';' read -ra LISTS <<< "${SUITES:-}"
for args in "${LISTS[@]}"; do
  i=$((i+1))
  # shellcheck disable=SC2086
  PYTHONPATH=python KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
    timeout "${SUITE_TIMEOUT:-560}" python3 bench/gemm_suite40.py --ktune /tmp/ktune_a $CMP \
    $args --out "$OUT/suite$i.json" > "$OUT/suite$i.log" 2>&1
  echo "suite $i rc=$?"; grep -v "^ \|^{\|^}" "$OUT/suite$i.log" | tail -60
done
gpu_state
cd "$OUT" && tar czf /tmp/out.tgz ./*.json ./*.log ./*.csv ./*.err ./ncu_source.csv.xz 2>/dev/null
find . -maxdepth 1 -type f ! -name 'rep.ncu-rep.xz' -delete
mv /tmp/out.tgz "./${TAG:-run}.tgz" && ls -la
