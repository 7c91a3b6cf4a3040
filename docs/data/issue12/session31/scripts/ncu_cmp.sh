#!/bin/bash
# Session 31: Nsight Compute, boost clocks, stall reasons: chosen ktune kernels of one suite
# shape against cuBLAS's (torch.matmul) on the same operands.
#   ncu_cmp.sh OUT NAME M N K LAYOUT DTYPE GRID_JSON
OUT=$1; NAME=$2; M_=$3; N_=$4; K_=$5; L=$6; DT=$7; GRID=$8
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune31 --json tune gemm --m $M_ --n $N_ --k $K_ --layout $L --dtype $DT --dry-run > /tmp/$NAME.json 2>/dev/null
echo "$GRID" > /tmp/${NAME}_grid.json
COUNT=$(python3 -c "import json; print(len(json.load(open('/tmp/${NAME}_grid.json'))))")
R="barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard math_pipe_throttle membar mio_throttle misc no_instruction not_selected selected short_scoreboard sleeping tex_throttle wait"
M=""; for r in $R; do M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
M="gpu__time_duration.sum,sm__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__block_size$M"
timeout 150 ncu --clock-control none --metrics ${M} -k regex:ktune_gemm -c $((2 * COUNT)) python3 bench/generated/pair_probe.py /tmp/$NAME.json --shape $NAME --select file:/tmp/${NAME}_grid.json --once > $OUT/ncu_${NAME}_ours.txt 2>&1
echo "ncu $NAME ours rc=$?"
cat > /tmp/${NAME}_torch.py <<P
import torch
from gemm_suite40 import operands
torch.backends.cuda.matmul.allow_tf32 = True
a, b = operands($M_, $N_, $K_, 1, "$L", "$DT", seed=7)
for _ in range(2): torch.matmul(a[0], b[0])
torch.cuda.synchronize()
P
timeout 150 ncu --clock-control none --metrics ${M} -k regex:'^(?!.*(distribution|elementwise|copy|fill)).*' --launch-skip 1 -c 1 python3 /tmp/${NAME}_torch.py > $OUT/ncu_${NAME}_cublas.txt 2>&1
echo "ncu $NAME cublas rc=$?"
for f in $OUT/ncu_${NAME}_ours.txt $OUT/ncu_${NAME}_cublas.txt; do grep -E "^  [a-zA-Z_].*\(|gpu__time|sm__inst|shared_ld|bank_conf|gmma|dram__|lts__|per_second|launch__|stalled" $f | awk '{ if ($0 ~ /stalled/ && $NF+0 < 0.3) next; print }' | sed -e 's/smsp__average_warps_issue_stalled_//' -e 's/_per_issue_active.ratio//' | cut -c1-140; echo ===; done
