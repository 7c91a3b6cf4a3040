#!/bin/bash
# Split-K with atomics (libAtomic: red.global.add into one fp32 tile) against slices kept apart
# (libSlices: plain stores, the last slice adds the others), same configurations, one process each.
OUT=$1
C=.carry/s17
export PYTHONPATH=python:bench
declare -A GRIDS
GRIDS[longk_256x128x16384]="64x32:1:2:12:8 64x32:1:2:8:8 64x32:1:1:12:8 64x64:1:1:8:16 64x32:1:2:12:6 64x32:1:2:12:4"
GRIDS[longk_128x256x32768]="64x64:1:1:8:16 64x64:1:1:12:16 64x64:1:1:8:12 64x64:1:1:8:8 64x128:1:1:4:24 64x64:1:1:8:32"
GRIDS[longk_64x64x65536]="32x32:2:2:4:32 32x32:2:2:4:24 64x64:1:1:8:32 64x64:1:1:8:64 64x32:1:1:12:48"
GRIDS[l70b_down_decode_m128]="64x128:1:1:5:4 64x256:1:1:3:4 128x128:2:1:4:4"
for s in longk_256x128x16384 longk_128x256x32768 longk_64x64x65536 l70b_down_decode_m128; do
  read m n k b lay dt < <(python3 -c "
import sys; sys.path.insert(0,'bench'); from gemm_suite40 import SUITE
s=next(x for x in SUITE if x[0]=='$s'); print(*s[1:])")
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $lay --dtype $dt --batch $b --dry-run > /tmp/$s.json 2>/dev/null
  python3 - ${GRIDS[$s]} > /tmp/grid_$s.json <<'PY'
import json, sys
g = []
for spec in sys.argv[1:]:
    wg, sm, sn, st, sk = spec.split(":")
    g.append({"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": True, "pipeline_stages": int(st),
              "reduction": 64, "reorder_workgroups": 8, "split_k": int(sk), "subgroup_m_count": int(sm),
              "subgroup_n_count": int(sn), "workgroup": wg})
print(json.dumps(g))
PY
  for v in Atomic Slices; do
    KTUNE_GEMM_LIB=$C/lib$v.so timeout 100 python3 bench/generated/pair_probe.py /tmp/$s.json --shape $s --select file:/tmp/grid_$s.json --out $OUT/sl_${v}_$s.json > $OUT/sl_${v}_$s.jsonl 2>$OUT/sl_${v}_$s.err
    echo "$s $v rc=$?"
  done
done
python3 - $OUT <<'PY'
import json, sys, glob
out = sys.argv[1]
for f in sorted(glob.glob(out + "/sl_Atomic_*.jsonl")):
    a = [json.loads(l) for l in open(f)]; b = [json.loads(l) for l in open(f.replace("sl_Atomic_", "sl_Slices_"))]
    for ra, rb in zip(a, b):
        c = ra["config"]
        print("%-22s %-7s sg%dx%d st%-2d sk%-2d atomic %6.1f slices %6.1f  S/A %.3f err %s %s" % (f.split("sl_Atomic_")[1][:22], c["workgroup"], c["subgroup_m_count"], c["subgroup_n_count"], c["pipeline_stages"], c["split_k"], ra.get("us", -1), rb.get("us", -1), (rb.get("us") or 0) / (ra.get("us") or 1), str(ra.get("err", ra.get("error")))[:10], str(rb.get("err", rb.get("error")))[:60]))
PY
