#!/bin/bash
# The same tune gemm twice in a row, nothing else running (no Python, no Triton): does the first
# run's NVRTC take 4x the second's by itself (call 1: 20-46 s against 8-15 s, same binary)?
OUT=$1
for i in 1 2; do
  d=$(mktemp -d)
  KTUNE_CACHE_DIR=$d/cache /tmp/ktune36 --db $d/k.db --json tune gemm --m 2048 --n 4096 --k 11008 --dtype bf16 --layout nt \
    --families generated,cublaslt --progress none > $OUT/nvrtc_twice_$i.json 2>/dev/null
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('run', sys.argv[2], 'wall', round(j['wall_seconds'],2), j['generated_compile'])" $OUT/nvrtc_twice_$i.json $i
done
