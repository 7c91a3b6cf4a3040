#!/bin/bash
# Mid-size tiles with deep rings (cuBLAS runs 1000^3 as 64x128 with two consumers and ~8 stages).
OUT=$1
C=.carry/s17
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=$C/libAtomic.so
for s in odd_1000x1000x1000 bmm_b64_128x128x128 shortk_2048x2048x96 odd_1023x2047x513; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/dev/null
  python3 - > /tmp/grid_$s.json <<'PY'
import json
g = []
for wg, sm, sn, st, cl in (("128x64", 1, 1, 5, 2), ("128x64", 1, 1, 5, 1), ("128x64", 2, 1, 5, 1), ("128x64", 2, 1, 8, 1), ("128x64", 2, 1, 8, 2),
                           ("64x128", 1, 2, 5, 1), ("64x128", 1, 2, 8, 1), ("64x128", 1, 2, 8, 2), ("64x128", 1, 1, 8, 1), ("128x128", 2, 1, 6, 1),
                           ("64x64", 1, 1, 8, 1), ("64x64", 1, 1, 12, 2)):
    c = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": True, "pipeline_stages": st,
         "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": sm, "subgroup_n_count": sn, "workgroup": wg}
    if cl == 2: c["cluster_n"] = 2
    g.append(c)
print(json.dumps(g))
PY
  timeout 100 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/deep_$s.json > $OUT/deep_$s.jsonl 2>$OUT/deep_$s.err
  echo "$s rc=$?"
done
python3 - $OUT <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/deep_*.jsonl")):
    for line in open(f):
        r = json.loads(line); c = r["config"]
        print("%-22s %-8s sg%dx%d st%-2d cl%d  %7.2f us  err %s" % (f.split("deep_")[1][:22], c["workgroup"], c["subgroup_m_count"], c["subgroup_n_count"], c["pipeline_stages"], c.get("cluster_n", 1), r.get("us", -1), str(r.get("err", r.get("error", "")))[:60]))
PY
