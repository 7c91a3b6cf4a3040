#!/bin/bash
# Session 23 run 6: where a CTA pair's L2 reads go (longk_256x128x16384, 64x32 split 8 reduced,
# 16 stages, paired along N against unpaired): Nsight Compute's memory workload tables.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
NAME=longk_256x128x16384
/tmp/ktune17 --json tune gemm --m 256 --n 128 --k 16384 --layout nt --dtype bf16 --dry-run > /tmp/$NAME.json 2>/dev/null
cat > /tmp/pp_grid.json <<'G'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 16, "reduction": 64, "reorder_workgroups": 8, "split_k": 8, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x32", "cluster_n": 2, "split_reduce": true},
 {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 16, "reduction": 64, "reorder_workgroups": 8, "split_k": 8, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x32", "split_reduce": true}]
G
M="gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcnode_gpc_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_xbar2l1tex_read_bytes.sum,dram__bytes_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,smsp__cycles_active.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed"
timeout 150 ncu --clock-control none --metrics $M -k regex:ktune_gemm -c 4 python3 bench/generated/pair_probe.py /tmp/$NAME.json --shape $NAME --select file:/tmp/pp_grid.json --once > $OUT/ncu_pairs.txt 2>&1
echo "ncu rc=$?"
grep -E "^  [a-zA-Z_].*\(|gpu__time|lts__|xbar|dram__|cycles_active|l1tex__thr" $OUT/ncu_pairs.txt | cut -c1-130
