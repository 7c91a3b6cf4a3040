#!/bin/bash
# Session 21: where ktune's kernel stalls, per SASS instruction (Nsight Compute source page),
# on odd_3000x3000x3000 f16 nt with the tiling cuBLAS runs there (192x192, two warpgroups side by
# side, 4 stages, pairs along M).
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune17 --json tune gemm --m 3000 --n 3000 --k 3000 --layout nt --dtype f16 --dry-run > /tmp/o3.json 2>/dev/null
cat > /tmp/o3_grid.json <<'J'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 4, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 1, "subgroup_n_count": 2, "workgroup": "192x192", "cluster_m": 2}]
J
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight -k regex:ktune_gemm -s 1 -c 1 -o /tmp/o3rep python3 bench/generated/pair_probe.py /tmp/o3.json --shape odd_3000x3000x3000 --select file:/tmp/o3_grid.json --once > $OUT/ncu_src.log 2>&1
echo "ncu src rc=$?"; tail -3 $OUT/ncu_src.log
ncu -i /tmp/o3rep.ncu-rep --page source --print-source sass --csv > $OUT/o3_sass.csv 2> $OUT/o3_sass.err
echo "source page rc=$? $(wc -l < $OUT/o3_sass.csv) lines"; head -c 600 $OUT/o3_sass.csv; head -3 $OUT/o3_sass.err
ncu -i /tmp/o3rep.ncu-rep --page details --print-details all > $OUT/o3_details.txt 2>&1
xz -T4 $OUT/o3_sass.csv
