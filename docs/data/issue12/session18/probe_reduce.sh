#!/bin/bash
# Split-K with a separate reduction on the long-K shapes still below 0.90, against the atomic
# scheme on the same tiles; for the next session's space.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in longk_256x128x16384 longk_128x256x32768; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/dev/null
  python3 - $s > /tmp/grid_$s.json <<'PY'
import json, sys
s = sys.argv[1]
def c(wg, sm, sn, st, persistent, split, reduce_, cn=1, cm=1):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": persistent, "pipeline_stages": st,
         "reduction": 64, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn, "workgroup": wg}
    if reduce_: d["split_reduce"] = True
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    return d
g = []
for wg, st in (("64x32", 12), ("64x64", 8), ("128x64", 5), ("64x128", 5)):
    for split in (8, 16, 32):
        for r in (False, True):
            g.append(c(wg, 1 if wg != "128x64" else 2, 1, st, False, split, r))
print(json.dumps(g))
PY
  timeout 150 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/rd_$s.json > $OUT/rd_$s.jsonl 2>$OUT/rd_$s.err
  echo "$s rc=$?"
done
python3 - $OUT <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/rd_*.jsonl")):
    for line in open(f):
        try: r = json.loads(line)
        except Exception: continue
        c = r["config"]
        print("%-20s %-7s st%-2d sk%-2d %s %7.2f us err %s" % (f.split("rd_")[1][:20], c["workgroup"], c["pipeline_stages"], c["split_k"], "reduced" if c.get("split_reduce") else "atomic ", r.get("us", -1), str(r.get("err", r.get("error", "")))[:50]))
PY
