#!/usr/bin/env bash
# ktune bench of an empty kernel (bench/specs/empty.yaml), RUNS times: the median ktune reports
# for a kernel that does nothing is the floor of its GPU timing. Target: below 3 us.
#
#   KTUNE=build/ktune OUT=bench-out RUNS=3 bench/empty_kernel.sh
# Writes $OUT/empty_kernel.json (and each run's ktune JSON); exit 0 when the median of the
# runs' medians is below the target, 1 when not, 2 when ktune fails.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KTUNE=${KTUNE:-$REPO/build/ktune}
OUT=${OUT:-$REPO/bench-out}
RUNS=${RUNS:-3}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/ktune_empty.XXXXXX)
trap 'rm -rf "$work"' EXIT

for i in $(seq 1 "$RUNS"); do
  if ! KTUNE_CACHE_DIR="$work/cache" "$KTUNE" --db "$work/t.db" --json bench "$REPO/bench/specs/empty.yaml" \
      >"$OUT/empty_kernel_run$i.json" 2>"$OUT/empty_kernel_run$i.err"; then
    echo "empty_kernel: ktune bench failed (run $i):" >&2
    cat "$OUT/empty_kernel_run$i.err" >&2
    exit 2
  fi
done

python3 - "$OUT" "$RUNS" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
target = 3e-6
results = [json.load(open(f"{out}/empty_kernel_run{i}.json"))["results"][0] for i in range(1, runs + 1)]
medians = [r["median_s"] for r in results]
summary = {
    "target_s": target,
    "medians_s": medians,
    "q1_s": [r.get("q1_s") for r in results],
    "q3_s": [r.get("q3_s") for r in results],
    "samples": [r["samples"] for r in results],
    "median_s": statistics.median(medians),
}
summary["below_target"] = summary["median_s"] < target
json.dump(summary, open(f"{out}/empty_kernel.json", "w"), indent=2)
print(f"empty kernel: median {summary['median_s'] * 1e6:.2f} us over {runs} runs "
      f"({', '.join(f'{m * 1e6:.2f}' for m in medians)} us; target < 3 us): "
      f"{'ok' if summary['below_target'] else 'ABOVE TARGET'}")
sys.exit(0 if summary["below_target"] else 1)
PY
