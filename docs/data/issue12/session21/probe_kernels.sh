#!/bin/bash
# Session 21 probe: tf32 nn swapped (A from registers) against the unswapped kernel and its copy;
# odd_3000 192x192 warpgroup splits; odd_1000 cluster shapes. torch.matmul on each for scale.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in ${PROBE_SHAPES:-tf32_4096x4096x4096:4096:4096:4096:nn:tf32}; do
  IFS=: read name m n k layout dtype <<< "$s"
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $layout --dtype $dtype --dry-run > /tmp/$name.json 2>/dev/null
  python3 - $name > /tmp/grid_$name.json <<'PY'
import json, sys
name = sys.argv[1]
def c(wg, st, sm=1, sn=1, cn=1, cm=1, k=64, p=True, swap=False, split=1):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": p, "pipeline_stages": st,
         "reduction": k, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": sn,
         "workgroup": wg}
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    if swap: d["swap_ab"] = True
    return d
g = []
if name.startswith("tf32"):
    g.append(c("256x128", 3, sm=2, cn=2, k=32))  # session 20's best (copy of B)
    for st in (3, 4):
        for p in (True, False):
            g.append(c("128x256", st, sm=2, k=32, swap=True, p=p))
    g += [c("128x224", 5, sm=2, k=32, swap=True), c("256x128", 4, sm=2, k=32, swap=True),
          c("128x256", 4, sm=2, cm=2, k=32, swap=True), c("128x256", 4, sm=2, cn=2, k=32, swap=True)]
elif name.startswith("odd_3000"):
    for st in (3, 4):
        g += [c("192x192", st, sm=3, cn=2), c("192x192", st, sn=2, cn=2), c("192x192", st, sn=2, cn=2, p=False),
              c("192x192", st, sm=3, cm=2), c("192x192", st, sn=2, cm=2), c("192x192", st, sn=2)]
    g += [c("256x160", 3, sm=2, cn=2), c("256x192", 3, sm=2, cn=2), c("192x256", 3, sn=2, cn=2), c("128x256", 3, sm=2, cn=2),
          c("128x256", 4, sm=2, cn=2), c("256x128", 4, sm=2, cn=2), c("192x192", 3, sn=2, cn=2, cm=2)]
else:
    for wg, sm, sn, st in (("128x64", 1, 1, 5), ("128x64", 2, 1, 5), ("64x128", 1, 1, 4), ("64x128", 1, 2, 4), ("128x128", 2, 1, 4)):
        for cn, cm in ((1, 1), (2, 1), (1, 2), (2, 2)):
            g.append(c(wg, st, sm=sm, sn=sn, cn=cn, cm=cm))
print(json.dumps(g))
PY
  timeout 200 python3 bench/generated/pair_probe.py /tmp/$name.json --shape $name --select file:/tmp/grid_$name.json --out $OUT/k_$name.json > $OUT/k_$name.jsonl 2>$OUT/k_$name.err
  echo "$name rc=$?"; tail -2 $OUT/k_$name.err | cut -c1-300
  python3 - $name $m $n $k $layout $dtype >> $OUT/k_$name.jsonl <<'PY'
import json, sys, torch
from triton.testing import do_bench
from gemm_suite40 import operands
name, m, n, k, layout, dtype = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5], sys.argv[6]
if dtype == "tf32": torch.backends.cuda.matmul.allow_tf32 = True
a, b = operands(m, n, k, 1, layout, dtype, seed=7)
print(json.dumps({"torch_us": 1000 * do_bench(lambda: torch.matmul(a, b), return_mode="median")}))
PY
  python3 -c "
import json,sys
rows=[json.loads(l) for l in open('$OUT/k_$name.jsonl')]
t=[r for r in rows if 'torch_us' in r]; print('  torch', t[0]['torch_us'] if t else None)
rows=[r for r in rows if 'config' in r]
rows.sort(key=lambda r: r.get('us', 1e9))
for r in rows:
  c=r['config']; print('  %-8s sg%dx%d s%d %s cl%dx%d %s %s err %s %s' % (c['workgroup'], c['subgroup_m_count'], c['subgroup_n_count'], c['pipeline_stages'], 'p' if c['persistent'] else '-', c.get('cluster_n',1), c.get('cluster_m',1), 'swap' if c.get('swap_ab') else '', r.get('us'), r.get('err'), r.get('error','')[:100]))"
done
