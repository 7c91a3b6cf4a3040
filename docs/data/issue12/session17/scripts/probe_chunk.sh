#!/bin/bash
# libA (main, no chunked staging) against libB (chunked staging, split-K pair adds, split body):
# the same configurations, timed in one process each. Shapes from $PROBE_SHAPES.
OUT=$1
C=.carry/s17
export PYTHONPATH=python:bench
for s in ${PROBE_SHAPES:-odd_3000x3000x3000 l70b_qkv_prefill_m1024 l7b_qkv_prefill_m4096 l13b_down_m512 tn_4096x1024x4096}; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/tmp/$s.dry.err || { echo "$s dry-run failed"; cat /tmp/$s.dry.err | head -3; }
  python3 - $s > /tmp/grid_$s.json <<'PY'
import json, sys
g = []
for wg, sm, sn in (("192x192", 1, 2), ("128x256", 2, 1), ("256x128", 2, 1)):
    for st, cl in ((3, 1), (4, 1), (4, 2)):
        c = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": True, "pipeline_stages": st,
             "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": sm, "subgroup_n_count": sn,
             "workgroup": wg}
        if cl == 2: c["cluster_n"] = 2
        g.append(c)
print(json.dumps(g))
PY
  for v in A B; do
    KTUNE_GEMM_LIB=$C/lib$v.so timeout 150 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/chunk_${v}_$s.json > $OUT/chunk_${v}_$s.jsonl 2>$OUT/chunk_${v}_$s.err
    echo "$s $v rc=$?"
  done
done
python3 - $OUT <<'PY'
import json, sys, glob
out = sys.argv[1]
for f in sorted(glob.glob(out + "/chunk_A_*.json")):
    a = json.load(open(f)); b = json.load(open(f.replace("chunk_A_", "chunk_B_")))
    for ra, rb in zip(a["rows"], b["rows"]):
        c = ra["config"]
        print("%-24s %-8s st%d cl%d  A %7.1f  B %7.1f  B/A %.3f  err %s %s" % (a["shape"][:24], c["workgroup"], c["pipeline_stages"], c.get("cluster_n", 1), ra.get("us", -1), rb.get("us", -1), (rb.get("us") or 0) / (ra.get("us") or 1), ra.get("err", ra.get("error")), rb.get("err", rb.get("error"))))
PY
