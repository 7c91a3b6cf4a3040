#!/bin/bash
# Session 21: does TMA multicast cut L2 reads? odd_3000x3000x3000 f16 nt, 192x192 sg1x2 s4
# persistent alone, in pairs along M (B shared) and along N (A shared); 4096x12288x4096 f16 nt 128x256 alone
# and in pairs (aligned rows, for contrast).
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
M="gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second"
for s in odd_3000x3000x3000:3000:3000:3000:nt:f16:192x192:1:2:4 l7b_qkv_prefill_m4096:4096:12288:4096:nt:f16:128x256:2:1:3; do
  IFS=: read name m n k layout dtype wg sm sn st <<< "$s"
  shape=$name
  /tmp/ktune17 --json tune gemm --m $m --n $n --k $k --layout $layout --dtype $dtype --dry-run > /tmp/l2_$name.json 2>/dev/null
  python3 -c "
import json
G=dict(family='generated', min_blocks_per_sm=1, path='wgmma', persistent=True, pipeline_stages=$st, reduction=64, reorder_workgroups=8, split_k=1, subgroup_m_count=$sm, subgroup_n_count=$sn, workgroup='$wg')
out=[dict(G), dict(G, cluster_m=2), dict(G, cluster_n=2)]
json.dump(out, open('/tmp/l2g_$name.json','w'))"
  # pair_probe needs a suite shape name for its operands: use one with the same sizes
  timeout 150 ncu --clock-control none --metrics $M -k regex:ktune_gemm python3 bench/generated/pair_probe.py /tmp/l2_$name.json --shape $shape --select file:/tmp/l2g_$name.json --once > $OUT/ncu_l2_$name.txt 2>&1
  echo "$name rc=$?"
  grep -E "ktune_gemm_sm90|gpu__time|lts__|l1tex__m|dram__|per_second" $OUT/ncu_l2_$name.txt | cut -c1-130
done
