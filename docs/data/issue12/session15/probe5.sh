#!/bin/bash
# Session 15 run 8: every generated GPU test and the executor's; short-K instructions and timings after stmatrix/scale-d.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/k; x .carry/s15/generated_gpu_test.xz /tmp/ggt; x .carry/s15/gemm_executor_gpu_test.xz /tmp/egt
nvidia-smi --query-gpu=name --format=csv > $OUT/gpu.csv
KTUNE_SOURCE_DIR=$PWD timeout 330 /tmp/ggt > $OUT/ggt.log 2>&1; echo "ggt rc=$?"
grep -E "^\[  (FAILED|PASSED)|OK \]|Failure" $OUT/ggt.log | head -30
KTUNE_SOURCE_DIR=$PWD timeout 100 /tmp/egt > $OUT/egt.log 2>&1; echo "egt rc=$?"; grep -E "^\[  (FAILED|PASSED)|Failure" $OUT/egt.log | head
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so
/tmp/k --json tune gemm --m 4096 --n 16384 --k 256 --layout nt --dtype bf16 --dry-run > /tmp/sk.json
timeout 60 python3 bench/generated/pair_probe.py /tmp/sk.json --shape shortk_4096x16384x256 --select file:.carry/s15/grid_sk.json --out $OUT/grid_sk.json 2>$OUT/grid.err | cut -c 150-400
timeout 60 python3 bench/generated/torch_gemm_once.py shortk_4096x16384x256 --calls 1
timeout 100 ncu --target-processes all -k regex:ktune_gemm -c 1 --section SpeedOfLight --section InstructionStats -o /tmp/ours python3 bench/generated/pair_probe.py /tmp/sk.json \
  --shape shortk_4096x16384x256 --select file:.carry/s15/best_shortk.json --once > $OUT/ncu_ours.log 2>&1; echo "ncu ours rc=$?"
ncu -i /tmp/ours.ncu-rep --page details --csv 2>/dev/null | grep -E "Duration|Executed Instructions\"|Elapsed Cycles"
cd $OUT && tar czf probe5.tgz --exclude='*.tgz' * && find . -type f ! -name '*.tgz' -delete; ls
