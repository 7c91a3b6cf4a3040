#!/usr/bin/env python3
"""The few Nsight Compute metrics session 37 compared, one row per profiled GEMM launch, out of
call 2's `ncu --page raw --csv` export (raw.csv, 1.6 MB, not kept):
  ncu_summary.py raw.csv > r2_ncu_summary.csv"""
import csv
import sys

METRICS = [
    ("us", "gpu__time_duration.sum"),
    ("sm_cycles_active", "sm__cycles_active.avg"),
    ("warp_instructions", "smsp__inst_executed.sum"),
    ("gmma_instructions", "smsp__sass_inst_executed_op_shared_gmma.sum"),
    ("tensor_active_pct", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
    ("registers", "launch__registers_per_thread"),
    ("dynamic_smem_kb", "launch__shared_mem_per_block_dynamic"),
    ("cluster", "launch__cluster_size"),
    ("stall_no_instructions", "smsp__pcsamp_warps_issue_stalled_no_instructions"),
    ("stall_barrier", "smsp__pcsamp_warps_issue_stalled_barrier"),
    ("stall_long_scoreboard", "smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
    ("stall_wait", "smsp__pcsamp_warps_issue_stalled_wait"),
    ("stall_dispatch", "smsp__pcsamp_warps_issue_stalled_dispatch_stall"),
    ("stall_warpgroup_arrive", "smsp__pcsamp_warps_issue_stalled_warpgroup_arrive"),
    ("stall_selected", "smsp__pcsamp_warps_issue_stalled_selected"),
]

rows = list(csv.reader(open(sys.argv[1])))
hdr, data = rows[0], rows[2:]
idx = {h: i for i, h in enumerate(hdr)}
out = csv.writer(sys.stdout)
out.writerow(["shape", "run", "kernel", "grid", "block"] + [m[0] for m in METRICS])
for r in data:
    # Exported with --print-nvtx-rename kernel: "<shape> | <run>/<kernel>" inside ncu_compare.py's ranges.
    name = r[idx["Kernel Name"]]
    if " | " not in name:
        continue  # operand set-up kernels (randn, copies)
    shape, rest = name.split(" | ", 1)
    run, kernel = rest.split("/", 1) if "/" in rest else (rest, "")
    out.writerow([shape.strip(), run.strip(), kernel[:60], r[idx["Grid Size"]], r[idx["Block Size"]]] +
                 [r[idx[m]].replace(",", "") if m in idx else "" for _, m in METRICS])
