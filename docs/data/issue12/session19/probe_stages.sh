#!/bin/bash
# f32_777x1001x513 (0.80x): deeper rings and other tiles than the tuner measured.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
s=f32_777x1001x513
/tmp/ktune17 --json tune gemm --m 777 --n 1001 --k 513 --layout nn --dtype f32 --dry-run > /tmp/$s.json 2>/dev/null
python3 - > /tmp/grid_$s.json <<'PY'
import json
def c(wg, sm, st, persistent=True, cn=1, cm=1):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": persistent, "pipeline_stages": st,
         "reduction": 32, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": sm, "subgroup_n_count": 1, "workgroup": wg,
         "promote": 4}
    if cn > 1: d["cluster_n"] = cn
    if cm > 1: d["cluster_m"] = cm
    return d
g = [c("128x64", 2, st) for st in (4, 6, 8, 10)] + [c("64x64", 1, st) for st in (6, 8, 12, 16)] + \
    [c("128x128", 2, 4), c("128x128", 2, 6), c("64x128", 1, 8), c("128x64", 2, 8, cn=2), c("128x64", 2, 8, cm=2),
     c("64x64", 1, 12, persistent=False)]
print(json.dumps(g))
PY
timeout 100 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/stages_$s.json > $OUT/stages_$s.jsonl 2>$OUT/stages_$s.err
echo "rc=$?"; cat $OUT/stages_$s.jsonl | python3 -c "
import json,sys
for l in sys.stdin:
  r=json.loads(l); c=r['config']; print(c['workgroup'], c['pipeline_stages'], c['persistent'], c.get('cluster_n',1), c.get('cluster_m',1), r.get('us'), r.get('err'), r.get('error','')[:100])"
