#!/usr/bin/env bash
# Issue 9 on a GPU, in one call: the GPU end-to-end tests (faults, memory errors, examples),
# tuning throughput of every shipped CUDA example with where the time went (phases), a
# --sanitize run, and (if its wheels are carried) the Kernel Tuner comparison.
#
#   KTUNE=.carry/ktune OUT=$OUT bench/issue9_gpu.sh
#
#   KTUNE          the ktune binary (a KTUNE_STATIC_DEPS=ON build carries)
#   TESTS_DIR      carried GPU test binaries (default <KTUNE's dir>/tests/gpu)
#   EXAMPLE_SECONDS  tuning budget per example (default 40)
#   SKIP           space-separated step names to skip (e2e examples sanitize kernel_tuner)
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
KTUNE=$(realpath "${KTUNE:-build/ktune}")
TESTS_DIR=${TESTS_DIR:-$(dirname "$KTUNE")/tests/gpu}
OUT=$(mkdir -p "${OUT:-issue9-out}" && realpath "${OUT:-issue9-out}")
EXAMPLE_SECONDS=${EXAMPLE_SECONDS:-40}
SKIP=" ${SKIP:-} "
export KTUNE OUT EXAMPLE_SECONDS KTUNE_TEST_KTUNE=$KTUNE KTUNE_TEST_SOURCE_DIR=$REPO
: >"$OUT/steps.tsv"

step() {  # step NAME LIMIT COMMAND...: output in $OUT/NAME.log, exit code and seconds in steps.tsv
  local name=$1 limit=$2
  shift 2
  if [[ $SKIP == *" $name "* ]]; then echo "=== $name skipped"; return 0; fi
  echo; echo "=== $name (limit ${limit}s): $*"
  local t0 rc
  t0=$(date +%s)
  if declare -F "$1" >/dev/null; then  # a function of this script: run it in a child bash
    export -f "$1"
    timeout --kill-after=10 "$limit" bash -c "$*" >"$OUT/$name.log" 2>&1
  else
    timeout --kill-after=10 "$limit" "$@" >"$OUT/$name.log" 2>&1
  fi
  rc=$?
  tail -n 25 "$OUT/$name.log"
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(($(date +%s) - t0))" >>"$OUT/steps.tsv"
  return "$rc"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  >"$OUT/nvidia-smi.csv" 2>&1 && cat "$OUT/nvidia-smi.csv"
"$KTUNE" --json devices >"$OUT/devices.json" 2>&1 || { cat "$OUT/devices.json"; exit 4; }

if [[ -x $TESTS_DIR/gpu_e2e_test ]]; then
  step e2e 300 "$TESTS_DIR/gpu_e2e_test" --gtest_output="json:$OUT/gpu_e2e_test.json"
else
  step e2e 300 python3 bench/gpu_cli_checks.py
fi

# Tuning throughput per example, cold compile cache, fresh database: evaluated per minute and
# the phase totals (tune --json).
examples() {
  local cache db spec name
  for spec in examples/cuda/*/*.yaml; do
    name=$(basename "$spec" .yaml)
    cache=$(mktemp -d) db=$(mktemp -u /tmp/ktune-XXXXXX.db)
    KTUNE_CACHE_DIR=$cache "$KTUNE" --db "$db" --json tune "$spec" --max-time "$EXAMPLE_SECONDS" --progress none \
      >"$OUT/example_$name.json" 2>"$OUT/example_$name.err"
    echo "$name rc=$?"
    python3 - "$OUT/example_$name.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n, w = s["evaluated"], s["wall_seconds"]
print(f"  evaluated {n} in {w:.1f} s = {60 * n / w:.0f} configs/min; {s['by_status']}; stop: {s['stop_reason']}")
print("  phases:", {k: round(v, 2) for k, v in sorted(s["phase_totals"].items(), key=lambda kv: -kv[1])})
if s.get("best"): print(f"  best {s['best']['median_s'] * 1e6:.1f} us {s['best']['config']}")
PY
    rm -rf "$cache" "$db"*
  done
}
step examples 300 examples

sanitize() {
  local db=$(mktemp -u /tmp/ktune-XXXXXX.db)
  "$KTUNE" --db "$db" --json tune examples/cuda/histogram/histogram.yaml --max-evals 6 --progress none \
    --sanitize winner --sanitize-tools memcheck,racecheck >"$OUT/sanitize.json"
  echo "rc=$?"
  python3 -c "import json; s=json.load(open('$OUT/sanitize.json')); print(json.dumps(s.get('sanitized'), indent=1)[:3000]); print(s['by_status'])"
  # MODE 13 reads one element past an input, MODE 14 races on shared memory: no fault, right
  # values, status ok without the sanitizer. --sanitize all must flag 13 with memcheck, 14 with
  # racecheck, and leave MODE 0/1 clean.
  "$KTUNE" --db "$db" --json tune tests/gpu/faults_cuda/faults_cuda.yaml --progress none --sanitize all \
    --sanitize-tools memcheck,racecheck --no-resume >"$OUT/sanitize_faults.json"
  python3 - "$OUT/sanitize_faults.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
found = {}
for z in s.get("sanitized", []):
    tools = z.get("findings", {}).get("tools", {})
    found[(z["config"]["MODE"], z["config"]["BLOCK"])] = {t: tools[t].get("errors", tools[t].get("error")) for t in tools}
print("sanitized (MODE, BLOCK) -> findings per tool:", found, s["by_status"])
def expected(mode, tool):
    return (mode, tool) in ((13, "memcheck"), (14, "racecheck"))
ok = all(isinstance(n, int) and (n > 0) == expected(m, t) for (m, b), tools in found.items() for t, n in tools.items())
ok = ok and {m for m, b in found} >= {0, 1, 13, 14}
print("PASS" if ok else "FAIL", "memcheck flags exactly the out-of-bounds reader (MODE 13), racecheck exactly the race (MODE 14)")
sys.exit(0 if ok else 1)
PY
  rm -f "$db"*
}
step sanitize 240 sanitize

if [[ -f bench/kernel_tuner/compare.py ]]; then
  step kernel_tuner 420 python3 bench/kernel_tuner/compare.py --ktune "$KTUNE" --out "$OUT" --budget 400
fi

echo; echo "step	rc	seconds"; cat "$OUT/steps.tsv"
