#!/bin/bash
# Session 22: shortk_2048x2048x96 f16 nn under Nsight Compute: our two best kernels and cuBLAS's
# (ncu_cmp.sh), then Triton's autotuned pick (profiled inside an NVTX range after autotuning).
OUT=$1
bash .carry/s22/ncu_cmp.sh $OUT shortk_2048x2048x96 2048 2048 96 nn f16 '[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 3, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "256x128"}, {"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 3, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "128x128"}]'
export PYTHONPATH=python:bench
cat > /tmp/tr_shortk.py <<'P'
import torch
from triton.testing import do_bench
import gemm_suite40 as g
a, b = g.operands(2048, 2048, 96, 1, "nn", "f16", seed=7)
c = torch.empty(1, 2048, 2048, device="cuda", dtype=torch.float16)
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
print("triton best", g._mm.best_config, flush=True)
torch.cuda.nvtx.range_push("prof")
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
P
python3 - <<'P' > $OUT/triton_shortk_times.txt 2>&1
import torch
from triton.testing import do_bench
import gemm_suite40 as g, triton
a, b = g.operands(2048, 2048, 96, 1, "nn", "f16", seed=7)
c = torch.empty(1, 2048, 2048, device="cuda", dtype=torch.float16)
g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
print("triton best", g._mm.best_config)
for cfg in g._configs():
    g._mm.configs = [cfg]; g._mm.cache.clear()
    try:
        g.triton_mm(a, b, c, "tf32"); torch.cuda.synchronize()
        print(cfg, "%.2f us" % (1000 * do_bench(lambda: g.triton_mm(a, b, c, "tf32"), return_mode="median")))
    except Exception as e: print(cfg, "failed", str(e)[:100])
P
cat $OUT/triton_shortk_times.txt
R="barrier long_scoreboard membar no_instruction wait math_pipe_throttle lg_throttle short_scoreboard mio_throttle"
M=""; for r in $R; do M="$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"; done
timeout 150 ncu --clock-control none --nvtx --nvtx-include "prof/" --metrics gpu__time_duration.sum,sm__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active$M python3 /tmp/tr_shortk.py > $OUT/ncu_shortk_triton.txt 2>&1
echo "ncu triton rc=$?"; grep -E "triton best|_mm|gpu__time|sm__inst|dram__|lts__|launch__|warps_active|stalled" $OUT/ncu_shortk_triton.txt | sed -e 's/smsp__average_warps_issue_stalled_//' -e 's/_per_issue_active.ratio//' | cut -c1-140
