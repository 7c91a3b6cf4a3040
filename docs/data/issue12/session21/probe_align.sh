#!/bin/bash
# Session 21 run 13: is odd_3000's gap its rows off 32-byte sectors? The same kernels and
# cuBLAS on 3000^3 and 3072^3 (and 2992^3, rows of 5984 bytes, also off) f16 nt.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
for n in 3000 3072 2992; do
  /tmp/ktune17 --json tune gemm --m $n --n $n --k $n --layout nt --dtype f16 --dry-run > /tmp/al_$n.json 2>/dev/null
done
timeout 250 python3 - <<'PY' > $OUT/align.jsonl 2> $OUT/align.err
import json, torch
from triton.testing import do_bench
from gemm_suite40 import operands, plan_call, rel_err
from ktune import _gemm_lib
ex = _gemm_lib.Executor(_gemm_lib.load(), 0)
G = dict(family="generated", min_blocks_per_sm=1, path="wgmma", persistent=True, reduction=64, reorder_workgroups=8, split_k=1)
configs = {"192x192 sg1x2 s4 pairM": dict(G, workgroup="192x192", subgroup_m_count=1, subgroup_n_count=2, pipeline_stages=4, cluster_m=2),
           "192x192 sg3x1 s4 pairM": dict(G, workgroup="192x192", subgroup_m_count=3, subgroup_n_count=1, pipeline_stages=4, cluster_m=2),
           "256x128 sg2x1 s4 pairN": dict(G, workgroup="256x128", subgroup_m_count=2, subgroup_n_count=1, pipeline_stages=4, cluster_n=2),
           "128x256 sg2x1 s3": dict(G, workgroup="128x256", subgroup_m_count=2, subgroup_n_count=1, pipeline_stages=3)}
for n in (3000, 3072, 2992):
    problem = json.load(open(f"/tmp/al_{n}.json"))["problem"]
    a, b = operands(n, n, n, 1, "nt", "f16", seed=7)
    ref = torch.matmul(a.double(), b.double())
    row = {"n": n, "torch_us": 1000 * do_bench(lambda: torch.matmul(a[0], b[0]), return_mode="median")}
    d = torch.empty(1, n, n, device="cuda", dtype=torch.float16)
    for name, cfg in configs.items():
        try:
            call = plan_call(ex, problem, cfg, a, b, d, f"align_{n}")
            call(); torch.cuda.synchronize()
            row[name] = {"us": 1000 * do_bench(call, return_mode="median"), "err": rel_err(d, ref)}
        except Exception as e:
            row[name] = {"error": repr(e)[:200]}
    print(json.dumps(row), flush=True)
PY
echo "align rc=$?"; tail -2 $OUT/align.err
python3 -c "
import json
for l in open('$OUT/align.jsonl'):
    r=json.loads(l); t=r.pop('torch_us'); n=r.pop('n')
    print(n, 'torch %.1f' % t, '  '.join('%s %.1f (%.2f)' % (k, v['us'], t / v['us']) if 'us' in v else '%s %s' % (k, v.get('error')) for k, v in r.items()))"
