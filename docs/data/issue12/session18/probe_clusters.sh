#!/bin/bash
# 2-D clusters (cluster_n shares A along N, cluster_m shares B along M) on the four shapes below
# 0.90 and two small ones: the same tile in several cluster shapes, timed side by side.
OUT=$1
C=.carry/s18
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in ${PROBE_SHAPES:-longk_256x128x16384 longk_128x256x32768 odd_1000x1000x1000 odd_3000x3000x3000 bmm_b64_128x128x128 shortk_2048x2048x96}; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/dev/null
  python3 - $s > /tmp/grid_$s.json <<'PY'
import json, sys
s = sys.argv[1]
def c(wg, sm, sn, st, persistent, split, cn, cm, tk=64):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": persistent, "pipeline_stages": st,
         "reduction": tk, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn, "workgroup": wg}
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    return d
g = []
if s.startswith("longk_256"):
    for cn, cm in ((1,1),(2,1),(1,2),(2,2),(4,1),(1,4),(2,4),(4,2)):
        g.append(c("64x32", 1, 1, 12, False, 8, cn, cm))
    for cn, cm in ((1,1),(2,2),(2,4)):
        g.append(c("64x64", 1, 1, 8, False, 8, cn, cm))
elif s.startswith("longk_128"):
    for cn in (1, 2, 4):
        for split in (12, 16):
            g.append(c("64x64", 1, 1, 8, False, split, cn, 1))
    for cn, cm in ((1,1),(2,2),(4,2),(2,1),(1,2)):
        g.append(c("64x128", 1, 1, 6, False, 16, cn, cm))
elif s.startswith("odd_1000"):
    for cn in (1, 2, 4):
        g.append(c("128x64", 1, 1, 5, True, 1, cn, 1))
    for cn, cm in ((1,1),(2,1),(1,2),(2,2),(4,2),(2,4)):
        g.append(c("64x128", 1, 2, 8, True, 1, cn, cm))
    for cn, cm in ((1,1),(2,2)):
        g.append(c("128x128", 2, 1, 5, True, 1, cn, cm))
elif s.startswith("odd_3000"):
    for cn, cm in ((1,1),(2,1),(1,2),(2,2)):
        g.append(c("192x192", 3, 1, 3, True, 1, cn, cm))
        g.append(c("256x160", 2, 1, 3, True, 1, cn, cm))
else:
    for cn, cm in ((1,1),(2,1),(1,2),(2,2),(4,2)):
        g.append(c("64x64", 1, 1, 4, True, 1, cn, cm))
        g.append(c("128x128", 2, 1, 3, True, 1, cn, cm))
print(json.dumps(g))
PY
  timeout ${PROBE_SHAPE_TIMEOUT:-120} python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/cl_$s.json > $OUT/cl_$s.jsonl 2>$OUT/cl_$s.err
  echo "$s rc=$?"
done
python3 - $OUT <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/cl_*.jsonl")):
    for line in open(f):
        try: r = json.loads(line)
        except Exception: continue
        c = r["config"]
        print("%-24s %-8s sg%dx%d st%-2d sk%-2d p%d c%dx%d %7.2f us err %s" % (f.split("cl_")[1][:24], c["workgroup"], c["subgroup_m_count"], c["subgroup_n_count"], c["pipeline_stages"], c["split_k"], c["persistent"], c.get("cluster_m", 1), c.get("cluster_n", 1), r.get("us", -1), str(r.get("err", r.get("error", "")))[:60]))
PY
