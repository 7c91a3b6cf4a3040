#!/bin/bash
# KT_EARLY_RELEASE 0 (libA) against 1 (libB): the same configurations of five shapes, timed in one process each.
OUT=$1
export PYTHONPATH=python:bench
declare -A DIMS=([odd_3000x3000x3000]="3000 3000 3000 nt f16" [l13b_down_m512]="512 5120 13824 nt f16" [l70b_qkv_prefill_m1024]="1024 10240 8192 nt bf16" [odd_1000x1000x1000]="1000 1000 1000 nn bf16" [bmm_b8_1024x1024x1024]="1024 1024 1024 nn bf16 8")
for s in odd_3000x3000x3000 l13b_down_m512 l70b_qkv_prefill_m1024 odd_1000x1000x1000 bmm_b8_1024x1024x1024; do
  set -- ${DIMS[$s]}; extra=""; [ -n "$6" ] && extra="--batch $6"
  /tmp/ktune16 --json tune gemm --m $1 --n $2 --k $3 --layout $4 --dtype $5 $extra --dry-run > /tmp/$s.json
  for v in A B; do
    KTUNE_GEMM_LIB=.carry/s16/lib$v.so timeout 120 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:.carry/s16/grid_$s.json --out $OUT/rel_${v}_$s.json > /dev/null 2>$OUT/rel_${v}_$s.err
    echo "$s $v rc=$?"
  done
done
python3 - $OUT <<'PY'
import json, sys, glob, os
out = sys.argv[1]
for f in sorted(glob.glob(out + "/rel_A_*.json")):
    a = json.load(open(f)); b = json.load(open(f.replace("rel_A_", "rel_B_")))
    for ra, rb in zip(a["rows"], b["rows"]):
        c = ra["config"]
        print("%-24s %-8s st%d sg%dx%d cl%d  A %7.1f  B %7.1f  err %s %s" % (a["shape"][:24], c["workgroup"], c["pipeline_stages"], c["subgroup_m_count"], c["subgroup_n_count"], c.get("cluster_n", 1), ra.get("us", -1), rb.get("us", -1), ra.get("err", ra.get("error")), rb.get("err", rb.get("error"))))
PY
