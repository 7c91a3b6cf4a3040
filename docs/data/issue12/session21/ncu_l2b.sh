#!/bin/bash
# Session 21 run 12: why CTA pairs read more from L2 on 4096x12288x4096 f16 nt (128x256, 2
# warpgroups, 3 stages): persistent or not, rasterisation group 8 or 1, pairs along M or N.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
M="gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum"
name=l7b_qkv_prefill_m4096
/tmp/ktune17 --json tune gemm --m 4096 --n 12288 --k 4096 --layout nt --dtype f16 --dry-run > /tmp/l2b.json 2>/dev/null
python3 -c "
import json
G=dict(family='generated', min_blocks_per_sm=1, path='wgmma', persistent=True, pipeline_stages=3, reduction=64, reorder_workgroups=8, split_k=1, subgroup_m_count=2, subgroup_n_count=1, workgroup='128x256')
out=[dict(G), dict(G, persistent=False), dict(G, cluster_m=2), dict(G, cluster_m=2, persistent=False), dict(G, cluster_m=2, reorder_workgroups=1), dict(G, cluster_n=2, persistent=False), dict(G, reorder_workgroups=1)]
json.dump(out, open('/tmp/l2bg.json','w'))"
timeout 200 ncu --clock-control none --metrics $M -k regex:ktune_gemm python3 bench/generated/pair_probe.py /tmp/l2b.json --shape $name --select file:/tmp/l2bg.json --once > $OUT/ncu_l2b.txt 2>&1
echo "rc=$?"
python3 - $OUT/ncu_l2b.txt <<'PY'
import re, sys
labels = ["alone p", "alone", "pairs M p", "pairs M", "pairs M p group1", "pairs N", "alone p group1"]
blocks = re.split(r"\n  ktune_gemm_sm90", open(sys.argv[1]).read())[1:]
for i, b in enumerate(blocks):
    vals = dict(re.findall(r"\n    (\S+)\s+\S*\s+([\d,.]+)", b))
    print("%-18s %s" % (labels[i // 2] + (" check" if i % 2 == 0 else ""), " ".join("%s=%s" % (k.split("__")[1][:22], v) for k, v in sorted(vals.items()))))
PY
