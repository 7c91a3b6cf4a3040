#!/bin/bash
# Session 15 run 7: short K (4096x16384x256 bf16 nt): ncu of ktune's best kernel and of cuBLAS's; a small grid.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/k
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so
/tmp/k --json tune gemm --m 4096 --n 16384 --k 256 --layout nt --dtype bf16 --dry-run > /tmp/sk.json
timeout 100 python3 bench/generated/pair_probe.py /tmp/sk.json --shape shortk_4096x16384x256 --select file:.carry/s15/grid_sk.json --out $OUT/grid_sk.json 2>$OUT/grid.err | cut -c1-300
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats"
timeout 100 ncu --target-processes all -k regex:ktune_gemm -c 1 $SECT -o /tmp/ours python3 bench/generated/pair_probe.py /tmp/sk.json \
  --shape shortk_4096x16384x256 --select file:.carry/s15/best_shortk.json --once > $OUT/ncu_ours.log 2>&1; echo "ncu ours rc=$?"
timeout 100 ncu --target-processes all -k regex:nvjet -c 1 $SECT -o /tmp/cublas python3 bench/generated/torch_gemm_once.py shortk_4096x16384x256 > $OUT/ncu_cublas.log 2>&1; echo "ncu cublas rc=$?"
for r in ours cublas; do ncu -i /tmp/$r.ncu-rep --page raw --csv > $OUT/ncu_${r}_raw.csv 2>/dev/null; ncu -i /tmp/$r.ncu-rep --page details --csv > $OUT/ncu_${r}_details.csv 2>/dev/null; done
cd $OUT && tar czf probe4.tgz --exclude='*.tgz' * && find . -type f ! -name '*.tgz' -delete; ls
