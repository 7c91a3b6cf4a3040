#!/bin/bash
# Is the first tune of a shape's NVRTC slower because the CUDA driver JIT-compiles something then
# (cached in its ComputeCache for the second)? The cache's size around two runs of one new shape,
# then a third run with the driver's cache off.
OUT=$1
cc=${CUDA_CACHE_PATH:-$HOME/.nv/ComputeCache}
echo "HOME=$HOME cache=$cc CUDA_CACHE_DISABLE=${CUDA_CACHE_DISABLE:-} CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-}"
for i in 1 2 3; do
  d=$(mktemp -d)
  before=$(du -sk $cc 2>/dev/null | cut -f1)
  env $([ $i = 3 ] && echo CUDA_CACHE_DISABLE=1) KTUNE_CACHE_DIR=$d/cache /tmp/ktune36 --db $d/k.db --json tune gemm \
    --m 3000 --n 5000 --k 7000 --dtype f16 --layout nn --families generated,cublaslt --progress none > $OUT/jit_$i.json 2>/dev/null
  after=$(du -sk $cc 2>/dev/null | cut -f1)
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('run', sys.argv[2], 'cache KB', sys.argv[3], '->', sys.argv[4], 'wall', round(j['wall_seconds'],2), 'nvrtc', round(j['generated_compile']['nvrtc_seconds'],1), 'waited', round(j['generated_compile']['waited_seconds'],2))" $OUT/jit_$i.json $i "$before" "$after"
done
