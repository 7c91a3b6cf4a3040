#!/bin/bash
# Session 31: rand5_02_shortk_1402x3759x80 bf16 nt (Triton 11.7 us against our 16.4, do_bench):
# our kernels and cuBLAS's under Nsight Compute (ncu_cmp.sh), Triton's configurations timed one
# by one and its autotuned pick under Nsight Compute, and our alternatives timed (pair_probe).
OUT=$1; C=.carry/s31
SH=rand5_02_shortk_1402x3759x80; M_=1402; N_=3759; K_=80; L=nt; DT=bf16
bash $C/ncu_cmp.sh $OUT $SH $M_ $N_ $K_ $L $DT "$(cat $C/probe/sk80_ncu.json)"
export PYTHONPATH=python:bench
cat > /tmp/tr.py <<P
import torch
import gemm_suite40 as g
a, b = g.operands($M_, $N_, $K_, 1, "$L", "$DT", seed=7)
c = torch.empty(1, $M_, $N_, device="cuda", dtype=g.OUT_DTYPE["$DT"])
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
print("triton best", g._mm.best_config, flush=True)
torch.cuda.nvtx.range_push("prof")
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
P
python3 - > $OUT/triton_times.txt 2>&1 <<P
import torch
from triton.testing import do_bench
import gemm_suite40 as g
a, b = g.operands($M_, $N_, $K_, 1, "$L", "$DT", seed=7)
c = torch.empty(1, $M_, $N_, device="cuda", dtype=g.OUT_DTYPE["$DT"])
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
print("triton best", g._mm.best_config)
for cfg in g._configs():
    g._mm.configs = [cfg]; g._mm.cache.clear()
    try:
        g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
        print(cfg, "%.2f us" % (1000 * do_bench(lambda: g.triton_mm(a, b, c, "tf32"), return_mode="median")))
    except Exception as e: print(cfg, "failed", str(e)[:100])
P
cat $OUT/triton_times.txt
R="barrier long_scoreboard membar no_instruction wait math_pipe_throttle lg_throttle short_scoreboard mio_throttle"
M=""; for r in $R; do M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
timeout 150 ncu --clock-control none --nvtx --nvtx-include "prof/" --metrics gpu__time_duration.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem$M python3 /tmp/tr.py > $OUT/ncu_triton.txt 2>&1
echo "ncu triton rc=$?"; grep -E "triton best|_mm|gpu__time|sm__inst|dram__|lts__|launch__|warps_active|stalled" $OUT/ncu_triton.txt | sed -e 's/smsp__average_warps_issue_stalled_//' -e 's/_per_issue_active.ratio//' | cut -c1-140
bash $C/probe.sh $OUT $SH:$C/probe/sk80.json:$C/probe/sk80_report.json:1
