#!/bin/bash
# Strict f32 as 3xTF32: error and time against the split-K chain length (each slice accumulates
# a shorter K run in the tensor cores; the reduction adds slices with f32 FADD).
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in f32_2048x2048x2048 f32_777x1001x513; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/dev/null
  python3 - $s > /tmp/grid_$s.json <<'PY'
import json, sys
s = sys.argv[1]
def c(wg, sm, st, persistent, split, reduce_, cn=1, promote=16):
    d = {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": persistent, "pipeline_stages": st,
         "reduction": 32, "reorder_workgroups": 8, "split_k": split, "subgroup_m_count": sm, "subgroup_n_count": 1, "workgroup": wg,
         "promote": promote}
    if reduce_: d["split_reduce"] = True
    if cn > 1: d["cluster_n"] = cn
    return d
g = []
if s.startswith("f32_2048"):
    for wg, sm, st in (("128x128", 2, 4), ("128x192", 2, 4), ("128x160", 2, 4), ("192x128", 3, 4), ("128x128", 2, 6)):
        g.append(c(wg, sm, st, True, 1, False))
        g.append(c(wg, sm, st, True, 1, False, cn=2))
    g.append(c("128x128", 2, 4, True, 1, False, promote=4))
    g.append(c("128x128", 2, 4, True, 1, False, promote=8))
else:
    for wg, sm, st in (("128x64", 2, 4), ("64x128", 1, 4), ("64x64", 1, 6)):
        g.append(c(wg, sm, st, True, 1, False))
        for split in (2, 3):
            for r in (False, True):
                g.append(c(wg, sm, st, False, split, r))
print(json.dumps(g))
PY
  timeout 150 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/f32_$s.json > $OUT/f32_$s.jsonl 2>$OUT/f32_$s.err
  echo "$s rc=$?"; tail -3 $OUT/f32_$s.err
done
# Where f32_777x1001x513's time goes: each launch (repack copies, GEMM) of one configuration.
s=f32_777x1001x513
python3 -c "
import json; g=json.load(open('/tmp/grid_$s.json')); json.dump(g[:1], open('/tmp/one_$s.json','w'))"
timeout 120 ncu --metrics gpu__time_duration.sum -k regex:ktune python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/one_$s.json --once > $OUT/ncu_$s.txt 2>&1
echo "ncu rc=$?"; grep -E "ktune_|gpu__time_duration" $OUT/ncu_$s.txt | head -20
