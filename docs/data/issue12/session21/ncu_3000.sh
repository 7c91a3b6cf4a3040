#!/bin/bash
# Session 21: Nsight Compute on odd_3000x3000x3000 f16 nt: ktune's 192x192 kernel in CTA pairs
# against cuBLAS's (torch.matmul), same operands; a few sections, text.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune17 --json tune gemm --m 3000 --n 3000 --k 3000 --layout nt --dtype f16 --dry-run > /tmp/o3.json 2>/dev/null
cat > /tmp/o3_grid.json <<'J'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 4, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 3, "subgroup_n_count": 1, "workgroup": "192x192", "cluster_m": 2}]
J
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats"
timeout 120 ncu $SECT -k regex:ktune_gemm -c 1 python3 bench/generated/pair_probe.py /tmp/o3.json --shape odd_3000x3000x3000 --select file:/tmp/o3_grid.json --once > $OUT/ncu_ours.txt 2>&1
echo "ncu ours rc=$?"
cat > /tmp/o3_torch.py <<'P'
import torch
from gemm_suite40 import operands
a, b = operands(3000, 3000, 3000, 1, "nt", "f16", seed=7)
for _ in range(2): torch.matmul(a[0], b[0])
torch.cuda.synchronize()
P
timeout 120 ncu $SECT -k regex:"sm90|gemm|Kernel" -c 1 --launch-skip 1 python3 /tmp/o3_torch.py > $OUT/ncu_cublas.txt 2>&1
echo "ncu cublas rc=$?"
grep -E "Duration|Throughput|Registers|Shared Memory Config|Block Size|Grid Size|Cluster|Stall|Issued|Executed Ipc|Warp Cycles|One or More|No Eligible|L2 Hit|Mem Busy|Max Bandwidth|  ktune|void|Kernel" $OUT/ncu_ours.txt | head -60
echo ====
grep -E "Duration|Throughput|Registers|Shared Memory Config|Block Size|Grid Size|Cluster|Stall|Issued|Executed Ipc|Warp Cycles|One or More|No Eligible|L2 Hit|Mem Busy|Max Bandwidth|  ktune|void|Kernel" $OUT/ncu_cublas.txt | head -60
