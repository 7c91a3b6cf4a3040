#!/bin/bash
# Session 32 run 1: cuBLASLt's heuristic list 64 answers deep (A), and 8 answers plus enumerated
# algorithms with the cluster variants of the answers (B), on the 44 suite shapes; A also on 20
# unseen random shapes (bench/cublaslt_landscape.py).
OUT=$1; C=.carry/s32
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $C/ktune.xz /tmp/ktune32; chmod +x /tmp/ktune32
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $OUT/gpu.csv
cat $OUT/gpu.csv
export PYTHONUNBUFFERED=1
L="python3 bench/cublaslt_landscape.py --ktune /tmp/ktune32"
timeout 270 $L --heuristics 64 --out $OUT/r1_suite_h64.json 2>&1 | cut -c1-90
timeout 100 $L --heuristics 64 --random 20 --seed 40 --out $OUT/r1_rand40_h64.json 2>&1 | cut -c1-90
timeout 200 $L --heuristics 8 --max-candidates 72 --tail-seconds 3 --ktune-arg=--cublaslt-cluster-variants --out $OUT/r1_suite_h8_variants.json 2>&1 | cut -c1-90
ls -la $OUT
