#!/bin/bash
# 192-row tiles in three 64-row consumer warpgroups (sg3x1: full-width m64nN wgmmas) against two
# side by side (sg1x2: half-width ones), same library, one process per shape.
OUT=$1
C=.carry/s17
export PYTHONPATH=python:bench
for s in ${PROBE_SHAPES:-odd_3000x3000x3000 l7b_qkv_prefill_m4096 l70b_qkv_prefill_m1024}; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/tmp/$s.dry.err
  python3 - > /tmp/grid_$s.json <<'PY'
import json
g = []
for wg, sm, sn, st, cl in (("192x192", 1, 2, 3, 1), ("192x192", 3, 1, 3, 1), ("192x192", 1, 2, 3, 2), ("192x192", 3, 1, 3, 2),
                           ("192x192", 3, 1, 4, 2), ("192x160", 3, 1, 3, 1), ("192x160", 3, 1, 4, 2), ("192x128", 1, 1, 4, 1),
                           ("192x128", 3, 1, 4, 1), ("128x256", 2, 1, 3, 1), ("256x160", 2, 1, 3, 1)):
    c = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": True, "pipeline_stages": st,
         "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": sm, "subgroup_n_count": sn,
         "workgroup": wg}
    if cl == 2: c["cluster_n"] = 2
    g.append(c)
print(json.dumps(g))
PY
  KTUNE_GEMM_LIB=$C/libB.so timeout 150 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/sg3_$s.json > $OUT/sg3_$s.jsonl 2>$OUT/sg3_$s.err
  echo "$s rc=$?"
done
python3 - $OUT <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/sg3_*.jsonl")):
    for line in open(f):
        r = json.loads(line); c = r["config"]
        print("%-24s %-8s sg%dx%d st%d cl%d  %7.1f us  err %s" % (f.split("sg3_")[1][:24], c["workgroup"], c["subgroup_m_count"], c["subgroup_n_count"], c["pipeline_stages"], c.get("cluster_n", 1), r.get("us", -1), r.get("err", r.get("error", ""))[:80] if isinstance(r.get("err", r.get("error")), str) else r.get("err")))
PY
