#!/bin/bash
# ncu of ktune's best 3000^3 kernel (192x192, pairs, persistent, 3 stages) and of cuBLAS's (nvjet 192x192 64x4).
OUT=$1
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
/tmp/ktune16 --json tune gemm --m 3000 --n 3000 --k 3000 --layout nt --dtype f16 --dry-run > /tmp/o3.json
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats --section ComputeWorkloadAnalysis"
timeout 120 ncu --target-processes all -k regex:ktune_gemm -c 1 $SECT -o /tmp/ours python3 bench/generated/pair_probe.py /tmp/o3.json \
  --shape odd_3000x3000x3000 --select file:.carry/s16/best_3000.json --once > $OUT/ncu3000_ours.log 2>&1; echo "ncu ours rc=$?"
timeout 120 ncu --target-processes all -k regex:nvjet -c 1 $SECT -o /tmp/cublas python3 bench/generated/torch_gemm_once.py odd_3000x3000x3000 > $OUT/ncu3000_cublas.log 2>&1; echo "ncu cublas rc=$?"
for r in ours cublas; do ncu -i /tmp/$r.ncu-rep --page details --csv > $OUT/ncu3000_${r}_details.csv 2>/dev/null; ncu -i /tmp/$r.ncu-rep --page raw --csv > $OUT/ncu3000_${r}_raw.csv 2>/dev/null; done
