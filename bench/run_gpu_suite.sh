#!/usr/bin/env bash
# Everything issue 3 measures on a GPU, in one call (about 5 minutes; every step has a time
# limit, the whole stays under 8). Run from the repository root on the GPU machine:
#
#   KTUNE=.carry/ktune OUT=$OUT bench/run_gpu_suite.sh
#
#   KTUNE               the ktune binary (default build/ktune; a KTUNE_STATIC_DEPS=ON build carries)
#   TESTS_DIR           where the GPU test binaries are, if carried (default: <KTUNE's dir>/tests/gpu)
#   OUT                 logs and JSON (default gpu-suite-out)
#   THROUGHPUT_SECONDS  tuning time per sgemm throughput run (default 45)
#   KTUNE_GPU_E2E_MAX_EVALS  budget per example in the end-to-end checks (default 20)
#
# Steps: the device as ktune sees it; the NVRTC compile test (if carried); the GPU end-to-end
# tests (gpu_e2e_test if carried, else the same checks through the CLI, bench/gpu_cli_checks.py);
# the empty-kernel floor; ktune vs triton.testing.do_bench on the same CUBIN; SGEMM tuning
# throughput with and without racing. A table at the end; exit 1 if any step failed.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
KTUNE=$(realpath "${KTUNE:-build/ktune}")
TESTS_DIR=${TESTS_DIR:-$(dirname "$KTUNE")/tests/gpu}
OUT=$(mkdir -p "${OUT:-gpu-suite-out}" && realpath "${OUT:-gpu-suite-out}")
export KTUNE OUT
export THROUGHPUT_SECONDS=${THROUGHPUT_SECONDS:-45}
export KTUNE_GPU_E2E_MAX_EVALS=${KTUNE_GPU_E2E_MAX_EVALS:-20}
export KTUNE_TEST_KTUNE=$KTUNE KTUNE_TEST_SOURCE_DIR=$REPO
if [[ -z ${KTUNE_CACHE_DIR:-} ]]; then
  KTUNE_CACHE_DIR=$(mktemp -d /tmp/ktune_suite_cache.XXXXXX)
  trap 'rm -rf "$KTUNE_CACHE_DIR"' EXIT
fi
export KTUNE_CACHE_DIR
SUITE_START=$(date +%s)
: >"$OUT/steps.tsv"

# step NAME LIMIT_SECONDS COMMAND...: runs it with its output in $OUT/NAME.log (and on the
# console), records exit code and seconds.
step() {
  local name=$1 limit=$2
  shift 2
  echo
  echo "=== $name (limit ${limit}s): $*"
  local t0 rc
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$OUT/$name.log"
  rc=${PIPESTATUS[0]}
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - t0))" >>"$OUT/steps.tsv"
  return "$rc"
}

echo "ktune GPU suite: $KTUNE, output in $OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  >"$OUT/nvidia-smi.csv" 2>&1 && cat "$OUT/nvidia-smi.csv"
if ! "$KTUNE" --json devices >"$OUT/devices.json" 2>"$OUT/devices.err"; then
  echo "ktune --json devices failed:"; cat "$OUT/devices.err"; exit 2
fi
if ! python3 - "$OUT/devices.json" <<'PY'
import json, sys
cuda = next((b for b in json.load(open(sys.argv[1])) if b["backend"] == "cuda"), None)
if not cuda or not cuda["available"] or not cuda["devices"]:
    print("the cuda backend is not usable here:", (cuda or {}).get("reason", "no cuda backend in this ktune"))
    sys.exit(1)
for d in cuda["devices"]:
    p = d["properties"]
    print(f"cuda device {d['ordinal']}: {d['name']} ({p.get('target')}), timing: {json.dumps(p.get('timing', {}))}")
PY
then
  exit 4
fi

if [[ -x $TESTS_DIR/cuda_examples_compile_test ]]; then
  step compile_test 90 "$TESTS_DIR/cuda_examples_compile_test" --gtest_output="json:$OUT/compile_test.json"
fi
if [[ -x $TESTS_DIR/gpu_e2e_test ]]; then
  step gpu_e2e_test 240 "$TESTS_DIR/gpu_e2e_test" --gtest_output="json:$OUT/gpu_e2e_test.json"
else
  echo "(no $TESTS_DIR/gpu_e2e_test: running the same checks through the CLI)"
  step gpu_cli_checks 240 python3 bench/gpu_cli_checks.py
fi
step empty_kernel 60 bench/empty_kernel.sh
step measure_agreement 150 python3 bench/measure_agreement.py
step sgemm_throughput $((2 * THROUGHPUT_SECONDS + 60)) bench/sgemm_throughput.sh

echo
echo "=== summary ($(($(date +%s) - SUITE_START)) s in all; logs and JSON in $OUT)"
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]

def load(name):
    try:
        return json.load(open(os.path.join(out, name)))
    except (OSError, ValueError):
        return None

def gtest(name):
    j = load(name)
    if not j:
        return "no report"
    return f"{j['tests'] - j['failures'] - j.get('disabled', 0)}/{j['tests']} tests passed, {j['failures']} failed"

def headline(step):
    if step == "compile_test":
        return gtest("compile_test.json")
    if step == "gpu_e2e_test":
        return gtest("gpu_e2e_test.json")
    if step == "gpu_cli_checks":
        j = load("gpu_cli_checks.json")
        return f"{sum(c['passed'] for c in j['checks'])}/{len(j['checks'])} checks passed" if j else "no report"
    if step == "empty_kernel":
        j = load("empty_kernel.json")
        return f"median {j['median_s'] * 1e6:.2f} us (target < 3 us)" if j else "no report"
    if step == "measure_agreement":
        j = load("measure_agreement.json")
        return ", ".join(f"{c['name']}: ktune/do_bench {c['ratio']:.3f}" for c in j["cases"]) if j else "no report"
    if step == "sgemm_throughput":
        j = load("sgemm_throughput.json")
        if not j:
            return "no report"
        r = j["runs"]
        return (f"racing {r['racing']['configs_per_minute']:.1f}/min, no racing "
                f"{r['no_racing']['configs_per_minute']:.1f}/min ({j['speedup_from_racing']:.2f}x)")
    return ""

failed = 0
print(f"{'step':<20} {'result':<8} {'seconds':>7}  headline")
for line in open(os.path.join(out, "steps.tsv")):
    step, rc, seconds = line.rstrip("\n").split("\t")
    rc = int(rc)
    result = "ok" if rc == 0 else ("TIMEOUT" if rc in (124, 137) else f"FAIL({rc})")
    failed += rc != 0
    print(f"{step:<20} {result:<8} {seconds:>7}  {headline(step)}")
sys.exit(1 if failed else 0)
PY
