#!/bin/bash
# Session 22 probe: chosen generated kernels of a few suite shapes side by side (do_bench, L2
# flushed, median), torch.matmul on the same operands for scale. PROBE_SHAPES: name:m:n:k:layout:dtype.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for s in ${PROBE_SHAPES}; do
  IFS=: read name m n k layout dtype batch <<< "$s"
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $layout --dtype $dtype --batch ${batch:-1} --dry-run > /tmp/$name.json 2>/dev/null
  python3 .carry/s23/grids.py $name $GRID_SET > /tmp/grid_$name.json
  timeout 150 python3 bench/generated/pair_probe.py /tmp/$name.json --shape $name --select file:/tmp/grid_$name.json --out $OUT/k_$name.json > $OUT/k_$name.jsonl 2>$OUT/k_$name.err
  echo "$name rc=$?"; tail -2 $OUT/k_$name.err | cut -c1-300
  python3 - $name $m $n $k $layout $dtype ${batch:-1} >> $OUT/k_$name.jsonl <<'PY'
import json, sys, torch
from triton.testing import do_bench
from gemm_suite40 import operands
name, m, n, k, layout, dtype, bs = sys.argv[1], *map(int, sys.argv[2:5]), sys.argv[5], sys.argv[6], int(sys.argv[7])
if dtype == "tf32": torch.backends.cuda.matmul.allow_tf32 = True
a, b = operands(m, n, k, bs, layout, dtype, seed=7)
print(json.dumps({"torch_us": 1000 * do_bench(lambda: torch.matmul(a, b), return_mode="median")}))
PY
  python3 -c "
import json, sys
for l in open('$OUT/k_$name.jsonl'):
    r = json.loads(l)
    c = r.get('config', {})
    print(' ', '%.2f' % (r.get('us') or r.get('torch_us') or -1), {k: v for k, v in c.items() if k not in ('family', 'path', 'min_blocks_per_sm', 'reorder_workgroups')}, r.get('err', r.get('error', ''))) " 2>&1 | cut -c1-260
done
