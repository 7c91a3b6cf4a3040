#!/bin/bash
# Session 21: where ktune's kernel stalls, per SASS instruction (Nsight Compute source page),
# on tf32 4096^3 nn, swapped 128x256 (A from registers)
#
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune17 --json tune gemm --m 4096 --n 4096 --k 4096 --layout nn --dtype tf32 --dry-run > /tmp/t4.json 2>/dev/null
cat > /tmp/t4_grid.json <<'J'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 4, "reduction": 32, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "128x256", "swap_ab": true}]
J
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight -k regex:ktune_gemm -s 1 -c 1 -o /tmp/t4rep python3 bench/generated/pair_probe.py /tmp/t4.json --shape tf32_4096x4096x4096 --select file:/tmp/t4_grid.json --once > $OUT/ncu_srct.log 2>&1
echo "ncu src rc=$?"; tail -3 $OUT/ncu_srct.log
ncu -i /tmp/t4rep.ncu-rep --page source --print-source sass --csv > $OUT/t4_sass.csv 2> $OUT/t4_sass.err
echo "source page rc=$? $(wc -l < $OUT/t4_sass.csv) lines"; head -c 600 $OUT/t4_sass.csv; head -3 $OUT/t4_sass.err
ncu -i /tmp/t4rep.ncu-rep --page details --print-details all > $OUT/t4_details.txt 2>&1
xz -T4 $OUT/t4_sass.csv
