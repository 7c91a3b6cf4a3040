#!/usr/bin/env bash
# Tuning throughput: configurations evaluated per minute when tuning the SGEMM example for a
# fixed time with a cold compile cache, with racing (the default) and without (--no-racing).
# Same seed, so both runs propose the same configurations in the same order.
#
#   KTUNE=build/ktune OUT=bench-out THROUGHPUT_SECONDS=60 bench/sgemm_throughput.sh
# Writes $OUT/sgemm_throughput.json (and each run's ktune summary); exit 2 when a tune fails.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KTUNE=${KTUNE:-$REPO/build/ktune}
OUT=${OUT:-$REPO/bench-out}
SECONDS_BUDGET=${THROUGHPUT_SECONDS:-60}
SPEC=${SPEC:-$REPO/examples/cuda/sgemm/sgemm.yaml}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/ktune_throughput.XXXXXX)
trap 'rm -rf "$work"' EXIT

for mode in racing no_racing; do
  flags=()
  [[ $mode == no_racing ]] && flags+=(--no-racing)
  # A fresh cache and database: every configuration is compiled and measured in this run.
  if ! KTUNE_CACHE_DIR="$work/cache_$mode" "$KTUNE" --db "$work/$mode.db" --json tune "$SPEC" \
      --max-time "$SECONDS_BUDGET" --max-evals 1000000 --seed 1 --progress none "${flags[@]}" \
      >"$OUT/sgemm_throughput_$mode.json" 2>"$OUT/sgemm_throughput_$mode.err"; then
    echo "sgemm_throughput: ktune tune ($mode) failed:" >&2
    tail -20 "$OUT/sgemm_throughput_$mode.err" >&2
    exit 2
  fi
done

python3 - "$OUT" "$SECONDS_BUDGET" <<'PY'
import json, sys
out, budget = sys.argv[1], float(sys.argv[2])
summary = {"budget_s": budget, "runs": {}}
for mode in ("racing", "no_racing"):
    s = json.load(open(f"{out}/sgemm_throughput_{mode}.json"))
    best = s.get("best") or {}
    summary["runs"][mode] = {
        "evaluated": s["evaluated"],
        "wall_s": s["wall_seconds"],
        "configs_per_minute": 60.0 * s["evaluated"] / s["wall_seconds"],
        "raced": s["raced"],
        "by_status": s["by_status"],
        "best_gflops": best.get("gflops"),
        "best_config": best.get("config"),
        "space_size": s["space_size"],
    }
r, n = summary["runs"]["racing"], summary["runs"]["no_racing"]
summary["speedup_from_racing"] = r["configs_per_minute"] / n["configs_per_minute"]
json.dump(summary, open(f"{out}/sgemm_throughput.json", "w"), indent=2)
print(f"sgemm tuning throughput ({budget:.0f} s each, cold compile cache):")
for mode, x in summary["runs"].items():
    best = f"{x['best_gflops']:.0f} GFLOP/s" if x["best_gflops"] else "no valid config"
    print(f"  {mode:<10} {x['evaluated']:4d} configs in {x['wall_s']:5.1f} s = {x['configs_per_minute']:6.1f}/min"
          f"  (raced {x['raced']}, best {best}, statuses {x['by_status']})")
print(f"  racing evaluates {summary['speedup_from_racing']:.2f}x as many configurations per minute")
PY
