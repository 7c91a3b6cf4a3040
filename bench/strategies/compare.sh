#!/bin/bash
# Issue 13's comparison, CPU only: ktune's strategies and Kernel Tuner 1.5.0's, each run REPEATS
# times on every committed recorded space (spaces/*.json) in simulation, scored by the 2024
# methodology (ktune strategies score). Needs `scripts/install-deps.sh --bench` (Kernel Tuner)
# unless KT=0. Writes OUT/budgets.json, OUT/kt_traces.json, OUT/comparison.json and
# OUT/comparison.html, and prints the table.
#   KTUNE=build/ktune OUT=bench-out/strategies REPEATS=25 KT=1 bench/strategies/compare.sh
set -eu
cd "$(dirname "$0")/../.."
KTUNE=${KTUNE:-build/ktune}
OUT=${OUT:-bench-out/strategies}
REPEATS=${REPEATS:-25}
KT=${KT:-1}
# FULL=1: every run also long enough for "evaluations to 95% of the optimum" (much slower)
FULL=${FULL:-0}
short=(); [ "$FULL" = 1 ] || short=(--methodology-budget-only)
STRATEGIES=${STRATEGIES:-random,annealing,genetic,bayes,bandit}
KT_STRATEGIES=${KT_STRATEGIES:-genetic_algorithm,dual_annealing,simulated_annealing,pso,basinhopping,greedy_ils,diff_evo,mls,random_sample}
mkdir -p "$OUT"
SPACES=(bench/strategies/spaces/*.json)
start=$(date +%s.%N)
"$KTUNE" strategies score "${SPACES[@]}" --strategies random --repeats 1 "${short[@]}" --write-budgets "$OUT/budgets.json" > /dev/null
traces=()
if [ "$KT" = 1 ]; then
  .venv/bin/python bench/strategies/kt_simulate.py "${SPACES[@]}" --budgets "$OUT/budgets.json" \
    --repeats "$REPEATS" --strategies "$KT_STRATEGIES" --out "$OUT/kt_traces.json" --cache-dir "$OUT/kt_cache"
  traces=(--traces "$OUT/kt_traces.json")
fi
"$KTUNE" strategies score "${SPACES[@]}" --strategies "$STRATEGIES" --repeats "$REPEATS" "${short[@]}" "${traces[@]}" \
  -o "$OUT/comparison.json" --html "$OUT/comparison.html"
echo "compare.sh: $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
