#!/bin/bash
# Session 23: SASS-level stall samples (ncu source page) of one generated kernel of shortk_2048x2048x96.
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune17 --json tune gemm --m 2048 --n 2048 --k 96 --layout nn --dtype f16 --dry-run > /tmp/sk.json 2>/dev/null
echo '[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 3, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "256x128"}]' > /tmp/sk_grid.json
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy -k regex:ktune_gemm -s 1 -c 1 --page source --csv --print-source sass python3 bench/generated/pair_probe.py /tmp/sk.json --shape shortk_2048x2048x96 --select file:/tmp/sk_grid.json --once > $OUT/ncu_src_shortk.csv 2> $OUT/ncu_src_shortk.err
echo "ncu src rc=$? $(wc -l < $OUT/ncu_src_shortk.csv) lines"; tail -3 $OUT/ncu_src_shortk.err
