#!/bin/bash
# Session 21 run 14 (experiment, not in main): the operand maps' L2 promotion (0 none, 1 64B,
# 2 128B, 3 256B = main's) on rows off 32-byte sectors, through an experimental libktune_gemm
# that reads it from KT_EXP_L2PROMO.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=$PWD/.carry/s21/libExp.so
for n in 3000 3072; do
  /tmp/ktune17 --json tune gemm --m $n --n $n --k $n --layout nt --dtype f16 --dry-run > /tmp/al_$n.json 2>/dev/null
done
for promo in 3 0 1 2; do
KT_EXP_L2PROMO=$promo timeout 100 python3 - $promo <<'PY' >> $OUT/promo.jsonl 2>> $OUT/promo.err
import json, sys, torch
from triton.testing import do_bench
from gemm_suite40 import operands, plan_call, rel_err
from ktune import _gemm_lib
ex = _gemm_lib.Executor(_gemm_lib.load(), 0)
G = dict(family="generated", min_blocks_per_sm=1, path="wgmma", persistent=True, reduction=64, reorder_workgroups=8, split_k=1)
configs = {"192x192 sg3x1 s4 pairM": dict(G, workgroup="192x192", subgroup_m_count=3, subgroup_n_count=1, pipeline_stages=4, cluster_m=2),
           "128x256 sg2x1 s3": dict(G, workgroup="128x256", subgroup_m_count=2, subgroup_n_count=1, pipeline_stages=3)}
for n in (3000, 3072):
    problem = json.load(open(f"/tmp/al_{n}.json"))["problem"]
    a, b = operands(n, n, n, 1, "nt", "f16", seed=7)
    ref = torch.matmul(a.double(), b.double())
    row = {"promo": int(sys.argv[1]), "n": n, "torch_us": 1000 * do_bench(lambda: torch.matmul(a[0], b[0]), return_mode="median")}
    d = torch.empty(1, n, n, device="cuda", dtype=torch.float16)
    for name, cfg in configs.items():
        call = plan_call(ex, problem, cfg, a, b, d, f"promo_{n}")
        call(); torch.cuda.synchronize()
        row[name] = {"us": 1000 * do_bench(call, return_mode="median"), "err": rel_err(d, ref)}
    print(json.dumps(row), flush=True)
PY
done
tail -2 $OUT/promo.err
python3 -c "
import json
for l in open('$OUT/promo.jsonl'):
    r=json.loads(l); print('promo', r.pop('promo'), r.pop('n'), 'torch %.1f' % r.pop('torch_us'), '  '.join('%s %.1f err %.1e' % (k, v['us'], v['err']) for k, v in r.items()))"
