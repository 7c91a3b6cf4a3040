#!/bin/bash
# Session 15 run 1: CTA pairs after 7a55aeb: GPU test, pairs vs twins timed, ncu of the best pair + twin.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/k; x .carry/s15/generated_gpu_test.xz /tmp/ggt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
KTUNE_SOURCE_DIR=$PWD timeout 150 /tmp/ggt --gtest_filter='*Clusters*' > $OUT/ggt.log 2>&1; echo "ggt rc=$?"
grep -E "^\[  (FAILED|PASSED)|OK \]|Failure" $OUT/ggt.log | head
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so
tunes() { # name m n k layout dtype
  KTUNE_CACHE_DIR=/tmp/kc timeout 120 /tmp/k --db /tmp/k.db --json tune gemm --m $2 --n $3 --k $4 --layout $5 --dtype $6 \
    --families generated,cublaslt --progress none --generated-clusters --generated-candidates 40 --no-resume > /tmp/$1.json 2>$OUT/$1.err
  echo "tune $1 rc=$?"
  timeout 100 python3 bench/generated/pair_probe.py /tmp/$1.json --shape $1 --select pairs --out $OUT/probe_$1.json > /dev/null 2>>$OUT/$1.err
  python3 - /tmp/$1.json $OUT/probe_$1.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); p = json.load(open(sys.argv[2]))
print("baseline", r["baseline"]["median_s"] * 1e6)
g = sorted([c for c in r["candidates"] if c.get("family") == "generated"], key=lambda c: c.get("median_s") or 9)
for c in g[:40]:
    cf = c["config"]; print(" tune %-8s %8.1f us  %s" % (c.get("status"), (c.get("median_s") or 0) * 1e6, {k: v for k, v in cf.items() if k not in ("path", "mma_kind")}))
for row in p["rows"]:
    print(" probe %8.1f us err %.1e  cl%s %s" % (row.get("us", 0), row.get("err", -1), row["config"].get("cluster_n", 1), row["config"]))
PY
  cp /tmp/$1.json $OUT/tune_$1.json
}
tunes odd_3000x3000x3000 3000 3000 3000 nt f16
tunes shortk_4096x16384x256 4096 16384 256 nt bf16

# ncu: the fastest pair and its twin, one checked + one plain launch each
timeout 200 ncu --target-processes all -k regex:ktune_gemm -c 4 --set full -o $OUT/pairs3000 \
  python3 bench/generated/pair_probe.py /tmp/odd_3000x3000x3000.json --shape odd_3000x3000x3000 --select pairs --once > $OUT/ncu.log 2>&1
echo "ncu rc=$?"; tail -3 $OUT/ncu.log
ncu -i $OUT/pairs3000.ncu-rep --page raw --csv > $OUT/pairs3000_raw.csv 2>/dev/null; wc -l $OUT/pairs3000_raw.csv; cd $OUT && tar czf probe.tgz *.json *.csv *.err ggt.log && rm -f *.json *.csv *.err
