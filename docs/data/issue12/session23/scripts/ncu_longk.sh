#!/bin/bash
# Session 23: longk_256x128x16384 bf16 nt under Nsight Compute: ours (cuBLAS's own tiling: 64x32,
# split 8 reduced, pairs along N; and the suite's pick 64x64 split 16 reduced) against cuBLAS.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
NAME=longk_256x128x16384
/tmp/ktune17 --json tune gemm --m 256 --n 128 --k 16384 --layout nt --dtype bf16 --dry-run > /tmp/$NAME.json 2>/dev/null
cat > /tmp/lk_grid.json <<'G'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 16, "reduction": 64, "reorder_workgroups": 8, "split_k": 8, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x32", "cluster_n": 2, "split_reduce": true},
 {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 16, "reduction": 64, "reorder_workgroups": 8, "split_k": 8, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x32", "split_reduce": true},
 {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 8, "reduction": 64, "reorder_workgroups": 8, "split_k": 16, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x64", "split_reduce": true}]
G
R="barrier long_scoreboard no_instruction wait math_pipe_throttle short_scoreboard mio_throttle membar sleeping lg_throttle"
M=""; for r in $R; do M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
M="gpu__time_duration.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,l1tex__m_xbar2l1tex_read_bytes.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__block_size,launch__cluster_dim_x,smsp__cycles_active.avg.pct_of_peak_sustained_elapsed$M"
timeout 120 ncu --clock-control none --metrics $M -k regex:ktune -c 12 python3 bench/generated/pair_probe.py /tmp/$NAME.json --shape $NAME --select file:/tmp/lk_grid.json --once > $OUT/ncu_longk_ours.txt 2>&1
echo "ncu ours rc=$?"
cat > /tmp/lk_torch.py <<P
import torch
from gemm_suite40 import operands
a, b = operands(256, 128, 16384, 1, "nt", "bf16", seed=7)
for _ in range(2): torch.matmul(a[0], b[0])
torch.cuda.synchronize()
P
timeout 100 ncu --clock-control none --metrics $M -k regex:'^(?!.*(distribution|elementwise|copy|fill)).*' -c 6 python3 /tmp/lk_torch.py > $OUT/ncu_longk_cublas.txt 2>&1
echo "ncu cublas rc=$?"
echo '[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 16, "reduction": 64, "reorder_workgroups": 8, "split_k": 8, "subgroup_m_count": 1, "subgroup_n_count": 1, "workgroup": "64x32", "split_reduce": true}]' > /tmp/lk1.json
timeout 120 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:ktune_gemm -s 1 -c 1 --page source --csv --print-source sass python3 bench/generated/pair_probe.py /tmp/$NAME.json --shape $NAME --select file:/tmp/lk1.json --once > $OUT/ncu_src_longk.csv 2> $OUT/ncu_src_longk.err
echo "ncu src rc=$?"
for f in $OUT/ncu_longk_ours.txt $OUT/ncu_longk_cublas.txt; do grep -E "^  [a-zA-Z_].*\(|gpu__time|sm__inst|dram__|lts__|xbar|per_second|launch__|cycles_active|stalled" $f | awk '{ if ($0 ~ /stalled/ && $NF+0 < 0.3) next; print }' | sed -e 's/smsp__average_warps_issue_stalled_//' -e 's/_per_issue_active.ratio//' | cut -c1-130; echo ===; done
