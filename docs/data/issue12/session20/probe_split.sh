#!/bin/bash
# Session 20 run 7: split-K reduced below the space's 512K-add threshold on the long-K shapes,
# now that the reduction keeps its loads in flight and launches as the GEMM's dependent.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in longk_256x128x16384:256:128:16384:nt:bf16 longk_128x256x32768:128:256:32768:nn:f16 longk_64x64x65536:64:64:65536:nn:bf16 l70b_down_decode_m128:128:8192:28672:nt:bf16; do
  IFS=: read name m n k layout dtype <<< "$s"
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $layout --dtype $dtype --dry-run > /tmp/$name.json 2>/dev/null
  python3 - $name > /tmp/grid_$name.json <<'PY'
import json, sys
name = sys.argv[1]
def c(wg, st, split, reduce, cn=1, sm=1, sn=1, k=64):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": False, "pipeline_stages": st,
         "reduction": k, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn,
         "workgroup": wg}
    if reduce: d["split_reduce"] = True
    if cn > 1: d["cluster_n"] = cn
    return d
g = []
if name.startswith("l70b"):
    for split in (2, 4):
        for red in (False, True):
            g += [c("64x256", 4, split, red), c("128x128", 4, split, red, sm=1)]
else:
    for wg, st in (("64x32", 12), ("64x64", 8), ("64x128", 5)):
        for split in (4, 8, 16, 32):
            for red in (False, True):
                g.append(c(wg, st, split, red))
print(json.dumps(g))
PY
  timeout 150 python3 bench/generated/pair_probe.py /tmp/$name.json --shape $name --select file:/tmp/grid_$name.json --out $OUT/split_$name.json > $OUT/split_$name.jsonl 2>$OUT/split_$name.err
  echo "$name rc=$?"
  python3 -c "
import json,sys
rows=[json.loads(l) for l in open('$OUT/split_$name.jsonl')]
rows.sort(key=lambda r: r.get('us', 1e9))
for r in rows[:8]:
  c=r['config']; print('  ', c['workgroup'], 's%d'%c['pipeline_stages'], 'split', c['split_k'], 'reduced' if c.get('split_reduce') else 'atomic', r.get('us'), r.get('error','')[:80])"
done
