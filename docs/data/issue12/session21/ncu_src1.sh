#!/bin/bash
# Session 21: where ktune's kernel stalls, per SASS instruction (Nsight Compute source page),
# on odd_1000x1000x1000 bf16 nn with the best measured tiling (128x64, pairs along N)
#
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune17 --json tune gemm --m 1000 --n 1000 --k 1000 --layout nn --dtype bf16 --dry-run > /tmp/o1.json 2>/dev/null
cat > /tmp/o1_grid.json <<'J'
[{"family": "generated", "min_blocks_per_sm": 1, "path": "wgmma", "persistent": true, "pipeline_stages": 5, "reduction": 64, "reorder_workgroups": 8, "split_k": 1, "subgroup_m_count": 2, "subgroup_n_count": 1, "workgroup": "128x64", "cluster_n": 2}]
J
timeout 200 ncu --clock-control none --section SourceCounters --section WarpStateStats --section SpeedOfLight -k regex:ktune_gemm -s 1 -c 1 -o /tmp/o1rep python3 bench/generated/pair_probe.py /tmp/o1.json --shape odd_1000x1000x1000 --select file:/tmp/o1_grid.json --once > $OUT/ncu_src1.log 2>&1
echo "ncu src rc=$?"; tail -3 $OUT/ncu_src1.log
ncu -i /tmp/o1rep.ncu-rep --page source --print-source sass --csv > $OUT/o1_sass.csv 2> $OUT/o1_sass.err
echo "source page rc=$? $(wc -l < $OUT/o1_sass.csv) lines"; head -c 600 $OUT/o1_sass.csv; head -3 $OUT/o1_sass.err
ncu -i /tmp/o1rep.ncu-rep --page details --print-details all > $OUT/o1_details.txt 2>&1
xz -T4 $OUT/o1_sass.csv
